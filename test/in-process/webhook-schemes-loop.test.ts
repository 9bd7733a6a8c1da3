// The whole loop in each scheme: listen --scheme X, send --scheme X --scenario lifecycle, then verify
// --request DIR on what listen saved (with --scheme, and recognised by itself without), and the
// sandbox signing its lifecycle deliveries in X.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server';
import { runMain } from '../helpers/in-process';
import { tempDirsPerTest } from '../helpers/webhook-kit';
import { startListen } from '../helpers/listen-kit';
import { until } from '../helpers/until';

const SECRET = 'whsec_c2NoZW1lcy10ZXN0'; // base64 after whsec_: a key in every scheme
const freshDir = tempDirsPerTest();

describe('the whole loop, for each scheme', () => {
  for (const scheme of ['service', 'cal', 'calendly', 'stripe', 'standard']) {
    it(`listen --scheme ${scheme} + send --scheme ${scheme} --scenario lifecycle + verify --request DIR`, async () => {
      const dir = freshDir();
      const listener = await startListen({ scheme: scheme as 'stripe', secret: SECRET, saveDir: dir.dir });
      const sent = await runMain(['webhook', 'send', listener.url, '--scheme', scheme, '--scenario', 'lifecycle', '--secret', SECRET]);
      await listener.stop();
      expect(sent.code, sent.stderr).toBe(0);
      expect(
        listener
          .out()
          .trimEnd()
          .split('\n')
          .map((l) => [l.split('\t')[2], l.split('\t').at(-1)]),
      ).toEqual(Array(4).fill(['authentic', scheme]));
      const checked = await runMain(['webhook', 'verify', '--request', dir.dir, '--secret', SECRET, '--scheme', scheme, '-o', 'json']);
      expect(checked.code).toBe(0);
      const verdicts = JSON.parse(checked.stdout) as { authentic: boolean; scheme: string; event: string }[];
      expect(verdicts.map((v) => [v.authentic, v.scheme])).toEqual(Array(4).fill([true, scheme]));
      if (scheme === 'cal')
        expect(verdicts.map((v) => v.event)).toEqual(['BOOKING_REQUESTED', 'BOOKING_CREATED', 'BOOKING_RESCHEDULED', 'MEETING_ENDED']);
      // Verified again with no --scheme: recognised by its headers.
      const auto = await runMain(['webhook', 'verify', '--request', dir.dir, '--secret', SECRET]);
      expect(auto.code).toBe(0);
    });
  }

  it('send --request of a Standard Webhooks capture, re-signed, keeps its webhook-id (a replay is a retry)', async () => {
    const dir = freshDir();
    const listener = await startListen({ scheme: 'standard', secret: SECRET, saveDir: dir.dir });
    try {
      expect(
        (await runMain(['webhook', 'send', listener.url, '--scheme', 'standard', '--event', 'booking.created', '--secret', SECRET])).code,
      ).toBe(0);
      const [first] = readdirSync(dir.dir).filter((f) => f.endsWith('.http'));
      const replay = await runMain(['webhook', 'send', listener.url, '--request', join(dir.dir, first!), '--secret', SECRET]);
      expect(replay.code, replay.stderr).toBe(0);
      await until(() => readdirSync(dir.dir).filter((f) => f.endsWith('.http')).length === 2, 'the replay saved');
    } finally {
      await listener.stop();
    }
    const ids = readdirSync(dir.dir)
      .filter((f) => f.endsWith('.http'))
      .map((f) => /^webhook-id: (.*)\r$/im.exec(readFileSync(join(dir.dir, f), 'latin1'))?.[1]);
    expect(ids[0]).toMatch(/^msg_/);
    expect(ids[1]).toBe(ids[0]);
    expect((await runMain(['webhook', 'verify', '--request', dir.dir, '--secret', SECRET])).code).toBe(0);
  });

  it('the sandbox signs its lifecycle deliveries in --scheme standard, with its own default secret', async () => {
    const dir = freshDir();
    const listener = await startListen({ scheme: 'standard', secret: 'whsec_c2FuZGJveA==', saveDir: dir.dir });
    const sandbox = await startSandbox({ port: 0, tickSeconds: 0, scheme: 'standard', webhookUrls: [listener.url], retryDelaysMs: [] });
    try {
      expect(sandbox.secret).toBe('whsec_c2FuZGJveA==');
      sandbox.advance();
      await sandbox.deliveriesSettled();
      await until(() => listener.out().includes('\tauthentic\t'), 'the delivery line');
    } finally {
      await sandbox.close();
      await listener.stop();
    }
    expect(readdirSync(dir.dir).filter((f) => f.endsWith('.http'))).toHaveLength(1);
    const checked = await runMain(['webhook', 'verify', '--request', dir.dir, '--secret', 'whsec_c2FuZGJveA==']);
    expect(checked.stdout).toMatch(/^authentic\t.*\tstandard\n$/);
  });
});
