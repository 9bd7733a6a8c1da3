// The schemes by name, and which ones a delivery's headers show.
import { cal } from './cal';
import { calendly } from './calendly';
import type { SchemeName } from './names';
import type { Scheme } from './scheme';
import { service } from './service';
import { standard } from './standard';
import { stripe } from './stripe';
import { valuesOf } from './scheme';

// In the order a capture carrying two schemes' headers is checked: the seed's own first.
const SCHEMES: readonly Scheme[] = [service, cal, calendly, stripe, standard];

export function schemeNamed(name: SchemeName): Scheme {
  return SCHEMES.find((s) => s.name === name)!;
}

/** Every scheme whose signature header the delivery carries, in SCHEMES' order. */
export function schemesIn(rawHeaders: string[]): Scheme[] {
  const carries = (name: string) => valuesOf(rawHeaders, name).length > 0;
  return SCHEMES.filter((s) => carries(s.signatureHeader) || (s.signatureAliases ?? []).some(carries));
}

/** Whether any scheme's signature header is there: a HAR entry that is a delivery. */
export function carriesSignature(rawHeaders: string[]): boolean {
  return schemesIn(rawHeaders).length > 0;
}

export type { Scheme, SchemeName };
