# bash completion for booking.
# Generated from the commander program by scripts/gen-completions.mjs (npm run gen:completions):
# do not edit by hand; `booking completion bash` prints this same text.

# _booking__node PATH: the subcommands, options and value-taking options at a command path.
_booking__node() {
  case $1 in
    '')
      _booking_cmds='login logout whoami profiles auth bookings event-types api webhook sandbox config completion version help'
      _booking_opts='-V --version -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'login')
      _booking_cmds=''
      _booking_opts='--with-key --no-verify --insecure-storage -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'logout')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'whoami')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'profiles')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'auth')
      _booking_cmds='login logout status token help'
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'auth login')
      _booking_cmds=''
      _booking_opts='--with-key --no-verify --insecure-storage -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'auth logout')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'auth status')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'auth token')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'auth help')
      _booking_cmds=''
      _booking_opts='--profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'bookings')
      _booking_cmds='list get watch help'
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'bookings list')
      _booking_cmds=''
      _booking_opts='-s --status -L --limit --page-size --cursor --no-paginate --cursor-path --items-path --cursor-param --cursor-from-last -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='-s --status -L --limit --page-size --cursor --cursor-path --items-path --cursor-param --cursor-from-last --profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'bookings get')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'bookings watch')
      _booking_cmds=''
      _booking_opts='--interval --initial -s --status -L --limit --page-size --cursor-path --items-path --cursor-param --cursor-from-last -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--interval -s --status -L --limit --page-size --cursor-path --items-path --cursor-param --cursor-from-last --profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'bookings help')
      _booking_cmds=''
      _booking_opts='--profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'event-types')
      _booking_cmds=''
      _booking_opts='-L --limit --no-paginate --cursor-path --items-path --cursor-param --cursor-from-last -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='-L --limit --cursor-path --items-path --cursor-param --cursor-from-last --profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'api')
      _booking_cmds=''
      _booking_opts='--paginate -F --field -L --limit --cursor --cursor-path --items-path --cursor-param --cursor-from-last -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='-F --field -L --limit --cursor --cursor-path --items-path --cursor-param --cursor-from-last --profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'webhook')
      _booking_cmds='verify sign listen send help'
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'webhook verify')
      _booking_cmds=''
      _booking_opts='--signature --request --event --secret --secret-file -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--signature --request --event --secret --secret-file --profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'webhook sign')
      _booking_cmds=''
      _booking_opts='--secret --secret-file -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--secret --secret-file --profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'webhook listen')
      _booking_cmds=''
      _booking_opts='--port --host --forward-to --save-dir --no-save --max-saved --events --respond --respond-after --respond-delay --secret --secret-file -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--port --host --forward-to --save-dir --max-saved --events --respond --respond-after --respond-delay --secret --secret-file --profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'webhook send')
      _booking_cmds=''
      _booking_opts='--event --body --set --request --print-curl --scenario --duplicate --shuffle --seed --delay --secret --secret-file -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--event --body --set --request --scenario --duplicate --seed --delay --secret --secret-file --profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'webhook help')
      _booking_cmds=''
      _booking_opts='--profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'sandbox')
      _booking_cmds=''
      _booking_opts='--port --host --api-key --bookings --seed --webhook-url --webhook-secret --tick --shape --latency --fail-rate --retry-delays --rate-limit -h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--port --host --api-key --bookings --seed --webhook-url --webhook-secret --tick --shape --latency --fail-rate --retry-delays --rate-limit --profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'config')
      _booking_cmds='path list get set unset help'
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'config path')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'config list')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'config get')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'config set')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=2 _booking_variadic=0 ;;
    'config unset')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'config help')
      _booking_cmds=''
      _booking_opts='--profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'completion')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=0 ;;
    'version')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=0 _booking_variadic=0 ;;
    'help')
      _booking_cmds=''
      _booking_opts='-h --help --profile --base-url -o --output --json --jq --fields --no-color --timeout --retries --debug -q --quiet --allow-http --max-response-bytes --no-pager'
      _booking_vopts='--profile --base-url -o --output --jq --fields --timeout --retries --max-response-bytes'
      _booking_nargs=1 _booking_variadic=1 ;;
  esac
}

# _booking__child PATH WORD: sets _booking_path to where a subcommand word (or alias) leads.
_booking__child() {
  case "$1|$2" in
    '|login') _booking_path='login' ;;
    '|logout') _booking_path='logout' ;;
    '|whoami') _booking_path='whoami' ;;
    '|profiles') _booking_path='profiles' ;;
    '|auth') _booking_path='auth' ;;
    '|bookings') _booking_path='bookings' ;;
    '|event-types') _booking_path='event-types' ;;
    '|api') _booking_path='api' ;;
    '|webhook') _booking_path='webhook' ;;
    '|sandbox') _booking_path='sandbox' ;;
    '|config') _booking_path='config' ;;
    '|completion') _booking_path='completion' ;;
    '|version') _booking_path='version' ;;
    '|help') _booking_path='help' ;;
    'auth|login') _booking_path='auth login' ;;
    'auth|logout') _booking_path='auth logout' ;;
    'auth|status') _booking_path='auth status' ;;
    'auth|token') _booking_path='auth token' ;;
    'auth|help') _booking_path='auth help' ;;
    'bookings|list'|'bookings|ls') _booking_path='bookings list' ;;
    'bookings|get'|'bookings|view') _booking_path='bookings get' ;;
    'bookings|watch') _booking_path='bookings watch' ;;
    'bookings|help') _booking_path='bookings help' ;;
    'webhook|verify') _booking_path='webhook verify' ;;
    'webhook|sign') _booking_path='webhook sign' ;;
    'webhook|listen') _booking_path='webhook listen' ;;
    'webhook|send') _booking_path='webhook send' ;;
    'webhook|help') _booking_path='webhook help' ;;
    'config|path') _booking_path='config path' ;;
    'config|list') _booking_path='config list' ;;
    'config|get') _booking_path='config get' ;;
    'config|set') _booking_path='config set' ;;
    'config|unset') _booking_path='config unset' ;;
    'config|help') _booking_path='config help' ;;
    *) return 1 ;;
  esac
}

# _booking__value PATH OPTION: completes the value of an option.
_booking__value() {
  case "$1|$2" in
    'bookings list|-s'|'bookings list|--status') _booking__words 'pending confirmed cancelled completed' ;;
    'bookings watch|-s'|'bookings watch|--status') _booking__words 'pending confirmed cancelled completed' ;;
    'webhook verify|--request') _booking__files ;;
    'webhook verify|--event') _booking__words 'booking.created booking.confirmed booking.rescheduled booking.cancelled booking.completed no_show.flagged' ;;
    'webhook verify|--secret-file') _booking__files ;;
    'webhook sign|--secret-file') _booking__files ;;
    'webhook listen|--save-dir') _booking__files -d ;;
    'webhook listen|--secret-file') _booking__files ;;
    'webhook send|--event') _booking__words 'booking.created booking.confirmed booking.rescheduled booking.cancelled booking.completed no_show.flagged' ;;
    'webhook send|--body') _booking__files ;;
    'webhook send|--request') _booking__files ;;
    'webhook send|--scenario') _booking__files ;;
    'webhook send|--secret-file') _booking__files ;;
    'sandbox|--shape') _booking__words 'data-meta bare-link bookings-nextcursor items-links nested entries-metadata' ;;
    *'|--profile') _booking__profiles ;;
    *'|-o'|*'|--output') _booking__words 'table tsv json ndjson' ;;
  esac
}

# _booking__arg PATH INDEX: completes a positional argument (counted from 0).
_booking__arg() {
  case "$1|$2" in
    'auth help|0') _booking__words 'login logout status token' ;;
    'bookings help|0') _booking__words 'list get watch' ;;
    'webhook verify|0') _booking__files ;;
    'webhook sign|0') _booking__files ;;
    'webhook help|0') _booking__words 'verify sign listen send' ;;
    'config get|0') _booking__words 'baseUrl apiKey cursorPath itemsPath cursorParam cursorFromLast keyStore' ;;
    'config set|0') _booking__words 'baseUrl apiKey cursorPath itemsPath cursorParam cursorFromLast keyStore' ;;
    'config unset|0') _booking__words 'baseUrl apiKey cursorPath itemsPath cursorParam cursorFromLast keyStore' ;;
    'config help|0') _booking__words 'path list get set unset' ;;
    'completion|0') _booking__words 'bash zsh fish' ;;
    'help|0') _booking__words 'login logout whoami profiles auth bookings event-types api webhook sandbox config completion version help' ;;
  esac
}

_booking__words() {
  local IFS=$' \t\n'
  COMPREPLY=($(compgen -W "$1" -- "$cur"))
}

_booking__files() {
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
_booking__profiles() {
  _booking__words "$(command booking __complete profiles 2>/dev/null)"
}

# Without bash-completion: sets words, cword, cur and prev from COMP_WORDS with the pieces bash cut
# at ':' and '=' glued back (those typed with no blank between), then splits "--option=value" into
# prev and cur (split=true) as _init_completion -s does.
_booking__init() {
  local line=$COMP_LINE i w gap glue=0
  words=() cword=0
  for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
    w=${COMP_WORDS[i]}
    gap=${line%%[![:space:]]*}
    line=${line#"$gap"}
    line=${line#"$w"}
    if ((i > 0)) && [[ -z $gap ]] && { ((glue)) || [[ -n $w && $w != *[!:=]* ]]; }; then
      words[${#words[@]} - 1]+=$w
    else
      words+=("$w")
    fi
    [[ -n $w && $w != *[!:=]* ]] && glue=1 || glue=0
    ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
  done
  cur=${words[cword]}
  prev=${words[cword - 1]}
  if [[ $cur == --?*=* ]]; then
    prev=${cur%%=*}
    cur=${cur#*=}
    split=true
  fi
}

# Readline replaces only the text after the last ':' or '=' of the word (when COMP_WORDBREAKS has
# them), so the candidates drop what comes before; otherwise that text would be typed twice.
_booking__ltrim() {
  local breaks=${COMP_WORDBREAKS//[^:=]/} head i
  [[ -n $breaks && $cur == *["$breaks"]* ]] || return 0
  head=${cur%"${cur##*["$breaks"]}"}
  for i in "${!COMPREPLY[@]}"; do
    COMPREPLY[i]=${COMPREPLY[i]#"$head"}
  done
}

_booking() {
  local cur prev words cword split=false
  if declare -F _init_completion >/dev/null 2>&1; then
    # -n : keeps "http://host:port" one word; -s splits "--option=value".
    _init_completion -s -n : || return
  else
    COMPREPLY=()
    _booking__init
  fi

  local _booking_path='' _booking_cmds _booking_opts _booking_vopts _booking_nargs _booking_variadic
  local i w pending='' npos=0 dashdash=0
  _booking__node ''
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    if [[ -n $pending ]]; then
      pending=''
      continue
    fi
    if ((!dashdash)); then
      case $w in
        --) dashdash=1; continue ;;
        -*=*) continue ;;
        -*)
          [[ " $_booking_vopts " == *" $w "* ]] && pending=$w
          continue
          ;;
      esac
    fi
    if ((npos == 0)) && _booking__child "$_booking_path" "$w"; then
      _booking__node "$_booking_path"
      continue
    fi
    ((npos++))
  done

  [[ $split == true ]] && pending=$prev
  if [[ -n $pending ]]; then
    _booking__value "$_booking_path" "$pending"
  elif [[ $cur == -* ]] && ((!dashdash)); then
    _booking__words "$_booking_opts"
  elif [[ -n $_booking_cmds ]] && ((npos == 0)); then
    _booking__words "$_booking_cmds"
  elif ((npos < _booking_nargs)); then
    _booking__arg "$_booking_path" "$npos"
  elif ((_booking_variadic)); then
    _booking__arg "$_booking_path" "$((_booking_nargs - 1))"
  elif ((!dashdash)); then
    _booking__words "$_booking_opts"
  fi
  _booking__ltrim
  return 0
}

complete -F _booking booking

