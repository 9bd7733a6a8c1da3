// Renders the zsh script: one function per command, each an `_arguments` call with its own and the
// global option specs; commands with subcommands hand the rest of the line to the chosen child
// (`*:: :->args`, git's pattern). The file works both autoloaded from $fpath and sourced.
import { allCommands, optionsAt, type ArgSpec, type CommandSpec, type CompletionSpec, type OptionSpec, type ValueKind } from './model';
import { PROFILES_COMMAND } from './shells';
import { functionName, header, sq } from './text';

export function renderZsh(spec: CompletionSpec): string {
  const p = spec.program;
  const act = (v: ValueKind) => action(p, v);
  const lines: string[] = [`#compdef ${p}`, ...header('zsh', p), ''];
  // The global options' specs once, for every command that does not redefine one of them: written
  // out in each function they were half of the script.
  lines.push(`${globalsArray(p)}=(`, ...spec.globals.flatMap((o) => optionSpecs(o, act)).map((s) => `  ${s}`), ')', '');
  for (const cmd of allCommands(spec.root)) lines.push(...commandFunction(spec, cmd), '');
  lines.push(
    "# Profile names live in the user's config, so they are read when TAB is pressed.",
    `_${p}_profiles() {`,
    '  local -a profiles',
    `  profiles=(\${(f)"$(_call_program profiles ${p} ${PROFILES_COMMAND.join(' ')} 2>/dev/null)"})`,
    "  _wanted profiles expl 'profile' compadd -a profiles",
    '}',
    '',
    // Autoloaded from $fpath, this body runs as the completion function on the first TAB (and has just
    // defined the real one); sourced after compinit, it registers itself.
    `if [[ $funcstack[1] == _${p} ]]; then`,
    `  _${p} "$@"`,
    'else',
    `  compdef _${p} ${p}`,
    'fi',
  );
  return `${lines.join('\n')}\n`;
}

const globalsArray = (program: string) => `_${program}_global_specs`;

function commandFunction(spec: CompletionSpec, cmd: CommandSpec): string[] {
  const act = (v: ValueKind) => action(spec.program, v);
  const options = optionsAt(spec, cmd);
  // All the globals (none redefined here): the shared array; else the ones this command keeps.
  const allGlobals = spec.globals.every((g) => options.includes(g));
  const optionLines = (allGlobals ? options.filter((o) => !spec.globals.includes(o)) : options).flatMap((o) => optionSpecs(o, act));
  const specs = [...(allGlobals ? [`"\${${globalsArray(spec.program)}[@]}"`] : []), ...optionLines, ...argSpecs(cmd.args, act)];
  const fn = functionName(spec.program, cmd);
  if (cmd.commands.length === 0) {
    return [`${fn}() {`, '  _arguments -s -S \\', ...continued(specs), '}'];
  }
  const what = [spec.program, ...cmd.path, 'command'].join(' ');
  return [
    `${fn}() {`,
    '  local curcontext="$curcontext" state state_descr line ret=1',
    '  typeset -A opt_args',
    // -A '-*': options after the subcommand word are the subcommand's (global ones included), not ours.
    "  _arguments -C -s -S -A '-*' \\",
    ...continued([...specs, sq('1: :->command'), sq('*:: :->args')]).map((l, i, all) => (i === all.length - 1 ? `${l} && ret=0` : l)),
    '  case $state in',
    '    command)',
    '      local -a commands',
    '      commands=(',
    ...cmd.commands.map((c) => `        ${sq(`${c.name.replace(/:/g, '\\:')}:${c.description}`)}`),
    '      )',
    `      _describe -t commands ${sq(what)} commands && ret=0`,
    '      ;;',
    '    args)',
    '      case $words[1] in',
    ...cmd.commands.map((c) => `        ${[c.name, ...c.aliases].map(sq).join('|')}) ${functionName(spec.program, c)} && ret=0 ;;`),
    '      esac',
    '      ;;',
    '  esac',
    '  return ret',
    '}',
  ];
}

function continued(specs: string[]): string[] {
  return specs.map((s, i) => `    ${s}${i < specs.length - 1 ? ' \\' : ''}`);
}

/** One _arguments spec per spelling, with the spellings excluding each other. */
function optionSpecs(o: OptionSpec, action: (v: ValueKind) => string): string[] {
  const names = [o.short, o.long].filter((n): n is string => Boolean(n));
  const exclusion = o.repeatable ? '*' : names.length > 1 ? `(${names.join(' ')})` : '';
  const description = `[${escapeBrackets(o.description)}]`;
  const value = o.value ? `:${escapeColons(o.valueName || 'value')}:${action(o.value)}` : '';
  return names.map((n) => {
    // "--output=" takes "--output=json" or "--output json"; "-o+" takes "-ojson" or "-o json".
    const form = o.value ? (n.startsWith('--') ? `${n}=` : `${n}+`) : n;
    return sq(`${exclusion}${form}${description}${value}`);
  });
}

function argSpecs(args: ArgSpec[], action: (v: ValueKind) => string): string[] {
  return args.map((a) => {
    const prefix = a.variadic ? '*' : a.required ? '' : ':';
    return sq(`${prefix}:${escapeColons(a.name)}:${action(a.value)}`);
  });
}

function action(program: string, value: ValueKind): string {
  switch (value.kind) {
    case 'choices':
      return `(${value.values.map((v) => v.replace(/[\\\s():'"]/g, (c) => `\\${c}`)).join(' ')})`;
    case 'file':
      return value.names ? `{_files; compadd -- ${value.names.join(' ')}}` : '_files';
    case 'dir':
      return '_files -/';
    case 'profiles':
      return `_${program}_profiles`;
    case 'none':
      return ' ';
  }
}

function escapeBrackets(text: string): string {
  return text.replace(/[\\\][]/g, (c) => `\\${c}`);
}

function escapeColons(text: string): string {
  return text.replace(/[\\:]/g, (c) => `\\${c}`);
}
