// The flags that override where a list command finds its items and its next page (bookings list,
// event-types, api --paginate): the same four everywhere, worded for the command that has them.
import { nonEmpty } from '../../base/options';
import { option } from '../define';

/** What the four flags give the list runner (src/commands/shared/list-runner.ts). */
export interface PagingRuleOptions {
  cursorPath?: string;
  cursorParam?: string;
  cursorFromLast?: string;
  itemsPath?: string;
}

/** Just the four, from a command's options, for runList. */
export function pagingRules({ cursorPath, cursorParam, cursorFromLast, itemsPath }: PagingRuleOptions): PagingRuleOptions {
  return { cursorPath, cursorParam, cursorFromLast, itemsPath };
}

/**
 * The paging rules in force: the flags, or else the profile's settings, never a mix of the two (a
 * --cursor-path given today is not overruled by a saved cursorFromLast, nor the reverse), and the
 * notes paging writes (not silenced by -q: they say the output may be incomplete) and --debug's.
 */
export function pagingInForce(
  flags: PagingRuleOptions,
  profile: PagingRuleOptions,
  ctx: { io: { stderr: { write(s: string): unknown } }; globals: { debug: boolean } },
): PagingRuleOptions & { onNote(line: string): void; onDebug?(line: string): void } {
  const fromFlags = flags.cursorPath !== undefined || flags.cursorFromLast !== undefined;
  const line = (text: string) => void ctx.io.stderr.write(`${text}\n`);
  return {
    cursorPath: fromFlags ? flags.cursorPath : profile.cursorPath,
    cursorParam: flags.cursorParam ?? profile.cursorParam,
    cursorFromLast: fromFlags ? flags.cursorFromLast : profile.cursorFromLast,
    itemsPath: flags.itemsPath ?? profile.itemsPath,
    onNote: line,
    onDebug: ctx.globals.debug ? line : undefined,
  };
}

/**
 * --cursor-path, --items-path, --cursor-param, --cursor-from-last, in help order. `prefix` starts
 * each description ("with --paginate: "); `overrides` ends the two paths' (" (overrides discovery)").
 */
export function pagingRuleOptions(prefix = '', overrides = '') {
  return [
    option('--cursor-path <path>', `${prefix}dot path of the next cursor in the body${overrides}`, nonEmpty('--cursor-path')),
    option('--items-path <path>', `${prefix}dot path of the items array in the body${overrides}`, nonEmpty('--items-path')),
    option(
      '--cursor-param <name>',
      `${prefix}query parameter that carries the cursor (default: cursor, or the convention's)`,
      nonEmpty('--cursor-param'),
    ),
    option(
      '--cursor-from-last <field>',
      `${prefix}the next cursor is this field of the last item (Stripe style)`,
      nonEmpty('--cursor-from-last'),
    ),
  ];
}
