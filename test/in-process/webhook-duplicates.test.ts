// `verify --request DIR` finds the sender's retries from the folder alone: a capture whose body repeats
// an earlier one is marked a duplicate of it (json duplicateOf, a tsv column, the terminal line), and a
// summary on stderr counts them.
import { afterAll, describe, expect, it } from 'vitest';
import { runSend } from '../../src/commands/webhook/send/send';
import { runVerify } from '../../src/commands/webhook/verify/verify';
import { makeCtx, signedCapture, tempDir, tempDirsPerTest, type KitOptions } from '../helpers/webhook-kit';
import { LISTEN_SECRET, startListen } from '../helpers/listen-kit';

const SECRET = 's3cret';
const cap = (body: string, secret = SECRET) => signedCapture(body, secret);
const A = '{"id":"evt_a","event":"booking.created"}';
const B = '{"id":"evt_b","event":"booking.created"}';

const tmp = tempDir({ '1.http': cap(A), '2.http': cap(B), '3.http': cap(A), '4.http': cap(A, 'forged') });
afterAll(() => tmp.cleanup());
const newDir = tempDirsPerTest();

async function verify(request: string[], kit: KitOptions = {}) {
  const ctx = makeCtx({ env: { BOOKING_WEBHOOK_SECRET: SECRET }, ...kit });
  const code = await runVerify({ request }, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}

describe('duplicates in a capture folder', () => {
  it('json: duplicateOf names the first capture with that body (forged or not), null otherwise', async () => {
    const r = await verify([tmp.dir], { output: 'json' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).map((v: { duplicateOf: string | null }) => v.duplicateOf)).toEqual([
      null,
      null,
      tmp.path('1.http'),
      tmp.path('1.http'),
    ]);
  });

  it('tsv: a duplicate-of column after the file; the summary on stderr counts them', async () => {
    const r = await verify([tmp.dir], { output: 'tsv' });
    expect(r.out.split('\n')[2]).toBe(`authentic\tbooking.created\t${A.length}\t\t${tmp.path('3.http')}\t${tmp.path('1.http')}`);
    expect(r.err).toBe(
      "4 deliveries: 3 authentic, 1 not authentic; 2 duplicates (a body seen before: the sender's retries, which a receiver must handle once)\n",
    );
  });

  it('on a terminal: the line says which capture it repeats', async () => {
    const r = await verify([tmp.path('1.http'), tmp.path('3.http')], { output: 'table' });
    expect(r.out.split('\n')[1]).toBe(
      `✓ authentic  booking.created  ${A.length} bytes  ${tmp.path('3.http')}  duplicate of ${tmp.path('1.http')}`,
    );
  });

  it('no duplicates, piped: no summary (a script reads the lines); -q drops it', async () => {
    expect((await verify([tmp.path('1.http'), tmp.path('2.http')], { output: 'tsv' })).err).toBe('');
    expect((await verify([tmp.dir], { output: 'tsv', quiet: true })).err).toBe('');
  });

  it('a retried delivery received by listen is found from its save folder alone', async () => {
    const saveDir = newDir().dir;
    const l = await startListen({ saveDir });
    const source = newDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(source.path('delivery.http'), cap(A, LISTEN_SECRET));
    try {
      // The same delivery three times, as a sender retries it.
      for (let i = 0; i < 3; i++) {
        const ctx = makeCtx({ output: 'tsv' });
        expect(await runSend({ url: l.url, request: source.path('delivery.http') }, ctx)).toBe(0);
      }
    } finally {
      await l.stop();
    }
    const ctx = makeCtx({ output: 'json', env: { BOOKING_WEBHOOK_SECRET: LISTEN_SECRET } });
    expect(await runVerify({ request: [saveDir] }, ctx)).toBe(0);
    const verdicts = JSON.parse(ctx.io.out()) as { file: string; duplicateOf: string | null }[];
    expect(verdicts.map((v) => v.duplicateOf)).toEqual([null, verdicts[0]!.file, verdicts[0]!.file]);
    expect(ctx.io.err()).toMatch(/^3 deliveries: 3 authentic, 0 not authentic; 2 duplicates /);
  });
});
