// Commander's side of the command definitions (define.ts): a definition made a commander Command
// (arguments merged into the options object, the context built, the exit code reported, examples at
// the end of the help), and the command tree (tree.ts) registered on the program. Only the runs that
// parse with commander load this; a line of plain words does not (src/commands/plain.ts).
import { Argument, Command, Option } from 'commander';
import type { CommandDeps } from './deps';
import {
  type CommandDefinition,
  type Declaration,
  type RunFunction,
  camelCase,
  commandFacts,
  examplesText,
  printsText,
  runsUntilStopped,
  STOPPED_RULE,
} from './define';
import { isGroup, type Tree } from './tree';
import { refuseShaping } from '../output/shaping';

/** The commander Command of a definition; a test passes its own run function. */
export function buildCommand<I>(definition: CommandDefinition<I>, deps: CommandDeps, runF: RunFunction<I> = definition.run): Command {
  const spec = definition;
  const cmd = new Command(spec.name).description(spec.description);
  for (const alias of spec.aliases ?? []) cmd.alias(alias);
  const argNames = (spec.arguments ?? []).map((arg) => {
    const argument = 'kind' in arg ? made(new Argument(arg.flags, arg.description), arg) : new Argument(arg[0], arg[1]);
    cmd.addArgument(argument);
    return camelCase(argument.name());
  });
  for (const option of spec.options ?? []) cmd.addOption(made(new Option(option.flags, option.description), option));
  if (spec.sendsRequests) commandFacts.set(cmd, { sendsRequests: true });
  if (spec.printsText) printsText.set(cmd, spec.printsText);
  if (spec.notes) cmd.addHelpText('after', spec.notes);
  if (spec.runsUntilStopped) {
    runsUntilStopped.add(cmd);
    cmd.addHelpText('after', `\n${STOPPED_RULE}`);
  }
  if (spec.examples.length > 0) cmd.addHelpText('after', examplesText(spec.examples));
  cmd.action(async (...params: unknown[]) => {
    const command = params[params.length - 1] as Command;
    if (spec.printsText) refuseShaping(command, spec.printsText);
    // The values as commander parsed them: what the declarations' types (Values) describe.
    const values: Record<string, unknown> = { ...(params[argNames.length] as object) };
    argNames.forEach((name, i) => {
      if (params[i] !== undefined) values[name] = params[i];
    });
    deps.setExitCode((await runF(values as I, deps.context(command, !spec.printsText))) ?? 0);
  });
  return cmd;
}

/** The Option or Argument with the declaration's parser, default and choices. */
function made<D extends Option | Argument>(target: D, declared: Declaration): D {
  if (declared.choices) target.choices(declared.choices);
  if (declared.parser) target.argParser(declared.parser as (value: string, previous: unknown) => unknown);
  if (declared.defaultValue !== undefined) target.default(declared.defaultValue, declared.defaultText);
  // Shown in the help and completions only: the parser keeps deciding (define.ts, helpChoices).
  if (declared.shownChoices) target.argChoices = [...declared.shownChoices];
  if (declared.conflicts && target instanceof Option) target.conflicts([...declared.conflicts]);
  return target;
}

/**
 * Adds the commands of `tree` to `parent`: only the one `words[0]` names (and within a group, only
 * the one `words[1]` names), or all of them when the word names none.
 */
export async function registerTree(parent: Command, tree: Tree, deps: CommandDeps, words: readonly string[] = []): Promise<void> {
  const [word, ...rest] = words;
  const names = word !== undefined && Object.hasOwn(tree, word) ? [word] : Object.keys(tree);
  const made = await Promise.all(
    names.map(async (name): Promise<[Command, boolean]> => {
      const loaded = tree[name]!;
      const entry = typeof loaded === 'function' ? await loaded() : loaded;
      if (!isGroup(entry)) return [buildCommand(entry, deps), false];
      const cmd = new Command(name).description(entry.description);
      if (entry.hidden) cmd.helpCommand(false);
      await registerTree(cmd, entry.commands, deps, names.length === 1 ? rest : []);
      return [cmd, entry.hidden === true];
    }),
  );
  for (const [i, [cmd, hidden]] of made.entries()) {
    // A bug, caught by any test that builds the whole program: the tree and the file disagree.
    if (cmd.name() !== names[i]) throw new Error(`the command tree names "${names[i]}" where its file defines "${cmd.name()}"`);
    parent.addCommand(cmd, { hidden });
  }
}
