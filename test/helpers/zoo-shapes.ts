// The documented list responses of real public APIs, for test/in-process/paging-zoo.test.ts: where the
// items are, where the next page is (token or URL, in the form the API writes it), how the end
// shows, and which query parameter the API reads its token from. Sources are noted per row; "checked:"
// marks the rows compared with the API's documentation page itself (field names, where the next page
// sits, how the end shows, the parameter), not only with a client library or memory.

export interface ZooPage {
  items: { id: string }[];
  /** 1, 2, 3; a fourth (empty) page only for APIs that end on an empty page. */
  n: number;
  /** The token of the next page, undefined on the last. */
  token?: string;
  /** The next page's absolute URL (`?<param>=<token>` on the current path), undefined on the last. */
  url?: string;
  /** The same, as path and query. */
  path?: string;
  origin: string;
}

export interface ZooShape {
  name: string;
  /** Documentation the shape is taken from. */
  source: string;
  /** The query parameter the server reads the token from (default `cursor`). */
  param?: string;
  /** What the user must add for this API (empty: found by itself). */
  flags?: string[];
  /** The token that leads to page n (2, 3, 4); default an opaque base64 string with + / =. */
  token?: (n: number) => string;
  /** Where the page number is in a next URL that is not `?<param>=<token>`. */
  locate?: (url: URL) => number | undefined;
  page(p: ZooPage): { body: unknown; headers?: Record<string, string> };
  /**
   * all: pages to the end; warn: to the end, then one warning (a total that differs); stops: page 1,
   * then exit 1 with one line naming the field that says there is more.
   */
  expect?: 'all' | 'warn' | 'stops';
  /** Items per page, in order, when not `perPage` each (a 0 is an empty page mid-list). */
  layout?: number[];
}

const orNull = <T>(v: T | undefined) => v ?? null;
const link = (url: string | undefined): Record<string, string> => (url ? { link: `<${url}>; rel="next"` } : {});
const noQuery = (p: ZooPage) => p.url && new URL(p.url).search;

export const ZOO: ZooShape[] = [
  // checked: https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api (Link rel="next", ?page=)
  {
    name: 'github',
    source: 'GitHub REST: Link header',
    param: 'page',
    token: String,
    page: (p) => ({ body: p.items, headers: link(p.url) }),
  },
  // checked: https://shopify.dev/docs/api/admin-rest/usage/pagination (Link rel="next"/"previous", ?page_info=&limit=)
  {
    name: 'shopify',
    source: 'Shopify REST: Link page_info',
    param: 'page_info',
    page: (p) => {
      const links = [
        ...(p.n > 1 ? [`<${p.origin}/shopify/x?page_info=prev${p.n}&limit=2>; rel="previous"`] : []),
        ...(p.url ? [`<${p.url}&limit=2>; rel="next"`] : []),
      ];
      const headers: Record<string, string> = links.length > 0 ? { link: links.join(', ') } : {};
      return { body: { products: p.items }, headers };
    },
  },
  // checked (Link rel="next", followed as given): https://developer.okta.com/docs/api/#pagination
  { name: 'okta', source: 'Okta: Link rel=next, after=', param: 'after', page: (p) => ({ body: p.items, headers: link(p.url) }) },
  // checked: https://docs.sentry.io/api/pagination/ — the last page keeps rel="next" with results="false"; each
  // link also carries its cursor="…" attribute
  {
    name: 'sentry',
    source: 'Sentry: Link with results="true"/"false"',
    param: 'cursor',
    token: (n) => `1420837533:${n}:0`,
    page: (p) => ({
      body: p.items,
      headers: {
        link: `<${p.origin}/x?cursor=0:0:1>; rel="previous"; results="false"; cursor="0:0:1", <${p.url ?? `${p.origin}/sentry/x?cursor=9:9:9`}>; rel="next"; results="${p.url ? 'true' : 'false'}"; cursor="${p.token ?? '9:9:9'}"`,
      },
    }),
  },
  // https://docs.slack.dev/apis/web-api/pagination
  {
    name: 'slack',
    source: 'Slack conversations.list',
    page: (p) => ({ body: { ok: true, channels: p.items, response_metadata: { next_cursor: p.token ?? '' } } }),
  },
  // https://learn.microsoft.com/graph/paging
  {
    name: 'msgraph',
    source: 'Microsoft Graph @odata.nextLink',
    param: '$skiptoken',
    page: (p) => ({
      body: { '@odata.context': `${p.origin}/$metadata#users`, value: p.items, ...(p.url ? { '@odata.nextLink': p.url } : {}) },
    }),
  },
  // https://learn.microsoft.com/rest/api/azure/#async-operations-throttling-and-paging
  {
    name: 'azure',
    source: 'Azure Resource Manager nextLink',
    param: '$skiptoken',
    page: (p) => ({ body: { value: p.items, nextLink: orNull(p.url) } }),
  },
  // https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api/resources_query_more_results.htm
  {
    name: 'salesforce',
    source: 'Salesforce query nextRecordsUrl/done',
    locate: (u) => Number(/-(\d)$/.exec(u.pathname)?.[1] ?? 1),
    page: (p) => ({
      body: {
        totalSize: 6,
        done: !p.token,
        ...(p.token ? { nextRecordsUrl: `/services/data/v67.0/query/01gRO0000016PIAYA2-${p.n + 1}` } : {}),
        records: p.items,
      },
    }),
  },
  // https://docs.stripe.com/api/pagination
  {
    name: 'stripe',
    source: 'Stripe list object, starting_after',
    param: 'starting_after',
    token: (n) => `stripe_${2 * (n - 1)}`,
    page: (p) => ({ body: { object: 'list', url: '/v1/customers', has_more: !!p.token, data: p.items } }),
  },
  // https://developers.hubspot.com/docs/api/crm/understanding-the-crm (paging.next {after, link})
  {
    name: 'hubspot',
    source: 'HubSpot CRM paging.next.after/link',
    param: 'after',
    token: (n) => `NTI${n}Cg==`,
    page: (p) => ({
      body: {
        results: p.items,
        ...(p.token ? { paging: { next: { after: encodeURIComponent(p.token), link: `?after=${encodeURIComponent(p.token)}` } } } : {}),
      },
    }),
  },
  // https://developers.intercom.com/docs/build-an-integration/learn-more/rest-apis/pagination/
  {
    name: 'intercom',
    source: 'Intercom pages.next.starting_after',
    param: 'starting_after',
    token: (n) => `WzE3NDczNjU1NTUwMDAsIjYzMTFh${n}XQ==`,
    page: (p) => ({
      body: {
        type: 'list',
        data: p.items,
        total_count: 6,
        pages: { type: 'pages', next: p.token ? { page: p.n + 1, starting_after: p.token } : null, page: p.n, per_page: 2, total_pages: 3 },
      },
    }),
  },
  // intercom-client PagesLink: pages.next as a URL (older list endpoints)
  {
    name: 'intercom-links',
    source: 'Intercom pages.next URL',
    param: 'page',
    token: String,
    page: (p) => ({
      body: { type: 'admin.list', admins: p.items, pages: { type: 'pages', next: p.url, page: p.n, per_page: 2, total_pages: 3 } },
    }),
  },
  // checked: https://developer.zendesk.com/api-reference/introduction/pagination/ (cursor: meta.has_more,
  // after_cursor, links.next with page[size] and page[after])
  {
    name: 'zendesk',
    source: 'Zendesk cursor: meta.has_more, links.next',
    param: 'page[after]',
    page: (p) => ({
      body: {
        tickets: p.items,
        meta: { has_more: !!p.token, after_cursor: orNull(p.token), before_cursor: 'x' },
        links: { prev: `${p.origin}/zendesk/x`, next: orNull(p.url) },
      },
    }),
  },
  // https://docs.zendesk.com/api-reference/introduction/pagination/ (offset, next_page URL)
  {
    name: 'zendesk-offset',
    source: 'Zendesk offset: next_page URL',
    param: 'page',
    token: String,
    page: (p) => ({ body: { users: p.items, next_page: orNull(p.url), previous_page: null, count: 6 } }),
  },
  // checked: https://developer.squareup.com/docs/build-basics/common-api-patterns/pagination (cursor, absent at the end)
  { name: 'square', source: 'Square cursor', page: (p) => ({ body: { customers: p.items, ...(p.token ? { cursor: p.token } : {}) } }) },
  // https://airtable.com/developers/web/api/list-records (offset is an opaque string)
  {
    name: 'airtable',
    source: 'Airtable offset token',
    param: 'offset',
    token: (n) => `itrx${n}/rec${n}Ab`,
    page: (p) => ({ body: { records: p.items, ...(p.token ? { offset: p.token } : {}) } }),
  },
  // https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks
  {
    name: 'kubernetes',
    source: 'Kubernetes metadata.continue',
    param: 'continue',
    page: (p) => ({
      body: {
        kind: 'PodList',
        apiVersion: 'v1',
        metadata: { resourceVersion: '10245', continue: p.token ?? '', ...(p.token ? { remainingItemCount: 6 - 2 * p.n } : {}) },
        items: p.items,
      },
    }),
  },
  // https://developer.atlassian.com/cloud/confluence/rest/v1/intro/#pagination (relative to _links.base)
  {
    name: 'confluence',
    source: 'Confluence _links.next, relative to _links.base',
    param: 'start',
    token: (n) => String(2 * (n - 1)),
    page: (p) => ({
      body: {
        results: p.items,
        start: 2 * (p.n - 1),
        limit: 2,
        size: 2,
        _links: {
          base: `${p.origin}/confluence`,
          context: '/confluence',
          ...(p.token ? { next: `/rest/api/space?next=true&limit=2&start=${p.token}` } : {}),
        },
      },
    }),
  },
  // checked: https://developers.asana.com/docs/pagination (next_page {offset, path, uri}, null at the end)
  {
    name: 'asana',
    source: 'Asana next_page {offset, path, uri}',
    param: 'offset',
    page: (p) => ({ body: { data: p.items, next_page: p.token ? { offset: p.token, path: `/tasks${noQuery(p)}`, uri: p.url } : null } }),
  },
  // checked: https://developer.box.com/guides/api-calls/pagination/marker-based/ (entries, limit, next_marker; ?marker=)
  {
    name: 'box',
    source: 'Box marker paging next_marker',
    param: 'marker',
    page: (p) => ({ body: { entries: p.items, limit: 2, next_marker: orNull(p.token) } }),
  },
  // checked: https://developer.calendly.com/api-docs/ (collection, pagination.next_page URL, next_page_token)
  {
    name: 'calendly',
    source: 'Calendly pagination.next_page',
    param: 'page_token',
    page: (p) => ({
      body: {
        collection: p.items,
        pagination: {
          count: 2,
          next_page: orNull(p.url),
          previous_page: null,
          next_page_token: orNull(p.token),
          previous_page_token: null,
        },
      },
    }),
  },
  // https://www.twilio.com/docs/usage/twilios-response (2010 API: next_page_uri, relative to the host)
  {
    name: 'twilio',
    source: 'Twilio 2010 next_page_uri',
    param: 'PageToken',
    token: (n) => `PA${n}95f7fba1aeb7`,
    page: (p) => ({
      body: {
        calls: p.items,
        first_page_uri: '/x',
        next_page_uri: p.token ? `/2010-04-01/Accounts/AC1/Calls.json?Page=${p.n}&PageSize=2&PageToken=${p.token}` : null,
        page: p.n - 1,
        page_size: 2,
        start: 0,
        end: 1,
        uri: '/x',
      },
    }),
  },
  // https://www.twilio.com/docs/usage/twilios-response (product APIs: meta.next_page_url)
  {
    name: 'twilio-v1',
    source: 'Twilio meta.next_page_url',
    param: 'PageToken',
    page: (p) => ({
      body: {
        conversations: p.items,
        meta: {
          page: p.n - 1,
          page_size: 2,
          first_page_url: p.origin,
          previous_page_url: null,
          url: p.origin,
          next_page_url: orNull(p.url),
          key: 'conversations',
        },
      },
    }),
  },
  // https://developer.paypal.com/api/rest/responses/#link-hateoaslinks
  {
    name: 'paypal',
    source: 'PayPal HATEOAS links [{href, rel: next}]',
    param: 'page',
    token: String,
    page: (p) => ({
      body: {
        plans: p.items,
        total_items: 6,
        total_pages: 3,
        links: [{ href: `${p.origin}/self`, rel: 'self', method: 'GET' }, ...(p.url ? [{ href: p.url, rel: 'next', method: 'GET' }] : [])],
      },
    }),
  },
  // checked: https://docs.digitalocean.com/reference/api/intro (links.pages {first, prev, next, last}, meta.total)
  {
    name: 'digitalocean',
    source: 'DigitalOcean links.pages.next',
    param: 'page',
    token: String,
    page: (p) => ({
      body: {
        droplets: p.items,
        links: { pages: p.url ? { next: p.url, last: `${p.origin}/last` } : { first: p.origin } },
        meta: { total: 6 },
      },
    }),
  },
  // https://docs.aws.amazon.com/apigatewayv2/latest/api-reference/apis.html (GET /v2/apis: items, nextToken)
  {
    name: 'aws',
    source: 'AWS API Gateway v2 nextToken',
    param: 'nextToken',
    page: (p) => ({ body: { items: p.items, ...(p.token ? { nextToken: p.token } : {}) } }),
  },
  // https://www.django-rest-framework.org/api-guide/pagination/#pagenumberpagination
  {
    name: 'django',
    source: 'Django REST framework next URL',
    param: 'page',
    token: String,
    page: (p) => ({ body: { count: 6, next: orNull(p.url), previous: null, results: p.items } }),
  },
  // https://laravel.com/docs/pagination#converting-results-to-json
  {
    name: 'laravel',
    source: 'Laravel next_page_url',
    param: 'page',
    token: String,
    page: (p) => ({
      body: {
        current_page: p.n,
        data: p.items,
        next_page_url: orNull(p.url),
        last_page: 3,
        per_page: 2,
        total: 6,
        links: [{ url: null, label: 'prev', active: false }],
      },
    }),
  },
  // https://jsonapi.org/format/#fetching-pagination
  {
    name: 'jsonapi',
    source: 'JSON:API links.next',
    param: 'page[cursor]',
    page: (p) => ({ body: { data: p.items, links: { self: p.origin, next: orNull(p.url) } } }),
  },
  // https://docs.spring.io/spring-hateoas/docs/current/reference/html/ (HAL)
  {
    name: 'hal',
    source: 'HAL _embedded + _links.next.href',
    param: 'page',
    token: String,
    page: (p) => ({
      body: {
        _embedded: { orders: p.items },
        _links: { self: { href: p.origin }, ...(p.url ? { next: { href: p.url } } : {}) },
        page: { size: 2, totalElements: 6 },
      },
    }),
  },
  // https://www.twilio.com/docs/sendgrid/api-reference (contacts: _metadata.next)
  {
    name: 'sendgrid',
    source: 'SendGrid _metadata.next',
    param: 'page_token',
    page: (p) => ({ body: { result: p.items, _metadata: { self: p.origin, ...(p.url ? { next: p.url } : {}), count: 6 } } }),
  },
  // https://developers.pipedrive.com/docs/api/v1 (v2 cursor: additional_data.next_cursor)
  {
    name: 'pipedrive',
    source: 'Pipedrive v2 additional_data.next_cursor',
    page: (p) => ({ body: { success: true, data: p.items, additional_data: { next_cursor: orNull(p.token) } } }),
  },
  // https://developer.atlassian.com/cloud/jira/platform/rest/v3/ (PageBean: nextPage URL, isLast)
  {
    name: 'jira-pagebean',
    source: 'Jira Cloud PageBean nextPage/isLast',
    param: 'startAt',
    token: (n) => String(2 * (n - 1)),
    page: (p) => ({
      body: {
        self: p.origin,
        ...(p.url ? { nextPage: p.url } : {}),
        maxResults: 2,
        startAt: 2 * (p.n - 1),
        total: 6,
        isLast: !p.token,
        values: p.items,
      },
    }),
  },
  // https://github.blog/ (GraphQL-style pageInfo over a REST listing)
  {
    name: 'relay',
    source: 'GraphQL Relay pageInfo endCursor/hasNextPage',
    page: (p) => ({ body: { data: { nodes: p.items, pageInfo: { endCursor: p.token ?? 'end', hasNextPage: !!p.token } } } }),
  },

  // Found by the convention its field names (or a signature beside it): the token goes back under that
  // API's own parameter, not ?cursor= (src/http/paging-rules.ts).
  // checked: https://developers.google.com/calendar/api/guides/pagination (nextPageToken, pageToken; the
  // last page carries nextSyncToken instead)
  {
    name: 'google',
    source: 'Google APIs nextPageToken → pageToken',
    param: 'pageToken',
    page: (p) => ({
      body: {
        kind: 'calendar#events',
        summary: 'me',
        items: p.items,
        ...(p.token ? { nextPageToken: p.token } : { nextSyncToken: 'CPDAlvWDx70CEPDAlvWDx70CGAU=' }),
      },
    }),
  },
  // checked: https://developers.notion.com/reference/pagination (object "list", next_cursor, has_more; start_cursor)
  {
    name: 'notion',
    source: 'Notion next_cursor → start_cursor',
    param: 'start_cursor',
    page: (p) => ({
      body: { object: 'list', results: p.items, next_cursor: orNull(p.token), has_more: !!p.token, type: 'page', page: {} },
    }),
  },
  // checked: https://docs.x.com/x-api/fundamentals/pagination (meta.next_token, result_count; pagination_token)
  {
    name: 'x',
    source: 'X/Twitter meta.next_token → pagination_token',
    param: 'pagination_token',
    page: (p) => ({
      body: { data: p.items, meta: { result_count: 2, newest_id: '1', oldest_id: '0', ...(p.token ? { next_token: p.token } : {}) } },
    }),
  },
  // checked: https://developers.zoom.us/docs/api/pagination (next_page_token, "" on the last page; page_size)
  {
    name: 'zoom',
    source: 'Zoom next_page_token',
    param: 'next_page_token',
    page: (p) => ({
      body: { from: '2024-02-07', to: '2024-02-15', page_size: 2, total_records: 6, next_page_token: p.token ?? '', meetings: p.items },
    }),
  },
  // checked: JRACLOUD-92184 and the search/jql reference (nextPageToken absent on the last page, isLast)
  {
    name: 'jira-jql',
    source: 'Jira search/jql nextPageToken/isLast',
    param: 'nextPageToken',
    page: (p) => ({ body: { issues: p.items, ...(p.token ? { nextPageToken: p.token } : {}), isLast: !p.token } }),
  },

  // Need a flag: the token goes back in a parameter nothing in the body names.
  // https://discord.com/developers/docs/resources/message#get-channel-messages (before=<message id>): a bare
  // array with no paging signal at all, so nothing says there is more or how to ask for it.
  {
    name: 'discord',
    source: 'Discord messages, before=<last id>',
    param: 'before',
    flags: ['--cursor-from-last', 'id', '--cursor-param', 'before'],
    token: (n) => `discord_${2 * (n - 1)}`,
    page: (p) => ({ body: p.items }),
  },
  // checked: https://developer.whoop.com/docs/developing/pagination (records, next_token; ?nextToken=): the
  // same field as X, told apart by the `records` beside it
  {
    name: 'whoop',
    source: 'WHOOP next_token → nextToken',
    param: 'nextToken',
    page: (p) => ({ body: { records: p.items, next_token: p.token ?? null } }),
  },

  // Out of reach: numbers only. Page 1, then exit 1 naming the count or flag that says there is more.
  // https://mailchimp.com/developer/marketing/docs/methods-parameters/#pagination
  {
    name: 'mailchimp',
    source: 'Mailchimp offset/count, total_items',
    expect: 'stops',
    page: (p) => ({ body: { members: p.items, list_id: 'l1', total_items: 6 } }),
  },
  // https://developer.box.com/guides/api-calls/pagination/offset-based/
  {
    name: 'box-offset',
    source: 'Box offset paging, total_count',
    expect: 'stops',
    page: (p) => ({ body: { entries: p.items, limit: 2, offset: 0, total_count: 6 } }),
  },
  // https://developer.atlassian.com/cloud/jira/software/rest/intro/#pagination (startAt + isLast)
  {
    name: 'jira-agile',
    source: 'Jira Agile startAt/isLast',
    expect: 'stops',
    page: (p) => ({ body: { maxResults: 2, startAt: 0, isLast: false, values: p.items } }),
  },
  // https://developers.pipedrive.com/docs/api/v1 (v1: more_items_in_collection, next_start)
  {
    name: 'pipedrive-v1',
    source: 'Pipedrive v1 offset paging',
    expect: 'stops',
    page: (p) => ({
      body: {
        success: true,
        data: p.items,
        additional_data: { pagination: { start: 0, limit: 2, more_items_in_collection: true, next_start: 2 } },
      },
    }),
  },
];
