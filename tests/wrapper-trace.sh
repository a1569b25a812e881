#!/bin/sh
# ./rwcheck --trace-children=yes|no and RWCHECK_TRACE_CHILDREN (issue 18):
# with no, only the command itself (and its fork children) is checked;
# what it execs or spawns runs without the library, whether it hands on
# its environment or an explicit one that still names the library.
# (RWC_WRAPPER: another wrapper to test, e.g. an older one.)
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
W=${RWC_WRAPPER:-$RWC_BUILDDIR/rwcheck}
B="$RWC_BUILDDIR/tests/bad-child"
X="$RWC_BUILDDIR/tests/exec-child"
LIB=${RWC_LIB:-$RWC_BUILDDIR/src/.libs/librwcheck.so}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out; err=$tmp/err
site='buf-unmapped in pread() at main (.*tests/bad-child\.c:15)'  # (a VPATH build names ../../tests/...)
reported() { grep -q "^rwcheck:   1 x $site" "$err" && tail -n 1 "$err" | grep -qx 'rwcheck: 1 bad call from 1 call site in 1 process'; }
quiet() { ! grep -q 'pread(' "$err" && ! grep -q 'bad call' "$err"; }

# The command itself is checked, its children are not.
"$W" --trace-children=no -- "$B" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && reported; echo $?)" "--trace-children=no: the command's own bad call is reported (got $st: $(head -n 1 "$err"))"
"$W" --trace-children=no -- sh -c "'$B'; true" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && quiet; echo $?)" "--trace-children=no: a bad call of a program the command runs is not (got $st: $(head -n 1 "$err"))"
"$W" --trace-children=yes -- sh -c "'$B'; true" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && reported; echo $?)" "--trace-children=yes: it is (got $st)"
"$W" -- sh -c "'$B'; true" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && reported; echo $?)" "the default is yes (got $st)"
RWCHECK_TRACE_CHILDREN=no "$W" -- sh -c "'$B'; true" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && quiet; echo $?)" "RWCHECK_TRACE_CHILDREN=no: the same as the option (got $st)"
RWCHECK_TRACE_CHILDREN=no "$W" --trace-children=yes -- sh -c "'$B'; true" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && reported; echo $?)" "the option overrides the knob (got $st)"

# Without the wrapper: the knob alone.
LD_PRELOAD=$LIB RWCHECK_TRACE_CHILDREN=no sh -c "'$B'; true" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ ! -s "$err" ]; echo $?)" "LD_PRELOAD + RWCHECK_TRACE_CHILDREN=no: the child is not checked (got $st: $(head -n 1 "$err"))"
LD_PRELOAD=$LIB RWCHECK_TRACE_CHILDREN=no "$B" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && grep -q '^rwcheck\[[0-9]*\]: pread(fd=[0-9]*, .* \[buf-unmapped\]$' "$err"; echo $?)" "LD_PRELOAD + RWCHECK_TRACE_CHILDREN=no: the process itself is (got $st)"

# What the children's environment holds: not the library, not the knob;
# the user's own LD_PRELOAD entries stay.
"$W" --trace-children=no -- sh -c 'echo "[$LD_PRELOAD][${RWCHECK_TRACE_CHILDREN-unset}]"' >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ "$(cat "$out")" = '[][unset]' ]; echo $?)" "the command's environment lost the library and the knob (got $st: $(cat "$out"))"
LD_PRELOAD=/nonexistent/libother.so "$W" --trace-children=no -- sh -c 'echo "[$LD_PRELOAD]"' >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ "$(cat "$out")" = '[/nonexistent/libother.so]' ]; echo $?)" "the user's own LD_PRELOAD entries are kept (got $st: $(cat "$out"))"
"$W" -- sh -c 'echo "[$LD_PRELOAD]"' >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && grep -q "librwcheck" "$out"; echo $?)" "with yes the environment is left alone (got $st: $(cat "$out"))"

# An explicit environment that names the library: each exec and spawn
# takes it out with no; with yes the child is checked as before.
for m in execve execle execvpe fexecve posix_spawn posix_spawnp vfork; do
	"$W" --trace-children=no -- "$X" $m "$LIB" "$B" >"$out" 2>"$err"; st=$?
	t "$([ $st = 0 ] && quiet; echo $?)" "--trace-children=no: $m with LD_PRELOAD=librwcheck in its envp starts an unchecked child (got $st: $(head -n 1 "$err"))"
	"$W" --trace-children=yes -- "$X" $m "$LIB" "$B" >"$out" 2>"$err"; st=$?
	t "$([ $st = 1 ] && reported; echo $?)" "--trace-children=yes: the same $m child is checked (got $st)"
done
# What such a child's environment holds: the other entries, every other
# variable (also through the copy of more than 16 KiB); errno as without.
printf '#!/bin/sh\necho "$(env | grep -c "^V[0-9]*=")[$LD_PRELOAD]"\n' >"$tmp/show"; chmod 755 "$tmp/show"
"$W" --trace-children=no -- "$X" execve "$LIB:/nonexistent/libother.so" "$tmp/show" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ "$(cat "$out")" = '0[/nonexistent/libother.so]' ]; echo $?)" "execve's envp: the library's entry out, the others kept (got $st: $(cat "$out"))"
for m in execve vfork; do
	# (2100 variables: an array of more than 16 KiB, copied into a mapping)
	env $(seq -f 'V%g=1' 2100) "$W" --trace-children=no -- "$X" $m "$LIB" "$tmp/show" >"$out" 2>"$err"; st=$?
	t "$([ $st = 0 ] && [ "$(cat "$out")" = '2100[]' ]; echo $?)" "$m, an envp of more than 16 KiB: copied whole, without the library (got $st: $(cat "$out"))"
done
"$W" --trace-children=yes -- "$X" execve "$LIB" "$tmp/show" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ "$(cat "$out")" = "0[$LIB]" ]; echo $?)" "yes: execve's envp is handed on as it is (got $st: $(cat "$out"))"
"$X" execve "$LIB" /nonexistent/prog >"$out" 2>"$tmp/plain"; st0=$?
"$W" --trace-children=no -- "$X" execve "$LIB" /nonexistent/prog >"$out" 2>"$err"; st=$?
t "$([ $st = $st0 ] && [ "$(head -n 1 "$err")" = "$(cat "$tmp/plain")" ] && [ "$(cat "$tmp/plain")" = 'execve: No such file or directory' ]; echo $?)" \
	"a failing execve: the same status and errno as without rwcheck (got $st: $(head -n 1 "$err"))"
"$W" --trace-children=no -- "$X" system "$LIB" "$B" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && quiet; echo $?)" "--trace-children=no: system() starts an unchecked child (got $st)"
"$W" --trace-children=no -- "$X" fork-bad >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q '^rwcheck:   1 x buf-unmapped in pread() at bad_call (.*tests/exec-child\.c:' "$err"; echo $?)" \
	"--trace-children=no: a fork child without exec (the same program) stays checked (got $st: $(head -n 1 "$err"))"

# Bad values: refused before the command runs.
"$W" --trace-children=maybe -- touch "$tmp/ran" >"$out" 2>"$err"; st=$?
t "$([ $st = 125 ] && [ ! -e "$tmp/ran" ] && [ "$(cat "$err")" = 'rwcheck: --trace-children=maybe: expected yes or no' ]; echo $?)" \
	"--trace-children=maybe: rc 125, one line (got $st: $(cat "$err"))"
RWCHECK_TRACE_CHILDREN=maybe "$W" -- touch "$tmp/ran" >"$out" 2>"$err"; st=$?
t "$([ $st = 125 ] && [ ! -e "$tmp/ran" ] && grep -qx 'rwcheck: RWCHECK_TRACE_CHILDREN=maybe: expected yes .* or no .*' "$err"; echo $?)" \
	"RWCHECK_TRACE_CHILDREN=maybe: rc 125 (got $st: $(cat "$err"))"

# The summary: the unchecked children are counted, as meant.
sleep=$(command -v sleep)
"$W" --trace-children=no -- sh -c "'$sleep' 1; true" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && grep -q "^rwcheck: 1 process ran without the library, unchecked: $sleep (pid [0-9]*); as --trace-children=no asks\$" "$err" &&
	! grep -q warning "$err"; echo $?)" "the summary says the children ran unchecked as asked, no warning (got $st: $(cat "$err"))"
"$W" -q --trace-children=no -- sh -c "'$sleep' 1; true" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ ! -s "$err" ]; echo $?)" "-q: not even that (got $st: $(cat "$err"))"
"$W" --format=json --trace-children=no -- sh -c "'$sleep' 1; '$B'" >"$out" 2>"$err"; st=$?
jq -se '.[-1].summary.processes_with_library >= 1 and .[-1].summary.processes_without_library >= 1 and .[-1].summary.bad_calls == 0' "$err" >/dev/null 2>&1
t $? "--format=json: processes with and without the library counted, no bad call (got $st)"
echo "1..$n"
exit $failed
