// The one way every list command (bookings list, event-types, api --paginate) pages and prints:
// an async iterator of items from src/http/paginate into a streaming writer from src/output.
import { InterruptedError } from '../../base/errors';
import type { Context } from '../../context';
import { outputFormat } from '../../context';
import type { ColumnSpec } from '../../output/columns';
import { pagingInForce, type PagingRuleOptions } from './paging-options';

export interface ListRunOptions extends PagingRuleOptions {
  path: string;
  query?: Record<string, string | undefined>;
  limit?: number;
  pageSize?: number;
  cursor?: string;
  /** false for --no-paginate: one page only. */
  paginate: boolean;
  /** false when the endpoint takes no `limit` parameter: --limit is then applied here only. */
  sendLimit?: boolean;
  /** Table and tsv columns to prefer when the items have them, e.g. bookings' uid, title, status… */
  preferred?: ColumnSpec[];
}

export async function runList(ctx: Context, opts: ListRunOptions): Promise<void> {
  await ctx.http();
  await throughPager(ctx, (out) => listTo(out, opts));
}

/**
 * Runs `write` with stdout through a pager when stdout is a terminal (src/output/pager.ts); quitting
 * the pager early ends the command quietly (exit 0). Errors are reported after the pager has closed.
 */
export async function throughPager(ctx: Context, write: (ctx: Context) => Promise<void>): Promise<void> {
  const pager = ctx.io.stdoutIsTTY ? (await import('../../output/pager')).startPager(ctx) : undefined;
  try {
    await write(pager?.ctx ?? ctx);
    // A Ctrl-C that came during a synchronous stretch of the write (stringifying a big value for
    // `api`) is seen only when the event loop turns: without this turn the run ended 0, its signal unseen.
    await new Promise((resolve) => setImmediate(resolve));
    if (ctx.signal.aborted) throw new InterruptedError();
  } catch (err) {
    if (!pager?.stopped.aborted || ctx.signal.aborted) throw err;
  } finally {
    await pager?.finish();
  }
}

async function listTo(ctx: Context, opts: ListRunOptions): Promise<void> {
  const client = await ctx.http();
  const connection = await ctx.connection();
  const [{ paginate, fetchOnePage, shellQuote }, { countSaysMore, PagingStoppedError }, output] = await Promise.all([
    import('../../http/paginate'),
    import('../../http/walk-end'),
    import('../../output/index'),
  ]);
  const pageOptions = {
    path: opts.path,
    query: opts.query,
    limit: opts.limit,
    sendLimit: opts.sendLimit,
    pageSize: opts.pageSize,
    cursor: opts.cursor,
    signal: ctx.signal,
    ...pagingInForce(opts, connection, ctx),
  };
  const writerOptions = { preferred: opts.preferred };

  if (!opts.paginate) {
    const page = await fetchOnePage(client, pageOptions);
    if (outputFormat(ctx) === 'json' && !ctx.globals.fields) {
      // One page with -o json: the body as received (it usually carries the cursor for the next call;
      // a Link header's does not reach stdout, hence the hint below in every format).
      await output.writeJsonValue(ctx, page.body);
    } else {
      const writer = await output.createListWriter(ctx, writerOptions);
      await writer.write(opts.limit === undefined ? page.items : page.items.slice(0, opts.limit));
      await writer.end();
    }
    // Part of the output of --no-paginate (how a script pages by hand), so not silenced by -q.
    const param = page.next?.param ? ` --cursor-param ${shellQuote(page.next.param)}` : '';
    const next = page.next && `${shellQuote((page.next.cursor ?? page.next.url)!)}${param}`;
    if (page.debug && ctx.globals.debug) ctx.io.stderr.write(`paging: ${page.debug}\n`);
    // One page on purpose: exit 0, but a flag or a count that says more is still reported.
    const more = next
      ? undefined
      : (page.more ?? countSaysMore(page.counts, { items: page.items.length, pages: 1, fromStart: !opts.cursor }));
    if (more)
      ctx.io.stderr.write(
        `no next page found although the response says there is more (${more}): see --cursor-path, --cursor-param, --cursor-from-last\n`,
      );
    const left =
      opts.limit === undefined || (outputFormat(ctx) === 'json' && !ctx.globals.fields) ? 0 : Math.max(0, page.items.length - opts.limit);
    if (next && left === 0) ctx.io.stderr.write(`next page: --cursor ${next}\n`);
    else if (next) {
      // A cursor points past the whole page: as a "next page" it would silently skip what --limit cut.
      ctx.io.stderr.write(
        `next page, after the ${left} item${left === 1 ? '' : 's'} of this page that --limit left out: --cursor ${next} ` +
          `(to page by hand, use --page-size ${opts.limit} instead of --limit)\n`,
      );
    }
    return;
  }

  const writer = await output.createListWriter(ctx, writerOptions);
  const progress = output.createProgress(ctx);
  let count = 0;
  try {
    const listing = paginate(client, { ...pageOptions, onPage: (info) => progress.update(info) });
    // Not `for await`: its loop variable keeps the page written until the next one has come, and the
    // collections made while it is asked for then keep it too (docs/performance.md, the memory rows).
    const pages = listing.pages()[Symbol.asyncIterator]();
    try {
      for (;;) {
        let page = (await pages.next()).value as unknown[] | undefined;
        if (page === undefined) break;
        // --limit is applied here too for endpoints it is not sent to (sendLimit: false).
        if (opts.limit !== undefined && count + page.length > opts.limit) page = page.slice(0, opts.limit - count);
        await writer.write(page);
        count += page.length;
        page = undefined;
        const slowReader = output.drained(ctx);
        if (slowReader) await slowReader;
        if (opts.limit !== undefined && count >= opts.limit) break;
      }
    } finally {
      // What `for await` does on leaving early: the walk is closed.
      await pages.return?.();
    }
  } catch (err) {
    progress.done();
    // Stopped for want of a next page: what came is a whole list so far, printed as one (json too).
    if (err instanceof PagingStoppedError) await writer.end();
    else writer.abort();
    throw err;
  }
  progress.done();
  await writer.end();
}
