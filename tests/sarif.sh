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

# Results merged: another wrapper run into the same file adds its counts;
# URIs relative to SRCROOT; informationUri; fingerprints without paths.
"$W" --sarif="$dir/run.sarif" -- "$RWC_BUILDDIR/tests/bad-child" 2 >/dev/null 2>&1
python3 - "$dir/run.sarif" "$(pwd)" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
res = run["results"]
loc = res[0]["locations"][0]["physicalLocation"]["artifactLocation"]
fp = res[0]["partialFingerprints"]["rwcheckCallSite/v2"]
ok = (len(res) == 2 and res[0]["properties"]["count"] == 5 and res[0]["properties"]["processes"] == 2 and
      loc["uriBaseId"] == "SRCROOT" and not loc["uri"].startswith("/") and loc["uri"].endswith("bad-child.c") and
      run["originalUriBaseIds"]["SRCROOT"]["uri"] == "file://" + sys.argv[2].rstrip("/") + "/" and
      run["tool"]["driver"]["informationUri"].endswith("rwcheck.1") and
      "/" not in fp and ":" not in fp)
sys.exit(0 if ok else 1)
PY
t $? "a second wrapper run merges into the file: 5 calls from 2 processes, one result; SRCROOT-relative URI; informationUri"

# The fingerprint stays when the line moves; the location is the user's
# code: with debug info its file:line, without it its module and function.
cp "$RWC_SRCDIR/tests/bad-child.c" "$dir/a.c"
{ printf '\n\n\n'; cat "$RWC_SRCDIR/tests/bad-child.c"; } >"$dir/b.c"
(cd "$dir" && cc -g -o a a.c && cc -g -o b b.c && cc -o nog a.c) || t 1 "cc builds the variants"
for v in a b nog; do (cd "$dir" && "$W" --sarif="$dir/$v.sarif" -- "./$v" >/dev/null 2>&1); done
python3 - "$dir" <<'PY'
import json, sys
def first(v):
    return json.load(open(sys.argv[1] + "/" + v + ".sarif"))["runs"][0]["results"][0]
a, b, nog = first("a"), first("b"), first("nog")
la, lb = a["locations"][0]["physicalLocation"], b["locations"][0]["physicalLocation"]
ln = nog["locations"][0]
ok = (a["partialFingerprints"] == b["partialFingerprints"] == nog["partialFingerprints"] and
      lb["region"]["startLine"] == la["region"]["startLine"] + 3 and
      la["artifactLocation"] == {"uri": "a.c", "uriBaseId": "SRCROOT"} and
      ln["physicalLocation"]["artifactLocation"] == {"uri": "nog", "uriBaseId": "SRCROOT"} and
      "region" not in ln["physicalLocation"] and ln["logicalLocations"][0]["name"] == "main")
sys.exit(0 if ok else 1)
PY
t $? "the fingerprint is the same when the line moves and without debug info; without it the location is the module and main"
"$W" --srcroot="$dir" --sarif="$dir/root.sarif" -- "$dir/a" >/dev/null 2>&1
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; l=r["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]; sys.exit(0 if r["originalUriBaseIds"]["SRCROOT"]["uri"]=="file://"+sys.argv[2]+"/" and l["uriBaseId"]=="SRCROOT" else 1)' "$dir/root.sarif" "$dir"
t $? "--srcroot=DIR: the SRCROOT base is DIR"
echo "1..$n"
exit $failed
