// The event a body names in its JSON ("event": "booking.created"), for `verify --signature`, which
// has no X-Service-Event header to read it from. Only a body up to HEAD_LIMIT is kept while it
// streams past; a larger body's event is not read (memory stays flat).
import { Spool } from './reader';

const HEAD_LIMIT = 8 * 1024 * 1024;

export class BodyHead {
  private readonly kept = new Spool(HEAD_LIMIT, true);

  add(chunk: Buffer): void {
    this.kept.add(chunk);
  }

  /** The top-level "event" string, or null when the body is not JSON, has none, or was too large. */
  event(): string | null {
    const bytes = this.kept.bytes();
    if (!bytes) return null;
    try {
      const value = JSON.parse(bytes.toString('utf8')) as unknown;
      const event = value !== null && typeof value === 'object' ? (value as Record<string, unknown>).event : undefined;
      return typeof event === 'string' ? event : null;
    } catch {
      return null;
    }
  }
}
