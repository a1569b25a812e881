#!/usr/bin/env bash
# check-suites.sh: real projects' own test suites, plainly and under rwcheck
# (make check-suites).  Each suite's source is a Debian source package
# (apt-get source), built with -O1 -g (glibc's malloc where the project would
# pick another allocator), and its tests run three times: plainly, under
# `rwcheck --log-dir` with RWCHECK_CHECKS=all, and with the default checks.
# Per test the result (pass/fail) must be the same in every run, and every
# report not matched by scripts/suites-known.supp (the triaged real bugs)
# fails the suite.  Every report is listed: call, problem, object, frames.
#
# Usage: scripts/check-suites.sh BUILDDIR        (BUILDDIR: rwcheck's build tree)
# Environment:
#   SUITES=zlib,lz4,...   which suites (default: all; see suites-defs.sh)
#   RWC_SUITES_CACHE      sources, builds and logs (default /var/cache/rwcheck-suites)
#   RWC_SUITES_MODES      runs after the plain one (default "all default")
#   RWC_SUITES_NICE       nice level of builds and runs (default 19)
#   RWC_SUITES_LZ4, _GIT, _REDIS, _SQLITE3, _PYTHON: a suite's list of tests
#                         (make targets, t/ scripts, units, test files, modules)
# Logs: $RWC_SUITES_CACHE/runs/SUITE/MODE/ (results, out.log, reports/, the
#   JSON logs in json/); the summary table in $RWC_SUITES_CACHE/runs/summary.md.
# Exit: 0 all suites pass; 1 a suite failed; 77 skip (no source reachable).
set -uo pipefail

say() { printf 'check-suites: %s\n' "$*"; }
die() { say "FAIL: $*" >&2; exit 1; }
skip() { say "SKIP: $*"; exit 77; }

[ $# -ge 1 ] || die "usage: check-suites.sh BUILDDIR"
BUILDDIR=$(readlink -f "$1")
RWCHECK=$BUILDDIR/rwcheck
[ -x "$RWCHECK" ] || die "no $RWCHECK: build rwcheck first"
HERE=$(dirname "$(readlink -f "$0")")
KNOWN=$HERE/suites-known.supp
CACHE=${RWC_SUITES_CACHE:-/var/cache/rwcheck-suites}
MODES=${RWC_SUITES_MODES-all default}
NICE="nice -n ${RWC_SUITES_NICE:-19}"
ALL_SUITES=zlib,lz4,xz-utils,libarchive,git,redis,sqlite3,python
SUITES=${SUITES:-$ALL_SUITES}
unset MAKEFLAGS MFLAGS MAKELEVEL   # the outer make must not leak into the suites' own
unset RWCHECK_CHECKS              # "default" means rwcheck's defaults
export LC_ALL=C.UTF-8 TZ=UTC

# shellcheck source=scripts/suites-defs.sh
. "$HERE/suites-defs.sh"

# ---- sources and builds -----------------------------------------------------

# fetch PKG: sets SRC to the unpacked source tree of Debian source package PKG
# (downloaded once into CACHE/src, unpacked once into CACHE/build).
fetch() {
	local pkg=$1 dsc
	mkdir -p "$CACHE/src" "$CACHE/build"
	dsc=$(find "$CACHE/src" -maxdepth 1 -name "${pkg}_*.dsc" | sort | tail -1)
	if [ -z "$dsc" ]; then
		(cd "$CACHE/src" && apt-get source --download-only -qq "$pkg" >"$CACHE/src/$pkg.fetch.log" 2>&1) ||
			{ cat "$CACHE/src/$pkg.fetch.log"; return 77; }
		dsc=$(find "$CACHE/src" -maxdepth 1 -name "${pkg}_*.dsc" | sort | tail -1)
	fi
	local ver
	ver=$(sed -n 's/^Version: //p' "$dsc" | head -1)
	VERSION="$pkg $ver"
	SRC=$CACHE/build/$(sed -n 's/^Source: //p' "$dsc" | head -1)-$(printf '%s' "${ver#*:}" | sed 's/-[^-]*$//')
	if [ ! -d "$SRC" ]; then
		(cd "$CACHE/build" && dpkg-source -x --skip-debianization "$dsc" "$SRC" >/dev/null) || return 1
	fi
}

# build SUITE: the suite's build step once (a stamp), its output in build.log.
build() {
	local s=$1
	[ -f "$SRC/.rwc-built" ] && return 0
	say "$s: building in $SRC (log: $SRC/rwc-build.log)"
	(cd "$SRC" && "build_$s") >"$SRC/rwc-build.log" 2>&1 ||
		{ tail -30 "$SRC/rwc-build.log"; return 1; }
	touch "$SRC/.rwc-built"
}

# ---- runs ---------------------------------------------------------------------

# run_mode SUITE MODE: the suite's tests, plain or under rwcheck; results in
# OUT/results ("TEST pass|fail" lines, sorted), time in OUT/seconds.
run_mode() {
	local s=$1 mode=$2 t0
	OUT=$CACHE/runs/$s/$mode
	rm -rf "$OUT"; mkdir -p "$OUT/json"
	if [ "$mode" = plain ]; then
		RUN=()
	else
		RUN=("$RWCHECK" --quiet --error-exitcode=0 --log="$OUT/rwcheck.log"
			--log-dir="$OUT/json")
		# only a file with a suppression in it (see tests/repro/own-map-in-gap.c)
		grep -q '^{' "$KNOWN" && RUN+=(--suppressions="$KNOWN")
		[ "$mode" = all ] && RUN+=(--checks=all)
		RUN+=(--)
	fi
	export OUT
	# shellcheck disable=SC2016  # expanded by that sh
	if [ "$mode" != plain ] && ! "${RUN[@]}" sh -c 'case $LD_PRELOAD in *librwcheck*) ;; *) exit 1 ;; esac'; then
		say "$s: rwcheck's library is not preloaded"; echo "rwcheck-preload fail" >"$OUT/results"; return
	fi
	t0=$(date +%s)
	(cd "$SRC" && "run_$s") >"$OUT/out.log" 2>&1
	echo $(($(date +%s) - t0)) >"$OUT/seconds"
	[ -f "$OUT/results" ] || : >"$OUT/results"
	sort -o "$OUT/results" "$OUT/results"
}

# reports DIR: one line per distinct report in DIR/json (call, problem, object,
# first frames), with how many processes had it; the reports KNOWN suppresses
# left out (the wrapper applies suppressions itself: the per-process logs
# keep every report, so the collector filters them again here).
reports() {
	"$BUILDDIR/rwcheck-collect" --format=json --every --suppressions="$KNOWN" --out=/dev/stdout "$1/json" 2>/dev/null |
		python3 "$HERE/suites-reports.py" -
}

mmss() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# suite SUITE: fetch, build, run each mode; compare; print the findings.
# Appends its row to TABLE; returns 1 on a changed result or a new report.
suite() {
	local s=$1 pkg rc=0 mode n changed row plain_s
	pkg=$(pkg_of "$s")
	if [ "$pkg" = - ]; then "fetch_$s"; else fetch "$pkg"; fi || { rc=$?; say "$s: cannot fetch ${pkg/#-/its source}"; return "$rc"; }
	build "$s" || { say "$s: FAIL: build failed"; return 1; }
	say "$s: $VERSION: plain run"
	run_mode "$s" plain
	plain_s=$(cat "$OUT/seconds")
	n=$(wc -l <"$OUT/results")
	[ "$n" -gt 0 ] || { say "$s: FAIL: no test result in the plain run (see $OUT/out.log)"; return 1; }
	row="| $s | $VERSION | $n | $(grep -c ' fail$' "$OUT/results") | $(mmss "$plain_s")"
	for mode in $MODES; do
		say "$s: under rwcheck, checks: $mode"
		run_mode "$s" "$mode"
		changed=$(diff "$CACHE/runs/$s/plain/results" "$OUT/results" | grep '^[<>]')
		if [ -n "$changed" ]; then
			rc=1; say "$s: FAIL: results changed under rwcheck ($mode; $(printf '%s\n' "$changed" | wc -l) lines, < plain, > under rwcheck):"
			printf '%s\n' "$changed" | head -40 | sed 's/^/    /'
		fi
		reports "$OUT" >"$OUT/reports.txt"
		if [ -s "$OUT/reports.txt" ]; then
			rc=1; say "$s: FAIL: untriaged reports ($mode; JSON in $OUT/json):"
			sed 's/^/    /' "$OUT/reports.txt"
		fi
		row="$row | $(mmss "$(cat "$OUT/seconds")") ($(awk -v a="$(cat "$OUT/seconds")" -v b="$plain_s" 'BEGIN { printf "%.1fx", b ? a / b : 0 }')) | $(grep -c . "$OUT/reports.txt")"
	done
	TABLE+=("$row |")
	echo "$row |" >"$CACHE/runs/$s/row.md"
	[ "$rc" -eq 0 ] && say "$s: ok: $n tests, same results, no untriaged report"
	return "$rc"
}

TABLE=()
failed=
skipped=
IFS=, read -ra wanted <<<"$SUITES"
for s in "${wanted[@]}"; do
	case ",$ALL_SUITES," in *",$s,"*) ;; *) die "unknown suite $s (known: $ALL_SUITES)" ;; esac
done
for s in "${wanted[@]}"; do
	suite "$s"
	case $? in 0) ;; 77) skipped="$skipped $s" ;; *) failed="$failed $s" ;; esac
done
head="| suite | Debian version | tests | failing plainly | plain"
for mode in $MODES; do head="$head | rwcheck ($mode) | reports"; done
mkdir -p "$CACHE/runs"
{ echo "$head |"; echo "$head |" | sed 's/[^|]\+/ --- /g'; printf '%s\n' "${TABLE[@]}"; } >"$CACHE/runs/summary.md"
cat "$CACHE/runs/summary.md"
[ -z "$skipped" ] || say "skipped (no source):$skipped"
[ -z "$failed" ] || die "failed:$failed"
[ ${#TABLE[@]} -gt 0 ] || skip "no suite ran"
say "all suites pass"
