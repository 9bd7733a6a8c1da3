// Renders the fish script: a helper that works out the command path from the tokens typed so far,
// and one `complete` line per subcommand, option and positional argument, each guarded by that path.
// Global options carry no guard: they are accepted at every level.
import { allCommands, optionsAt, optionWords, type CompletionSpec, type OptionSpec, type ValueKind } from './model';
import { PROFILES_COMMAND } from './shells';
import { fishQuote as q, header, pathKey } from './text';

export function renderFish(spec: CompletionSpec): string {
  const p = spec.program;
  const commands = allCommands(spec.root);
  const lines: string[] = [...header('fish', p), ''];

  lines.push(
    '# The command path a subcommand word (or alias) leads to from a path.',
    `function __${p}_child`,
    '    switch "$argv[1]|$argv[2]"',
  );
  for (const parent of commands) {
    for (const cmd of parent.commands) {
      lines.push(
        `        case ${[cmd.name, ...cmd.aliases].map((w) => q(`${pathKey(parent)}|${w}`)).join(' ')}`,
        `            echo ${q(pathKey(cmd))}`,
      );
    }
  }
  lines.push("        case '*'", '            return 1', '    end', 'end', '');

  lines.push(
    '# The options that take a value at a path (their value is not a positional argument).',
    `function __${p}_takes_value`,
    '    switch "$argv[1]"',
  );
  for (const cmd of commands) {
    const words = optionsAt(spec, cmd)
      .filter((o) => o.value)
      .flatMap(optionWords);
    lines.push(`        case ${q(pathKey(cmd))}`, `            contains -- $argv[2] ${words.map(q).join(' ')}`);
  }
  lines.push('    end', 'end', '');

  lines.push(...helpers(p), '');
  lines.push(`complete -c ${p} -f`);
  for (const o of spec.globals) lines.push(optionLine(p, o, ''));
  for (const cmd of commands) {
    const at = (n?: number | string) => `-n ${q(`__${p}_at ${q(pathKey(cmd))}${n === undefined ? '' : ` ${n}`}`)}`;
    for (const c of cmd.commands) lines.push(`complete -c ${p} ${at(0)} -a ${q(c.name)} -d ${q(c.description)}`);
    for (const o of cmd.options) lines.push(optionLine(p, o, at()));
    cmd.args.forEach((a, i) => {
      const flags = valueFlags(p, a.value);
      if (flags) lines.push(`complete -c ${p} ${at(a.variadic ? `${i}+` : i)} ${flags} -d ${q(a.description || a.name)}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

function optionLine(p: string, o: OptionSpec, guard: string): string {
  const names = [o.short ? `-s ${o.short.replace(/^-/, '')}` : '', o.long ? `-l ${o.long.replace(/^--/, '')}` : ''];
  const value = o.value ? valueFlags(p, o.value) : '';
  return ['complete -c', p, guard, ...names, value, `-d ${q(o.description)}`].filter(Boolean).join(' ');
}

/** -x: takes a value, offer no files; -r -F: takes a file. */
function valueFlags(p: string, value: ValueKind): string {
  switch (value.kind) {
    case 'choices':
      return `-x -a ${q(value.values.join(' '))}`;
    case 'file':
      return value.names ? `-r -F -a ${q(value.names.join(' '))}` : '-r -F';
    case 'dir':
      return `-x -a ${q('(__fish_complete_directories (commandline -ct))')}`;
    case 'profiles':
      return `-x -a ${q(`(__${p}_profiles)`)}`;
    case 'none':
      return '-x';
  }
}

function helpers(p: string): string[] {
  return `
# Sets __${p}_path (the command path typed so far) and __${p}_npos (positional words after it).
# Every condition of one TAB asks this of the same line: it is worked out once for that line (a
# TAB's ~260 conditions each read the line again took ~25 ms).
function __${p}_state
    set -l line (string join \\n -- (commandline -pc))
    if set -q __${p}_state_line; and test "$__${p}_state_line" = "$line"
        return 0
    end
    set -g __${p}_state_line $line
    set -g __${p}_path ''
    set -g __${p}_npos 0
    set -l pending 0
    set -l dashdash 0
    set -l next
    set -l tokens (commandline -opc)
    set -e tokens[1]
    for t in $tokens
        if test $pending = 1
            set pending 0
            continue
        end
        if test $dashdash = 0
            switch $t
                case --
                    set dashdash 1
                    continue
                case '--*=*'
                    continue
                case '-*'
                    __${p}_takes_value "$__${p}_path" $t; and set pending 1
                    continue
            end
        end
        if test $__${p}_npos = 0; and set next (__${p}_child "$__${p}_path" $t)
            set -g __${p}_path $next
        else
            set -g __${p}_npos (math $__${p}_npos + 1)
        end
    end
end

# __${p}_at PATH [N | N+]: the line is at PATH (with exactly N, or at least N, positional words).
function __${p}_at
    __${p}_state
    test "$__${p}_path" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    if string match -q -- '*+' $argv[2]
        test $__${p}_npos -ge (string trim -r -c + -- $argv[2])
    else
        test $__${p}_npos -eq $argv[2]
    end
end

# Profile names live in the user's config, so they are read when TAB is pressed.
function __${p}_profiles
    command ${p} ${PROFILES_COMMAND.join(' ')} 2>/dev/null
end`
    .trim()
    .split('\n');
}
