// The deliveries --forward-to still owes the receiver. A poll turns each change into its rebuilt
// deliveries (rebuilt.ts) and queues them here, each as the exact bytes it is sent as (so a retry,
// in this run or the next, sends the same bytes and signature); the snapshot moves on at once, and a
// delivery leaves the queue only when the receiver answered 2xx (or --no-retry said not to wait for
// that). The queue is saved in --state with the snapshot: a receiver that is down while watch polls
// gets every change each poll saw, in order, when it is back, however many runs later. Its bytes count
// against --max-state as the snapshot's do.
import type { EventName } from '../../../webhook/events';
import type { Forwarder } from './forward';
import { rebuiltBody, type RebuiltEvent } from './rebuilt';

export interface Pending {
  id: string;
  event: EventName;
  uid: string;
  /** The delivery's body, as it is signed and sent. */
  body: string;
}

export class Outbox {
  readonly queue: Pending[] = [];
  /** Counts what entered or left the queue: --state is written again when it moved. */
  version = 0;

  constructor(private readonly charge: (bytes: number) => void) {}

  get size(): number {
    return this.queue.length;
  }

  add(e: RebuiltEvent, at: string): void {
    this.push({ id: e.id, event: e.event, uid: e.uid, body: rebuiltBody(e, at) });
  }

  /** One from a state file, or a new one. */
  push(p: Pending): void {
    this.charge(p.body.length);
    this.queue.push(p);
    this.version++;
  }

  /**
   * Sends what is queued, in order, until the queue is empty or a delivery fails (the rest then waits
   * for the next poll: the order of one booking's events is kept). With noRetry a failed one is dropped.
   */
  async flush(forwarder: Forwarder, noRetry: boolean): Promise<boolean> {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (!(await forwarder.deliver(head)) && !noRetry) return false;
      this.queue.shift();
      this.charge(-head.body.length);
      this.version++;
    }
    return true;
  }
}
