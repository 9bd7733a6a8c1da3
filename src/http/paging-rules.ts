// The paging conventions discovery knows, as data (contract, "Paging" and "Paging, widened"): the next
// well-known API is one more row here, not one more branch in src/http/discovery.ts. Each row cites
// an API that answers that way; test/in-process/paging-zoo.test.ts replays their documented shapes.

/** Fields holding the items, in the body or in its `data` object, in order of rank. */
export const ITEM_FIELDS = [
  'data',
  'bookings',
  'event_types',
  'eventTypes',
  'items',
  'results',
  'entries',
  'collection',
  'records',
  'nodes',
];

/** Objects searched for paging fields: the body, these inside it, and these inside those. */
export const CONTAINERS = [
  'meta',
  'metadata',
  'pagination',
  'paging',
  'page_info',
  'pageInfo',
  'links',
  'data',
  'response_metadata', // Slack
  'pages', // Intercom; links.pages: DigitalOcean
  '_links', // HAL: Atlassian Confluence, Spring
  '_metadata', // SendGrid
  'additional_data', // Pipedrive
  'page', // Dovetail page.{next_cursor, has_more, total_count}; Spring HAL page.totalElements
];

export interface NextField {
  field: string;
  /** The query parameter a token goes back in; default `cursor` (or --cursor-param). */
  param?: string;
  /** A number here is a page or an offset, not a cursor: it is skipped. */
  noNumber?: true;
  /**
   * The row applies only when the object holding the field also has this key (equal to `value` when
   * given): how two APIs that share a field name but read the token back differently are told apart.
   */
  beside?: { key: string; value?: string };
  /**
   * The field names a position (where this page starts or ends), not the next page: it counts only in an
   * object that has no field named for the next page. `{cursor: "c10", next_cursor: null}` is the end.
   */
  position?: true;
}

/**
 * Fields holding the next page, in order of rank: the first one with a value is followed, whatever empty
 * field (null, "") stands beside it (src/http/discovery.ts). Fields that hold URLs come first: a URL
 * already carries the parameter its API wants.
 */
export const NEXT_FIELDS: NextField[] = [
  { field: '@odata.nextLink' }, // Microsoft Graph, OData
  { field: 'nextLink' }, // Azure Resource Manager
  { field: 'nextRecordsUrl' }, // Salesforce
  { field: 'next_page_url' }, // Laravel; Twilio meta.next_page_url
  { field: 'next_page_uri' }, // Twilio 2010 API
  { field: 'next_url' },
  { field: 'after_url' },
  { field: 'next_page', noNumber: true }, // Calendly, Zendesk (URL); Asana ({offset, uri})
  { field: 'nextPage', noNumber: true }, // Jira Cloud paged lists (URL)
  // The contract's first list: their tokens go back as ?cursor= (the service's own parameter), except
  // where a well-known API's convention names the parameter (a signature beside the field, or AIP-158).
  // A wrong guess is not silent: a server that ignores the parameter sends page 1 again, which paging
  // stops with exit 1 naming --cursor-param (src/http/paginate.ts).
  { field: 'next_cursor', param: 'start_cursor', beside: { key: 'object', value: 'list' } }, // Notion
  { field: 'next_cursor' }, // Slack, Pipedrive v2
  { field: 'nextCursor' },
  { field: 'next_page_cursor' },
  { field: 'next_page_token', param: 'next_page_token', beside: { key: 'page_size' } }, // Zoom
  { field: 'next_page_token' }, // Calendly (its next_page URL is found first)
  { field: 'nextPageToken', param: 'nextPageToken', beside: { key: 'isLast' } }, // Jira search/jql
  { field: 'nextPageToken', param: 'pageToken' }, // Google APIs (AIP-158)
  { field: 'next' }, // Sentry, Django REST, JSON:API, HubSpot ({after, link}), Intercom
  { field: 'after', position: true },
  { field: 'end_cursor', position: true },
  { field: 'endCursor', position: true }, // GraphQL Relay pageInfo
  { field: 'cursor', position: true }, // Square
  // Widened: where the API names the parameter after the field, the token goes back under that name.
  { field: 'next_token', param: 'pagination_token', beside: { key: 'result_count' } }, // X/Twitter meta
  { field: 'next_token', param: 'nextToken', beside: { key: 'records' } }, // WHOOP
  { field: 'next_token' },
  { field: 'nextToken', param: 'nextToken' }, // AWS (JSON protocols)
  { field: 'NextToken', param: 'NextToken' }, // AWS
  { field: 'continue', param: 'continue' }, // Kubernetes metadata.continue
  { field: 'continuation', param: 'continuation' },
  { field: 'next_marker', param: 'marker' }, // Box marker paging
  { field: 'offset', param: 'offset', noNumber: true }, // Airtable: an opaque string, not a number
];

/** Keys of a next value that is an object: URL keys, then tokens sent under their own key's name. */
export const NEXT_OBJECT_KEYS: { key: string; token?: true }[] = [
  { key: 'href' }, // HAL _links.next.href
  { key: 'uri' }, // Asana next_page.uri
  { key: 'url' },
  { key: 'link' }, // HubSpot paging.next.link ("?after=…")
  { key: 'after', token: true }, // HubSpot paging.next.after
  { key: 'cursor', token: true },
  { key: 'starting_after', token: true }, // Intercom pages.next.starting_after
];

/** Arrays of link objects: PayPal `links: [{href, rel: "next"}]`, Siren `links: [{rel: ["next"], href}]`. */
export const LINK_ARRAYS = ['links', 'link'];

/** Boolean flags: `more` is the value that means another page follows. */
export const MORE_FLAGS: { flag: string; more: boolean }[] = [
  { flag: 'has_more', more: true }, // Stripe, Notion, Dropbox, Zendesk meta
  { flag: 'hasMore', more: true },
  { flag: 'has_next_page', more: true },
  { flag: 'hasNextPage', more: true }, // GraphQL Relay, Linear
  { flag: 'isLast', more: false }, // Jira
  { flag: 'done', more: false }, // Salesforce
  { flag: 'end_of_stream', more: false },
  { flag: 'last_page', more: false },
  { flag: 'more_items_in_collection', more: true }, // Pipedrive v1 (offset paging)
  { flag: 'more', more: true }, // PagerDuty classic (offset paging)
];

/** Stripe's list object: `{object: "list", data, has_more}`, next page asked by the last item's id. */
export const STRIPE_LIST = { object: 'list', flag: 'has_more', field: 'id', param: 'starting_after' };

/**
 * Counts that show a list is larger than what was walked when no cursor says how to get the rest; at the
 * end of a walk, a total that differs from the items printed is a warning.
 */
export const TOTAL_FIELDS = [
  'total',
  'total_count',
  'totalCount',
  'total_items',
  'totalItems',
  'total_results',
  'totalResults',
  'totalSize',
  'total_entries', // Harvest
  'total_records', // Zoom
  'totalElements', // Spring Data (HAL page.totalElements)
];
/** Counts of pages; `last_page` only as a number (Laravel), as a boolean it is an end flag above. */
export const PAGE_COUNT_FIELDS = ['total_pages', 'totalPages', 'page_count', 'pageCount', 'num_pages', 'last_page'];
/** The number of the page a response holds, compared with a page count. */
export const PAGE_NUMBER_FIELDS = ['page', 'current_page', 'page_number', 'pageNumber'];
/** Numbers that only an offset- or page-number API sends: with no cursor, paging ends there. */
export const OFFSET_FIELDS = ['offset', 'start', 'startAt', 'skip', 'page', 'current_page', 'page_number', 'pageNumber'];
