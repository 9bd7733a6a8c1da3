// Shared by the output-*.test.ts files: a context over testIO() and the hostile or odd data the
// output layer must survive.
import { afterEach, beforeEach } from 'vitest';
import type { GlobalOptions, OutputFormat } from '../../src/context';
import { testIO, type TestIO } from '../../src/output/io';
import { parseJson } from '../../src/output/json';

export interface KitOptions {
  tty: boolean;
  output?: OutputFormat;
  fields?: string[];
  color?: boolean;
  columns?: number;
  quiet?: boolean;
}

export function outputContext(opts: KitOptions): { io: TestIO; globals: GlobalOptions } {
  const io = testIO({ tty: opts.tty, color: opts.color ?? false, columns: opts.columns ?? 100 });
  const globals: GlobalOptions = {
    profile: 'default',
    output: opts.output,
    fields: opts.fields,
    noColor: false,
    timeoutMs: 30_000,
    retries: 3,
    debug: false,
    quiet: opts.quiet ?? false,
    allowHttp: false,
  };
  return { io, globals };
}

/** Items as the HTTP layer hands them over: parsed losslessly. */
export function items(json: string): unknown[] {
  return parseJson(json) as unknown[];
}

export const HOSTILE = ['\x1b[31mred', '\x1b]0;title\x07', 'a\tb\nc', '\u202e'];

/** The same two bookings in the shapes a service might use. */
export const BOOKING_SHAPES: Record<string, string> = {
  snake: `[{"uid":"bk_1","title":"Intro call","status":"confirmed","start_time":"2026-11-23T08:00:00Z","end_time":"2026-11-23T08:30:00Z","attendee_name":"Ann"},
           {"uid":"bk_2","title":"Review","status":"cancelled","start_time":"2026-11-24T13:00:00Z","end_time":"2026-11-24T14:00:00Z","attendee_name":"Bob"}]`,
  camel: `[{"id":"bk_1","name":"Intro call","state":"confirmed","startTime":"2026-11-23T08:00:00Z","endTime":"2026-11-23T08:30:00Z","attendeeName":"Ann"},
           {"id":"bk_2","name":"Review","state":"cancelled","startTime":"2026-11-24T13:00:00Z","endTime":"2026-11-24T14:00:00Z","attendeeName":"Bob"}]`,
  nested: `[{"uid":"bk_1","title":"Intro call","status":"confirmed","starts_at":"2026-11-23T08:00:00Z","ends_at":"2026-11-23T08:30:00Z","attendee":{"name":"Ann","email":"ann@example.com"}},
            {"uid":"bk_2","title":"Review","status":"cancelled","starts_at":"2026-11-24T13:00:00Z","ends_at":"2026-11-24T14:00:00Z","attendee":{"name":"Bob","email":"bob@example.com"}}]`,
  attendees: `[{"uid":"bk_1","summary":"Intro call","status":"confirmed","start":"2026-11-23T08:00:00Z","end":"2026-11-23T08:30:00Z","attendees":[{"name":"Ann"}]},
               {"uid":"bk_2","summary":"Review","status":"cancelled","start":"2026-11-24T13:00:00Z","end":"2026-11-24T14:00:00Z","attendees":[{"name":"Bob"}]}]`,
};

/** Runs each test of the file in this time zone (Node rereads TZ when it changes), then restores it. */
export function useTimeZone(zone: string): void {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.TZ;
    process.env.TZ = zone;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });
}
