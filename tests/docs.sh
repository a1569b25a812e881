#!/bin/sh
# The documentation keeps up with the code: every RWCHECK_* knob the
# library reads is in librwcheck(7) and the README, every wrapper option in
# rwcheck(1) and the README, and the man pages render without warnings.
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
S=$RWC_SRCDIR
knobs=$(grep -ho '"RWCHECK_[A-Z][A-Z_]*"' "$S"/src/*/*.c | tr -d '"' | sort -u)
t "$([ "$(echo "$knobs" | wc -l)" -ge 8 ]; echo $?)" "found the knobs in the source ($(echo $knobs))"
for k in $knobs; do
	grep -q "^\.B $k\$" "$S/man/librwcheck.7"; t $? "librwcheck.7 documents $k"
	grep -q "\`$k\`" "$S/README.md"; t $? "README.md documents $k"
done
opts=$(sed -n 's/^  \(--[a-z-]*\).*/\1/p' "$S/src/rwcheck.in" | sort -u)
t "$([ "$(echo "$opts" | wc -l)" -ge 12 ]; echo $?)" "found the wrapper's options ($(echo $opts))"
for o in $opts; do
	m=$(echo "$o" | sed 's/-/\\\\-/g')
	grep -q "^\.[BT].*$m" "$S/man/rwcheck.1" || grep -q "^\.BR* $m" "$S/man/rwcheck.1"
	t $? "rwcheck.1 documents $o"
	grep -q -- "\`$o" "$S/README.md"; t $? "README.md documents $o"
done
for p in rwcheck.1 librwcheck.7; do
	w=$(groff -man -ww -z "$S/man/$p" 2>&1)
	t "$([ -z "$w" ]; echo $?)" "$p renders without warnings${w:+: $w}"
done
echo "1..$n"
exit $failed
