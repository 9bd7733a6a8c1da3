// Lines written as bytes (the ndjson writer's copied pages): in slices of whole lines, the event loop
// turning between them, and stopped between slices by Ctrl-C with whole lines only behind.
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/base/errors';
import type { OutStream } from '../../src/output/streams';
import { writeLineBytes } from '../../src/output/stream';
import { testContext } from '../helpers/context';

function recorder(onWrite?: () => void): { stdout: OutStream; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  return {
    chunks,
    stdout: {
      write(chunk: string | Uint8Array) {
        chunks.push(Buffer.from(chunk));
        onWrite?.();
        return true;
      },
    },
  };
}

/** 2,000 lines of 300 bytes, one line longer than a slice, then short lines again. */
function manyLines(): Buffer {
  const line = (i: number, n: number) => `${String(i).padStart(6, '0')}${'x'.repeat(n - 7)}\n`;
  const text = [
    ...Array.from({ length: 2000 }, (_, i) => line(i, 300)),
    line(2000, 300 * 1024),
    ...Array.from({ length: 10 }, (_, i) => line(2001 + i, 40)),
  ].join('');
  return Buffer.from(text);
}

describe('writeLineBytes', () => {
  it('writes every byte, in slices that each end a line', async () => {
    const bytes = manyLines();
    const { stdout, chunks } = recorder();
    await writeLineBytes(testContext({ stdout }), bytes);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.at(-1)).toBe(0x0a);
  });

  it('stops at Ctrl-C between slices, leaving whole lines', async () => {
    const controller = new AbortController();
    const { stdout, chunks } = recorder(() => controller.abort());
    await expect(writeLineBytes(testContext({ stdout, signal: controller.signal }), manyLines())).rejects.toBeInstanceOf(InterruptedError);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.at(-1)).toBe(0x0a);
  });
});
