#!/usr/bin/env zsh
# Drives real zsh completion on a pseudo-terminal: zsh -f zsh-complete.zsh FPATH_DIR LINE...
# For each LINE it starts an interactive zsh (zpty) whose .zshrc runs compinit with FPATH_DIR first
# in $fpath (the first one writes the dump of every completion function, _booking's with them; the
# others read it as it is, -C: checking fpath against it again was half of each zsh's CPU), waits for
# the prompt, types LINE and a TAB, and prints every candidate the completion
# functions offered as "<n><TAB><candidate>" (n: the LINE's index from 1). compadd is wrapped to
# report what it adds, and the shell exits as soon as the completion widget finishes.
emulate -R zsh
zmodload zsh/zpty || { print -u2 'zsh-complete: the zsh/zpty module is missing'; exit 3 }

local dir=$1
shift

local zdotdir=$(mktemp -d) || exit 3
# No EXIT trap: zpty's forked child would run it too and remove the folder under the next session.
fail() { print -u2 -r -- "zsh-complete: $1"; rm -rf $zdotdir; exit 3 }
print -r -- "
fpath=(${(q)dir} \$fpath)
autoload -U compinit && compinit -u -C -d \$ZDOTDIR/.zcompdump
zstyle ':completion:*' insert-tab false
compadd() {
  # _describe and others call compadd -O/-A/-D to filter lists; only real additions are reported.
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi
  local -a __hits
  builtin compadd -O __hits \"\$@\"
  local __h
  for __h in \$__hits; do print -r -- \"<HIT>\$__h\"; done
  builtin compadd \"\$@\"
}
__capture_done() { print -r -- '<DONE>'; exit }
comppostfuncs=(__capture_done)
bindkey '^I' complete-word
unsetopt zle_bracketed_paste
PROMPT='<READY>' RPROMPT=''
" > $zdotdir/.zshrc

export ZDOTDIR=$zdotdir
local n=0 line out hit
for line in "$@"; do
  (( n++ ))
  # -d: no global rc files, only ours (ZDOTDIR); typing starts once the prompt shows.
  zpty capture$n zsh -d -i || fail 'cannot start zsh'
  zpty -r capture$n out '*<READY>*' || fail 'zsh did not start'
  zpty -w -n capture$n "$line"$'\t'
  zpty -r capture$n out '*<DONE>*' || fail "no completion for: $line"
  zpty -d capture$n
  for hit in ${(f)out//$'\r'/}; do
    [[ $hit == *'<HIT>'* ]] && print -r -- "$n"$'\t'"${hit#*<HIT>}"
  done
done
rm -rf $zdotdir
