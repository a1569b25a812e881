#!/bin/sh
# ./rwcheck says what it could not check (issue 18): a static or setuid
# command, children started without the library (env -i; a harness that
# replaces LD_PRELOAD, as git's test-lib.sh does) -- and counts them.
# (RWC_WRAPPER: another wrapper to test, e.g. an older one.)
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
W=${RWC_WRAPPER:-$RWC_BUILDDIR/rwcheck}
B="$RWC_BUILDDIR/tests/bad-child"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
out=$tmp/out; err=$tmp/err

printf 'int main(void) { return 0; }\n' >"$tmp/st.c"
if cc -static -o "$tmp/static" "$tmp/st.c" 2>/dev/null; then
	"$W" -- "$tmp/static" >"$out" 2>"$err"; st=$?
	t "$([ $st = 0 ] && [ "$(wc -l <"$err")" = 1 ] && grep -q "^rwcheck: warning: $tmp/static is statically linked: the library cannot be preloaded into it; its own calls are not checked" "$err"; echo $?)" \
		"a static command: one warning line (got $st: $(cat "$err"))"
else
	n=$((n+1)); echo "ok $n # SKIP no static libc to link a static program"
fi
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	cp /bin/true "$tmp/setuid" && chown nobody "$tmp/setuid" && chmod 4755 "$tmp/setuid"
	"$W" -- "$tmp/setuid" >"$out" 2>"$err"; st=$?
	t "$([ $st = 0 ] && grep -q "^rwcheck: warning: $tmp/setuid is setuid or setgid: the loader ignores LD_PRELOAD for it" "$err"; echo $?)" \
		"a setuid command (run by another user): one warning line (got $st: $(cat "$err"))"
else
	n=$((n+1)); echo "ok $n # SKIP needs root to make a program setuid to another user"
fi
sleep=$(command -v sleep)
"$W" -- sh -c "'$B'; env -i '$sleep' 2" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q "^rwcheck: warning: 1 process ran without the library, unchecked: $sleep (pid [0-9]*); " "$err" &&
	tail -n 1 "$err" | grep -qx 'rwcheck: 1 bad call from 1 call site in 1 process'; echo $?)" \
	"a child started by env -i: counted and named as unchecked (got $st)"
"$W" -- sh -c "LD_PRELOAD= '$sleep' 2; LD_PRELOAD= '$sleep' 2" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && grep -q "^rwcheck: warning: 2 processes ran without the library, unchecked: $sleep (pid [0-9]*), $sleep (pid [0-9]*); " "$err"; echo $?)" \
	"children whose LD_PRELOAD was replaced (git's setup_malloc_check): a clean run still says 2 ran unchecked (got $st)"
"$W" -- "$B" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -qx 'rwcheck: at least 1 process ran with the library' "$err" && ! grep -q 'without the library' "$err"; echo $?)" \
	"the summary counts the processes that ran with the library (got $st)"
"$W" --format=json -- sh -c "'$sleep' 2; env -i '$sleep' 2" >"$out" 2>"$err"; st=$?
jq -se '.[-1].summary.processes_with_library >= 1 and .[-1].summary.processes_without_library == 1' "$err" >/dev/null 2>&1
t $? "--format=json: the summary counts processes with and without the library"
"$W" -- sh -c "'$sleep' 2" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ ! -s "$err" ]; echo $?)" "a clean run where every process had the library prints nothing (got $st)"
# Short children (they end long before a /proc sample): counted from the
# library's record of each exec or spawn whose environment lost it.
true=/bin/true
"$W" -- sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do LD_PRELOAD= '$true'; done; env -i '$true'; true" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && grep -q "^rwcheck: warning: 11 processes ran without the library, unchecked: $true (pid [0-9]*), " "$err"; echo $?)" \
	"11 short children without the library (LD_PRELOAD= ten times, env -i once): all 11 counted (got $st: $(cat "$err"))"
"$W" --format=json -- /usr/bin/python3 -c "import subprocess; [subprocess.run(['$true'], env={}) for i in range(5)]" >"$out" 2>"$err"; st=$?
jq -se '.[-1].summary.processes_without_library == 5' "$err" >/dev/null 2>&1
t $? "python's subprocess.run(env={}) five times: 5 processes without the library in the JSON summary (got $st: $(tail -n 1 "$err"))"
"$W" -- sh -c "for i in 1 2 3; do '$true'; done; '$B'" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && ! grep -q 'without the library' "$err"; echo $?)" \
	"short children that keep the library: none counted without it (got $st)"
RWCHECK_LOG=$tmp/direct.log LD_PRELOAD=$RWC_BUILDDIR/src/.libs/librwcheck.so sh -c "env -i '$true'" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ ! -s "$err" ] && [ ! -s "$tmp/direct.log" ]; echo $?)" \
	"without the wrapper (text reports): no record of an unchecked exec anywhere (got $st)"
echo "1..$n"
exit $failed
