// The paging zoo's second hall (test/in-process/paging-zoo.test.ts): documented responses whose paging signals
// disagree — a null page field beside a live link, empty pages that still name a next one, a count or a
// flag that says more while nothing names the next page, a total the pages never reach. Each must end
// as "Lists that never lie" says (contract, third round): every item and exit 0 only when all signals
// agree; otherwise page 1 and exit 1 naming the field, or every item and one warning.
import type { ZooPage, ZooShape } from './zoo-shapes';

const orNull = <T>(v: T | undefined) => v ?? null;
const link = (url: string | undefined): Record<string, string> => (url ? { link: `<${url}>; rel="next"` } : {});

export const DISAGREEING: ZooShape[] = [
  // checked: https://help.getharvest.com/api-v2/introduction/overview/pagination/ — in cursor mode `page`,
  // `next_page` and `previous_page` are null on all but the first and last pages, and `next_page` is a
  // number on the first; `links.next` carries the cursor URL ("always use the links").
  {
    name: 'harvest',
    source: 'Harvest v2 cursor mode: null page fields beside links.next',
    page: (p) => {
      const edge = p.n === 1 || !p.token;
      return {
        body: {
          clients: p.items,
          per_page: 2,
          total_pages: 3,
          total_entries: 6,
          page: edge ? p.n : null,
          next_page: p.n === 1 ? 2 : null,
          previous_page: edge && p.n > 1 ? p.n - 1 : null,
          links: {
            first: `${p.origin}/harvest/x?page=1&per_page=2&ref=first`,
            next: p.url ? `${p.url}&per_page=2&ref=next_cursor` : null,
            previous: null,
            last: `${p.origin}/harvest/x?page=3&per_page=2&ref=last`,
          },
        },
      };
    },
  },
  // Issue 19, first row: `next_page: null` at the top must not shadow a live `links.next`.
  {
    name: 'null-top-link',
    source: 'issue 19: next_page null at the top, links.next a URL',
    page: (p) => ({ body: { data: p.items, next_page: null, links: { next: orNull(p.url) } } }),
  },
  // https://api.slack.com/apis/pagination — "you may receive fewer results than your limit, even when
  // there are additional results"; with server-side filters (conversations.list types, exclude_archived)
  // a page can be empty mid-list while response_metadata.next_cursor names the next one.
  {
    name: 'slack-empty',
    source: 'Slack: empty pages mid-list with response_metadata.next_cursor',
    layout: [2, 0, 0, 2, 0, 2],
    page: (p) => ({ body: { ok: true, channels: p.items, response_metadata: { next_cursor: p.token ?? '' } } }),
  },
  // AWS Marketplace GetEntitlements: "If the result contains an empty set of entitlements, NextToken might
  // still be present and should be used." The first page is empty.
  {
    name: 'aws-entitlements',
    source: 'AWS GetEntitlements: an empty page with NextToken',
    param: 'NextToken',
    layout: [0, 2, 0, 2, 2],
    page: (p) => ({ body: { Entitlements: p.items, ...(p.token ? { NextToken: p.token } : {}) } }),
  },
  // boto/boto3#2643: ssm list_command_invocations with filters answers an empty list and a NextToken,
  // several times over, before the matching invocations.
  {
    name: 'ssm-filtered',
    source: 'AWS SSM ListCommandInvocations: empty filtered pages with NextToken',
    param: 'NextToken',
    layout: [2, 0, 0, 0, 2, 2],
    page: (p) => ({ body: { CommandInvocations: p.items, ...(p.token ? { NextToken: p.token } : {}) } }),
  },
  // checked: https://docs.github.com/en/rest/search/search — "up to 1,000 results for each search": the
  // Link header stops there while the body's total_count counts every match.
  {
    name: 'github-search',
    source: 'GitHub search: Link header beside a total_count the pages never reach',
    param: 'page',
    token: String,
    expect: 'warn',
    page: (p) => ({ body: { total_count: 8, incomplete_results: false, items: p.items }, headers: link(p.url) }),
  },
  // Issue 19, third row: a total beside an empty next cursor on page 1.
  {
    name: 'total-null-cursor',
    source: 'issue 19: total_count beside next_cursor null',
    expect: 'stops',
    page: (p) => ({ body: { data: p.items, total_count: 6, next_cursor: null } }),
  },
  // Issue 19, fourth row: a page count beside a null next.
  {
    name: 'pages-null-next',
    source: 'issue 19: page 1 of total_pages 3, next null',
    expect: 'stops',
    page: (p) => ({ body: { data: p.items, page: 1, total_pages: 3, next: null } }),
  },
  // Issue 19, fifth row: a has-more flag beside a null cursor.
  {
    name: 'more-null-cursor',
    source: 'issue 19: has_more true beside next_cursor null',
    expect: 'stops',
    page: (p) => ({ body: { data: p.items, has_more: true, next_cursor: null } }),
  },
  // PagerDuty classic pagination (developer.pagerduty.com, "Pagination"): offset/limit with `more`, and
  // `total` null unless asked for: a flag says more, nothing names the next page.
  {
    name: 'pagerduty',
    source: 'PagerDuty classic: more true, total null, offset numbers',
    expect: 'stops',
    page: (p) => ({ body: { incidents: p.items, limit: 2, offset: 0, more: true, total: null } }),
  },
  // https://developers.dovetail.com/docs/pagination — page.{total_count, has_more, next_cursor}, read back
  // as page[start_cursor]: the parameter nothing in the body names, so it takes a flag.
  {
    name: 'dovetail',
    source: 'Dovetail page.next_cursor beside total_count, ?page[start_cursor]=',
    param: 'page[start_cursor]',
    flags: ['--cursor-param', 'page[start_cursor]'],
    page: (p: ZooPage) => ({ body: { data: p.items, page: { total_count: 6, has_more: !!p.token, next_cursor: orNull(p.token) } } }),
  },
];
