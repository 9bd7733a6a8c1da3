// `booking api <path>`: a GET of any path under the base URL with the key, for what the commands do
// not cover (gh api's habit). Bodies are printed as sent: JSON pretty-printed losslessly, anything else
// byte for byte (escaped on a terminal).
import { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../../errors';
import { collect, intOption } from '../../options';
import { runList } from '../list-runner';

export interface ApiOptions {
  path: string;
  paginate: boolean;
  fields: [string, string][];
  limit?: number;
}

export function newCmdApi(deps: CommandDeps, runF = runApi): Command {
  return new Command('api')
    .description('GET any path under the base URL with your key (for endpoints the commands do not cover)')
    .argument('<path>', 'path under the base URL, e.g. /api/v1/me')
    .option('--paginate', 'follow next pages and print all items (paging rules of bookings list)', false)
    .option('-F, --field <key=value>', 'add a query parameter (repeatable)', collect(keyValue), [])
    .option('--limit <n>', 'with --paginate: print at most N items', intOption(1, 1_000_000_000))
    .action(async (path: string, opts: { paginate: boolean; field: [string, string][]; limit?: number }, cmd: Command) => {
      deps.setExitCode((await runF({ path, paginate: opts.paginate, fields: opts.field, limit: opts.limit }, deps.context(cmd))) ?? 0);
    });
}

function keyValue(value: string): [string, string] {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`expected key=value, got "${value}".`);
  return [value.slice(0, eq), value.slice(eq + 1)];
}

/** "/api/v1/x", "api/v1/x" or a full URL (same origin only: the client checks) plus -F parameters. */
export function apiTarget(path: string, fields: [string, string][]): string {
  if (path.trim() === '') throw new UsageError('api: the path must not be empty.');
  const isUrl = /^https?:\/\//i.test(path);
  let target = isUrl || path.startsWith('/') ? path : `/${path}`;
  if (fields.length > 0) {
    const params = new URLSearchParams(fields);
    target += (target.includes('?') ? '&' : '?') + params.toString();
  }
  return target;
}

export async function runApi(opts: ApiOptions, ctx: Context): RunResult {
  const target = apiTarget(opts.path, opts.fields);
  if (opts.paginate) {
    // api is JSON-first: a paginated call prints one JSON array unless -o says otherwise.
    const listCtx = ctx.globals.output ? ctx : { ...ctx, globals: { ...ctx.globals, output: 'json' as const } };
    await runList(listCtx, { path: target, paginate: true, limit: opts.limit, sendLimit: false });
    return;
  }
  const client = await ctx.http();
  const response = await client.get(target, { signal: ctx.signal });
  const output = await import('../../output/index');
  const type = response.headers['content-type'] ?? '';
  const looksJson = /json/i.test(type) || /^\s*[[{"]/.test(response.body.subarray(0, 64).toString('latin1'));
  if (looksJson && response.body.length > 0) {
    output.writeJsonValue(ctx, response.json());
  } else if (ctx.io.stdoutIsTTY) {
    output.writeEscapedText(ctx, response.text());
  } else {
    ctx.io.stdout.write(response.body);
  }
}

export function registerApiCommand(program: Command, deps: CommandDeps): void {
  program.addCommand(newCmdApi(deps));
}
