// The bookings in creation order, and paging over them. A cursor names the creation sequence of the
// last booking a page held, so paging stays exact while the lifecycle changes statuses and adds
// bookings: nothing is skipped or repeated, and new bookings turn up at the end.
import { encodeCursor } from './core';
import type { Booking, BookingStatus } from './data';

export interface PageQuery {
  statuses?: ReadonlySet<BookingStatus>;
  /** The creation sequence after which the page starts; 0 for the first page. */
  after: number;
  limit: number;
}

export interface Page {
  items: Booking[];
  /** The cursor of the next page, when more bookings match after this one. */
  next?: string;
}

export class BookingStore {
  // Sequence n is at index n - 1: bookings are never removed, only changed.
  private readonly list: Booking[] = [];
  private readonly byUid = new Map<string, Booking>();

  constructor(bookings: Booking[]) {
    for (const b of bookings) this.add(b);
  }

  get size(): number {
    return this.list.length;
  }

  /** Adds a booking at the end of the creation order; returns its sequence number. */
  add(booking: Booking): number {
    this.list.push(booking);
    this.byUid.set(booking.uid, booking);
    return this.list.length;
  }

  get(uid: string): Booking | undefined {
    return this.byUid.get(uid);
  }

  all(): readonly Booking[] {
    return this.list;
  }

  has(uid: string): boolean {
    return this.byUid.has(uid);
  }

  page(q: PageQuery): Page {
    const items: Booking[] = [];
    let lastSeq = q.after;
    for (let i = q.after; i < this.list.length; i++) {
      const b = this.list[i]!;
      if (q.statuses && !q.statuses.has(b.status)) continue;
      if (items.length === q.limit) return { items, next: encodeCursor(lastSeq) };
      items.push(b);
      lastSeq = i + 1;
    }
    return { items };
  }
}
