import { describe, expect, it } from 'vitest';
import { createListWriter, createProgress } from '../../src/output/index';
import { outputContext } from '../helpers/output-kit';

const CLEAR = '\r\x1b[2K';

describe('createProgress', () => {
  it('rewrites one line on a terminal stderr and clears it when done', () => {
    const ctx = outputContext({ tty: true });
    const progress = createProgress(ctx);
    progress.update({ pages: 1, items: 1 });
    progress.update({ pages: 3, items: 250 });
    progress.done();
    progress.done();
    expect(ctx.io.err()).toBe(`${CLEAR}Fetching… 1 page, 1 item${CLEAR}Fetching… 3 pages, 250 items${CLEAR}`);
    expect(ctx.io.out()).toBe('');
  });
  it('is silent when stderr is not a terminal, with --quiet, or on a TERM=dumb terminal (no line to rewrite)', () => {
    const dumb = { ...outputContext({ tty: true }), env: { TERM: 'dumb' } };
    for (const ctx of [outputContext({ tty: false }), outputContext({ tty: true, quiet: true }), dumb]) {
      const progress = createProgress(ctx);
      progress.update({ pages: 2, items: 10 });
      progress.done();
      expect(ctx.io.err()).toBe('');
    }
  });
  it('never draws wider than the terminal', () => {
    const ctx = outputContext({ tty: true, columns: 12 });
    createProgress(ctx).update({ pages: 100, items: 10_000 });
    expect(ctx.io.err()).toBe(`${CLEAR}Fetching… 1`);
  });
  it('steps aside for rows streamed to the same terminal, then comes back', async () => {
    const ctx = outputContext({ tty: true, output: 'ndjson' });
    const progress = createProgress(ctx);
    const writer = await createListWriter(ctx);
    progress.update({ pages: 1, items: 1 });
    await writer.write([{ a: 1 }]);
    progress.update({ pages: 2, items: 2 });
    await writer.write([{ a: 2 }]);
    progress.done();
    writer.end();
    expect(ctx.io.err()).toBe(`${CLEAR}Fetching… 1 page, 1 item${CLEAR}${CLEAR}Fetching… 2 pages, 2 items${CLEAR}`);
    expect(ctx.io.out()).toBe('{"a":1}\n{"a":2}\n');
  });
});
