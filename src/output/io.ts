// The streams a command may touch, and the terminal facts decided once per run (TTY, colour, width).
// Commands never reach for process.stdout directly, so tests can run them with testIO() and force a
// terminal on or off (the gh `iostreams.Test()` habit).
import { PassThrough } from 'node:stream';
import { openDoor } from './door';
import type { IOStreams, OutStream } from './streams';

interface ColorInputs {
  noColorFlag?: boolean;
  env: Record<string, string | undefined>;
  isTTY: boolean;
}

/**
 * --no-color wins over everything; then FORCE_COLOR (non-empty, not "0") forces colour even into a
 * pipe; then NO_COLOR (non-empty) or TERM=dumb turn it off; otherwise colour only on a terminal.
 */
function decideColor({ noColorFlag, env, isTTY }: ColorInputs): boolean {
  if (noColorFlag) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** The process's streams behind the door. A failed write is bin/booking.js's to report (it exits). */
export function systemIO(env: Record<string, string | undefined> = process.env): IOStreams {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const columns = process.stdout.columns || Number(env.COLUMNS) || 80;
  return openDoor(
    { stream: process.stdout, isTTY: stdoutIsTTY },
    // process.stderr is made on first use (see lazyStderr), its TTY-ness read from it then.
    {
      stream: lazyStderr(),
      get isTTY() {
        return Boolean(process.stderr.isTTY);
      },
    },
    {
      // process.stdin is made on first use: creating it costs ~2 ms of start-up, and few commands read it.
      stdin: () => process.stdin,
      stdinIsTTY: () => Boolean(process.stdin.isTTY),
      color: decideColor({ env, isTTY: stdoutIsTTY }),
      columns,
    },
  );
}

/**
 * process.stderr behind a stand-in that makes it on first use: a quiet run (a `bookings get` that
 * succeeds) never writes to stderr, and making it costs up to ~2 ms on a pipe or terminal.
 */
function lazyStderr(): OutStream {
  return {
    write: (chunk) => process.stderr.write(chunk),
    get writableNeedDrain() {
      return process.stderr.writableNeedDrain;
    },
    once: (event, listener) => process.stderr.once(event, listener),
    off: (event, listener) => process.stderr.off(event, listener),
  };
}

export interface TestIO extends IOStreams {
  out(): string;
  err(): string;
  outBytes(): Buffer;
}

/** In-memory streams behind the door, for tests; TTY-ness and colour are forced by the caller. */
export function testIO(opts: { tty?: boolean; stdin?: string | Buffer; color?: boolean; columns?: number } = {}): TestIO {
  const outChunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  const stdin = new PassThrough();
  if (opts.stdin !== undefined) stdin.end(opts.stdin);
  else stdin.end();
  const tty = opts.tty ?? false;
  const toBuf = (c: string | Uint8Array) => (typeof c === 'string' ? Buffer.from(c) : Buffer.from(c));
  const io = openDoor(
    { stream: { write: (c) => outChunks.push(toBuf(c)) }, isTTY: tty },
    { stream: { write: (c) => errChunks.push(toBuf(c)) }, isTTY: tty },
    { stdin: () => stdin, stdinIsTTY: () => tty, color: opts.color ?? false, columns: opts.columns ?? 100 },
  );
  return Object.assign(io, {
    out: () => Buffer.concat(outChunks).toString('utf8'),
    err: () => Buffer.concat(errChunks).toString('utf8'),
    outBytes: () => Buffer.concat(outChunks),
  });
}
