// The booking lifecycle, one change per tick. The cycle is fixed, so every one of the six events is
// sent within seven ticks (14 s at the default 2 s pace), and each step can always find a booking to
// act on, even in a sandbox started with --bookings 0 (the cycle creates what it later changes).
import type { EventName } from '../webhook/signature';
import { attendee, businessSlot, makeBooking, newUid, type Booking, type BookingStatus, type EventType } from './data';
import { seededRng, type Rng } from './random';
import type { BookingStore } from './store';

export interface Change {
  event: EventName;
  booking: Booking;
  /** The status before the change (absent for booking.created). */
  from?: BookingStatus;
  /** The old time, for booking.rescheduled. */
  previous?: { start: string; end: string };
  /** Sandbox time of the change, ISO. */
  at: string;
}

type Step = 'create' | 'confirm' | 'reschedule' | 'cancel' | 'complete' | 'no_show';
const CYCLE: Step[] = ['create', 'confirm', 'reschedule', 'create', 'cancel', 'complete', 'no_show'];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export class Lifecycle {
  private readonly rng: Rng;
  private turn = 0;
  private lastCompleted: Booking | undefined;

  constructor(
    private readonly store: BookingStore,
    private readonly eventTypes: EventType[],
    seed: string,
    /** The sandbox clock, ms. */
    private readonly clock: () => number,
  ) {
    this.rng = seededRng(seed, 'lifecycle');
  }

  /** Makes the next change of the cycle and returns it. */
  step(): Change {
    const step = CYCLE[this.turn++ % CYCLE.length]!;
    const now = this.clock();
    const at = new Date(now).toISOString();
    const target = this.target(step, now);
    if (!target) return this.create(now, at);
    const from = target.status;
    target.updated_at = at;
    switch (step) {
      case 'confirm':
        target.status = 'confirmed';
        return { event: 'booking.confirmed', booking: target, from, at };
      case 'reschedule': {
        const previous = { start: target.start, end: target.end };
        const length = Date.parse(target.end) - Date.parse(target.start);
        const start = businessSlot(this.rng, Date.parse(target.start) + this.rng.int(1, 7) * DAY);
        target.start = new Date(start).toISOString();
        target.end = new Date(start + length).toISOString();
        return { event: 'booking.rescheduled', booking: target, from, previous, at };
      }
      case 'cancel':
        target.status = 'cancelled';
        return { event: 'booking.cancelled', booking: target, from, at };
      case 'complete':
        target.status = 'completed';
        this.lastCompleted = target;
        return { event: 'booking.completed', booking: target, from, at };
      default:
        target.no_show = true;
        return { event: 'no_show.flagged', booking: target, from, at };
    }
  }

  /** The booking a step acts on; undefined for create, or when none fits (then it creates instead). */
  private target(step: Step, now: number): Booking | undefined {
    const all = this.store.all();
    const latest = (matches: (b: Booking) => boolean) => {
      for (let i = all.length - 1; i >= 0; i--) if (matches(all[i]!)) return all[i];
      return undefined;
    };
    const upcoming = (b: Booking) => b.status === 'confirmed' && Date.parse(b.start) >= now;
    switch (step) {
      case 'create':
        return undefined;
      case 'confirm':
        return latest((b) => b.status === 'pending');
      case 'reschedule':
        return latest(upcoming) ?? latest((b) => b.status === 'confirmed');
      case 'cancel':
        return latest((b) => b.status === 'pending') ?? latest(upcoming);
      case 'complete': {
        // The meeting that ended first; the sandbox does not wait for the clock to pass its end.
        let first: Booking | undefined;
        for (const b of all) if (b.status === 'confirmed' && (!first || b.end < first.end)) first = b;
        return first;
      }
      case 'no_show': {
        const last = this.lastCompleted;
        if (last && last.status === 'completed' && !last.no_show) return last;
        return latest((b) => b.status === 'completed' && !b.no_show);
      }
    }
  }

  private create(now: number, at: string): Change {
    const eventType = this.rng.pick(this.eventTypes);
    const start = businessSlot(this.rng, now + this.rng.int(24, 21 * 24) * HOUR);
    const booking = makeBooking({
      seq: this.store.size + 1,
      uid: newUid(this.rng, this.store),
      eventType,
      who: attendee(this.rng),
      status: 'pending',
      start,
      createdAt: now,
    });
    this.store.add(booking);
    return { event: 'booking.created', booking, at };
  }

  /** A delivery id, from the seed like everything else. */
  eventId(): string {
    return `evt_${this.rng.chars(20, '0123456789abcdef')}`;
  }
}
