#!/bin/sh
# ./rwcheck as CI systems and valgrind users drive it (issue 18): signals
# passed on to the command, every option checked before the command runs,
# valgrind's option forms, the small messages.
# (RWC_WRAPPER: another wrapper to test, e.g. an older one.)
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
W=${RWC_WRAPPER:-$RWC_BUILDDIR/rwcheck}
V="$RWC_BUILDDIR/tests/victim"
B="$RWC_BUILDDIR/tests/bad-child"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out; err=$tmp/err

# Waits (up to 20 s) until FILE is not empty.
await() { i=0; while [ ! -s "$1" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done; }
# Is process PID gone (or a zombie)?  Waits up to 5 s for it to go.
gone() {
	i=0
	while [ $i -lt 50 ]; do
		s=$(sed -n 's/^[0-9]* ([^)]*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null)
		[ -z "$s" ] || [ "$s" = Z ] && return 0
		sleep 0.1; i=$((i+1))
	done
	return 1
}

# ---- signals: passed on to the command's process group; reports kept ----
for signum in TERM:15 INT:2 HUP:1 QUIT:3; do
	sig=${signum%:*}
	rm -f "$tmp/pid"
	"$W" -- sh -c "'$B'; sh -c 'echo \$\$ >\"$tmp/pid\"; exec sleep 20'; echo not killed" >/dev/null 2>"$err" &
	wp=$!
	await "$tmp/pid"
	kill -$sig $wp
	wait $wp; st=$?
	want=$((128 + ${signum#*:}))
	sp=$(cat "$tmp/pid")
	t "$([ $st = $want ]; echo $?)" "kill -$sig the wrapper: it exits $want as the command did (got $st)"
	grep -q 'bytes 100..4095 of buf are not mapped \[buf-unmapped\]' "$err" &&
		tail -n 1 "$err" | grep -qx 'rwcheck: 1 bad call from 1 call site in 1 process'
	t $? "kill -$sig the wrapper: the reports so far and the summary are printed"
	gone "$sp"; t $? "kill -$sig the wrapper: the command's own child is gone too (no orphan)"
	[ -n "$sp" ] && kill "$sp" 2>/dev/null
done

# ---- SIGPIPE: the reader of the wrapper's output goes first ----
mkdir "$tmp/td"
{ TMPDIR="$tmp/td" "$W" -- sh -c "'$B'; sleep 1; echo x >'$tmp/after'" 2>&1 >/dev/null; echo $? >"$tmp/rc"; } | head -n 1 >/dev/null
st=$(cat "$tmp/rc")
t "$([ "$st" = 1 ] && [ -e "$tmp/after" ] && [ -z "$(ls "$tmp/td")" ]; echo $?)" \
	"its reader gone, the wrapper waits for the command, exits 1, cleans up (got $st, $(ls "$tmp/td"))"
mask=$("$W" -- sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status 2>/dev/null)
t "$([ -n "$mask" ] && [ $((0x$mask & 0x1000)) = 0 ]; echo $?)" "the command gets SIGPIPE's default back (SigIgn $mask)"

# ---- every option value and output path checked before the command ----
long=$(printf '%0300d' 0)
for case in "--checks=+stak|--checks=+stak: expected a comma-separated list of maps, offset, count, heap, stack, global" \
	    "--action=|--action=: expected report, efault or abort" \
	    "--action=crash|--action=crash: expected report, efault or abort" \
	    "--backtrace=65|--backtrace=65: expected a whole number of frames from 0 to 64" \
	    "--backtrace=x|--backtrace=x: expected a whole number" \
	    "--dedup=2|--dedup=2: expected 1 (report each call site once per process) or 0" \
	    "--heap-origins=17|--heap-origins=17: expected 0 (off), 1" \
	    "--log=/nonexistent-dir/x.log|--log=/nonexistent-dir/x.log: no such directory: /nonexistent-dir" \
	    "--log-file=/nonexistent-dir/x.%p|--log-file=/nonexistent-dir/x.*: no such directory" \
	    "--sarif=/nonexistent-dir/x.sarif|--sarif=/nonexistent-dir/x.sarif: no such directory" \
	    "--sarif=/proc/x.sarif|--sarif=/proc/x.sarif: cannot create that file: No such file or directory" \
	    "--sarif=$tmp/$long.sarif|--sarif=$tmp/$long.sarif: cannot create that file: File name too long" \
	    "--log=/proc/x.log|--log=/proc/x.log: cannot create that file: No such file or directory" \
	    "--suppressions=/nonexistent.supp|--suppressions=/nonexistent.supp: not a readable file" \
	    "--log-dir=/proc/x|--log-dir=/proc/x: cannot create" \
	    "--srcroot=/nonexistent-dir|--srcroot=/nonexistent-dir: not a directory" \
	    "--format=xml|--format=xml: expected text or json" \
	    "--gen-suppressions=maybe|--gen-suppressions=maybe: expected no, yes or all"; do
	opt=${case%%|*}; msg=${case#*|}
	rm -f "$tmp/ran"
	TMPDIR="$tmp/td" "$W" "$opt" -- touch "$tmp/ran" >"$out" 2>"$err"; st=$?
	[ $st = 125 ] && [ ! -e "$tmp/ran" ] && [ "$(wc -l <"$err")" = 1 ] && grep -q "^rwcheck: $msg" "$err"
	st2=$?
	t $st2 "$opt: exit 125 before the command runs, one line naming it (got $st: $(head -c 200 "$err"))"
done
t "$([ -z "$(ls "$tmp/td")" ]; echo $?)" "no temporary directory left behind by a bad option ($(ls "$tmp/td"))"
mkdir "$tmp/cd"
"$RWC_BUILDDIR/rwcheck-collect" --rmdir --out=/proc/x.log --run="$("$RWC_BUILDDIR/rwcheck" --print-library)" "$tmp/cd" -- true 2>"$err"; st=$?
t "$([ $st = 125 ] && [ ! -e "$tmp/cd" ] && grep -q '^rwcheck: cannot write /proc/x.log' "$err"; echo $?)" \
	"the collector, its --out= not writable: 125, its temporary directory removed (got $st)"
printf 'keep\n' >"$tmp/kept.sarif"
"$W" --sarif="$tmp/kept.sarif" --error-exitcode=0 -- sh -c "grep -qx keep '$tmp/kept.sarif'" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ]; echo $?)" "--sarif= to an existing file: not truncated before the command runs (got $st)"
rm -f "$tmp/ran"
RWCHECK_CHECKS=+stak "$W" -- touch "$tmp/ran" >"$out" 2>"$err"; st=$?
t "$([ $st = 125 ] && [ ! -e "$tmp/ran" ] && grep -q '^rwcheck: RWCHECK_CHECKS=+stak: expected' "$err"; echo $?)" \
	"a bad knob in the environment: exit 125, naming the variable (got $st)"
for opt in --checks=+stack,global --checks=-heap --backtrace=0 --dedup=0 --heap-origins=16 --action=efault; do
	"$W" "$opt" -- true >"$out" 2>"$err"; st=$?
	t "$([ $st = 0 ] && [ ! -s "$err" ]; echo $?)" "$opt: accepted (got $st)"
done

# Suppressions files: a typo in a problem name, binary junk: a warning
# with file:line, and the run goes on.
printf '{\n  typo\n  rwcheck:heap-overfow\n  fun:main\n}\n{\n  glob\n  rwcheck:buf-*\n  fun:nothing\n}\n' >"$tmp/typo.supp"
"$W" --suppressions="$tmp/typo.supp" -- "$B" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q "^rwcheck: warning: $tmp/typo.supp:3: rwcheck:heap-overfow matches no problem name" "$err" &&
	[ "$(grep -c 'matches no problem' "$err")" = 1 ]; echo $?)" "a suppression with an unknown problem name: a warning with file:line (got $st)"
head -c 300 "$RWC_BUILDDIR/tests/victim" >"$tmp/junk.supp"
"$W" --suppressions="$tmp/junk.supp" -- true >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && grep -q "^rwcheck: warning: $tmp/junk.supp:1: binary data" "$err"; echo $?)" "a binary suppressions file: a warning with file:line (got $st)"

# ---- valgrind's habits ----
"$W" --gen-suppressions=yes -- "$B" >/dev/null 2>"$err"
t "$(grep -q '^   *rwcheck:buf-unmapped$' "$err"; echo $?)" "--gen-suppressions=yes prints a suppression"
"$W" --gen-suppressions=all -- "$B" >/dev/null 2>"$err"
t "$(grep -q '^   *rwcheck:buf-unmapped$' "$err"; echo $?)" "--gen-suppressions=all prints a suppression"
"$W" --gen-suppressions=no -- "$B" >/dev/null 2>"$err"
t "$(! grep -q 'rwcheck:buf-unmapped$' "$err"; echo $?)" "--gen-suppressions=no prints none"
RWCHECK_GEN_SUPPRESSIONS=yes "$W" -- "$B" >/dev/null 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q '^   *rwcheck:buf-unmapped$' "$err"; echo $?)" "RWCHECK_GEN_SUPPRESSIONS=yes (got $st)"
lib=$("$RWC_BUILDDIR/rwcheck" --print-library)
for v in yes all no 1 0; do
	LD_PRELOAD="$lib" RWCHECK_GEN_SUPPRESSIONS=$v "$B" >/dev/null 2>"$err"
	want=0; case $v in no|0) want=1 ;; esac
	t "$(! grep -q 'warning' "$err" && grep -q 'buf-unmapped' "$err" &&
		{ grep -q '^   *rwcheck:buf-unmapped$' "$err"; [ $? = $want ]; }; echo $?)" \
		"the library alone takes RWCHECK_GEN_SUPPRESSIONS=$v, no warning"
done
RWCHECK_GEN_SUPPRESSIONS=maybe "$W" -- true >/dev/null 2>"$err"; st=$?
t "$([ $st = 125 ] && grep -q '^rwcheck: RWCHECK_GEN_SUPPRESSIONS=maybe: expected 0 or no, 1, yes or all$' "$err"; echo $?)" \
	"RWCHECK_GEN_SUPPRESSIONS=maybe: exit 125, the words it takes (got $st: $(cat "$err"))"
(cd "$tmp" && "$W" --log-file=vg.%p.log -- "$B" >/dev/null 2>"$err"); st=$?
f=$(ls "$tmp" | grep '^vg\.[0-9]*\.log$')
t "$([ $st = 1 ] && [ -n "$f" ] && [ ! -s "$err" ] && grep -q '^rwcheck: 1 bad call' "$tmp/$f"; echo $?)" "--log-file=vg.%p.log: the reports in vg.PID.log (got $st, $f)"
"$W" --trace-children=yes -- sh -c "'$B'" >/dev/null 2>"$err"; st=$?
t "$([ $st = 1 ]; echo $?)" "--trace-children=yes: children are checked (got $st)"
"$W" --trace-children=no -- sh -c "'$B'" >/dev/null 2>"$err"; st=$?
t "$([ $st = 0 ]; echo $?)" "--trace-children=no: children are not checked (got $st; tests/wrapper-trace.sh has the rest)"
"$W" --num-callers=2 -- "$V" write bad >/dev/null 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q '#1 .* in main ' "$err" && ! grep -q '#2 ' "$err"; echo $?)" "--num-callers=2: two frames (got $st)"
"$W" -q -- "$B" >/dev/null 2>"$err"; st=$?
t "$([ $st = 1 ] && [ "$(wc -l <"$err")" = 1 ]; echo $?)" "-q: only the summary line (got $st)"
"$W" -v -- true >/dev/null 2>"$err"; st=$?
t "$([ $st = 0 ] && grep -q '^rwcheck: not checked: static or setuid' "$err"; echo $?)" "-v: says what is checked and what is not (got $st)"
"$W" --xml=yes -- true >/dev/null 2>"$err"; st=$?
t "$([ $st = 125 ] && [ "$(wc -l <"$err")" = 1 ] && grep -q 'xml=yes: .*not supported' "$err"; echo $?)" "--xml=yes: one line, not supported (got $st)"

# ---- ASan-built programs accept the preloaded library ----
if printf 'int main(void) { return 0; }\n' | cc -fsanitize=address -x c -o "$tmp/asan-probe" - 2>/dev/null; then
	cc -g -fsanitize=address -o "$tmp/asan" "$RWC_SRCDIR/tests/bad-child.c"
	"$W" -- "$tmp/asan" >/dev/null 2>"$err"; st=$?
	t "$([ $st = 1 ] && ! grep -q 'ASan runtime does not come first' "$err" && grep -q '^rwcheck: 1 bad call from 1 call site' "$err"; echo $?)" \
		"an ASan-built program runs under rwcheck and its bad call is reported (got $st)"
	"$W" -- sh -c "ASAN_OPTIONS=halt_on_error=0 '$tmp/asan'" >/dev/null 2>"$err"; st=$?
	t "$([ $st = 1 ] && ! grep -q 'ASan runtime does not come first' "$err" && grep -q '^rwcheck: 1 bad call from 1 call site' "$err"; echo $?)" \
		"an ASan-built program whose caller sets its own ASAN_OPTIONS runs too (got $st)"
else
	n=$((n+1)); echo "ok $n # SKIP the compiler cannot build with -fsanitize=address"
fi

# ---- small messages ----
"$W" -- ./does-not-exist >/dev/null 2>"$err"; st=$?
t "$([ $st = 127 ] && [ "$(cat "$err")" = "rwcheck: ./does-not-exist: No such file or directory" ]; echo $?)" \
	"a missing command: one line, no shell line number, 127 (got $st: $(cat "$err"))"
lib=$("$RWC_BUILDDIR/rwcheck" --print-library)
head -c 65536 "$lib" >"$tmp/librwcheck.so" # (its code cut short)
sed "s|^lib=.*|lib='$tmp/librwcheck.so'|" "$RWC_BUILDDIR/rwcheck" >"$tmp/w"
sh "$tmp/w" -- true >/dev/null 2>"$err"; st=$?
t "$([ $st = 125 ] && [ "$(wc -l <"$err")" = 1 ] && grep -q "^rwcheck: the library does not load: $tmp/librwcheck.so" "$err" && ! grep -q '^Bus error' "$err"; echo $?)" \
	"a truncated library: one line naming it, 125 (got $st: $(cat "$err"))"
"$W" --backtrace=0 -- "$B" >/dev/null 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q '^rwcheck:   1 x buf-unmapped in pread() from 0x[0-9a-f]*, from 1 process' "$err" && ! grep -q '??' "$err"; echo $?)" \
	"--backtrace=0: the summary names the caller's address, not ?? (got $st)"
LD_PRELOAD="$lib" RWCHECK_LOG="$tmp/nodir/x.%p.log" "$B" >/dev/null 2>"$err"
t "$(grep -q "^rwcheck: cannot open RWCHECK_LOG=$tmp/nodir/x.[0-9]*.log: No such file or directory; reporting to stderr" "$err" &&
	grep -q 'buf-unmapped' "$err"; echo $?)" "cannot open RWCHECK_LOG: the message names the path and the error; the report still comes"
echo "1..$n"
exit $failed
