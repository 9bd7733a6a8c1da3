// The sample and scenario bodies in each scheme's shape: the same delivery, with the event in the
// field the scheme's senders use (Cal.com's "triggerEvent" with its own names, Stripe's and Standard
// Webhooks' "type", Calendly's and the seed's "event"). Only that field changes: --set paths such as
// data.booking.status hold in every scheme. Parsed and written losslessly: a 20-digit id or 1.50 in the
// body (a booking watch rebuilt from the list, numbers as received) keeps its digits.
import { parseJson, stringifyJson } from '../../output/json';
import type { Scheme } from './scheme';
import { CAL_EVENTS } from '../events';
import { setOwn } from '../../base/plain-object';

/** The event's name as the scheme's sender writes it. */
export function schemeEvent(scheme: Scheme, event: string): string {
  return scheme.name === 'cal' ? (CAL_EVENTS[event] ?? event) : event;
}

/** A delivery body (JSON text with a top-level "event") in the scheme's shape; the key keeps its place. */
export function shapeBody(scheme: Scheme, json: string): string {
  if (scheme.eventField === 'event') return json;
  const value = parseJson(json) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'event' && typeof v === 'string') out[scheme.eventField] = schemeEvent(scheme, v);
    else setOwn(out, k, v);
  }
  return stringifyJson(out);
}
