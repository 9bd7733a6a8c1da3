// What `bookings watch` and `bookings changes` print, one record per event (output.ts writes them).
export type WatchEvent =
  | { type: 'listed' | 'added'; uid: string; booking: unknown; at: string }
  | { type: 'changed'; uid: string; changes: Record<string, [unknown, unknown]>; at: string }
  | { type: 'removed'; uid: string; last: Record<string, unknown>; at: string }
  /** `bookings changes --since TIME`: a booking updated since then; what changed is not known. */
  | { type: 'updated'; uid: string; booking: unknown; at: string };
