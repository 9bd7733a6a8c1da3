// What bookings watch keeps between polls (src/commands/bookings/watch/snapshot.ts): one entry per
// booking, bounded per booking and in total; its records outside V8's heap (kept-texts.ts) stay within
// a third more than what is alive, however the bookings change, and read back exactly; a booking too
// long to be made one string has the fingerprint its whole text would have.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { changesBetween, MAX_KEPT_BYTES, Snapshot } from '../../src/commands/bookings/watch/snapshot';
import { parseJson, stringifyJson } from '../../src/output/json';

/** One poll: the changes of the bookings that changed, taken in; and those that left. */
function poll(snap: Snapshot, items: unknown[]) {
  snap.begin();
  const changed: Record<string, Record<string, [unknown, unknown]>> = {};
  for (const item of items) {
    const s = snap.see(item);
    if (!s?.after) continue;
    if (s.before) changed[s.uid] = changesBetween(s.before, s.after);
    snap.commit({ ...s, after: s.after });
  }
  return { changed, gone: snap.sweep().map(([uid]) => uid) };
}

const booking = (i: number, round: number) => ({ uid: `bk_${i}`, status: 'confirmed', round, notes: 'n'.repeat(4000) });

describe('watch snapshot', () => {
  it('holds one entry per booking however many polls, and tells old and new values exactly', () => {
    const snap = new Snapshot(undefined);
    const long = 'x'.repeat(2_000);
    for (let n = 0; n < 50; n++)
      poll(
        snap,
        Array.from({ length: 20 }, (_, i) => ({ uid: `bk_${i}`, status: n % 2 ? 'pending' : 'confirmed', notes: long })),
      );
    expect(snap.size).toBe(20);
    const { changed } = poll(snap, [{ uid: 'bk_0', status: 'confirmed', notes: `${long}y` }]);
    expect(changed.bk_0).toEqual({ status: ['pending', 'confirmed'], notes: [long, `${long}y`] });
  });

  it('knows a booking by an id past 2^53 (a lossless number), never by its content: a change is a change', () => {
    const snap = new Snapshot(undefined);
    const item = (status: string) => parseJson(`{"id":12345678901234567890,"status":"${status}"}`);
    poll(snap, [item('pending')]);
    const { changed, gone } = poll(snap, [item('confirmed')]);
    expect(changed).toEqual({ '12345678901234567890': { status: ['pending', 'confirmed'] } });
    expect(gone).toEqual([]);
  });

  it("an earlier version's state entry for such a booking ('#' and its content's hash) is known by its id once loaded", () => {
    const snap = new Snapshot(undefined);
    const text = '{"id":12345678901234567890,"status":"pending"}';
    expect(snap.load('#elFwr+EaFrud', { fp: 'elFwr+EaFrudXYZ', text, whole: true, seen: 0 })).toBe('12345678901234567890');
    const { changed, gone } = poll(snap, [parseJson('{"id":12345678901234567890,"status":"confirmed"}')]);
    expect(changed).toEqual({ '12345678901234567890': { status: ['pending', 'confirmed'] } });
    expect(gone).toEqual([]);
  });

  it('a field named __proto__ that changed is a change like any other', () => {
    const snap = new Snapshot(undefined);
    const item = (v: number) => parseJson(`{"uid":"bk_p","__proto__":${v}}`);
    poll(snap, [item(1)]);
    expect(poll(snap, [item(2)]).changed.bk_p).toEqual(JSON.parse('{"__proto__":[1,2]}'));
  });

  it('keeps a booking over the per-booking bound by its summary and fingerprint, never one entry per leaf', () => {
    const snap = new Snapshot(undefined);
    const big = (status: string, n: number) => ({ uid: 'bk_big', status, start: 's', values: Array.from({ length: n }, (_, i) => i) });
    poll(snap, [big('pending', 100_000)]);
    const entry = snap.get('bk_big')!;
    expect(entry.whole).toBe(false);
    expect(entry.text.length).toBeLessThan(200);
    expect(poll(snap, [big('confirmed', 100_000)]).changed.bk_big).toEqual({ status: ['pending', 'confirmed'] });
    expect(Object.keys(poll(snap, [big('confirmed', 100_001)]).changed.bk_big!)).toEqual(['(fingerprint)']);
    expect(MAX_KEPT_BYTES).toBe(16 * 1024);
  });

  it('stops with a clear error (exit 1) once the whole snapshot passes its bound', () => {
    const snap = new Snapshot(undefined, 100_000);
    snap.begin();
    const add = (i: number) => {
      const s = snap.see({ uid: `bk_${i}`, title: 't'.repeat(300) })!;
      snap.commit({ ...s, after: s.after! });
    };
    let i = 0;
    expect(() => {
      for (; i < 10_000; i++) add(i);
    }).toThrow(/passed 100000 bytes of kept bookings \(--max-state\) at 2\d\d bookings; stopped/);
    expect(i).toBeLessThan(250);
  });
  it('a watch whose bookings keep changing holds at most a third more than the bookings it keeps', () => {
    const snap = new Snapshot(undefined);
    const count = 1000;
    // About 4 MiB of bookings; each poll changes a scattered half of them (by a hash of the booking
    // and the poll), which leaves holes in every chunk of records: left there, 6 polls hold 14 MiB
    // (20 polls ~22 MiB), against a bound of 7.2 MiB; compacted, 4 MiB.
    const rounds = Array.from({ length: count }, () => 0);
    for (let round = 1; round <= 6; round++) {
      for (let i = 0; i < count; i++) if (Math.imul(i ^ Math.imul(round, 0x9e3779b9), 0x85ebca6b) & 0x10000) rounds[i] = round;
      poll(
        snap,
        rounds.map((r, i) => booking(i, r)),
      );
    }
    const alive = [...snap.entries].reduce((n, [, e]) => n + e.text.length + e.fp.length + 16, 0);
    expect(snap.heldBytes).toBeLessThanOrEqual((alive * 4) / 3 + 2 * 1024 * 1024);
    // Moved records read back as they were: the next change is told field by field, the rest unchanged.
    const { changed } = poll(
      snap,
      rounds.map((r, i) => booking(i, i === 7 ? 100 : r)),
    );
    expect(changed).toEqual({ bk_7: { round: [rounds[7], 100] } });
    expect(poll(snap, [booking(1, rounds[1]!)]).gone).toHaveLength(count - 1);
    expect(snap.size).toBe(1);
  });

  it('a booking of megabytes is hashed as it is written: the same fingerprint as its whole text', () => {
    const snap = new Snapshot(undefined);
    const big = { uid: 'bk_big', status: 'pending', slots: Array.from({ length: 400_000 }, (_, i) => i), note: 'é😀'.repeat(1000) };
    poll(snap, [big]);
    const whole = createHash('sha1').update(stringifyJson(big)).digest('base64');
    expect(snap.get('bk_big')).toMatchObject({ fp: whole, whole: false, text: '{"status":"pending"}' });
    expect(poll(snap, [{ ...big, status: 'confirmed' }]).changed).toEqual({ bk_big: { status: ['pending', 'confirmed'] } });
  });
});
