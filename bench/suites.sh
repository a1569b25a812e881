#!/usr/bin/env bash
# bench/suites.sh (make bench-suites): real programs timed with and without
# the library, per program and in total (the workloads of
# tests/real-workloads.sh, each round running every mode back to back in
# turn: plain, an empty preloaded library, the library with the default
# checks; the wrapper's own start, ~10 ms once per command, is timed
# apart), then git's own t0*.sh test scripts (Debian's git source
# package, built by make check-suites SUITES=git or by this script) through
# the wrapper, plainly and under the library with checks taken away one
# family at a time, with each process's extra time: what a process pays
# for the library's start, the interposition, and each check.
#
# Usage: bench/suites.sh BUILDDIR   (rwcheck's build tree)
# Environment: ROUNDS (real programs, default 5), GIT_ROUNDS (default 1),
#   RWC_SUITES_CACHE (default /var/cache/rwcheck-suites), NO_GIT=1, NO_REAL=1,
#   GMODES (the git runs, default below).
set -uo pipefail
B=$(readlink -f "${1:?usage: bench/suites.sh BUILDDIR}")
HERE=$(dirname "$(readlink -f "$0")")
RWCHECK=$B/rwcheck
EMPTY=$B/bench/libempty.so
LIB=$B/src/.libs/librwcheck.so
ROUNDS=${ROUNDS:-5}
GIT_ROUNDS=${GIT_ROUNDS:-1}
CACHE=${RWC_SUITES_CACHE:-/var/cache/rwcheck-suites}
[ -x "$RWCHECK" ] && [ -f "$EMPTY" ] || { echo "bench/suites.sh: build rwcheck and bench/libempty.so first" >&2; exit 2; }
unset MAKEFLAGS MFLAGS MAKELEVEL RWCHECK_CHECKS
export LC_ALL=C.UTF-8
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# ---- real programs ----------------------------------------------------------
MODES="plain empty rwcheck"
in_mode() { # MODE CMD: CMD (a shell snippet) as MODE runs it
	case $1 in
	plain) sh -c "$2" ;;
	empty) LD_PRELOAD=$EMPTY sh -c "$2" ;;
	rwcheck) LD_PRELOAD=$LIB RWCHECK_LOG="$work/rwcheck.%p.log" sh -c "$2" ;;
	esac
}
names=()
run() { # NAME CMD: every mode once, in turn (the order turns each round)
	local name=$1 cmd=$2 m t0 i=${#names[@]}
	names+=("$name")
	for m in $order; do
		rm -rf "$work/w"; mkdir "$work/w"
		t0=$(now)
		(cd "$work/w" && in_mode "$m" "$cmd" >/dev/null 2>&1)
		echo $(( ($(now) - t0) / 1000 )) >>"$work/t.$i.$m"
	done
}
cd "$work" || exit 1
reports() { cat "$work"/rwcheck.*.log 2>/dev/null | head -5; }
# shellcheck source=tests/real-workloads.sh
. "$HERE/../tests/real-workloads.sh"
real_workloads_setup
if [ -z "${NO_REAL:-}" ]; then
echo "real programs: $ROUNDS rounds, modes in turn (medians; ratio: rwcheck's over plain, and over the empty library)"
for r in $(seq "$ROUNDS"); do
	case $((r % 3)) in 1) order="plain empty rwcheck" ;; 2) order="rwcheck plain empty" ;; 0) order="empty rwcheck plain" ;; esac
	names=()
	real_workloads
done
t0=$(now); "$RWCHECK" --quiet -- true; tw=$(( ($(now) - t0) / 1000 )); t0=$(now); true; sh -c true; tt=$(( ($(now) - t0) / 1000 ))
echo "(the wrapper's own start and end, rwcheck -- true: $((tw / 1000)) ms; sh -c true $((tt / 1000)) ms)"
printf '%-40s %10s %10s %10s %7s %9s\n' program "plain ms" "empty ms" "rwcheck ms" ratio "vs empty"
declare -A tot
for m in $MODES; do tot[$m]=0; done
for i in "${!names[@]}"; do
	declare -A med
	for m in $MODES; do med[$m]=$(median <"$work/t.$i.$m"); tot[$m]=$(( ${tot[$m]} + ${med[$m]%.*} )); done
	awk -v n="${names[$i]}" -v p="${med[plain]}" -v e="${med[empty]}" -v w="${med[rwcheck]}" \
		'BEGIN { printf "%-40s %10.1f %10.1f %10.1f %7.3f %9.3f\n", n, p / 1000, e / 1000, w / 1000, w / p, w / e }'
done
[ -z "$(reports)" ] || { echo "bench/suites.sh: the library reported (a bench runs good programs):"; reports; }
awk -v p="${tot[plain]}" -v e="${tot[empty]}" -v w="${tot[rwcheck]}" \
	'BEGIN { printf "%-40s %10.1f %10.1f %10.1f %7.3f %9.3f\n", "total", p / 1000, e / 1000, w / 1000, w / p, w / e }'

fi

# ---- git's t0*.sh ------------------------------------------------------------
[ -z "${NO_GIT:-}" ] || exit 0
GIT=$(find "$CACHE/build" -maxdepth 1 -name 'git-[0-9]*' -type d 2>/dev/null | sort | tail -1)
if [ -z "$GIT" ] || [ ! -f "$GIT/.rwc-built" ]; then
	echo "git's t0*.sh: building Debian's git source first (make check-suites SUITES=git RWC_SUITES_MODES= does the same)"
	SUITES=git RWC_SUITES_MODES='' RWC_SUITES_GIT=t0000-basic "$HERE/../scripts/check-suites.sh" "$B" >/dev/null 2>&1
	GIT=$(find "$CACHE/build" -maxdepth 1 -name 'git-[0-9]*' -type d 2>/dev/null | sort | tail -1)
	[ -n "$GIT" ] && [ -f "$GIT/.rwc-built" ] || { echo "git's t0*.sh: SKIP (no git build: no source package reachable?)"; exit 0; }
fi
# the t0*.sh scripts, one after another (as a process-heavy suite runs);
# a script file: the wrapper is a sh script, and sh drops exported
# bash functions from the environment
cat >"$work/t0set.sh" <<'T0'
for t in t0*.sh; do TEST_NO_MALLOC_CHECK=1 GIT_TEST_CLONE_2GB=false sh "$t" >/dev/null 2>&1 || echo "not ok: $t"; done
T0
git_mode() { # MODE: the whole set once in MODE; prints ms
	local t0 s
	t0=$(now)
	case $1 in
	plain) (cd "$GIT/t" && sh "$work/t0set.sh") ;;
	empty) (cd "$GIT/t" && LD_PRELOAD=$EMPTY sh "$work/t0set.sh") ;;
	default) (cd "$GIT/t" && "$RWCHECK" --quiet -- sh "$work/t0set.sh") ;;
	*) (cd "$GIT/t" && "$RWCHECK" --quiet --checks="$1" -- sh "$work/t0set.sh") ;;
	esac >"$work/git.out" 2>&1
	s=$(( ($(now) - t0) / 1000000 ))
	grep -q "not ok" "$work/git.out" && sed 's/^/  /' "$work/git.out" >&2
	echo "$s"
}
GMODES=${GMODES:-"plain empty none maps,offset,count maps,offset,count,heap maps,offset,count,global -stack default"}
pid0=$(cat /proc/sys/kernel/ns_last_pid)
echo
echo "git's t0*.sh ($(cd "$GIT/t" && ls t0*.sh | wc -l) scripts, $(basename "$GIT"), TEST_NO_MALLOC_CHECK=1), through the wrapper, one after another, $GIT_ROUNDS round(s):"
for r in $(seq "$GIT_ROUNDS"); do
	for m in $GMODES; do
		git_mode "$m" >>"$work/g.$m"
		# (pids wrap at pid_max)
		[ "$m" = plain ] && [ "$r" = 1 ] && procs=$(( ($(cat /proc/sys/kernel/ns_last_pid) - pid0 + $(cat /proc/sys/kernel/pid_max)) % $(cat /proc/sys/kernel/pid_max) ))
	done
done
gp=$(median <"$work/g.plain")
ge=$(median <"$work/g.empty")
printf '%-34s %9s %7s %22s\n' "checks (rwcheck --checks=)" "seconds" ratio "per process vs plain"
for m in $GMODES; do
	g=$(median <"$work/g.$m")
	case $m in plain) label="plain (no library)" ;; empty) label="an empty preloaded library" ;; *) label=$m ;; esac
	awk -v l="$label" -v g="$g" -v p="$gp" -v n="$procs" \
		'BEGIN { printf "%-34s %9.1f %7.3f %19.0f us\n", l, g / 1000, g / p, (g - p) * 1000 / n }'
done
echo "(~$procs processes a run, counted by the kernel's last pid; the empty library's ratio is what any preloaded library pays: $(awk -v e="$ge" -v p="$gp" 'BEGIN { printf "%.3f", e / p }'))"
