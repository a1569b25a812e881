#!/bin/sh
# tests/integration/: an automake project whose make check runs every test
# through rwcheck (LOG_COMPILER).  Its suite passes without rwcheck, fails
# because of rwcheck, and passes again once the bad call is suppressed.
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
W="$RWC_BUILDDIR/rwcheck"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL
cp -R "$RWC_SRCDIR/tests/integration/." "$work/"
chmod -R u+w "$work"
cd "$work" || exit 1
if ! { autoreconf -fi && ./configure; } >setup.log 2>&1; then
	t 1 "the example project configures"; sed 's/^/# /' setup.log | tail -20
	echo "1..$n"; exit 1
fi
t 0 "the example project configures"

make check RWCHECK= >plain.log 2>&1; st=$?
t "$([ $st = 0 ]; echo $?)" "without rwcheck the suite passes (the bug hides)"

make check RWCHECK="$W" >rw.log 2>&1; st=$?
t "$([ $st != 0 ]; echo $?)" "through rwcheck the suite fails"
grep -q '^FAIL: parse-header' rw.log && grep -q '^PASS: parse-ok' rw.log
t $? "... because of parse-header alone"
grep -q 'bytes 64..4095 of buf are not mapped \[buf-unmapped\]' parse-header.log &&
	grep -q 'in read_header .*parse-header.c:[0-9]' parse-header.log
t $? "... whose log has the report, at read_header's line"

# Both README recipes at once: rwcheck -- make check over LOG_COMPILER.
rm -f parse-header.log parse-ok.log
"$W" -- make check RWCHECK="$W" >nest.log 2>nest.err; st=$?
t "$([ $st != 0 ] && grep -q '^FAIL: parse-header' nest.log && grep -q '^PASS: parse-ok' nest.log; echo $?)" \
	"nested under rwcheck -- make check: parse-header alone fails (got $st)"
t "$(grep -q 'bytes 64..4095 of buf are not mapped \[buf-unmapped\]' parse-header.log && ! grep -q '^{' parse-header.log; echo $?)" \
	"... its log holds the text report, no JSON"
t "$(tail -n 1 nest.err | grep -qx 'rwcheck: 1 bad call from 1 call site in 1 process'; echo $?)" \
	"... and the outer summary counts the bad call once ($(tail -n 1 nest.err))"

# SARIF from a parallel make -j2 check, one wrapper per test: merged into
# one file (a lock), one result per bad test, valid.
printf '#!/bin/sh\nexec "%s" 3\n' "$RWC_BUILDDIR/tests/bad-child" >bad2.test; chmod +x bad2.test
rm -f all.sarif
make -j2 check RWCHECK="$W" RWCHECK_FLAGS="--sarif=$work/all.sarif" TESTS="parse-header parse-ok bad2.test" \
	TEST_LOG_COMPILER='$(LOG_COMPILER)' >sarif.log 2>&1
python3 - all.sarif <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
by = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].rsplit("/", 1)[-1]: r for r in res}
# (in the order the two tests finished: either first)
sys.exit(0 if len(res) == 2 and sorted(by) == ["bad-child.c", "parse-header.c"] and
         by["bad-child.c"]["properties"]["count"] == 3 else 1)
PY
t $? "make -j2 check with --sarif in LOG_COMPILER: both bad tests' results in one file"
V=${RWC_SARIF_VALIDATOR:-/opt/rwcheck-tools/node_modules/.bin/sarif-multitool}
if [ -x "$V" ]; then
	"$V" validate all.sarif -o validation.sarif >validate.out 2>&1; st=$?
	errors=$(python3 -c 'import json,sys; print(sum(1 for run in json.load(open(sys.argv[1]))["runs"] for r in run.get("results", []) if r.get("level") == "error"))' validation.sarif 2>/dev/null)
	t "$([ $st = 0 ] && [ "$errors" = 0 ]; echo $?)" "... and the SARIF validator finds no error (exit $st, ${errors:-?} errors)"
else
	n=$((n+1)); echo "ok $n # SKIP the SARIF validator is not installed (scripts/install-deps.sh installs it)"
fi

make check RWCHECK="$W" RWCHECK_FLAGS="--suppressions=$work/known-bugs.supp" >supp.log 2>&1; st=$?
t "$([ $st = 0 ]; echo $?)" "with the bad call suppressed the suite passes"
echo "1..$n"
exit $failed
