// The sandbox's world: a key owner, their event types and the bookings made through them, all derived
// from the seed. Times are set around a fixed epoch rather than today, so a seed gives byte-identical
// data on every run (snapshot tests of scripts stay green); the lifecycle clock starts at the epoch.
import { seededRng, type Rng } from './random';

import { BOOKING_STATUSES } from '../base/booking-statuses';

export { BOOKING_STATUSES };
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Monday 2026-01-05 00:00 UTC: "now" in the sandbox when it starts. */
export const DEFAULT_EPOCH = new Date(Date.UTC(2026, 0, 5));

export interface EventType {
  id: number;
  slug: string;
  title: string;
  length_minutes: number;
  description: string;
}

export interface Owner {
  id: number;
  username: string;
  name: string;
  email: string;
  time_zone: string;
}

export interface Booking {
  /** Some ids are above 2^53: kept as bigint and written with their exact digits. */
  id: bigint;
  uid: string;
  title: string;
  status: BookingStatus;
  start: string;
  end: string;
  attendee: { name: string; email: string };
  event_type: { id: number; slug: string };
  no_show: boolean;
  created_at: string;
  updated_at: string;
}

export interface World {
  owner: Owner;
  eventTypes: EventType[];
  bookings: Booking[];
}

const FIRST = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Frances',
  'Edsger',
  'Radia',
  'Tim',
  'Hedy',
  'Donald',
  'Katherine',
  'John',
  'Shafi',
  'Niklaus',
  'Lynn',
  'Guido',
];
const LAST = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Allen',
  'Dijkstra',
  'Perlman',
  'Berners-Lee',
  'Lamarr',
  'Knuth',
  'Johnson',
  'McCarthy',
  'Goldwasser',
  'Wirth',
  'Conway',
  'van Rossum',
];
const DOMAINS = ['example.com', 'example.org', 'example.net'];
const ZONES = ['Europe/Berlin', 'Europe/London', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'];

const EVENT_TYPES: EventType[] = [
  { id: 1, slug: '15min', title: '15 min chat', length_minutes: 15, description: 'A quick call.' },
  { id: 2, slug: '30min', title: '30 min meeting', length_minutes: 30, description: 'A regular meeting.' },
  { id: 3, slug: 'consultation', title: 'Consultation', length_minutes: 60, description: 'An hour to go into detail.' },
  { id: 4, slug: 'intro-call', title: 'Intro call', length_minutes: 20, description: 'Getting to know each other.' },
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** 2^53 + 1: the first integer a double cannot hold. Ids from here on are odd, so none is representable. */
const BIG_ID_BASE = 9_007_199_254_740_993n;

function bookingId(seq: number): bigint {
  // Every fifth booking comes from a "legacy import" with a 64-bit id; the rest count up plainly.
  return seq % 5 === 2 ? BIG_ID_BASE + 2_000n * BigInt(seq) : BigInt(4_000 + seq);
}

export function attendee(rng: Rng): { name: string; email: string } {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const local = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '');
  return { name: `${first} ${last}`, email: `${local}@${rng.pick(DOMAINS)}` };
}

export function newUid(rng: Rng, taken: { has(uid: string): boolean }): string {
  for (;;) {
    const uid = `bk_${rng.chars(14, UID_ALPHABET)}`;
    if (!taken.has(uid)) return uid;
  }
}

/** A start on a weekday between 08:00 and 16:30 UTC, at or after `from`. */
export function businessSlot(rng: Rng, from: number): number {
  const t = new Date(from);
  t.setUTCHours(8 + rng.int(0, 17) / 2, 0, 0, 0);
  while (t.getTime() < from || t.getUTCDay() === 0 || t.getUTCDay() === 6) t.setTime(t.getTime() + DAY);
  return t.getTime();
}

export function makeBooking(fields: {
  seq: number;
  uid: string;
  eventType: EventType;
  who: { name: string; email: string };
  status: BookingStatus;
  start: number;
  createdAt: number;
  noShow?: boolean;
}): Booking {
  const created = new Date(fields.createdAt).toISOString();
  return {
    id: bookingId(fields.seq),
    uid: fields.uid,
    title: `${fields.eventType.title} with ${fields.who.name}`,
    status: fields.status,
    start: new Date(fields.start).toISOString(),
    end: new Date(fields.start + fields.eventType.length_minutes * 60_000).toISOString(),
    attendee: fields.who,
    event_type: { id: fields.eventType.id, slug: fields.eventType.slug },
    no_show: fields.noShow ?? false,
    created_at: created,
    updated_at: created,
  };
}

function pickStatus(rng: Rng, seq: number, firstFour: BookingStatus[]): BookingStatus {
  // The first four cover every status, so even `--bookings 4` shows each of them.
  if (seq <= 4) return firstFour[seq - 1]!;
  const r = rng.next();
  return r < 0.35 ? 'completed' : r < 0.65 ? 'confirmed' : r < 0.85 ? 'pending' : 'cancelled';
}

export function generateWorld(seed: string, count: number, epoch: Date = DEFAULT_EPOCH): World {
  const rng = seededRng(seed, 'world');
  const now = epoch.getTime();
  const ownerName = attendee(rng);
  const owner: Owner = {
    id: rng.int(100, 999),
    username: ownerName.name.toLowerCase().replace(/[^a-z]+/g, '-'),
    name: ownerName.name,
    email: ownerName.email.replace(/@.*/, '@sandbox.example'),
    time_zone: rng.pick(ZONES),
  };
  const firstFour = [...BOOKING_STATUSES];
  for (let i = firstFour.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [firstFour[i], firstFour[j]] = [firstFour[j]!, firstFour[i]!];
  }
  const bookings: Booking[] = [];
  const taken = new Set<string>();
  for (let seq = 1; seq <= count; seq++) {
    // Made in creation order between 60 and 4 days before the epoch, so a past meeting always has a
    // weekday slot between being made and the epoch (the default epoch is a Monday).
    const createdAt = now - 60 * DAY + Math.floor(((seq - 1) * 56 * DAY) / Math.max(count, 1)) + rng.int(0, HOUR);
    const status = pickStatus(rng, seq, firstFour);
    const past = status === 'completed' || (status === 'confirmed' && rng.chance(0.2)) || (status === 'cancelled' && rng.chance(0.5));
    const eventType = rng.pick(EVENT_TYPES);
    let start = businessSlot(rng, past ? createdAt + rng.int(1, 20) * HOUR : now + rng.int(1, 30 * 24) * HOUR);
    // A past meeting must have ended before the epoch; pull it back a week at a time.
    while (past && start + eventType.length_minutes * 60_000 > now) start -= 7 * DAY;
    const uid = newUid(rng, taken);
    taken.add(uid);
    const noShow = status === 'completed' && rng.chance(0.1);
    bookings.push(makeBooking({ seq, uid, eventType, who: attendee(rng), status, start, createdAt, noShow }));
  }
  return { owner, eventTypes: EVENT_TYPES.map((e) => ({ ...e })), bookings };
}
