// `webhook sign`: the header value for a raw body, from a file or stdin.
import { beforeAll, describe, expect, it } from 'vitest';
import { runSign } from '../../src/commands/webhook/sign/sign';
import { fixture, makeCtx, type KitOptions } from '../helpers/webhook-kit';

async function sign(opts: Parameters<typeof runSign>[0], kit: KitOptions = {}) {
  const ctx = makeCtx(kit);
  const code = await runSign(opts, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}

describe('webhook sign', () => {
  // The first run loads (and vitest transforms) the webhook library and the output writers: with
  // other suites beside it on 2 cores that alone has taken over 30 s, the first test's limit.
  beforeAll(() => sign({ file: fixture('body.json'), secretFile: fixture('secret.txt') }), 120_000);

  // In the whole suite (files share a worker: isolate false) this read once hung in ~1 run of 4: its end
  // waited on a setTimeout, and http-wait.test.ts left a spy on a fake setTimeout. Both are mended (the
  // end of a non-terminal stream needs no timer; the spy is restored).
  it("GitHub's example from stdin", { timeout: 10_000 }, async () => {
    const r = await sign({}, { stdin: 'Hello, World!', env: { BOOKING_WEBHOOK_SECRET: "It's a Secret to Everybody" } });
    expect(r).toEqual({ code: 0, out: 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17\n', err: '' });
  });

  it('a fixture body with the fixture secret file gives the fixture signature; json adds the size', async () => {
    const r = await sign({ file: fixture('body.json'), secretFile: fixture('secret.txt') }, { output: 'json' });
    expect(JSON.parse(r.out)).toEqual({ signature: 'sha256=77fb1bb1648f4c8406893e653a1aa17bab0a791fe55d084fa4e18e0a197fe4a8', bytes: 244 });
  });

  it('an unreadable body or an empty secret: exit 2', async () => {
    await expect(sign({ file: fixture('nope.json'), secret: 's' })).rejects.toMatchObject({ exitCode: 2 });
    await expect(sign({ file: fixture('body.json'), secret: '' })).rejects.toMatchObject({ exitCode: 2 });
  });
});
