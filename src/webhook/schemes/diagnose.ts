// Why a delivery's signature does not match under a scheme, tried only after a mismatch, on the body
// in memory, with each secret: the body changed after signing (a line end, CRLF, a BOM, or parsed and
// written again), the signed string built wrongly (body alone vs "<t>.<body>" vs "<id>.<t>.<body>"),
// or the secret used in the wrong form (whsec_… text vs its decoded bytes). The first that makes a
// claimed signature match is the diagnosis; none is a different secret or a forged body.
import { bodyChangeText, type HintCode } from '../verdict';
import { digestsEqual } from '../signature';
import { hmac, type Claimed, type Scheme } from './scheme';

export interface Diagnosis {
  code: HintCode;
  text: string;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export function diagnose(scheme: Scheme, claimed: Claimed, keys: Buffer[], secrets: Buffer[], body: Buffer): Diagnosis | undefined {
  const matches = (key: Buffer, prefix: Uint8Array, bytes: Uint8Array) => {
    const d = hmac(key, prefix, bytes);
    return claimed.claims.some((c) => digestsEqual(c.digest, d));
  };
  const prefix = scheme.prefix(claimed);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    for (const [code, changed] of bodyChanges(body)) if (matches(key, prefix, changed)) return { code, text: bodyChangeText(code) };
    for (const [form, changed] of reserialised(body)) {
      if (matches(key, prefix, changed)) {
        return {
          code: 'reserialised',
          text: `the body matches once written again as ${form} JSON: it was parsed and re-serialised after signing (same JSON, other bytes: a proxy, a framework's body parser); verify the raw bytes as received`,
        };
      }
    }
    for (const alt of signedStrings(scheme, claimed)) {
      if (matches(key, alt.prefix, body))
        return {
          code: 'signed_string',
          text: `the signature is over ${alt.label}, not ${scheme.signedString}: the signed string was built wrongly`,
        };
    }
    for (const alt of secretForms(secrets[i]!, key)) {
      if (matches(alt.key, prefix, body)) {
        return {
          code: 'secret_form',
          text: `the signature matches with ${alt.form} as the key, but ${scheme.title} uses ${scheme.secretForm}: the secret was used in the wrong form`,
        };
      }
    }
  }
  return undefined;
}

/** The body as it may have been before a change made after signing. */
function bodyChanges(body: Buffer): [HintCode, Buffer][] {
  const out: [HintCode, Buffer][] = [];
  const n = body.length;
  if (n > 1 && body[n - 2] === CR && body[n - 1] === LF) out.push(['trailing_crlf', body.subarray(0, n - 2)]);
  else if (n > 0 && body[n - 1] === LF) out.push(['trailing_lf', body.subarray(0, n - 1)]);
  if (body.includes(CR)) out.push(['crlf', Buffer.from(body.toString('latin1').replace(/\r\n/g, '\n'), 'latin1')]);
  if (body.subarray(0, 3).equals(BOM)) out.push(['bom', body.subarray(3)]);
  return out;
}

/** The JSON body written compact and two-space indented, where that changes its bytes. */
function reserialised(body: Buffer): [string, Buffer][] {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return [];
  }
  const forms: [string, Buffer][] = [
    ['compact', Buffer.from(JSON.stringify(value))],
    ['two-space indented', Buffer.from(JSON.stringify(value, null, 2))],
  ];
  return forms.filter(([, b]) => !b.equals(body));
}

/** The other schemes' signed strings that the claimed headers allow, labelled as the docs write them. */
function signedStrings(scheme: Scheme, claimed: Claimed): { label: string; prefix: Buffer }[] {
  const out = [{ label: 'the body alone', signed: 'body', prefix: Buffer.alloc(0) }];
  if (claimed.timestamp !== undefined) out.push({ label: '"<t>.<body>"', signed: 't.body', prefix: Buffer.from(`${claimed.timestamp}.`) });
  if (claimed.timestamp !== undefined && claimed.id !== undefined) {
    out.push({ label: '"<id>.<t>.<body>"', signed: 'id.t.body', prefix: Buffer.from(`${claimed.id}.${claimed.timestamp}.`) });
    out.push({ label: '"<t>.<id>.<body>"', signed: 't.id.body', prefix: Buffer.from(`${claimed.timestamp}.${claimed.id}.`) });
  }
  return out.filter((s) => s.signed !== scheme.signedString);
}

/** The secret's other readings: its text as given, its base64 after whsec_, its text less whsec_. */
function secretForms(secret: Buffer, key: Buffer): { form: string; key: Buffer }[] {
  const text = secret.toString('latin1');
  const out = [{ form: "the secret's text as given", key: secret }];
  if (text.startsWith('whsec_')) {
    out.push({ form: 'the base64-decoded bytes after whsec_', key: Buffer.from(text.slice(6), 'base64') });
    out.push({ form: 'the text after whsec_', key: Buffer.from(text.slice(6), 'latin1') });
  } else if (/^[A-Za-z0-9+/]+={0,2}$/.test(text)) out.push({ form: 'its base64-decoded bytes', key: Buffer.from(text, 'base64') });
  return out.filter((f) => f.key.length > 0 && !f.key.equals(key));
}
