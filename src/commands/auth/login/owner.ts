// Who a key belongs to, for the "Logged in … as …" line. The /me body's shape is not documented, so
// this looks for the usual name and email fields in the resource or one envelope down.
import { unwrapResource } from '../../shared/resource';
import { escapeControl } from '../../../output/escape';
import { isPlainObject } from '../../../base/plain-object';

const NAME_KEYS = ['name', 'full_name', 'fullName', 'display_name', 'displayName'];
const HANDLE_KEYS = ['username', 'login', 'handle'];
const EMAIL_KEYS = ['email', 'email_address', 'emailAddress'];
const NESTED_KEYS = ['user', 'owner', 'account', 'profile', 'data'];

type Obj = Record<string, unknown>;

/** "Ada Lovelace <ada@example.com>", "ada", … or undefined when the body names nobody. */
export function describeOwner(body: unknown): string | undefined {
  const resource = unwrapResource(body);
  if (!isPlainObject(resource)) return undefined;
  const candidates = [resource, ...NESTED_KEYS.map((k) => resource[k]).filter(isPlainObject)];
  for (const obj of candidates) {
    const name = firstText(obj, NAME_KEYS) ?? firstText(obj, HANDLE_KEYS);
    const email = firstText(obj, EMAIL_KEYS);
    // The name comes from the API: shown escaped, like any API text on the terminal.
    if (name && email) return escapeControl(`${name} <${email}>`);
    if (name ?? email) return escapeControl((name ?? email)!);
  }
  return undefined;
}

function firstText(obj: Obj, keys: string[]): string | undefined {
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return undefined;
}
