#!/bin/sh
# rwcheck --sarif=FILE writes SARIF 2.1.0 that Microsoft's SARIF validator
# accepts without errors, with the call site at the caller's file:line.
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
W="$RWC_BUILDDIR/rwcheck"
V=${RWC_SARIF_VALIDATOR:-/opt/rwcheck-tools/node_modules/.bin/sarif-multitool}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$W" --sarif="$dir/run.sarif" -- sh -c "'$RWC_BUILDDIR/tests/bad-child' 3; '$RWC_BUILDDIR/tests/victim' write bad" >/dev/null 2>&1
t "$([ -s "$dir/run.sarif" ]; echo $?)" "--sarif writes the file"
python3 - "$dir/run.sarif" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
res = log["runs"][0]["results"]
ok = (log["version"] == "2.1.0" and len(res) == 2 and
      res[0]["ruleId"] == "buf-unmapped" and res[0]["properties"]["count"] == 3 and
      res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("bad-child.c") and
      res[0]["locations"][0]["physicalLocation"]["region"]["startLine"] > 0 and
      res[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("victim.c"))
sys.exit(0 if ok else 1)
PY
t $? "two call sites, most frequent first, at the callers' file:line"

if [ -x "$V" ]; then
	"$V" validate "$dir/run.sarif" -o "$dir/validation.sarif" >"$dir/validate.out" 2>&1
	st=$?
	errors=$(python3 -c '
import json, sys
log = json.load(open(sys.argv[1]))
print(sum(1 for run in log["runs"] for r in run.get("results", []) if r.get("level") == "error"))' "$dir/validation.sarif" 2>/dev/null)
	t "$([ $st = 0 ] && [ "$errors" = 0 ]; echo $?)" "the SARIF validator finds no error (exit $st, ${errors:-?} errors)"
	[ "$errors" = 0 ] || sed 's/^/# /' "$dir/validate.out"
else
	n=$((n+1)); echo "ok $n # SKIP the SARIF validator is not installed (scripts/install-deps.sh installs it)"
fi
"$W" --sarif="$dir/clean.sarif" -- true; st=$?
python3 -c 'import json,sys; l=json.load(open(sys.argv[1])); sys.exit(0 if l["runs"][0]["results"]==[] else 1)' "$dir/clean.sarif"
t "$([ $? = 0 ] && [ $st = 0 ]; echo $?)" "a clean run writes a SARIF log with no results"
echo "1..$n"
exit $failed
