#!/bin/sh
# ./rwcheck from the build tree: preloads, prints the reports, exit status.
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
W="$RWC_BUILDDIR/rwcheck"
V="$RWC_BUILDDIR/tests/victim"
out=$(mktemp); err=$(mktemp)

"$W" -- "$V" read bad >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ]; echo $?)" "a bad call makes the run fail with 1 (got $st)"
grep -q 'read(fd=.*bytes 100..4095 of buf are not mapped \[buf-unmapped\]' "$err"; t $? "the report is shown on stderr"
grep -q 'victim.c:[0-9]' "$err"; t $? "the report names the caller's file:line"
grep -q 'result 10 0' "$out"; t $? "the program's own output is unchanged"

"$W" "$V" read good >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ ! -s "$err" ]; echo $?)" "a clean run exits 0 and prints nothing (got $st)"

"$W" --error-exitcode=7 -- "$V" read bad >/dev/null 2>&1; st=$?
t "$([ $st = 7 ]; echo $?)" "--error-exitcode=7 (got $st)"

"$W" -- sh -c "exit 3" >/dev/null 2>&1; st=$?
t "$([ $st = 3 ]; echo $?)" "the command's own failure status wins (got $st)"

"$W" -- sh -c "'$V' read bad; '$V' write bad" >/dev/null 2>"$err"; st=$?
c=$(grep -c '\[buf-unmapped\]' "$err")
t "$([ $st = 1 ] && [ "$c" = 2 ]; echo $?)" "children of a shell are checked too ($c reports)"

LD_PRELOAD=/nonexistent-other.so "$W" -- sh -c 'echo "$LD_PRELOAD"' >"$out" 2>/dev/null
grep -q "librwcheck.so:/nonexistent-other.so" "$out"; t $? "prepends to an existing LD_PRELOAD"

"$W" --print-library >"$out"; st=$?
t "$([ $st = 0 ] && [ -r "$(cat "$out")" ]; echo $?)" "--print-library prints a readable path"
"$W" --bogus true >/dev/null 2>"$err"; st=$?
t "$([ $st != 0 ] && grep -q 'unknown option' "$err"; echo $?)" "an unknown option is an error"
rm -f "$out" "$err"
echo "1..$n"
exit $failed
