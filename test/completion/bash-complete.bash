#!/usr/bin/env bash
# Drives real bash completion: bash bash-complete.bash SCRIPT LINE...
# Sources bash-completion (from $BASH_COMPLETION_FILE; empty: run without it, as a bare bash would),
# then SCRIPT, finds the function registered for `booking` with `complete -p`, and for each LINE
# (completed at its end) sets COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT as bash does, calls the
# function and prints each COMPREPLY entry as "<n><TAB><candidate>" (n: the LINE's index from 1).
script=$1
shift
if [[ -n ${BASH_COMPLETION_FILE-} ]]; then
  # shellcheck disable=SC1090
  source "$BASH_COMPLETION_FILE" || exit 3
fi
# shellcheck disable=SC1090
source "$script" || exit 3
spec=$(complete -p booking) || { echo 'bash-complete: nothing registered for booking' >&2; exit 3; }
[[ $spec =~ -F\ ([^ ]+) ]] || { echo "bash-complete: no function in: $spec" >&2; exit 3; }
fn=${BASH_REMATCH[1]}

n=0
for line in "$@"; do
  n=$((n + 1))
  # Bash splits words at blanks and, because '=' is in COMP_WORDBREAKS, around '='.
  read -ra raw <<< "$line"
  [[ $line == *' ' || -z $line ]] && raw+=('')
  COMP_WORDS=()
  for w in "${raw[@]}"; do
    if [[ $w == -*=* ]]; then
      COMP_WORDS+=("${w%%=*}" '=')
      [[ -n ${w#*=} ]] && COMP_WORDS+=("${w#*=}")
    else
      COMP_WORDS+=("$w")
    fi
  done
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE=$line
  COMP_POINT=${#line}
  COMPREPLY=()
  "$fn" booking "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  for c in "${COMPREPLY[@]}"; do printf '%s\t%s\n' "$n" "$c"; done
done
