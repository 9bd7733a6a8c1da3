// `booking api <path>`: a GET of any path under the base URL with the key, for what the commands do
// not cover (gh api's habit). Bodies are printed as sent: JSON pretty-printed losslessly, anything else
// byte for byte (escaped on a terminal).
import type { RunResult } from '../deps';
import { defineCommand, option, type OptionsOf } from '../define';
import { pagingRuleOptions, pagingRules } from '../shared/paging-options';
import type { Context } from '../../context';
import type { HttpResponse } from '../../http/types';
import { InvalidArgumentError } from 'commander';
import { FailureError, InterruptedError, UsageError } from '../../base/errors';
import { escapeOneLine, requestName } from '../../http/failures';
import { formatBytes } from '../../base/words';
import { collect, intOption, nonEmpty } from '../../base/options';
import { runList, throughPager } from '../shared/list-runner';

export const newCmdApi = defineCommand({
  name: 'api',
  description: 'GET any path under the base URL with your key (for endpoints the commands do not cover)',
  arguments: [['<path>', 'path under the base URL, e.g. /api/v1/me']],
  options: [
    option('--paginate', 'follow next pages and print all items (paging rules of bookings list)', undefined, false),
    option('-F, --field <key=value>', 'add a query parameter (repeatable)', collect(keyValue), []),
    option('-L, --limit <n>', 'with --paginate: print at most N items', intOption(1, 1_000_000_000)),
    option('--cursor <cursor>', 'with --paginate: start at this cursor or next-page URL (as a failure names it)', nonEmpty('--cursor')),
    ...pagingRuleOptions('with --paginate: '),
  ],
  sendsRequests: true,
  examples: [
    'booking api /api/v1/me',
    'booking api /api/v1/bookings -F status=pending -F limit=5',
    "booking api /api/v1/bookings --paginate -L 200 --jq '.[].uid'",
  ],
  run: (opts, ctx): RunResult => runApi(opts, ctx),
});

function keyValue(value: string): [string, string] {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`expected key=value, got "${value}".`);
  return [value.slice(0, eq), value.slice(eq + 1)];
}

/** "/api/v1/x", "api/v1/x" or a full URL (same origin only: the client checks) plus -F parameters. */
function apiTarget(path: string, fields: [string, string][]): string {
  if (path.trim() === '') throw new UsageError('api: the path must not be empty.');
  const isUrl = /^https?:\/\//i.test(path);
  if (!isUrl && /^[a-z][a-z0-9+.-]*:\/\//i.test(path))
    throw new UsageError(`api: "${path.slice(0, 80)}" is neither a path nor an http(s) URL.`);
  // A #fragment never reaches the server: dropped, so that -F parameters land in the query.
  const bare = path.replace(/#.*$/s, '');
  let target = isUrl || bare.startsWith('/') ? bare : `/${bare}`;
  if (fields.length > 0) {
    const params = new URLSearchParams(fields);
    target += (target.includes('?') ? '&' : '?') + params.toString();
  }
  return target;
}

async function runApi(opts: OptionsOf<typeof newCmdApi>, ctx: Context): RunResult {
  const target = apiTarget(opts.path, opts.field);
  if (!opts.paginate) {
    const pagingOnly = (['limit', 'cursor', 'cursorPath', 'cursorParam', 'cursorFromLast', 'itemsPath'] as const).find(
      (k) => opts[k] !== undefined,
    );
    if (pagingOnly) throw new UsageError(`--${pagingOnly.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} goes with --paginate.`);
    // Without --paginate the body is printed as sent: there are no items to lay out as rows.
    const output = ctx.globals.output;
    if (output && output !== 'json')
      throw new UsageError(`-o ${output} goes with --paginate: without it, api prints the body as sent (JSON pretty-printed).`);
  }
  if (opts.paginate) {
    // api is JSON-first: a paginated call prints one JSON array unless -o says otherwise.
    const listCtx = ctx.globals.output ? ctx : { ...ctx, globals: { ...ctx.globals, output: 'json' as const } };
    await runList(listCtx, {
      path: target,
      paginate: true,
      limit: opts.limit,
      cursor: opts.cursor,
      ...pagingRules(opts),
      sendLimit: false,
    });
    return;
  }
  const client = await ctx.http();
  let response: HttpResponse | undefined = await client.get(target, { signal: ctx.signal });
  const output = await import('../../output/index');
  const json = await jsonBody(response, ctx.signal);
  // Once parsed, the body's bytes are not needed: let them go before the JSON is written (a big
  // body would otherwise be held twice over while it prints).
  const raw = json.ok ? undefined : response;
  if (raw) refuseShapingOfText(ctx, raw);
  response = undefined;
  await throughPager(ctx, async (out) => {
    if (json.ok) await output.writeJsonValue(out, json.value);
    else if (out.io.stdoutIsTTY) output.writeEscapedText(out, raw!.text());
    else out.io.stdout.write(raw!.body);
  });
}

/**
 * A body that is not JSON is printed as sent: --jq, --json and --fields have nothing to work on, and a
 * script that asked for them must not take the text (an HTML error page) for their result.
 */
function refuseShapingOfText(ctx: Context, res: HttpResponse): void {
  const g = ctx.globals;
  const flag = g.jq !== undefined ? '--jq' : g.fields !== undefined ? '--fields' : g.output === 'json' ? '--json' : undefined;
  if (!flag) return;
  const type = res.headers['content-type'];
  const what =
    res.body.length === 0 ? 'empty' : `not JSON (${type ? escapeOneLine(type, 80) : 'no content type'}, ${formatBytes(res.body.length)})`;
  throw new FailureError(
    `${requestName('GET', res.url)}: the body is ${what}, so ${flag} has nothing to work on.`,
    `drop ${flag} to see the body as sent.`,
  );
}

/** application/json, text/json, application/problem+json…; not application/x-ndjson. */
const JSON_TYPE = /^\s*(?:application|text)\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * The body as JSON when it is some: a JSON content type must parse (else the server's error is
 * reported); a body of another or no type that merely looks like JSON is printed as it is when it
 * does not parse ("[INFO] started" from a text/plain log).
 */
async function jsonBody(response: HttpResponse, signal: AbortSignal): Promise<{ ok: true; value: unknown } | { ok: false }> {
  if (response.body.length === 0) return { ok: false };
  // A big body is parsed in turns (Ctrl-C is seen) and in pieces (src/output/json-pieces.ts).
  const parse = () => (response.jsonInTurns ? response.jsonInTurns(signal) : response.json());
  if (JSON_TYPE.test(response.headers['content-type'] ?? '')) return { ok: true, value: await parse() };
  if (!/^\s*[[{"]/.test(response.body.subarray(0, 64).toString('latin1'))) return { ok: false };
  try {
    return { ok: true, value: await parse() };
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    return { ok: false };
  }
}
