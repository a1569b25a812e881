#!/bin/sh
# ./rwcheck's output for machines and people (issue 18): --format=json is
# JSON lines only (jq reads it), reports say which program and thread,
# reports come as they happen, --dedup=0 shows every call, a wrapper under
# another behaves as if alone and is counted once.
# (RWC_WRAPPER: another wrapper to test, e.g. an older one.)
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
W=${RWC_WRAPPER:-$RWC_BUILDDIR/rwcheck}
B="$RWC_BUILDDIR/tests/bad-child"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out; err=$tmp/err
await() { i=0; while ! grep -q "$2" "$1" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done; }

# ---- JSON ----
"$W" --format=json -- sh -c "'$B' 3 a b; RWCHECK_MAPS_QUERY=bogus '$B'" >"$out" 2>"$err"; st=$?
jq -e . "$err" >/dev/null 2>&1; jst=$?
t "$([ $st = 1 ] && [ $jst = 0 ]; echo $?)" "--format=json: jq reads every line of the output (got $st, jq $jst)"
jq -se '.[-1].summary.bad_calls == 4 and .[-1].summary.call_sites == 1 and .[-1].summary.processes == 2' "$err" >/dev/null 2>&1
t $? "--format=json: the last object is the summary (4 bad calls, 1 site, 2 processes)"
jq -se 'map(select(.warning)) | length >= 1 and (.[0].warning | test("RWCHECK_MAPS_QUERY"))' "$err" >/dev/null 2>&1
t $? "--format=json: a process's knob warning is a JSON object"
# (the two processes' reports come in the order the follower finds their
# logs: a directory's order when both ended within one scan; and with
# dedup the site's one report is whichever it found first: ~1 run in 30
# shows the second process's)
jq -se --arg b "$B" 'map(select(.problem))[0] | .exe == $b and (.argv == [$b, "3", "a", "b"] or .argv == [$b]) and .tid == .pid' "$err" >/dev/null 2>&1
t $? "a report carries exe, argv and tid"
"$W" --format=json -- true >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && jq -se 'length == 1 and .[0].summary.bad_calls == 0' "$err" >/dev/null 2>&1; echo $?)" "--format=json, a clean run: one summary object (got $st)"
# The wrapper's own lines are JSON objects too: -v, a suppressions file's
# warning, the warning about a static command.
printf '{\n  typo\n  rwcheck:heap-overfow\n  fun:main\n}\n' >"$tmp/typo.supp"
printf 'int main(void) { return 0; }\n' >"$tmp/st.c"
static=true
cc -static -o "$tmp/static" "$tmp/st.c" 2>/dev/null && static=$tmp/static
"$W" --format=json -v --suppressions="$tmp/typo.supp" -- "$static" 2>&1 >/dev/null | jq -c . >"$out" 2>/dev/null; jst=$?
t "$([ $jst = 0 ] && [ "$(grep -c '^{"verbose":"' "$out")" = 3 ] && grep -q '^{"verbose":"not checked: static or setuid' "$out" &&
	grep -q '^{"warning":".*typo.supp:3: rwcheck:heap-overfow matches no problem name' "$out" &&
	{ [ "$static" = true ] || grep -q '^{"warning":".*/static is statically linked' "$out"; }; echo $?)" \
	"--format=json: -v, suppressions-file and static-command lines are JSON objects (jq $jst; $static)"
"$W" -v --suppressions="$tmp/typo.supp" -- true >/dev/null 2>"$err"
t "$(grep -q '^rwcheck: not checked: static or setuid' "$err" && grep -q '^rwcheck: warning: .*typo.supp:3: rwcheck:heap-overfow' "$err" &&
	! grep -q '^{' "$err"; echo $?)" "--format=text: the same lines as text"
ld=$tmp/logs
RWCHECK_FORMAT=json RWCHECK_LOG="$ld.%p" RWCHECK_MAPS_QUERY=bogus LD_PRELOAD=$("$RWC_BUILDDIR/rwcheck" --print-library) "$B" >/dev/null 2>&1
jq -se 'length == 2 and (.[0].warning | test("RWCHECK_MAPS_QUERY")) and .[1].problem == "buf-unmapped"' "$ld".* >/dev/null 2>&1
t $? "RWCHECK_FORMAT=json: a process's log holds JSON lines only, its warnings too"

# ---- reports as they happen ----
"$W" -- sh -c "'$B'; i=0; while [ ! -e '$tmp/seen' ] && [ \$i -lt 200 ]; do sleep 0.1; i=\$((i+1)); done" >/dev/null 2>"$err" &
wp=$!
await "$err" 'buf-unmapped'
running=1; kill -0 $wp 2>/dev/null || running=0
grep -q 'bytes 100..4095 of buf are not mapped' "$err"; seen=$?
touch "$tmp/seen"; wait $wp
t "$([ $seen = 0 ] && [ $running = 1 ]; echo $?)" "the report is printed while the command still runs"
"$W" --dedup=0 -- "$B" 3 >/dev/null 2>"$err"; st=$?
c=$(grep -c 'bytes 100..4095 of buf are not mapped' "$err")
t "$([ $st = 1 ] && [ "$c" = 3 ] && tail -n 1 "$err" | grep -qx 'rwcheck: 3 bad calls from 1 call site in 1 process'; echo $?)" \
	"--dedup=0: each of 3 bad calls printed, one call site in the summary (got $c)"

# ---- suppressions: counted, listed ----
printf '# known\n{\n  bad child\n  rwcheck:buf-*\n  fun:main\n}\n{\n  never\n  rwcheck:*\n  fun:nothing_like_this\n}\n' >"$tmp/s.supp"
"$W" --suppressions="$tmp/s.supp" --show-suppressed -- sh -c "'$B' 3; '$B' 2" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ "$(sed -n 1p "$err")" = 'rwcheck: 5 bad calls suppressed by 1 suppression:' ] &&
	[ "$(sed -n 2p "$err")" = "rwcheck:   5 x suppressed by bad child ($tmp/s.supp:2)" ] && [ "$(wc -l <"$err")" = 2 ]; echo $?)" \
	"--show-suppressed: 5 calls suppressed, by which entry, at which line (got $st)"
"$W" --format=json --suppressions="$tmp/s.supp" -- "$B" 4 >"$out" 2>"$err"
jq -se --arg f "$tmp/s.supp" '.[-1].summary.suppressed_calls == 4 and .[-1].summary.suppressed == [{"name":"bad child","file":$f,"line":2,"count":4}]' "$err" >/dev/null 2>&1
t $? "--format=json: the summary lists the suppressed calls"
printf '{\n  other\n  rwcheck:buf-unmapped\n  fun:nothing_like_this\n}\n' >"$tmp/o.supp"
"$W" --suppressions="$tmp/o.supp" -- "$B" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q 'bytes 100..4095 of buf are not mapped' "$err" && ! grep -q suppressed "$err"; echo $?)" \
	"a suppression that does not match: the bad call is still reported (got $st)"
"$W" --dedup=0 --suppressions="$tmp/s.supp" -- "$B" 3 >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && ! grep -q 'are not mapped' "$err"; echo $?)" "--dedup=0: suppressed calls are not printed (got $st)"

# ---- a wrapper under a wrapper ----
"$W" -- sh -c "'$W' --log='$tmp/inner.log' -- '$B' 2" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q '^rwcheck\[[0-9]*\]: pread(.*\[buf-unmapped\]$' "$tmp/inner.log" && ! grep -q '^{' "$tmp/inner.log" &&
	tail -n 1 "$tmp/inner.log" | grep -qx 'rwcheck: 2 bad calls from 1 call site in 1 process'; echo $?)" \
	"the inner wrapper's log is text, as if alone (got $st)"
t "$(tail -n 1 "$err" | grep -qx 'rwcheck: 2 bad calls from 1 call site in 1 process'; echo $?)" \
	"the outer wrapper counts the inner's bad calls once ($(tail -n 1 "$err"))"
"$W" --format=json -- sh -c "'$W' -- '$B'" >"$out" 2>"$err"
grep -q '^rwcheck\[[0-9]*\]: pread(' "$err" && grep '^{' "$err" | jq -se 'map(select(.summary))[-1].summary.bad_calls == 1' >/dev/null 2>&1
t $? "an outer --format=json does not make the inner wrapper print JSON; the outer counts 1"
# ---- --format=json: the wrapper's errors are JSON too ----
"$W" --checks=+stak --format=json -- true >"$out" 2>"$err"; st=$?
t "$([ $st = 125 ] && [ "$(wc -l <"$err")" = 1 ] && jq -e '.error | startswith("--checks=+stak: expected")' "$err" >/dev/null 2>&1; echo $?)" \
	"--format=json: a bad option (even before --format) is one {\"error\": ...} line, exit 125 (got $st: $(cat "$err"))"
"$W" --format=json -- "$tmp/no-such-program" >"$out" 2>"$err"; st=$?
t "$([ $st = 127 ] && jq -se '.[0].error == "'"$tmp"'/no-such-program: No such file or directory" and (.[-1].summary | type) == "object"' "$err" >/dev/null 2>&1; echo $?)" \
	"--format=json: a command that cannot start: an {\"error\": ...} line and the summary, exit 127 (got $st: $(cat "$err"))"
# ---- counts past what a JSON reader's integers hold ----
# (size_t)SSIZE_MAX + 1 bytes and an iovcnt of -1 (written unsigned):
# counted and printed like any report, never dropped.
V="$RWC_BUILDDIR/tests/victim"
"$W" -- sh -c "'$V' read_count bad; '$V' readv_iovcnt bad" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q 'count=9223372036854775808).*\[count-too-large\]$' "$err" &&
	grep -q 'iovcnt=-1).*\[iovcnt-invalid\]$' "$err" &&
	tail -n 1 "$err" | grep -qx 'rwcheck: 2 bad calls from 2 call sites in 2 processes'; echo $?)" \
	"a count past 2^63-1 and an iovcnt of -1: both reported and counted, exit 1 (got $st: $(tail -n 3 "$err"))"
"$W" --format=json -- sh -c "'$V' read_count bad; '$V' readv_iovcnt bad" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && jq -se '[.[] | select(.problem)] | length == 2 and (map(.problem) | sort) == ["count-too-large", "iovcnt-invalid"]' "$err" >/dev/null 2>&1 &&
	jq -se '.[-1].summary.bad_calls == 2' "$err" >/dev/null 2>&1; echo $?)" \
	"--format=json: the same two reports as JSON objects, the summary counts 2 (got $st)"

echo "1..$n"
exit $failed
