// A number of bytes shared out among `listen`'s deliveries: the bodies in flight (body.ts) and the
// save folder under --max-saved (save.ts). Each takes what fits and gives it back when done.

export class ByteBudget {
  constructor(
    readonly limit: number,
    /** Bytes already taken when it is made (the captures already in the folder). */
    private used = 0,
  ) {}

  /** Whether `bytes` more would fit, taking nothing. */
  fits(bytes: number): boolean {
    return this.used + bytes <= this.limit;
  }

  /** Takes `bytes` when they fit; false (and nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (!this.fits(bytes)) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}
