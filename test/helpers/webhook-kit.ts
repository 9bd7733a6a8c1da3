// Shared by the webhook unit tests: a Context over testIO(), temp dirs, and the fixtures' paths.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Context, OutputFormat } from '../../src/context';
import type { TestIO } from '../../src/output/io';
import { testContext } from './context';

const FIXTURES = join(__dirname, '..', 'fixtures', 'webhook');
export const fixture = (name: string) => join(FIXTURES, name);
export const FIXTURE_SECRET = 'whsec_fixture_0123456789';

export interface KitOptions {
  output?: OutputFormat;
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  tty?: boolean;
  color?: boolean;
  quiet?: boolean;
  signal?: AbortSignal;
  now?: Date;
  /** --tz, as readGlobals gives it. */
  tz?: string;
}

export function makeCtx(opts: KitOptions = {}): Context & { io: TestIO } {
  return testContext({
    tty: opts.tty,
    stdin: opts.stdin,
    color: opts.color,
    env: opts.env,
    signal: opts.signal,
    now: opts.now,
    globals: { output: opts.output, quiet: opts.quiet ?? false, tz: opts.tz },
  });
}

/** A temp dir with `files` written into it; remove it with cleanup(). */
export function tempDir(files: Record<string, string | Buffer> = {}): { dir: string; path(name: string): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'booking-webhook-'));
  for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
  return { dir, path: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A maker of temp dirs that are removed after each test (call at the top level of a test file). */
export function tempDirsPerTest(): () => ReturnType<typeof tempDir> {
  const dirs: ReturnType<typeof tempDir>[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) d.cleanup();
  });
  return () => {
    const d = tempDir();
    dirs.push(d);
    return d;
  };
}

/** The X-Service-Signature value of `body` under `secret`. */
export const signed = (body: string, secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** A raw capture of a booking.created delivery of `body`, signed with `secret` (CRLF, Content-Length). */
export const signedCapture = (body: string, secret: string) =>
  [
    'POST /hooks HTTP/1.1',
    'X-Service-Event: booking.created',
    `X-Service-Signature: ${signed(body, secret)}`,
    `Content-Length: ${body.length}`,
    '',
    body,
  ].join('\r\n');

/** A HAR file's text: `count` copies of one booking.created POST of `body`, signed with `secret`. */
export function signedHar(body: string, secret: string, count: number): string {
  const entry = JSON.stringify({
    request: {
      method: 'POST',
      url: 'http://127.0.0.1/hooks',
      headers: [
        { name: 'X-Service-Event', value: 'booking.created' },
        { name: 'X-Service-Signature', value: signed(body, secret) },
      ],
      postData: { mimeType: 'application/json', text: body },
    },
  });
  return `{"log":{"entries":[${Array(count).fill(entry).join(',')}]}}`;
}
