# Drives real fish completion: fish --no-config fish-complete.fish SCRIPT LINE...
# Sources SCRIPT, then for each LINE prints what `complete --do-complete` offers at its end as
# "<n><TAB><candidate>" (n: the LINE's index from 1; descriptions dropped).
source $argv[1]; or exit 3
set -l n 0
for line in $argv[2..-1]
    set n (math $n + 1)
    for c in (complete --do-complete "$line")
        printf '%s\t%s\n' $n (string split -f1 \t -- $c)
    end
end
