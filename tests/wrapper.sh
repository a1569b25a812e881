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
# The scenario of issue 3: two processes, one call site.
B="$RWC_BUILDDIR/tests/bad-child"
"$W" --error-exitcode=7 -- sh -c "'$B' & '$B'; wait" >"$out" 2>"$err"; st=$?
t "$([ $st = 7 ]; echo $?)" "two bad children: exit 7 (got $st)"
grep -q '^rwcheck:   2 x buf-unmapped in pread() at main (.*bad-child.c:[0-9]*), from 2 processes' "$err"
t $? "the summary shows one call site, 2 calls, 2 processes"
tail -n 1 "$err" | grep -qx 'rwcheck: 2 bad calls from 1 call site in 2 processes'
t $? "the last line is the greppable total"
c=$(grep -c 'of buf are not mapped \[buf-unmapped\]' "$err")
t "$([ "$c" = 1 ]; echo $?)" "the report is printed once for its call site (got $c)"

supp=$(mktemp)
printf '{\n  bad child\n  rwcheck:buf-unmapped\n  fun:main\n  obj:*/libc.so*\n}\n' >"$supp"
"$W" --error-exitcode=7 --suppressions="$supp" -- sh -c "'$B' & '$B'; wait" >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ "$(cat "$err")" = 'rwcheck: 2 bad calls suppressed by 1 suppression (--show-suppressed lists them)' ]; echo $?)" \
	"the same run with a suppression: exit 0, one line says what was suppressed (got $st)"

"$W" -- "$B" 50 >/dev/null 2>"$err"; st=$?
grep -q '^rwcheck:   50 x buf-unmapped' "$err" && tail -n 1 "$err" | grep -qx 'rwcheck: 50 bad calls from 1 call site in 1 process'
t $? "a bad call in a loop: reported once, counted 50 times"

# Repeats are counted for the process that made them, whichever process's
# report was printed for the call site.
"$W" -- sh -c "'$B' 5 & '$B' 5; wait" >/dev/null 2>"$err"
grep -q '^rwcheck:   10 x buf-unmapped in pread() at main (.*bad-child.c:[0-9]*), from 2 processes' "$err" &&
	tail -n 1 "$err" | grep -qx 'rwcheck: 10 bad calls from 1 call site in 2 processes'
t $? "two processes, 5 bad calls each from one site: counted 10 times"
# A call site is (entry point, caller frames, problem): two entry points
# called from one call instruction, 3 times each, are two sites (issue 12).
for pair in "dedup_pread pread() pread64()" "dedup_preadv2 preadv2() preadv64v2()" \
	    "dedup_recv recv() __recv_chk()" "dedup_syscall syscall(SYS_read) syscall(SYS_pread64)"; do
	set -- $pair
	"$W" -- "$V" "$1" bad >/dev/null 2>"$err"
	fn=$(sed -n 's/.* x buf-unmapped in [^ ]* at \([a-z_0-9]*\) (.*victim.c:[0-9]*), from 1 process .*/\1/p' "$err" | sort -u)
	grep -Fq "rwcheck:   3 x buf-unmapped in $2 at $fn (" "$err" && grep -Fq "rwcheck:   3 x buf-unmapped in $3 at $fn (" "$err" &&
		[ "$(grep -c 'bytes 100..4095 of .* are not mapped \[buf-unmapped\]$' "$err")" = 2 ] &&
		[ "$(grep -Fc "]: ${2%)}" "$err")" = 1 ] && [ "$(grep -Fc "]: ${3%)}" "$err")" = 1 ] &&
		tail -n 1 "$err" | grep -qx 'rwcheck: 6 bad calls from 2 call sites in 1 process'
	st=$?
	t $st "$1: $2 and $3 from one call in $fn: two call sites, a report named after each, 3 calls each"
	[ $st = 0 ] || grep '^rwcheck: ' "$err" | sed 's/^/# /'
done
"$W" -- "$V" dedup_same bad >/dev/null 2>"$err"
grep -q '^rwcheck:   6 x buf-unmapped in pread() at one_pread (.*victim.c:[0-9]*), from 1 process' "$err" &&
	[ "$(grep -c 'bytes 100..4095 of buf are not mapped' "$err")" = 1 ] &&
	tail -n 1 "$err" | grep -qx 'rwcheck: 6 bad calls from 1 call site in 1 process'
t $? "dedup_same: one entry point twice from one call: one call site, counted 6 times"
"$W" -- "$V" dedup_callers bad >/dev/null 2>"$err"
[ "$(grep -c '^rwcheck:   3 x buf-unmapped in pread() at one_pread (.*victim.c:[0-9]*) < c_dedup_callers (.*victim.c:[0-9]*), from 1 process' "$err")" = 2 ] &&
	[ "$(grep '^rwcheck:   3 x' "$err" | sort -u | wc -l)" = 2 ] &&
	tail -n 1 "$err" | grep -qx 'rwcheck: 6 bad calls from 2 call sites in 1 process'
t $? "dedup_callers: one call in a helper reached from two callers: two call sites, each line naming its caller, counted 3 times each"
# ... without DWARF: the two callers' frames differ only by their offsets
# in the module (the sites were one, "6 x", before the frames' offsets
# were part of a site's identity)
nodw=$(mktemp); objcopy --strip-debug "$V" "$nodw"
"$W" -- "$nodw" dedup_callers bad >/dev/null 2>"$err"
[ "$(grep -c '^rwcheck:   3 x buf-unmapped in pread() at one_pread (.*+0x[0-9a-f]*) < c_dedup_callers (.*+0x[0-9a-f]*), from 1 process' "$err")" = 2 ] &&
	[ "$(grep '^rwcheck:   3 x' "$err" | sort -u | wc -l)" = 2 ] &&
	tail -n 1 "$err" | grep -qx 'rwcheck: 6 bad calls from 2 call sites in 1 process'
t $? "dedup_callers without DWARF: two call sites told apart by their offsets in the module"
rm -f "$nodw"

"$W" --quiet -- "$B" >/dev/null 2>"$err"; st=$?
t "$([ $st = 1 ] && [ "$(wc -l <"$err")" = 1 ] && grep -q '^rwcheck: 1 bad call from 1 call site in 1 process$' "$err"; echo $?)" "--quiet: only the summary line"

logf=$(mktemp); rm -f "$logf"
"$W" --log="$logf" -- "$B" >/dev/null 2>"$err"; st=$?
t "$([ $st = 1 ] && [ ! -s "$err" ] && grep -q 'buf-unmapped' "$logf" && grep -q '^rwcheck: 1 bad call' "$logf"; echo $?)" "--log=FILE: reports and summary go to FILE, nothing to stderr"

ld=$(mktemp -d)
"$W" --log-dir="$ld" -- sh -c "'$B'; '$B'" >/dev/null 2>&1
c=$(ls "$ld" | grep -c '^rwcheck\.[0-9]*\.json$')
t "$([ "$c" = 2 ]; echo $?)" "--log-dir keeps one JSON log per reporting process (got $c)"

"$W" --format=json -- "$B" >/dev/null 2>"$err"
python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; sys.exit(0 if len(r)==2 and r[0]["problem"]=="buf-unmapped" and r[1]["summary"]["bad_calls"]==1 else 1)' "$err"
t $? "--format=json: only JSON lines: the report, then the summary object"

"$W" --gen-suppressions -- "$B" >/dev/null 2>"$err"
sed -n '/^{$/,/^}$/p' "$err" >"$supp"
"$W" --suppressions="$supp" -- "$B" >/dev/null 2>&1; st=$?
t "$([ -s "$supp" ] && [ $st = 0 ]; echo $?)" "--gen-suppressions prints a suppression that silences the call"

# A process the command leaves behind (orphaned: reparented to the
# wrapper, its subreaper) that makes its bad call after the command ended
# is still reported (the new user's double-forked daemon went unseen, exit 0).
"$W" -- sh -c "(sleep 0.3; '$B') &" >/dev/null 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q 'buf-unmapped' "$err" && tail -n 1 "$err" | grep -qx 'rwcheck: 1 bad call from 1 call site in 1 process'; echo $?)" \
	"a bad call of an orphan after the command ended: reported, exit 1 (got $st)"
# ... but one that runs on does not hold the wrapper past its grace (1 s).
s0=$(date +%s)
"$W" -- sh -c "sleep 5 >/dev/null 2>&1 &" >/dev/null 2>&1; st=$?
s1=$(date +%s)
t "$([ $st = 0 ] && [ $((s1 - s0)) -lt 10 ]; echo $?)" "an orphan that runs on: the wrapper ends after its grace (took $((s1 - s0)) s)"

(cd / && "$W" -- "$B" >/dev/null 2>&1); st=$?
t "$([ $st = 1 ]; echo $?)" "works from any current directory (got $st)"

broken=$(mktemp)
sed "s|^lib=.*|lib='/etc/hostname'|" "$W" >"$broken"
sh "$broken" -- true >/dev/null 2>"$err"; st=$?
t "$([ $st = 125 ] && grep -q 'does not load\|not found' "$err"; echo $?)" "an unloadable library is an error, not a silent unchecked run (got $st)"
rm -rf "$ld" "$logf" "$supp" "$broken"
rm -f "$out" "$err"
# --checks and --heap-origins reach every process.
VB="$RWC_BUILDDIR/tests/victim_bounds"
"$W" --checks=-stack -- "$VB" stack_local bad >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && ! grep -q stack-overflow "$err"; echo $?)" "--checks=-stack: the stack check off (got $st)"
"$W" -- sh -c "\"$VB\" stack_local bad" >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -q '\[stack-overflow\]' "$err"; echo $?)" "the stack check is on by default: a stack overrun in a child of sh is reported (got $st)"
"$W" --checks=maps -- "$VB" heap_malloc bad >"$out" 2>"$err"; st=$?
t "$([ $st = 0 ] && [ ! -s "$err" ]; echo $?)" "--checks=maps: no heap check (got $st)"
"$W" --heap-origins=3 -- "$VB" heap_malloc bad >"$out" 2>"$err"; st=$?
t "$([ $st = 1 ] && grep -A1 'the block was allocated at:' "$err" | grep -q 'in c_heap_malloc '; echo $?)" "--heap-origins=3: the report says where the block was allocated (got $st)"

echo "1..$n"
exit $failed
