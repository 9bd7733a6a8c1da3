// One test context for calling a command's run function directly (the in-process alternative to
// main(), for tests that swap the config, the HTTP client or stdout). Streams come from testIO(), so
// they pass the output door like a real run's; what a test does not give fails when used.
import type { ConfigStore, Connection } from '../../src/config/types';
import type { Context, GlobalOptions } from '../../src/context';
import type { HttpClient } from '../../src/http/types';
import { type TestIO, testIO } from '../../src/output/io';
import type { OutStream } from '../../src/output/streams';

export interface TestContextOptions {
  tty?: boolean;
  stdin?: string | Buffer;
  color?: boolean;
  /** A stdout of the test's own (a PassThrough with a small buffer, say) instead of testIO's. */
  stdout?: OutStream;
  env?: Record<string, string | undefined>;
  globals?: Partial<GlobalOptions>;
  signal?: AbortSignal;
  now?: Date;
  config?: () => Promise<ConfigStore>;
  connection?: () => Promise<Connection>;
  http?: () => Promise<HttpClient>;
}

const TEST_GLOBALS: GlobalOptions = {
  profile: 'default',
  noColor: false,
  timeoutMs: 5_000,
  retries: 0,
  debug: false,
  quiet: false,
  allowHttp: false,
};

export function testContext(opts: TestContextOptions = {}): Context & { io: TestIO } {
  const base = testIO({ tty: opts.tty ?? false, stdin: opts.stdin, color: opts.color });
  const io: TestIO = opts.stdout ? { ...base, stdout: opts.stdout } : base;
  const unused = (what: string) => () => Promise.reject(new Error(`this test gave no ${what}`));
  return {
    io,
    env: opts.env ?? {},
    globals: { ...TEST_GLOBALS, ...opts.globals },
    signal: opts.signal ?? new AbortController().signal,
    now: () => opts.now ?? new Date(),
    config: opts.config ?? unused('config'),
    connection: opts.connection ?? unused('connection'),
    http: opts.http ?? unused('HTTP client'),
  };
}
