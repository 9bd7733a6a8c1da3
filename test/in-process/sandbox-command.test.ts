import { describe, expect, it } from 'vitest';
import { main } from '../../src/main';
import { testIO } from '../../src/output/io';
import { until } from '../helpers/until';

describe('booking sandbox (in process)', () => {
  it('--json prints one line to read the URL, key and secret from; an abort stops it with exit 0', async () => {
    const io = testIO();
    const ac = new AbortController();
    const done = main(['sandbox', '--port', '0', '--json', '--bookings', '5', '--tick', '0'], { io, env: {}, signal: ac.signal });
    await until(() => io.out().includes('\n'), 'the JSON line');
    const line = io.out();
    expect(line.split('\n')).toHaveLength(2);
    const info = JSON.parse(line);
    expect(info).toMatchObject({
      api_key: 'sk_test_sandbox',
      webhook_secret: 'whsec_sandbox',
      bookings: 5,
      shape: 'data-meta',
      seed: '1',
      tick_seconds: 0,
    });
    expect(info.base_url).toBe(`http://127.0.0.1:${info.port}`);
    const r = await fetch(`${info.base_url}/api/v1/bookings`, { headers: { authorization: 'Bearer sk_test_sandbox' } });
    expect(((await r.json()) as { data: unknown[] }).data).toHaveLength(5);
    ac.abort();
    expect(await done).toBe(0);
    expect(io.err()).toMatch(/GET \/api\/v1\/bookings 200/);
    expect(io.err()).toMatch(/sandbox stopped\n$/);
    await expect(fetch(`${info.base_url}/api/v1/me`)).rejects.toThrow();
  });

  it('--json prints its own key whole when BOOKING_API_KEY is the same key (exported after a first run); any other key stays masked', async () => {
    for (const [envKey, shown] of [
      ['sk_test_sandbox', 'sk_test_sandbox'],
      ['sk_live_other_key_0123', 'sk_test_sandbox'],
    ] as const) {
      const io = testIO();
      const ac = new AbortController();
      const done = main(['sandbox', '--port', '0', '--json', '--tick', '0', '--webhook-url', `http://127.0.0.1:9/h?k=${envKey}`], {
        io,
        env: { BOOKING_API_KEY: envKey },
        signal: ac.signal,
      });
      await until(() => io.out().includes('\n'), 'the JSON line');
      const info = JSON.parse(io.out());
      expect(info.api_key).toBe(shown);
      // The user's other key, handed back in a URL the sandbox prints, is still masked.
      expect(info.webhook_urls[0]).toBe(envKey === shown ? `http://127.0.0.1:9/h?k=${envKey}` : 'http://127.0.0.1:9/h?k=****');
      ac.abort();
      expect(await done).toBe(0);
    }
  });

  it('a key or secret no client could send is exit 2 by the rules the clients apply, naming the character, never the value', async () => {
    for (const [flag, value, said] of [
      ['--api-key', 'clé_secret', 'the API key has a character that is not printable ASCII (U+00E9 at position 3)'],
      ['--api-key', 'two words', 'the API key contains spaces'],
      [
        '--webhook-secret',
        'whsec_é',
        'the webhook signing secret from --webhook-secret has a byte that is not printable ASCII (0xc3 at byte 7)',
      ],
    ] as const) {
      const io = testIO();
      const code = await main(['sandbox', '--port', '0', flag, value], { io, env: {} });
      expect(code).toBe(2);
      expect(io.err()).toContain(said);
      expect(io.err()).not.toContain(value);
    }
  });

  it('prints readable lines by default; -q silences the request log', async () => {
    const io = testIO();
    const ac = new AbortController();
    const done = main(['sandbox', '--port', '0', '-q', '--api-key', 'k1', '--webhook-secret', 's1'], { io, env: {}, signal: ac.signal });
    await until(() => io.out().split('\n').length > 3, 'the banner');
    const out = io.out();
    expect(out).toMatch(/^Booking sandbox running at http:\/\/127\.0\.0\.1:\d+\nAPI key: +k1\nSigning secret: +s1\n$/);
    const url = /at (\S+)/.exec(out)![1];
    await fetch(`${url}/api/v1/me`, { headers: { authorization: 'Bearer k1' } });
    ac.abort();
    expect(await done).toBe(0);
    expect(io.err()).toBe('');
  });

  it('--tick 0.01, the shortest, runs the lifecycle at that pace and says so', async () => {
    const io = testIO();
    const ac = new AbortController();
    const done = main(['sandbox', '--port', '0', '--tick', '0.01'], { io, env: {}, signal: ac.signal });
    await until(() => io.out().includes('Signing secret'), 'the banner');
    expect(io.err()).toContain('a lifecycle change every 0.01s');
    // Seven changes make the whole cycle: at 10 ms each, well within the wait.
    await until(() => (io.err().match(/ lifecycle /g) ?? []).length >= 7, 'seven lifecycle changes', 2_000);
    ac.abort();
    expect(await done).toBe(0);
  });

  it.each([
    [['--port', '70000'], /--port/],
    [['--tick', '-1'], /--tick/],
    [['--tick', '0.0004'], /--tick.*'0\.0004' is invalid\. expected 0 \(no lifecycle\) or seconds from 0\.01 to 86400\./],
    [['--tick', '0.009'], /--tick/],
    [['--fail-rate', '1.5'], /--fail-rate/],
    [['--latency', 'slow'], /--latency/],
    [['--rate-limit', '0'], /--rate-limit/],
    [['--bookings', 'many'], /--bookings/],
    [['--shape', 'xml'], /--shape.*data-meta/],
    [['--webhook-url', 'ftp://example.com/'], /only http and https/],
  ])('bad value %j → exit 2, one line', async (args, message) => {
    const io = testIO();
    expect(await main(['sandbox', ...args], { io, env: {} })).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });
});
