#!/usr/bin/env bash
# check-deb.sh: build rwcheck's Debian package from this repository, lint it,
# and check that it installs with apt, catches a bad call and purges cleanly
# in a fresh minimal Debian 12 root.
#
# Usage: scripts/check-deb.sh [--build-only] [--out DIR] [PACKAGE.deb]
#        (make deb: --build-only; make check-deb: all of it, as root)
#
# build  The working tree's tracked and unignored files are copied to a new
#        directory under /var/tmp, and built there: dpkg-source -b (for
#        lintian), then dpkg-buildpackage -us -uc -b (DEB_BUILD_OPTIONS from
#        the environment, parallel=2 unless it says; nocheck skips make
#        check).  A warning (compiler, linker, dpkg tools) fails the build,
#        as in CI.  The .debs, .changes, .buildinfo, source package and
#        build.log go to DIR (default ./deb-out); older rwcheck packages
#        there are removed.
# lint   lintian on the .changes (its .debs and .buildinfo) and the .dsc: an
#        error, or a warning not overridden in debian/, fails (output in
#        DIR/lintian.log; with --build-only, no lintian is no lint).
# root   (not with --build-only) PACKAGE.deb, or the one just built, in a
#        root unpacked from the cached debootstrap --variant=minbase tarball
#        (the one scripts/check-fresh.sh makes; made here if missing), its
#        mounts in a private mount namespace.  In it, as root with an empty
#        environment: apt-get update; apt-get install ./rwcheck_*.deb;
#        rwcheck -- ./short-read (examples/short-read.c, compiled on the
#        host: exit 1, the [buf-unmapped] report in load_header, the
#        summary); rwcheck -- true (exit 0, no report); apt-get purge
#        rwcheck (no file dpkg -L listed is left, no new path named
#        *rwcheck*); apt-get autoremove --purge (no new path outside /var,
#        /tmp).  The root is then unmounted and removed.  Output of
#        debootstrap and apt-get: DIR/check-deb.log.
#
# Environment: RWC_FRESH_CACHE (default /var/cache/rwcheck-fresh),
#   RWC_FRESH_MIRROR (default http://deb.debian.org/debian, else the host's
#   apt mirrors), RWC_DEB_KEEP=1 keeps the temporary directory.
# Exit: 0 pass; 1 fail; 77 skip (no Debian mirror reachable, or no private
#   mount namespace), printed as "check-deb: SKIP: <reason>".
set -eu

SUITE=bookworm
TMP_PARENT=/var/tmp
TMP_PREFIX=rwc-deb.
TESTDIR=/tmp/check-deb          # in the root
ROOT_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
DEMO_CALL='read\(fd=[0-9-]+, buf=0x[0-9a-f]+, count=4096\): bytes 100\.\.4095 of buf are not mapped \[buf-unmapped\]'
DEMO_FRAME='#0 0x[0-9a-f]+ in load_header examples/short-read\.c:13$'
DEMO_SITE='rwcheck:   1 x buf-unmapped in read() at load_header (examples/short-read.c:13), from 1 process'
DEMO_SUMMARY='rwcheck: 1 bad call from 1 call site in 1 process'

say() { printf 'check-deb: %s\n' "$*"; }
die() { say "FAIL: $*" >&2; exit 1; }
skip() { say "SKIP: $*"; exit 77; }
elapsed() { local s=$(($(date +%s) - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
# shellcheck source=scripts/debian-mirror.sh
. "$(dirname "$(readlink -f "$0")")/debian-mirror.sh"
timed() { TIMES+=("$1 $(elapsed "$2")"); }
oneline() { tr '\n' ' ' | head -c 400; }

# ---- inside the root's private mount namespace ("--in-root") --------------

# Run a command in the root as root with an empty environment, in TESTDIR.
in_chroot() { chroot "$ROOT" env -i -C "$TESTDIR" HOME=/root PATH="$ROOT_PATH" LANG=C.UTF-8 \
	TERM=dumb DEBIAN_FRONTEND=noninteractive "$@" </dev/null; }

# Paths in the root, one a line, relative to it: every path outside /var
# and /tmp (all), or the paths named *rwcheck* outside TESTDIR (named).
snapshot() { # all|named
	if [ "$1" = all ]; then
		find "$ROOT" -xdev \( -path "$ROOT/var" -o -path "$ROOT/tmp" \) -prune -o -print
	else
		find "$ROOT" -xdev -path "$ROOT$TESTDIR" -prune -o -name '*rwcheck*' -print
	fi | sed "s|^$ROOT||" | sort
}

apt_step() { # NAME CMD...: an apt-get run, its output in the log
	local t0 rc=0
	t0=$(date +%s)
	in_chroot "${@:2}" >"$WORK/apt.out" 2>&1 || rc=$?
	cat "$WORK/apt.out" >>"$LOG"
	timed "$1" "$t0"
	[ "$rc" -eq 0 ] && return 0
	tail -n 20 "$WORK/apt.out" | sed 's/^/  | /'
	if [ "$1" = apt-update ] && grep -Eq 'Temporary failure resolving|Could not resolve|Unable to connect|Failed to fetch' "$WORK/apt.out"; then
		echo "SKIP: apt-get update in the root cannot reach the mirror" >"$WORK/verdict"
		exit 77
	fi
	fail "$1: exit status $rc"
	exit 1
}

fail() { say "FAIL: $*"; echo "FAIL: $*" >>"$WORK/verdict"; FAILED=1; }
expect() { # CONDITION-STATUS WHAT
	if [ "$1" -eq 0 ]; then say "ok: $2"; else fail "$2"; fi
}

run_demo() { # rwcheck on the bad call and on a clean command
	local rc=0 out=$WORK/demo.out t0 text
	t0=$(date +%s)
	say "in the root: rwcheck -- ./short-read"
	in_chroot rwcheck -- ./short-read >"$out" 2>&1 || rc=$?
	sed 's/^/  | /' "$out"
	expect "$([ "$rc" -eq 1 ]; echo $?)" "rwcheck -- ./short-read exits 1 (got $rc)"
	expect "$(grep -Eq "$DEMO_CALL" "$out"; echo $?)" "the read(... count=4096) [buf-unmapped] report"
	expect "$(grep -Eq "$DEMO_FRAME" "$out"; echo $?)" "its caller: load_header examples/short-read.c:13"
	expect "$(grep -Fq "$DEMO_SITE (pid " "$out"; echo $?)" "the call-site line"
	expect "$(grep -Fqx "$DEMO_SUMMARY" "$out"; echo $?)" "the summary line"
	rc=0
	text=$(in_chroot rwcheck -- true 2>&1) || rc=$?
	expect "$([ "$rc" -eq 0 ] && [ -z "$text" ]; echo $?)" "rwcheck -- true exits 0 and prints nothing (got $rc${text:+, $(printf %s "$text" | oneline)})"
	timed run "$t0"
}

check_installed() {
	local lib want
	want=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/rwcheck/librwcheck.so
	lib=$(in_chroot rwcheck --print-library 2>&1) || true
	expect "$([ "$lib" = "$want" ]; echo $?)" "the installed wrapper loads its library: rwcheck --print-library: $lib"
	expect "$(in_chroot rwcheck --version | grep -qx "rwcheck $VERSION"; echo $?)" "rwcheck --version: rwcheck $VERSION"
	local f missing=
	for f in /usr/bin/rwcheck "$want" /usr/libexec/rwcheck/rwcheck-collect /usr/share/man/man1/rwcheck.1.gz \
		/usr/share/man/man7/librwcheck.7.gz /usr/share/doc/rwcheck/README.md.gz /usr/share/doc/rwcheck/copyright; do
		[ -e "$ROOT$f" ] || missing="$missing $f"
	done
	expect "$([ -z "$missing" ]; echo $?)" "wrapper, library, collector, man pages, README, copyright installed${missing:+; missing:$missing}"
}

# After purge: nothing dpkg listed is left unless it was there before the
# install; no new *rwcheck* path.  After autoremove: no new path at all.
check_purged() { # STAGE
	local left st
	if [ "$1" = purge ]; then
		# shellcheck disable=SC2016 # dpkg-query's format
		st=$(in_chroot dpkg-query -W -f='${db:Status-Status}' rwcheck 2>/dev/null) || true
		expect "$(case $st in '' | not-installed) echo 0 ;; *) echo 1 ;; esac)" "dpkg-query: rwcheck is not installed (status: ${st:-unknown package})"
		left=$(grep -vx '/\.' "$WORK/files" | while IFS= read -r f; do [ -e "$ROOT$f" ] || [ -L "$ROOT$f" ] && echo "$f"; done |
			sort | comm -23 - "$WORK/all.before")
		expect "$([ -z "$left" ]; echo $?)" "purge: of the $(wc -l <"$WORK/files") paths dpkg -L rwcheck listed, only those there before the install are left${left:+: $(printf %s "$left" | oneline)}"
		left=$(snapshot named | comm -13 "$WORK/named.before" -)
		expect "$([ -z "$left" ]; echo $?)" "purge: no new path named *rwcheck* in the root${left:+: $(printf %s "$left" | oneline)}"
	else
		left=$(snapshot all | comm -13 "$WORK/all.before" -)
		expect "$([ -z "$left" ]; echo $?)" "autoremove --purge: no new path outside /var and /tmp${left:+: $(printf %s "$left" | oneline)}"
	fi
}

in_root() {
	FAILED=0 TIMES=()
	if ! { mount -t proc proc "$ROOT/proc" && mount --rbind /sys "$ROOT/sys" && mount --rbind /dev "$ROOT/dev"; }; then
		fail "could not mount /proc, /sys, /dev in the root"
		exit 1
	fi
	rm -f "$ROOT/etc/resolv.conf" && cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
	apt_step apt-update apt-get update
	snapshot all >"$WORK/all.before"
	snapshot named >"$WORK/named.before"
	say "in the root: apt-get install -y ./$DEBNAME"
	apt_step install apt-get install -y "./$DEBNAME"
	grep -E '^(Setting up|Unpacking) ' "$WORK/apt.out" | sed 's/^/  | /'
	in_chroot dpkg-query -L rwcheck >"$WORK/files"
	check_installed
	run_demo
	say "in the root: apt-get purge -y rwcheck"
	apt_step purge apt-get purge -y rwcheck
	check_purged purge
	apt_step autoremove apt-get autoremove --purge -y
	check_purged autoremove
	printf '%s\n' "${TIMES[@]}" >"$WORK/times"
	exit "$FAILED"
}

if [ "${1-}" = --in-root ]; then
	in_root
fi

# ---- building and linting ---------------------------------------------------

# The working tree's files (tracked or new, not ignored) into DEST.
copy_tree() { # SRC DEST
	mkdir -p "$2"
	git -C "$1" ls-files -z -co --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$1/$f" ] && printf '%s\0' "$f"; done |
		tar -C "$1" --null -T - -cf - | tar -C "$2" -xf -
}

build() {
	local src=$1 ac_version t0 dir opts=${DEB_BUILD_OPTIONS-}
	VERSION=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
	ac_version=$(sed -n 's/^AC_INIT(\[rwcheck\], *\[\([^]]*\)\].*/\1/p' "$src/configure.ac")
	[ "$VERSION" = "$ac_version" ] ||
		die "debian/changelog's version $VERSION is not configure.ac's $ac_version: add a changelog entry"
	dir=$WORK/rwcheck-$VERSION
	copy_tree "$src" "$dir"
	case " $opts " in *" parallel="*) ;; *) opts="${opts:+$opts }parallel=2" ;; esac
	say "building in $dir: DEB_BUILD_OPTIONS='$opts' dpkg-buildpackage -us -uc -b"
	t0=$(date +%s)
	(cd "$WORK" && dpkg-source -b "rwcheck-$VERSION") >"$OUT/build.log" 2>&1 || { tail -n 20 "$OUT/build.log"; die "dpkg-source -b failed"; }
	if ! (cd "$dir" && DEB_BUILD_OPTIONS=$opts dpkg-buildpackage -us -uc -b) >>"$OUT/build.log" 2>&1; then
		tail -n 60 "$OUT/build.log" | sed 's/^/  | /'
		die "dpkg-buildpackage failed (all of it in $OUT/build.log)"
	fi
	timed build "$t0"
	say "time: build $(elapsed "$t0")"
	grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' "$OUT/build.log" | sed 's/^/  | make check: /' ||
		say "make check: not run (DEB_BUILD_OPTIONS=$opts)"
	# As in CI, any warning (compiler, linker, dpkg tools) but libtool's
	# note about its --finish fails the build.
	# (not the test suite's own lines, which may quote a warning)
	if grep ': warning:' "$OUT/build.log" | grep -v '^libtool: warning: remember to run' |
		grep -Ev '^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR): |^(not )?ok [0-9]|^#' >"$WORK/warnings"; then
		sed 's/^/  | /' "$WORK/warnings"
		die "the package build has warnings"
	fi
	rm -f "$OUT"/rwcheck_*.deb "$OUT"/rwcheck-dbgsym_*.deb "$OUT"/rwcheck_*.changes "$OUT"/rwcheck_*.buildinfo \
		"$OUT"/rwcheck_*.dsc "$OUT"/rwcheck_*.tar.*
	mv "$WORK"/*.deb "$WORK"/*.changes "$WORK"/*.buildinfo "$WORK"/*.dsc "$WORK"/rwcheck_*.tar.* "$OUT/"
	DEB=$OUT/rwcheck_${VERSION}_$(dpkg-architecture -qDEB_HOST_ARCH).deb
	[ -f "$DEB" ] || die "no $DEB after the build"
}

lint() { # BUILD_ONLY
	local t0 out=$OUT/lintian.log rc=0 n_e n_w n_o
	if ! command -v lintian >/dev/null; then
		[ "$1" = 1 ] || die "lintian is not installed (scripts/install-deps.sh installs it)"
		say "lintian is not installed: the package is not linted"
		return 0
	fi
	t0=$(date +%s)
	# (with --show-overrides, --fail-on counts overridden tags: the verdict
	# is read from the output)
	lintian --fail-on none -I -L +pedantic --show-overrides \
		"$OUT"/rwcheck_"$VERSION"_*.changes "$OUT/rwcheck_$VERSION.dsc" >"$out" 2>&1 || rc=$?
	timed lintian "$t0"
	say "lintian $(lintian --version | sed 's/^Lintian v//') on the .changes (.debs, .buildinfo) and the .dsc (${TIMES[-1]#lintian }):"
	grep -v '^running with root privileges' "$out" | sed 's/^/  | /'
	n_e=$(grep -c '^E: ' "$out" || true); n_w=$(grep -c '^W: ' "$out" || true); n_o=$(grep -c '^O: ' "$out" || true)
	[ "$rc" -eq 0 ] || die "lintian failed (exit status $rc)"
	[ "$((n_e + n_w))" -eq 0 ] || die "lintian: $n_e error(s), $n_w warning(s) not overridden"
	LINT="lintian: $n_e errors, $n_w warnings, $(grep -c '^[IP]: ' "$out" || true) info/pedantic, $n_o overridden"
	say "$LINT"
}

# ---- the fresh root ----------------------------------------------------------

# The minbase tarball, shared with check-fresh.sh: used as it is; made
# (under its lock) only when missing.
ensure_tarball() {
	local t0
	TARBALL=$CACHE/$SUITE-minbase-$(dpkg --print-architecture).tgz
	[ -s "$TARBALL" ] && return
	mkdir -p "$CACHE"
	exec 9>>"$CACHE/lock"
	flock 9
	if [ ! -s "$TARBALL" ]; then
		say "debootstrap: making $TARBALL from $MIRROR (once)"
		t0=$(date +%s)
		unshare --mount --propagation private debootstrap --variant=minbase --make-tarball="$CACHE/.part-$$.tgz" \
			"$SUITE" "$WORK/tarball-root" "$MIRROR" >>"$LOG" 2>&1 || { tail -n 20 "$LOG"; die "debootstrap --make-tarball failed"; }
		mv -f "$CACHE/.part-$$.tgz" "$TARBALL"
		rm -rf --one-file-system "$WORK/tarball-root"
		timed make-tarball "$t0"
	fi
	exec 9>&-
}

mounts_under() { findmnt -rn -o TARGET | awk -v d="$1" 'index($0, d "/") == 1 || $0 == d'; }

check_root() {
	local t0 rc=0
	[ "$(id -u)" -eq 0 ] || die "the root check must run as root (debootstrap, chroot, mount); --build-only needs no root"
	command -v debootstrap >/dev/null || die "debootstrap is not installed (scripts/install-deps.sh installs it)"
	unshare --mount --propagation private true 2>/dev/null || skip "cannot make a private mount namespace (unshare -m)"
	pick_mirror
	ensure_tarball
	ROOT=$WORK/root
	t0=$(date +%s)
	unshare --mount --propagation private debootstrap --variant=minbase --unpack-tarball="$TARBALL" \
		"$SUITE" "$ROOT" "$MIRROR" >>"$LOG" 2>&1 || { tail -n 20 "$LOG"; die "debootstrap --unpack-tarball failed"; }
	timed unpack "$t0"
	say "root: $ROOT from $TARBALL, mirror $MIRROR ($(elapsed "$t0"))"
	DEBNAME=${DEB##*/}
	mkdir -p "$ROOT$TESTDIR" && chmod 755 "$ROOT$TESTDIR"
	cp "$DEB" "$ROOT$TESTDIR/"
	(cd "$SRC" && cc -g -o "$ROOT$TESTDIR/short-read" examples/short-read.c) || die "cannot compile examples/short-read.c"
	export ROOT WORK LOG DEBNAME TESTDIR VERSION
	unshare --mount --propagation private bash "$SELF" --in-root || rc=$?
	[ -z "$(mounts_under "$ROOT")" ] || die "still mounted under $ROOT after the namespace ended: $(mounts_under "$ROOT")"
	[ ! -s "$WORK/times" ] || mapfile -t -O "${#TIMES[@]}" TIMES <"$WORK/times"
	[ -s "$WORK/verdict" ] || [ "$rc" -eq 0 ] || echo "FAIL: the session in the root ended early (exit status $rc)" >"$WORK/verdict"
	[ "$rc" -ne 77 ] || skip "$(sed 's/^SKIP: //' "$WORK/verdict")"
	[ "$rc" -eq 0 ] || die "in the root: $(sed 's/^FAIL: //' "$WORK/verdict" | paste -sd ';' | sed 's/;/; /g')"
	ROOT_RESULT="installed with apt-get install ./$DEBNAME in a fresh $SUITE minbase root; rwcheck -- ./short-read: exit 1, [buf-unmapped] in load_header (examples/short-read.c:13); rwcheck -- true: exit 0; purged: nothing left"
}

cleanup() {
	[ -n "${WORK-}" ] && [ -d "$WORK" ] || return 0
	case $WORK in "$TMP_PARENT/$TMP_PREFIX"??????) ;; *) return 0 ;; esac
	if [ "${RWC_DEB_KEEP-}" = 1 ]; then say "kept $WORK"; return 0; fi
	if [ -n "$(mounts_under "$WORK")" ]; then
		say "still mounted under $WORK, not removing it:"; mounts_under "$WORK"
		return 0
	fi
	rm -rf --one-file-system -- "$WORK"
}

main() {
	local build_only=0 t_start
	OUT=$PWD/deb-out DEB=
	while [ $# -gt 0 ]; do
		case $1 in
		--build-only) build_only=1 ;;
		--out) OUT=$2; shift ;;
		--out=*) OUT=${1#*=} ;;
		-*) die "unknown option $1 (usage: $0 [--build-only] [--out DIR] [PACKAGE.deb])" ;;
		*) DEB=$(readlink -f "$1"); [ -f "$DEB" ] || die "no such package: $1" ;;
		esac
		shift
	done
	t_start=$(date +%s)
	SELF=$(readlink -f "$0")
	SRC=$(git -C "$(dirname "$SELF")" rev-parse --show-toplevel 2>/dev/null) || die "$(dirname "$SELF") is not in a git checkout"
	CACHE=${RWC_FRESH_CACHE:-/var/cache/rwcheck-fresh}
	TIMES=() LINT='' ROOT_RESULT=''
	mkdir -p "$OUT" && OUT=$(readlink -f "$OUT")
	LOG=$OUT/check-deb.log
	: >"$LOG"
	WORK=$(mktemp -d "$TMP_PARENT/${TMP_PREFIX}XXXXXX")
	trap 'rc=$?; cleanup; exit $rc' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	if [ -z "$DEB" ]; then
		build "$SRC"
		lint "$build_only"
	else
		VERSION=$(dpkg-deb -f "$DEB" Version)
	fi
	say "package: $DEB ($(stat -c %s "$DEB") bytes); Depends: $(dpkg-deb -f "$DEB" Depends)"
	[ "$build_only" = 1 ] || check_root
	echo
	[ -z "$LINT" ] || say "$LINT"
	[ -z "$ROOT_RESULT" ] || say "$ROOT_RESULT"
	say "PASS (times: $(printf '%s, ' "${TIMES[@]}")total $(elapsed "$t_start"))"
}

main "$@"
