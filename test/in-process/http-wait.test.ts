// The one wait helper (src/http/wait.ts): a delay longer than node's timers hold would fire after
// 1 ms; pause() gives the timer the longest delay it holds instead, and says so once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_WAIT_MS, pause, sleep } from '../../src/http/wait';
import { retryAfterMs } from '../../src/http/retry';

afterEach(() => {
  // Files share a worker (isolate: false): a spy left on the fake setTimeout would outlive the fake clock.
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('pause', () => {
  it.each([
    ['Retry-After: 2147484', retryAfterMs('2147484')!],
    ['an HTTP date in 9999', retryAfterMs('Fri, 31 Dec 9999 23:59:59 GMT', Date.parse('2026-01-01T00:00:00Z'))!],
    ['infinity', Number.POSITIVE_INFINITY],
  ])('%s: the timer gets 2^31-1 ms, and the cap is said', async (_, ms) => {
    const waited: number[] = [];
    const notes: string[] = [];
    await pause(ms, new AbortController().signal, {
      sleep: async (d) => void waited.push(d),
      onCapped: (l) => notes.push(l),
      what: 'a wait',
    });
    expect(waited).toEqual([MAX_WAIT_MS]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^a wait of .* is longer than the longest wait \(2,147,483 s, about 24\.9 days: node's timer limit\); waiting that long instead\.$/,
    );
  });

  it('a delay within the limit is waited as it is, without a note; a negative one is no wait', async () => {
    const waited: number[] = [];
    const onCapped = vi.fn();
    await pause(MAX_WAIT_MS, new AbortController().signal, { sleep: async (d) => void waited.push(d), onCapped });
    await pause(-5, new AbortController().signal, { sleep: async (d) => void waited.push(d), onCapped });
    expect(waited).toEqual([MAX_WAIT_MS, 0]);
    expect(onCapped).not.toHaveBeenCalled();
  });

  it('the real timer is never handed more than it holds (node would fire it after 1 ms)', async () => {
    vi.useFakeTimers();
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const abort = new AbortController();
    const waiting = sleep(2_147_484_000, abort.signal).catch((e: Error) => e.name);
    expect(spy.mock.calls.at(-1)![1]).toBe(MAX_WAIT_MS);
    abort.abort();
    expect(await waiting).toBe('InterruptedError');
  });
});
