// Issue 21's "done when": a receiver that is not idempotent (it counts bookings by `created` events)
// is shown to be so by `send --scenario lifecycle --duplicate 2` through `listen` (saving to DIR and
// forwarding to it), then `verify --request DIR`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runSend } from '../../src/commands/webhook/send/send';
import { runVerify } from '../../src/commands/webhook/verify/verify';
import { makeCtx, tempDirsPerTest } from '../helpers/webhook-kit';
import { LISTEN_SECRET, startListen } from '../helpers/listen-kit';
import { until } from '../helpers/until';
import { startReceiver } from '../helpers/receiver';

const newDir = tempDirsPerTest();

it('send --scenario lifecycle --duplicate 2 → listen → a receiver that counts created events: 2 bookings, and the folder shows why', async () => {
  // The app under test: a booking per booking.created it is sent, whatever it has seen before.
  let bookings = 0;
  const app = await startReceiver({
    answer: (r) => {
      if (r.headers['x-service-event'] === 'booking.created') bookings++;
      return 200;
    },
  });
  const d = newDir();
  const l = await startListen({ saveDir: d.dir, forwardTo: `${app.url}/hooks` });
  try {
    const ctx = makeCtx({ output: 'tsv', env: { BOOKING_WEBHOOK_SECRET: LISTEN_SECRET } });
    expect(await runSend({ url: l.url, scenario: 'lifecycle', duplicate: 2 }, ctx)).toBe(0);
    await until(() => app.received.length === 8, 'eight forwards');
  } finally {
    await l.stop();
    await app.close();
  }
  expect(bookings).toBe(2);

  // The saved captures: eight, in pairs of byte-identical bodies (a retry), four distinct events.
  const files = readdirSync(d.dir)
    .filter((f) => f.endsWith('.http'))
    .sort();
  expect(files).toHaveLength(8);
  const bodies = files.map((f) => {
    const raw = readFileSync(join(d.dir, f));
    return raw.subarray(raw.indexOf('\r\n\r\n') + 4);
  });
  for (let i = 0; i < 8; i += 2) {
    expect(bodies[i + 1]!.equals(bodies[i]!)).toBe(true);
    if (i > 0) expect(bodies[i]!.equals(bodies[i - 2]!)).toBe(false);
  }
  expect(files.map((f) => f.replace(/^.*-\d{4}-/, ''))).toEqual(
    ['created', 'created', 'confirmed', 'confirmed', 'rescheduled', 'rescheduled', 'completed', 'completed'].map(
      (e) => `booking.${e}.http`,
    ),
  );
  // listen saw each second copy as attempt 2 of the first (tsv: column 8 is the attempt, 9 the first capture).
  const rows = l
    .out()
    .trimEnd()
    .split('\n')
    .map((x) => x.split('\t'))
    .filter((x) => x[2] === 'authentic');
  expect(rows.map((x) => x[7])).toEqual(['1', '2', '1', '2', '1', '2', '1', '2']);
  expect(rows[1]![8]).toBe(join(d.dir, files[0]!));

  // verify --request DIR: every capture authentic.
  const v = makeCtx({ output: 'json' });
  expect(await runVerify({ request: [d.dir], secret: LISTEN_SECRET }, v)).toBe(0);
  const verdicts = JSON.parse(v.io.out()) as { file: string; authentic: boolean; duplicateOf: string | null }[];
  expect(verdicts).toHaveLength(8);
  expect(verdicts.every((x) => x.authentic)).toBe(true);
  // The receiver's bug is found from the folder alone: every second copy is marked a duplicate of the
  // capture before it, and the summary counts them.
  expect(verdicts.map((x) => x.duplicateOf)).toEqual(verdicts.map((_, i) => (i % 2 === 1 ? verdicts[i - 1]!.file : null)));
  expect(v.io.err()).toMatch(/\b4 duplicates?\b/);
});
