// `listen --forward-to` must never forward in a circle. A target that is the listener itself (its own
// address and port, by any name) is refused at start. A loop through another hop (an app, a proxy or
// a second listen that sends the delivery back) is cut by a mark: every forward carries this run's
// random id in LOOP_HEADER, added to any marks the delivery already had; a delivery that arrives with
// this run's mark, or with MAX_HOPS marks, is answered 508 and neither saved nor forwarded.
import { lookup } from 'node:dns/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

export const LOOP_HEADER = 'X-Booking-Forwarded';
export const MAX_HOPS = 8;

/** The marks a delivery carries (every LOOP_HEADER line, comma-separated values). */
export function loopMarks(rawHeaders: string[]): string[] {
  const marks: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.toLowerCase() === 'x-booking-forwarded')
      for (const m of rawHeaders[i + 1]!.split(',')) if (m.trim()) marks.push(m.trim());
  return marks;
}

/** Whether `target` reaches `server` itself: the same port, at an address it listens on. */
export async function forwardsToSelf(target: URL, server: Server): Promise<boolean> {
  const bound = server.address() as AddressInfo | null;
  if (!bound || typeof bound !== 'object') return false;
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  if (port !== bound.port) return false;
  let addresses: string[];
  try {
    addresses = (await lookup(target.hostname.replace(/^\[|\]$/g, ''), { all: true })).map((a) => plain(a.address));
  } catch {
    return false; // a name that does not resolve reaches nothing, itself included
  }
  const wildcard = bound.address === '0.0.0.0' || bound.address === '::';
  const own = wildcard ? localAddresses() : new Set([plain(bound.address)]);
  // Bound to every address, it is reached at any of 127/8 too (127.0.0.2 is loopback as well).
  return addresses.some((a) => own.has(a) || (wildcard && /^127\./.test(a)));
}

function localAddresses(): Set<string> {
  const all = new Set(['127.0.0.1', '::1']);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) all.add(plain(a.address));
  return all;
}

/**
 * An address as the listener would be reached at it: "::ffff:127.0.0.1" and its hex form
 * "::ffff:7f00:1" (how a URL writes it) → "127.0.0.1"; and the unspecified addresses, which a
 * connection to reaches this host's loopback (0.0.0.0 → 127.0.0.1, :: → ::1).
 */
function plain(address: string): string {
  const lower = address.toLowerCase();
  if (lower === '0.0.0.0') return '127.0.0.1';
  if (lower === '::') return '::1';
  if (!lower.startsWith('::ffff:')) return address;
  const rest = lower.slice(7);
  if (rest.includes('.')) return plain(rest);
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
  if (!hex) return address;
  const [hi, lo] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)];
  return plain(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
}
