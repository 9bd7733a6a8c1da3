// The end of a walk (contract, third round: "Lists that never lie"): when no next page is named, the
// counts and flags of the last response decide between the end (exit 0), a stop naming what says there
// is more (exit 1 after the items), a note, and a warning about a total the walk did not match.
//
// A decision over facts alone: discovery (discovery.ts) finds the counts in the body, paginate.ts
// hands them here with how far the walk got; nothing here reads a body or imports back.
import { FailureError } from '../base/errors';
import { plural } from '../base/words';
import { escapeOneLine, requestName } from './failures';

/**
 * The body says there is more, but no next page is found in it. The items so far have been
 * handed out; a list writer ends its output whole (json included) before reporting this.
 */
export class PagingStoppedError extends FailureError {}

/** A number the body reports, and where: `{ n: 45, name: "meta.total: 45" }` (for messages). */
export interface Count {
  n: number;
  name: string;
}

/** The counts a last page reports (paging-rules.ts names the fields), each the first found. */
export interface Counts {
  total?: Count;
  pageCount?: Count;
  pageNumber?: Count;
  /** A page or an offset number: an API that pages by numbers this CLI does not compute. */
  offset?: Count;
}

/** What the decision reads of the last page (paginate.ts's Page has it). */
export interface LastPage {
  response: { url: URL };
  /** The has-more flag, when the body has one that says true ("has_more: true"). */
  more?: string;
  counts?: Counts;
}

/** What the decision reads of the walk's options (paginate.ts's PaginateOptions has it). */
export interface WalkEndOptions {
  limit?: number;
  /** A line for stderr that is not an error. */
  onNote?(line: string): void;
}

/** How far a walk got, for the counts a response carries. */
export interface Walked {
  items: number;
  pages: number;
  /** false when the walk started at --cursor: what came before is unknown. */
  fromStart: boolean;
}

/**
 * No next page is named: the list ended, unless a flag or a count says more (exit 1 after the items, one
 * line naming the field and the way out). A reported total that differs from what was printed is a warning.
 */
export function endOfWalk(page: LastPage, opts: WalkEndOptions, walked: Walked): void {
  const says = page.more ?? countSaysMore(page.counts, walked);
  if (says) throw stopped(page, says, walked.items);
  const total = page.counts?.total;
  if (!total) {
    const numbers = walked.pages === 1 && walked.fromStart ? page.counts?.offset?.name : undefined;
    if (numbers) opts.onNote?.(offsetNote(page, numbers, walked.items));
  } else if (opts.limit === undefined && walked.fromStart && total.n !== walked.items) {
    opts.onNote?.(
      `warning: ${requestName('GET', page.response.url)}: the service reported ${total.n} items (${escapeOneLine(total.name, 60)}) ` +
        `but ${walked.items} were printed; the list may have changed while it was read.`,
    );
  }
}

/**
 * The count that says the list goes on past what was walked, when no next page is named: a page count
 * beyond the page reached, or, when no next page was ever followed, a total beyond the items received.
 * (After pages were followed, a differing total is a warning, not a stop: a list can change meanwhile.)
 */
export function countSaysMore(counts: Counts | undefined, walked: Walked): string | undefined {
  if (!counts) return undefined;
  const { pageCount, pageNumber, total } = counts;
  if (pageCount) {
    // Harvest's cursor mode nulls `page` on middle pages; Zoom's token mode keeps `page_number` at 1.
    const reached = walked.fromStart ? Math.max(walked.pages, pageNumber?.n ?? 0) : pageNumber?.n;
    if (reached !== undefined && pageCount.n > reached) return pageCount.name;
  }
  if (walked.pages === 1 && walked.fromStart && total && total.n > walked.items) return total.name;
  return undefined;
}

/** More is said (a flag, a count) but no next page is named: one line naming the field and the ways out. */
function stopped(page: LastPage, says: string, received: number): PagingStoppedError {
  return new PagingStoppedError(
    `${requestName('GET', page.response.url)}: the response says there is more (${escapeOneLine(says, 80)}) but names no next page; ` +
      `stopped after ${plural(received, 'item')}. Say where the next cursor is with --cursor-path <path> (its parameter with --cursor-param <name>), ` +
      'or page by the last item with --cursor-from-last <field>; to take one page on purpose, use --no-paginate or --limit.',
  );
}

function offsetNote(page: LastPage, numbers: string, received: number): string {
  return (
    `note: ${requestName('GET', page.response.url)}: stopped after page 1 (${plural(received, 'item')}); the response carries page or offset ` +
    `numbers (${escapeOneLine(numbers, 80)}) but names no next cursor or link, and such numbers are not followed.`
  );
}
