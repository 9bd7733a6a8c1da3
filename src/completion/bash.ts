// Renders the bash script: lookup functions generated from the spec (one `case` per question), and a
// fixed driver that walks the typed words to find the command path, then offers subcommands, options
// or values. Works with bash-completion (word splitting at '=', _filedir) and, more plainly, without it.
//
// Bash splits the line at the characters of COMP_WORDBREAKS, ':' and '=' among them, so
// "--base-url=http://h:1" reaches the function as "--base-url" "=" "http" ":" "//h" ":" "1", and
// readline replaces only the text after the last ':' or '=' with the chosen candidate. The driver
// works on whole words (bash-completion's `-n :`, or glued back by hand without it) and trims the
// candidates to what readline replaces, as bash-completion's __ltrim_colon_completions does.
import { allCommands, optionsAt, optionWords, type CompletionSpec, type ValueKind } from './model';
import { PROFILES_COMMAND } from './shells';
import { header, pathKey, sq } from './text';

export function renderBash(spec: CompletionSpec): string {
  const p = spec.program;
  const commands = allCommands(spec.root);
  const lines: string[] = [...header('bash', p), ''];

  lines.push(`# _${p}__node PATH: the subcommands, options and value-taking options at a command path.`);
  lines.push(`_${p}__node() {`, '  case $1 in');
  for (const cmd of commands) {
    const options = optionsAt(spec, cmd);
    const variadic = cmd.args.at(-1)?.variadic ? 1 : 0;
    lines.push(`    ${sq(pathKey(cmd))})`);
    lines.push(`      _${p}_cmds=${sq(cmd.commands.map((c) => c.name).join(' '))}`);
    lines.push(`      _${p}_opts=${sq(options.flatMap(optionWords).join(' '))}`);
    lines.push(
      `      _${p}_vopts=${sq(
        options
          .filter((o) => o.value)
          .flatMap(optionWords)
          .join(' '),
      )}`,
    );
    lines.push(`      _${p}_nargs=${cmd.args.length} _${p}_variadic=${variadic} ;;`);
  }
  lines.push('  esac', '}', '');

  lines.push(`# _${p}__child PATH WORD: sets _${p}_path to where a subcommand word (or alias) leads.`);
  lines.push(`_${p}__child() {`, '  case "$1|$2" in');
  for (const parent of commands) {
    for (const cmd of parent.commands) {
      const patterns = [cmd.name, ...cmd.aliases].map((w) => sq(`${pathKey(parent)}|${w}`)).join('|');
      lines.push(`    ${patterns}) _${p}_path=${sq(pathKey(cmd))} ;;`);
    }
  }
  lines.push('    *) return 1 ;;', '  esac', '}', '');

  // A command's own options come before the globals, so its own meaning of a name wins.
  lines.push(`# _${p}__value PATH OPTION: completes the value of an option.`);
  lines.push(`_${p}__value() {`, '  case "$1|$2" in');
  for (const cmd of commands.slice(1)) {
    for (const o of cmd.options)
      pushCase(
        lines,
        p,
        optionWords(o).map((w) => sq(`${pathKey(cmd)}|${w}`)),
        o.value,
      );
  }
  for (const o of [...spec.root.options, ...spec.globals])
    pushCase(
      lines,
      p,
      optionWords(o).map((w) => `*${sq(`|${w}`)}`),
      o.value,
    );
  lines.push('  esac', '}', '');

  lines.push(`# _${p}__arg PATH INDEX: completes a positional argument (counted from 0).`);
  lines.push(`_${p}__arg() {`, '  case "$1|$2" in');
  for (const cmd of commands) {
    cmd.args.forEach((a, i) => {
      pushCase(lines, p, [sq(`${pathKey(cmd)}|${i}`)], a.value);
    });
  }
  lines.push('  esac', '}', '');

  lines.push(...driver(p), '');
  return `${lines.join('\n')}\n`;
}

function pushCase(lines: string[], p: string, patterns: string[], value: ValueKind | undefined): void {
  const action = value && valueAction(p, value);
  if (action && patterns.length > 0) lines.push(`    ${patterns.join('|')}) ${action} ;;`);
}

function valueAction(p: string, value: ValueKind): string | undefined {
  switch (value.kind) {
    case 'choices':
      return `_${p}__words ${sq(value.values.join(' '))}`;
    case 'file':
      return value.names ? `_${p}__files; _${p}__also ${sq(value.names.join(' '))}` : `_${p}__files`;
    case 'dir':
      return `_${p}__files -d`;
    case 'profiles':
      return `_${p}__profiles`;
    case 'none':
      return undefined;
  }
}

function driver(p: string): string[] {
  return `
_${p}__words() {
  local IFS=$' \\t\\n'
  COMPREPLY=($(compgen -W "$1" -- "$cur"))
}

# Words offered beside what is offered already (the names a file option also takes).
_${p}__also() {
  local IFS=$' \\t\\n'
  COMPREPLY+=($(compgen -W "$1" -- "$cur"))
}

_${p}__files() {
  if declare -F _filedir >/dev/null 2>&1; then
    _filedir "$@"
    return
  fi
  compopt -o filenames 2>/dev/null
  if [[ $1 == -d ]]; then
    mapfile -t COMPREPLY < <(compgen -d -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}

# Profile names live in the user's config, so they are read when TAB is pressed.
_${p}__profiles() {
  _${p}__words "$(command ${p} ${PROFILES_COMMAND.join(' ')} 2>/dev/null)"
}

# Without bash-completion: sets words, cword, cur and prev from COMP_WORDS with the pieces bash cut
# at ':' and '=' glued back (those typed with no blank between), then splits "--option=value" into
# prev and cur (split=true) as _init_completion -s does.
_${p}__init() {
  local line=$COMP_LINE i w gap glue=0
  words=() cword=0
  for ((i = 0; i < \${#COMP_WORDS[@]}; i++)); do
    w=\${COMP_WORDS[i]}
    gap=\${line%%[![:space:]]*}
    line=\${line#"$gap"}
    line=\${line#"$w"}
    if ((i > 0)) && [[ -z $gap ]] && { ((glue)) || [[ -n $w && $w != *[!:=]* ]]; }; then
      words[\${#words[@]} - 1]+=$w
    else
      words+=("$w")
    fi
    [[ -n $w && $w != *[!:=]* ]] && glue=1 || glue=0
    ((i == COMP_CWORD)) && cword=$((\${#words[@]} - 1))
  done
  cur=\${words[cword]}
  prev=\${words[cword - 1]}
  if [[ $cur == --?*=* ]]; then
    prev=\${cur%%=*}
    cur=\${cur#*=}
    split=true
  fi
}

# Readline replaces only the text after the last ':' or '=' of the word (when COMP_WORDBREAKS has
# them), so the candidates drop what comes before; otherwise that text would be typed twice.
_${p}__ltrim() {
  local breaks=\${COMP_WORDBREAKS//[^:=]/} head i
  [[ -n $breaks && $cur == *["$breaks"]* ]] || return 0
  head=\${cur%"\${cur##*["$breaks"]}"}
  for i in "\${!COMPREPLY[@]}"; do
    COMPREPLY[i]=\${COMPREPLY[i]#"$head"}
  done
}

_${p}() {
  local cur prev words cword split=false
  if declare -F _init_completion >/dev/null 2>&1; then
    # -n : keeps "http://host:port" one word; -s splits "--option=value".
    _init_completion -s -n : || return
  else
    COMPREPLY=()
    _${p}__init
  fi

  local _${p}_path='' _${p}_cmds _${p}_opts _${p}_vopts _${p}_nargs _${p}_variadic
  local i w pending='' npos=0 dashdash=0
  _${p}__node ''
  for ((i = 1; i < cword; i++)); do
    w=\${words[i]}
    if [[ -n $pending ]]; then
      pending=''
      continue
    fi
    if ((!dashdash)); then
      case $w in
        --) dashdash=1; continue ;;
        -*=*) continue ;;
        -*)
          [[ " $_${p}_vopts " == *" $w "* ]] && pending=$w
          continue
          ;;
      esac
    fi
    if ((npos == 0)) && _${p}__child "$_${p}_path" "$w"; then
      _${p}__node "$_${p}_path"
      continue
    fi
    ((npos++))
  done

  [[ $split == true ]] && pending=$prev
  if [[ -n $pending ]]; then
    _${p}__value "$_${p}_path" "$pending"
  elif [[ $cur == -* ]] && ((!dashdash)); then
    _${p}__words "$_${p}_opts"
  elif [[ -n $_${p}_cmds ]] && ((npos == 0)); then
    _${p}__words "$_${p}_cmds"
  elif ((npos < _${p}_nargs)); then
    _${p}__arg "$_${p}_path" "$npos"
  elif ((_${p}_variadic)); then
    _${p}__arg "$_${p}_path" "$((_${p}_nargs - 1))"
  elif ((!dashdash)); then
    _${p}__words "$_${p}_opts"
  fi
  _${p}__ltrim
  return 0
}

complete -F _${p} ${p}`
    .trim()
    .split('\n');
}
