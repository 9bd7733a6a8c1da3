// `webhook listen` when the disk refuses a capture: the file size limit (`ulimit -f`) makes writes
// fail part-way as a full disk does. The delivery is answered 500 (the service retries it), one
// warning is printed, and no empty or cut capture is left behind; smaller ones are still saved.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/webhook-kit';
import { spawnListen } from '../helpers/listen-kit';

const dir = tempDir({
  'big.json': `{"event":"booking.created","pad":"${'x'.repeat(40_000)}"}`,
  'small.json': '{"event":"booking.created"}',
});
afterAll(() => dir.cleanup());
const env = { BOOKING_WEBHOOK_SECRET: 'whsec_disk' };

describe('listen on a disk that refuses the write', () => {
  it('answers 500, warns once, leaves no file; a capture that fits is saved', async () => {
    // bash's ulimit -f counts 1024-byte blocks: captures up to 16 KiB can be written.
    const l = await spawnListen(['--save-dir', dir.path('caps')], env, 'ulimit -f 16');
    try {
      const big = await runCli(['webhook', 'send', l.url, '--event', 'booking.created', '--body', dir.path('big.json')], { env });
      expect(big.code).toBe(1);
      expect(big.stderr).toBe(
        'error: the receiver answered 500 Internal Server Error: {"ok":false,"error":"could not save the delivery"}\n',
      );
      const small = await runCli(['webhook', 'send', l.url, '--event', 'booking.created', '--body', dir.path('small.json')], { env });
      expect(small.code).toBe(0);
    } finally {
      expect(await l.stop()).toBe(0);
    }
    expect(l.err().match(/^warning: could not save a delivery in .*caps \(answered 500\): .*EFBIG/gm)).toHaveLength(1);
    const files = readdirSync(dir.path('caps'));
    expect(files).toEqual([expect.stringMatching(/^\d{8}T\d{6}\.\d{3}Z-\d{4}-booking\.created\.http$/)]);
    expect(readFileSync(dir.path(`caps/${files[0]}`), 'utf8')).toMatch(/\r\n\r\n\{"event":"booking\.created"\}$/);
  });

  it('a --save-dir that cannot be made (under /proc/self): the delivery is answered 500 at once, and listen stops with 0', async () => {
    const l = await spawnListen(['--save-dir', '/proc/self/x/y'], env);
    try {
      const r = await runCli(['webhook', 'send', l.url, '--event', 'booking.created', '--body', dir.path('small.json')], {
        env,
        timeoutMs: 10_000,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('500 Internal Server Error');
    } finally {
      expect(await l.stop()).toBe(0);
    }
    expect(l.err()).toMatch(/^warning: could not save a delivery in \/proc\/self\/x\/y \(answered 500\)/m);
  });
});
