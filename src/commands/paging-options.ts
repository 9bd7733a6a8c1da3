// The flags that override where a list command finds its items and its next page (bookings list,
// event-types, api --paginate): the same four everywhere, worded for the command that has them.
import type { Option } from 'commander';
import { nonEmpty } from '../options';
import { option } from './define';

/** What the four flags give the list runner (src/commands/list-runner.ts). */
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
 * --cursor-path, --items-path, --cursor-param, --cursor-from-last, in help order. `prefix` starts
 * each description ("with --paginate: "); `overrides` ends the two paths' (" (overrides discovery)").
 */
export function pagingRuleOptions(prefix = '', overrides = ''): Option[] {
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
