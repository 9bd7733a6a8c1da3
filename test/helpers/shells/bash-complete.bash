#!/usr/bin/env bash
# Drives real bash completion: bash bash-complete.bash SCRIPT LINE...
# Sources bash-completion (from $BASH_COMPLETION_FILE; empty: run without it, as a bare bash would),
# then SCRIPT, finds the function registered for `booking` with `complete -p`, and for each LINE
# (completed at its end) sets COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT as bash does, calls the
# function and prints, for each COMPREPLY entry, the word it leaves on the line as "<n><TAB><word>"
# (n: the LINE's index from 1).
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

# Bash splits the line into COMP_WORDS at blanks and at the characters of COMP_WORDBREAKS (':' and
# '=' among them): a run of those characters is a word of its own, so "--url=http://h:1" becomes
# "--url" "=" "http" ":" "//h" ":" "1". Quoting is not modelled: no LINE uses quotes.
breaks=${COMP_WORDBREAKS//[$' \t\n\'"']/}
n=0
for line in "$@"; do
  n=$((n + 1))
  COMP_WORDS=()
  word='' kind=blank
  for ((i = 0; i < ${#line}; i++)); do
    c=${line:i:1}
    if [[ $c == [[:blank:]] ]]; then
      [[ $kind != blank ]] && COMP_WORDS+=("$word")
      word='' kind=blank
      continue
    fi
    [[ $c == ["$breaks"] ]] && k=break || k=text
    [[ $kind != blank && $kind != "$k" ]] && { COMP_WORDS+=("$word"); word=''; }
    word+=$c kind=$k
  done
  COMP_WORDS+=("$word")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE=$line
  COMP_POINT=${#line}
  COMPREPLY=()
  "$fn" booking "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  # Readline replaces only the text after the last blank or break character with a candidate, so
  # what ends up on the line is the rest of the blank-delimited word followed by the candidate.
  last=${line##*[[:blank:]]}
  kept=${last%"${last##*["$breaks"]}"}
  for c in "${COMPREPLY[@]}"; do printf '%s\t%s\n' "$n" "$kept$c"; done
done
