#!/bin/sh
# Real programs on ordinary work through the wrapper (make check-real, and
# part of make check): identical output and exit status, not one report;
# with the default checks and again with every check on (RWCHECK_CHECKS=all:
# the stack check too).
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
unset MAKEFLAGS MFLAGS MAKELEVEL   # the outer make check must not leak in
work=$(mktemp -d)
logs=$(mktemp -d)
trap 'rm -rf "$work" "$logs"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/real-workloads.sh"
real_workloads_setup

# run NAME CMD: runs CMD (a shell snippet) twice, plain and preloaded, in
# fresh directories; compares stdout+status; asserts no report.
run() {
	name="$1 [checks: ${RWCHECK_CHECKS:-default}]"; shift
	rm -rf a b; mkdir a b
	(cd a && sh -c "$1" >../out.a 2>&1; echo "status $?" >>../out.a)
	(cd b && "$RWC_BUILDDIR/rwcheck" --quiet --log-dir="$logs" -- sh -c "$1" >../out.b 2>&1; echo "status $?" >>../out.b)
	cmp -s out.a out.b; t $? "$name: same output and status"
	cmp -s out.a out.b || diff out.a out.b | sed "s/^/# /"
	reports=$(cat "$logs"/rwcheck.* 2>/dev/null | head -20)
	t "$([ -z "$reports" ]; echo $?)" "$name: no report${reports:+: $reports}"
	rm -f "$logs"/rwcheck.*
}

for checks in default all; do
if [ "$checks" = all ]; then RWCHECK_CHECKS=all; export RWCHECK_CHECKS; fi
real_workloads
done
unset RWCHECK_CHECKS
echo "1..$n"
exit $failed
