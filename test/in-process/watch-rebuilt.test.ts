// The deliveries watch rebuilds from a booking before and after (src/commands/bookings/watch/rebuilt.ts):
// which events, in which order, with ids that depend on the uid, the change and what it changed from.
import { describe, expect, it } from 'vitest';
import { rebuiltEvents } from '../../src/commands/bookings/watch/rebuilt';
import { Snapshot, type Entry } from '../../src/commands/bookings/watch/snapshot';

/** The entry a snapshot (watching `fields`, or all) keeps for an item. */
function entry(item: Record<string, unknown>, fields?: string[]): Entry {
  const snap = new Snapshot(fields);
  snap.begin();
  return snap.see(item)!.after!;
}

const bk = (status: string, start = '2026-02-01T10:00:00Z', more: Record<string, unknown> = {}) => ({
  uid: 'bk_1',
  status,
  start,
  end: start.replace('10:00', '10:30'),
  no_show: false,
  ...more,
});

const events = (before: Record<string, unknown> | undefined, after: Record<string, unknown>, fields?: string[]) =>
  rebuiltEvents('bk_1', before && entry(before, fields), entry(after, fields), after);

describe('rebuilt deliveries', () => {
  it('a new booking is booking.created, then the event of the status it already has', () => {
    expect(events(undefined, bk('pending')).map((e) => e.event)).toEqual(['booking.created']);
    expect(events(undefined, bk('cancelled')).map((e) => e.event)).toEqual(['booking.created', 'booking.cancelled']);
  });

  it('in the lifecycle order: confirmed before rescheduled, rescheduled before cancelled or completed, no-show last', () => {
    const moved = bk('confirmed', '2026-02-03T09:00:00Z');
    expect(events(bk('pending'), moved).map((e) => e.event)).toEqual(['booking.confirmed', 'booking.rescheduled']);
    const done = bk('completed', '2026-02-03T09:00:00Z', { no_show: true });
    expect(events(bk('confirmed'), done).map((e) => e.event)).toEqual(['booking.rescheduled', 'booking.completed', 'no_show.flagged']);
    const r = events(bk('confirmed'), moved)[0]!;
    expect(r.previous).toEqual({ start: '2026-02-01T10:00:00Z', end: '2026-02-01T10:30:00Z' });
  });

  it('ids depend on the uid, the change and what it changed from: found again, the same id; another change another', () => {
    const a = events(bk('pending'), bk('confirmed'))[0]!.id;
    expect(events(bk('pending'), bk('confirmed'))[0]!.id).toBe(a);
    expect(a).toMatch(/^evt_rebuilt_[0-9a-f]{24}$/);
    // Moved A to B, back to A, and to B again, each time with a new updated_at: three changes, three ids
    // (the third was the first's, and a receiver that drops ids it has seen dropped it).
    const [A, B] = ['2026-02-05T10:00:00Z', '2026-02-06T10:00:00Z'];
    const at = (t: string) => ({ updated_at: `2026-02-0${t}T00:00:00Z` });
    const moves = [
      events(bk('confirmed', A, at('1')), bk('confirmed', B, at('2'))),
      events(bk('confirmed', B, at('2')), bk('confirmed', A, at('3'))),
      events(bk('confirmed', A, at('3')), bk('confirmed', B, at('4'))),
    ];
    expect(new Set(moves.map((e) => e[0]!.id)).size).toBe(3);
    // Without an updated_at, what it changed from (the booking before, as watched) tells them apart.
    expect(events(bk('confirmed', A, { title: 'x' }), bk('confirmed', B))[0]!.id).not.toBe(
      events(bk('confirmed', A), bk('confirmed', B))[0]!.id,
    );
    const stamped = (t: string) => events(bk('confirmed', A), bk('confirmed', B, { updated_at: t }))[0]!.id;
    expect(stamped('2026-02-01T00:00:00Z')).not.toBe(stamped('2026-02-03T00:00:00Z'));
    const to = (start: string) => events(bk('confirmed'), bk('confirmed', start))[0]!.id;
    expect(to('2026-02-05T10:00:00Z')).not.toBe(to('2026-02-06T10:00:00Z'));
    expect(rebuiltEvents('bk_2', entry(bk('pending')), entry(bk('confirmed')), { ...bk('confirmed'), uid: 'bk_2' })[0]!.id).not.toBe(a);
  });

  it('a change to a field the service sends nothing for, or to one --fields does not watch, rebuilds nothing', () => {
    expect(events(bk('pending', undefined, { title: 'a' }), bk('pending', undefined, { title: 'b' }))).toEqual([]);
    expect(events(bk('pending'), bk('confirmed'), ['title'])).toEqual([]);
    expect(events(bk('pending'), bk('confirmed'), ['status']).map((e) => e.event)).toEqual(['booking.confirmed']);
  });
});
