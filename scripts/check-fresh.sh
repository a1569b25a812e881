#!/usr/bin/env bash
# check-fresh.sh: do the README's quick-start commands work on a freshly
# installed minimal Debian 12, run as a newcomer would run them?
#
# Usage: scripts/check-fresh.sh [SRCDIR]     (as root; run by make check-fresh
#        and CI)
#
# SRCDIR (default: the git repo this script is in) is cloned at its HEAD
# commit into a new minimal Debian 12 root (debootstrap --variant=minbase
# bookworm); only committed work is tested.  The two commands are read from
# the clone's README.md: the first non-empty line after the line
# "<!-- check-fresh: install -->" and after "<!-- check-fresh: test -->"
# (leading whitespace stripped; after a ``` fence, the line after the fence).
# Each runs in the root as root with a clean environment (env -i HOME PATH
# LANG=C.UTF-8 TERM=dumb), in /root/rwcheck, via sh -c.
#   install: must exit 1 (the demo's bad call) and print the caught
#            read(fd=...) ... [buf-unmapped] line and the summary
#            "rwcheck: 1 bad call from 1 call site in 1 process";
#   test:    must exit 0.
# Mounts are made in a private mount namespace (unshare) when possible, so
# none outlives the script; otherwise they are unmounted on exit.
#
# Knobs (environment):
#   RWC_FRESH_CACHE   cache dir: the debootstrap tarball and the downloaded
#                     .debs (default /var/cache/rwcheck-fresh)
#   RWC_FRESH_MIRROR  Debian mirror (default http://deb.debian.org/debian; if
#                     unset and that is unreachable, the host's apt mirrors)
#   RWC_FRESH_KEEP    1: keep the temporary root (under /var/tmp) and print
#                     its path
#   RWC_FRESH_LOG     log of everything run (default ./check-fresh.log)
#   RWC_FRESH_TIMEOUT seconds allowed for each command (default 2400)
#   RWC_FRESH_HOST_CA 0: do not copy the host's site-local CA certificates
#                     (/usr/local/share/ca-certificates/*.crt) into the root
#                     (default 1: network plumbing, like resolv.conf, for a
#                     TLS-intercepting proxy; ca-certificates picks them up
#                     when the install command installs it)
#
# Exit codes: 0 pass; 1 fail; 77 skip (no Debian mirror reachable, printed
# as "check-fresh: SKIP: <reason>").
set -eu

SUITE=bookworm
TMP_PARENT=/var/tmp
TMP_PREFIX=rwc-fresh.
CHROOT_ENV=(env -i -C /root/rwcheck HOME=/root
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	LANG=C.UTF-8 TERM=dumb)
DEMO_SUMMARY='rwcheck: 1 bad call from 1 call site in 1 process'
DEMO_CALL='read\(fd=.*\[buf-unmapped\]'

say() { printf 'check-fresh: %s\n' "$*"; }
die() { say "FAIL: $*" >&2; exit 1; }
skip() { say "SKIP: $*"; exit 77; }
elapsed() { local s=$(($(date +%s) - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
# shellcheck source=scripts/debian-mirror.sh
. "$(dirname "$(readlink -f "$0")")/debian-mirror.sh"

# ---- the root's mounts (also run as "--in-root" inside unshare) -----------

# ROOT is bound onto itself first, so that / in the root is a mount point as
# on a real system (unshare -m in the root needs that).
mount_root() { # ROOT ARCHIVES
	mount --bind "$1" "$1" &&
		mount -t proc proc "$1/proc" &&
		mount --rbind /sys "$1/sys" && mount --make-rslave "$1/sys" &&
		mount --rbind /dev "$1/dev" && mount --make-rslave "$1/dev" &&
		mount -t tmpfs -o mode=1777,nosuid,nodev shm "$1/dev/shm" &&
		mkdir -p "$1/var/cache/apt/archives" &&
		mount --bind "$2" "$1/var/cache/apt/archives"
}

# Run CMD in ROOT as a newcomer would; exit with its status.
in_root() { # ROOT ARCHIVES CMD
	if ! { mount_root "$1" "$2" && rm -f "$1/etc/resolv.conf" &&
		cp -L /etc/resolv.conf "$1/etc/resolv.conf"; }; then
		echo "check-fresh: could not set up the root's mounts" >&2
		return 125
	fi
	local rc=0
	chroot "$1" "${CHROOT_ENV[@]}" /bin/sh -c "$3" </dev/null || rc=$?
	return "$rc"
}

if [ "${1-}" = --in-root ]; then
	rc=0
	in_root "$2" "$3" "$4" || rc=$?
	exit "$rc"
fi

# Mount points under DIR, deepest first.
mounts_under() { # DIR
	findmnt -rn -o TARGET | awk -v d="$1" 'index($0, d "/") == 1 || $0 == d' | sort -r
}

unmount_under() { # DIR
	local m
	for m in $(mounts_under "$1"); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
	done
	for m in $(mounts_under "$1"); do umount -R -l "$m" 2>/dev/null || true; done
}

kill_root_procs() { # ROOT: processes left running inside it
	local p r
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		case $r in "$1" | "$1"/*) kill -9 "${p#/proc/}" 2>/dev/null || true ;; esac
	done
}

# rm -rf a temporary dir of ours, only when nothing is mounted in it.
remove_tmp() { # DIR
	case $1 in "$TMP_PARENT/$TMP_PREFIX"??????) ;; *) die "refusing to remove '$1'" ;; esac
	[ -d "$1" ] || return 0
	kill_root_procs "$1"
	unmount_under "$1"
	if [ -n "$(mounts_under "$1")" ]; then
		say "still mounted under $1, not removing it:" >&2
		mounts_under "$1" >&2
		return 1
	fi
	rm -rf --one-file-system -- "$1"
}

# ---- setup ----------------------------------------------------------------

src_dir() { # [SRCDIR]
	local d=${1:-$(dirname "$(readlink -f "$0")")}
	git -C "$d" rev-parse --show-toplevel 2>/dev/null || die "$d is not in a git repo"
}

need_debootstrap() {
	command -v debootstrap >/dev/null && return
	say "installing debootstrap"
	if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }; then
		die "could not install debootstrap"
	fi
}

# Run a command in a private mount namespace when we can, so that the mounts
# it makes (debootstrap's, ours) vanish with it whatever happens.
NS=()
unshare --mount --propagation private true 2>/dev/null && NS=(unshare --mount --propagation private)

# A mirror failure in debootstrap's output is a skip; anything else a failure.
debootstrap_failed() { # WHAT
	say "debootstrap ($1) failed; the end of its output ($LOG):" >&2
	tail -n 30 "$LOG" >&2
	if tail -n 60 "$LOG" | grep -Eq "Failed getting release|Couldn't download|Could not resolve|Temporary failure|unreachable|Connection (refused|timed out)"; then
		skip "debootstrap could not reach the mirror $MIRROR"
	fi
	exit 1
}

# The cached tarball of minbase .debs, made once (again when 30 days old);
# sets TARBALL.
ensure_tarball() {
	local tb=$CACHE/$SUITE-minbase-$ARCH.tgz t0 tmp
	TARBALL=$tb
	if [ -s "$tb" ] && [ -z "$(find "$tb" -mtime +30)" ]; then
		say "debootstrap: using the cached $tb"
		return
	fi
	say "debootstrap: making $tb from $MIRROR (once)"
	t0=$(date +%s)
	tmp=$(mktemp -d "$TMP_PARENT/${TMP_PREFIX}XXXXXX")
	TMPS+=("$tmp")
	"${NS[@]}" debootstrap --variant=minbase --make-tarball="$CACHE/.part-$$.tgz" \
		"$SUITE" "$tmp/root" "$MIRROR" >>"$LOG" 2>&1 || debootstrap_failed "--make-tarball"
	mv -f "$CACHE/.part-$$.tgz" "$tb"
	remove_tmp "$tmp"
	TIMES+=("make-tarball $(elapsed "$t0")")
	say "time: debootstrap --make-tarball: $(elapsed "$t0")"
}

# Clone SRC's HEAD commit to DEST; print the commit.
clone_head() { # SRC DEST
	local commit dirty
	commit=$(git -C "$1" rev-parse --verify HEAD) || die "$1 has no commit"
	dirty=$(git -C "$1" status --porcelain 2>/dev/null | head -n 10)
	git clone -q --no-hardlinks "$1" "$2" >&2 || die "git clone of $1 failed"
	git -C "$2" cat-file -e "$commit^{commit}" 2>/dev/null || git -C "$2" fetch -q "$1" HEAD >&2
	git -C "$2" checkout -q --detach "$commit" >&2 || die "git checkout of $commit failed"
	say "testing commit $(git -C "$2" log -1 --format='%H %s') ($1)" >&2
	if [ -n "$dirty" ]; then
		say "NOTE: $1 has uncommitted changes; only committed work (HEAD) is tested:" >&2
		printf '%s\n' "$dirty" | sed 's/^/  /' >&2
	fi
}

# The command after the README's marker line "<!-- check-fresh: NAME -->".
readme_cmd() { # README NAME
	local cmd rc=0
	cmd=$(awk -v m="<!-- check-fresh: $2 -->" '
		{ line = $0; sub(/^[ \t]+/, "", line); sub(/[ \t\r]+$/, "", line) }
		!found { if (line == m) found = 1; next }
		line == "" { next }
		found == 1 && line ~ /^```/ { found = 2; next }
		{ print line; got = 1; exit }
		END { if (!found) exit 2; if (!got) exit 3 }' "$1") || rc=$?
	case $rc in
	2) die "README.md has no line '<!-- check-fresh: $2 -->'" ;;
	3) die "README.md has no command after '<!-- check-fresh: $2 -->'" ;;
	0) ;;
	*) die "could not read $1" ;;
	esac
	case $cmd in '```'*) die "README.md: empty code block after '<!-- check-fresh: $2 -->'" ;; esac
	printf '%s\n' "$cmd"
}

# ---- running the two commands ---------------------------------------------

# Run CMD in the root, its output to the terminal, the log and OUT; sets RC.
run_phase() { # NAME CMD OUT
	local t0
	printf '\n==== %s: %s\n' "$1" "$2" | tee -a "$LOG"
	t0=$(date +%s)
	set +e
	if [ ${#NS[@]} -gt 0 ]; then
		timeout -k 60 "$TIMEOUT" "${NS[@]}" bash "$SELF" --in-root "$ROOT" "$ARCHIVES" "$2" 2>&1 |
			tee -a "$LOG" "$3"
		RC=${PIPESTATUS[0]}
	else
		(trap 'unmount_under "$ROOT"' EXIT; timeout -k 60 "$TIMEOUT" bash "$SELF" --in-root "$ROOT" "$ARCHIVES" "$2") 2>&1 |
			tee -a "$LOG" "$3"
		RC=${PIPESTATUS[0]}
	fi
	set -e
	kill_root_procs "$ROOT"
	unmount_under "$ROOT"
	TIMES+=("$1 $(elapsed "$t0")")
	say "time: $1: $(elapsed "$t0") (exit status $RC)"
	[ "$RC" -ne 124 ] || say "$1: timed out after ${TIMEOUT}s"
}

show_tail() { # OUT [FILTER]: the last 60 lines not matching FILTER
	say "the last 60 lines of its output${2:+ (without /$2/)} (all of it in $LOG):"
	if [ -n "${2-}" ]; then grep -Ev "$2" "$1"; else cat "$1"; fi | tail -n 60 | sed 's/^/  | /'
}

# Site-local CA certificates of the host into the root (RWC_FRESH_HOST_CA).
copy_host_ca() {
	local d=/usr/local/share/ca-certificates n
	[ "${RWC_FRESH_HOST_CA:-1}" != 0 ] || return 0
	n=$(find "$d" -maxdepth 1 -name '*.crt' 2>/dev/null | wc -l)
	[ "$n" -gt 0 ] || return 0
	mkdir -p "$ROOT$d"
	cp "$d"/*.crt "$ROOT$d/"
	say "copied the host's $n site-local CA certificate(s) from $d into the root (RWC_FRESH_HOST_CA=0: don't)"
}

# The install command: exit status 1 and the demo's bad call shown.
check_install() { # OUT
	local why=
	[ "$RC" -eq 1 ] || why="exit status $RC, not 1"
	grep -Eq "$DEMO_CALL" "$1" || why="${why:+$why; }no 'read(fd=... [buf-unmapped]' line"
	grep -Fq "$DEMO_SUMMARY" "$1" || why="${why:+$why; }no '$DEMO_SUMMARY' line"
	if [ -z "$why" ]; then
		RESULTS+=("install+demo: ok (rc 1, bad call shown)")
		return 0
	fi
	show_tail "$1"
	RESULTS+=("install+demo: FAIL ($why)")
	return 1
}

# What failed in make check: the test logs' not ok / Bail out lines, counts.
test_failures() { # OUT
	local d=$ROOT/root/rwcheck f
	grep -E '^(FAIL|ERROR|XPASS):' "$1" | sed 's/^/  /' || true
	for f in "$d"/tests/*.log; do
		case ${f##*/} in test-suite.log | '*.log') continue ;; esac
		grep -E '^(not ok|Bail out)' "$f" | sed "s|^|  tests/${f##*/}: |" || true
	done
	[ -f "$d/test-suite.log" ] && grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' "$d/test-suite.log" | sed 's/^/  /'
	return 0
}

check_test() { # CMD OUT
	local pass
	pass=$(sed -n 's/^# PASS: *//p' "$ROOT/root/rwcheck/test-suite.log" 2>/dev/null | head -n 1)
	if [ "$RC" -eq 0 ]; then
		RESULTS+=("$1: ok (${pass:-?} passed)")
		return 0
	fi
	show_tail "$2" '^PASS: '
	say "what failed:"
	test_failures "$2"
	RESULTS+=("$1: FAIL (exit status $RC)")
	return 1
}

cleanup() {
	local t t0
	t0=$(date +%s)
	[ -z "${ROOT-}" ] || { kill_root_procs "$ROOT"; unmount_under "$ROOT"; }
	for t in "${TMPS[@]}"; do
		if [ "${RWC_FRESH_KEEP-}" = 1 ] && [ "$t" = "${WORK-}" ]; then
			say "kept the root: $ROOT (remove it with: rm -rf --one-file-system $t)"
		else
			remove_tmp "$t" || true
		fi
	done
	[ -z "${T_START-}" ] || say "time: cleanup $(elapsed "$t0"), total $(elapsed "$T_START")"
}

# ---- main -----------------------------------------------------------------

main() {
	[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, chroot, mount)"
	T_START=$(date +%s)
	SELF=$(readlink -f "$0")
	SRC=$(src_dir "${1-}")
	CACHE=${RWC_FRESH_CACHE:-/var/cache/rwcheck-fresh}
	LOG=$(readlink -f "${RWC_FRESH_LOG:-check-fresh.log}")
	TIMEOUT=${RWC_FRESH_TIMEOUT:-2400}
	ARCH=$(dpkg --print-architecture)
	ARCHIVES=$CACHE/archives
	TMPS=() TIMES=() RESULTS=()
	trap 'rc=$?; cleanup; exit $rc' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM

	mkdir -p "$CACHE" "$ARCHIVES/partial"
	: >"$LOG"
	[ ${#NS[@]} -gt 0 ] || say "no private mount namespace (unshare -m failed): mounting directly, unmounting on exit"
	exec 9>>"$CACHE/lock"
	flock -n 9 || { say "waiting for another check-fresh run (lock $CACHE/lock)"; flock 9; }
	rm -f "$CACHE"/.part-*.tgz # from an interrupted --make-tarball

	pick_mirror
	say "mirror: $MIRROR"
	need_debootstrap

	WORK=$(mktemp -d "$TMP_PARENT/${TMP_PREFIX}XXXXXX")
	TMPS+=("$WORK")
	clone_head "$SRC" "$WORK/rwcheck"
	INSTALL_CMD=$(readme_cmd "$WORK/rwcheck/README.md" install)
	TEST_CMD=$(readme_cmd "$WORK/rwcheck/README.md" test)
	say "install command: $INSTALL_CMD"
	say "test command:    $TEST_CMD"

	local t0
	ensure_tarball
	ROOT=$WORK/root
	t0=$(date +%s)
	"${NS[@]}" debootstrap --variant=minbase --unpack-tarball="$TARBALL" "$SUITE" "$ROOT" "$MIRROR" \
		>>"$LOG" 2>&1 || debootstrap_failed "--unpack-tarball"
	TIMES+=("unpack $(elapsed "$t0")")
	say "time: debootstrap --unpack-tarball: $(elapsed "$t0")"
	mv "$WORK/rwcheck" "$ROOT/root/rwcheck"
	copy_host_ca

	local ok=0 out=$WORK/install.out
	run_phase install "$INSTALL_CMD" "$out"
	check_install "$out" || ok=1
	out=$WORK/test.out
	run_phase test "$TEST_CMD" "$out"
	check_test "$TEST_CMD" "$out" || ok=1

	echo
	say "commit $(git -C "$ROOT/root/rwcheck" rev-parse --short HEAD), log $LOG"
	say "times: ${TIMES[*]}"
	local r
	for r in "${RESULTS[@]}"; do say "$r"; done
	[ "$ok" -eq 0 ] || { say FAIL; exit 1; }
	say PASS
}

main "$@"
