// startSandbox: the whole fake service in one process: the world from the seed, the HTTP server, the
// lifecycle timer and the webhook sender. Used by `booking sandbox`, the test suite and the demo.
import { UsageError } from '../base/errors';
import { deliveryBody } from '../webhook/payload';
import {
  DEFAULT_API_KEY,
  DEFAULT_BOOKINGS,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_SEED,
  DEFAULT_SHAPE,
  DEFAULT_TICK_SECONDS,
  defaultWebhookSecret,
  SHAPES,
  webhookUrlProblem,
  type ShapeName,
} from './defaults';
import { DEFAULT_EPOCH, generateWorld, type Booking, type EventType, type Owner } from './data';
import { markBigInts, restoreBigInts } from './json-text';
import { Lifecycle, type Change } from './lifecycle';
import { startSandboxService } from './routes';
import { BookingStore } from './store';
import { Switches } from './switches';
import { WebhookSender } from './webhooks';
import type { SchemeName } from '../webhook/schemes/names';

export interface SandboxOptions {
  /** 0 picks a free port. Default 4010. */
  port?: number;
  host?: string;
  apiKey?: string;
  /** The signing secret of every webhook URL. */
  secret?: string;
  /** The signing scheme of the deliveries; the seed's when absent. */
  scheme?: SchemeName;
  bookings?: number;
  seed?: string | number;
  webhookUrls?: string[];
  /** Seconds between lifecycle changes; 0 stops the lifecycle (advance() still works). Default 2. */
  tickSeconds?: number;
  shape?: ShapeName;
  latencyMs?: number;
  failRate?: number;
  rateLimit?: number;
  /** Request lines, lifecycle changes and delivered webhooks; nothing when absent. */
  log?: (line: string) => void;
  /** Failed webhook attempts. */
  warn?: (line: string) => void;
  /** Webhook retry waits; default 1, 2, 4, 8 s (webhooks.ts). */
  retryDelaysMs?: number[];
  /** Sandbox time at start; default 2026-01-05T00:00:00Z. */
  epoch?: Date;
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  url: string;
  host: string;
  port: number;
  apiKey: string;
  secret: string;
  seed: string;
  shape: ShapeName;
  owner: Owner;
  eventTypes: readonly EventType[];
  /** Every booking, in creation order, as it is now. */
  bookings(): readonly Booking[];
  /** Makes the next lifecycle change now and starts its deliveries. */
  advance(): Change;
  /** Resolves when the deliveries started so far are done (delivered or given up). */
  deliveriesSettled(): Promise<void>;
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const shape = opts.shape ?? DEFAULT_SHAPE;
  if (!SHAPES.includes(shape)) throw new UsageError(`unknown shape "${shape}": use one of ${SHAPES.join(', ')}.`);
  for (const u of opts.webhookUrls ?? []) {
    const problem = webhookUrlProblem(u);
    if (problem) throw new UsageError(problem);
  }
  const seed = String(opts.seed ?? DEFAULT_SEED);
  const apiKey = opts.apiKey ?? DEFAULT_API_KEY;
  const secret = opts.secret ?? defaultWebhookSecret(opts.scheme);
  const host = opts.host ?? DEFAULT_HOST;
  const port = opts.port ?? DEFAULT_PORT;
  const tickMs = Math.round((opts.tickSeconds ?? DEFAULT_TICK_SECONDS) * 1000);

  const world = generateWorld(seed, opts.bookings ?? DEFAULT_BOOKINGS, opts.epoch ?? DEFAULT_EPOCH);
  const store = new BookingStore(world.bookings);
  const startedAt = Date.now();
  const epoch = (opts.epoch ?? DEFAULT_EPOCH).getTime();
  const lifecycle = new Lifecycle(store, world.eventTypes, seed, () => epoch + (Date.now() - startedAt));
  const sender = new WebhookSender({
    urls: opts.webhookUrls ?? [],
    secret,
    scheme: opts.scheme,
    retryDelaysMs: opts.retryDelaysMs,
    log: opts.log,
    warn: opts.warn,
  });
  const closing = new AbortController();
  // The Last-Modified of every answer: the sandbox's start, then its last lifecycle change.
  let changedAt = Date.now();

  const service = await startSandboxService(
    {
      apiKey,
      shape,
      owner: world.owner,
      eventTypes: world.eventTypes,
      store,
      log: opts.log,
      closing: closing.signal,
      lastModified: () => changedAt,
      switches: new Switches({ latencyMs: opts.latencyMs, failRate: opts.failRate, rateLimit: opts.rateLimit, seed }),
    },
    { host, port },
  );

  const advance = (): Change => {
    const change = lifecycle.step();
    changedAt = Date.now();
    const b = change.booking;
    opts.log?.(`${new Date().toISOString()} lifecycle ${change.event} ${b.uid} ${change.from ? `${change.from} -> ` : ''}${b.status}`);
    const body = deliveryBody(change.event, markBigInts(b) as unknown as Record<string, unknown>, {
      id: lifecycle.eventId(),
      createdAt: change.at,
      previous: change.previous,
    });
    sender.send(change.event, restoreBigInts(body));
    return change;
  };
  const timer = tickMs > 0 ? setInterval(advance, tickMs) : undefined;

  let closed: Promise<void> | undefined;
  return {
    url: service.url,
    host,
    port: service.port,
    apiKey,
    secret,
    seed,
    shape,
    owner: world.owner,
    eventTypes: world.eventTypes,
    bookings: () => store.all(),
    advance,
    deliveriesSettled: () => sender.settled(),
    close: () =>
      (closed ??= (async () => {
        if (timer) clearInterval(timer);
        closing.abort();
        await Promise.all([service.close(), sender.close()]);
      })()),
  };
}
