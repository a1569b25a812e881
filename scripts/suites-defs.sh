# shellcheck shell=bash
# suites-defs.sh: the suites of check-suites.sh, sourced by it.  Per suite:
# build_S (in the source tree: configure and build with -O1 -g) and run_S (in
# the source tree: run the tests with "${RUN[@]}" before each top command,
# empty for the plain run, and write "TEST pass|fail" lines to $OUT/results).
# pkg_of S names the Debian source package ("-": none, the suite sets SRC).
# Every build and run is under $NICE; builds use -j2.  The lists of tests
# can be replaced from the environment: RWC_SUITES_LZ4, RWC_SUITES_GIT,
# RWC_SUITES_REDIS, RWC_SUITES_SQLITE3, RWC_SUITES_PYTHON.

CFL="-O1 -g"

pkg_of() {
	case $1 in
	python) echo - ;;
	*) echo "$1" ;;
	esac
}

result() { # NAME STATUS: one result line
	if [ "$2" -eq 0 ]; then echo "$1 pass"; else echo "$1 fail"; fi >>"$OUT/results"
}

# make_targets DIR TARGET...: each make target a test, its exit status the result.
make_targets() {
	local dir=$1 t rc; shift
	for t in "$@"; do
		echo "=== make -C $dir $t"
		# shellcheck disable=SC2086  # MAKEVARS: words
		$NICE "${RUN[@]}" make -C "$dir" "$t" CFLAGS="$CFL" $MAKEVARS; rc=$?
		result "$t" "$rc"
	done
}

# automake_check [DIR]: make check; one result per test from the .trs files.
automake_check() {
	local dir=${1:-.} trs
	find "$dir" -name '*.trs' -delete
	$NICE "${RUN[@]}" make -C "$dir" check
	for trs in $(find "$dir" -name '*.trs' | sort); do
		case $(sed -n 's/^:test-result: //p' "$trs") in
		PASS|XFAIL|SKIP) result "${trs%.trs}" 0 ;;
		*) result "${trs%.trs}" 1 ;;
		esac
	done
}

# ---- zlib: its own make test (static, shared, 64-bit offsets) ----
build_zlib() { CFLAGS="$CFL" ./configure && $NICE make -j2 all all64; }
run_zlib() { MAKEVARS='' make_targets . teststatic testshared test64; }

# ---- lz4: tests/Makefile's targets (the fuzzers for 20 s each) ----
LZ4_TESTS=${RWC_SUITES_LZ4:-"test-lz4-basic test-lz4-multiple test-lz4-multiple-legacy test-lz4-frame-concatenation
 test-lz4-testmode test-lz4-contentSize test-lz4-dict test-lz4-sparse test-lz4-skippable
 test-lz4-opt-parser test-frametest test-fuzzer"}
build_lz4() { $NICE make -j2 -C tests CFLAGS="$CFL" lz4 lz4c datagen fuzzer frametest fullbench unlz4 lz4cat; }
run_lz4() {
	# shellcheck disable=SC2086
	MAKEVARS="FUZZER_TIME=-T20s" make_targets tests $LZ4_TESTS
}

# ---- xz-utils: make check (automake) ----
build_xz-utils() { CFLAGS="$CFL" ./configure --disable-nls && $NICE make -j2 && $NICE make -j2 check TESTS=; }
run_xz-utils() { automake_check tests; }

# ---- libarchive: make check, one result per test of its four test programs ----
build_libarchive() {
	CFLAGS="$CFL" ./configure --disable-nls --without-nettle --without-openssl &&
		$NICE make -j2 && $NICE make -j2 check TESTS=
}
run_libarchive() {
	local t
	automake_check .
	# "  N: test_name   ok" per test (a test's own output can follow the
	# name on that line); the failed ones are listed again after "Failing
	# tests:" at the end
	for t in libarchive_test bsdtar_test bsdcpio_test bsdcat_test; do
		[ -f "$t.log" ] || continue
		cp "$t.log" "$OUT/"
		awk -v t="$t" '
			/^Failing tests:/ { tail = 1; next }
			match($0, /^ *[0-9]+: test_[A-Za-z0-9_]+/) {
				name = $0; sub(/^ *[0-9]+: /, "", name); sub(/[^A-Za-z0-9_].*/, "", name)
				if (tail) failed[name] = 1; else seen[name] = 1
			}
			END { for (n in seen) print t ":" n (n in failed ? " fail" : " pass") }' "$t.log" >>"$OUT/results"
	done
}

# ---- git: a sample of t/ (every sixth script, and thirty chosen ones), two at a time; each script's TAP lines the results ----
GIT_MAKE="NO_TCLTK=1 NO_GETTEXT=1 NO_PYTHON=1 NO_CURL=1 NO_REGEX=NeedsStartEnd"
GIT_CHOSEN="t0000-basic t0001-init t0002-gitfile t0003-attributes t0008-ignores t0020-crlf t0021-conversion
 t0027-auto-crlf t0040-parse-options t0060-path-utils t0090-cache-tree t1006-cat-file t1300-config
 t1400-update-ref t2000-conflict-when-checking-files-out t2004-checkout-cache-temp t3200-branch
 t3600-rm t3903-stash t4013-diff-various t4150-am t5000-tar-tree t5300-pack-object t5510-fetch
 t6030-bisect-porcelain t7001-mv t7004-tag t7201-co t7508-status t9300-fast-import"
# (run in the source tree: t/ lists the scripts)
git_tests() {
	if [ -n "${RWC_SUITES_GIT-}" ]; then echo "$RWC_SUITES_GIT"; return; fi
	# shellcheck disable=SC2086  # a list of words
	{ printf '%s\n' $GIT_CHOSEN; (cd t && printf '%s\n' t[0-9]*.sh | LC_ALL=C sort | awk 'NR % 6 == 1' | sed 's/\.sh$//'); } | LC_ALL=C sort -u
}
# shellcheck disable=SC2086
build_git() { $NICE make -j2 CFLAGS="$CFL" $GIT_MAKE all; }
git_one() {
	(cd t && TEST_NO_MALLOC_CHECK=1 GIT_TEST_CLONE_2GB=false $NICE "${RUN[@]}" sh "$1.sh" >"$OUT/$1.tap" 2>&1)
}
run_git() {
	local t tests
	tests=$(git_tests)
	for t in $tests; do
		git_one "$t" &
		while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
	done
	wait
	for t in $tests; do
		echo "=== $t"
		sed -n "s/^ok \([0-9]*\) .*/$t:\1 pass/p; s/^not ok \([0-9]*\) .*# TODO.*/$t:\1 todo/p;
			/# TODO/!s/^not ok \([0-9]*\) .*/$t:\1 fail/p" "$OUT/$t.tap" >>"$OUT/results"
		tail -3 "$OUT/$t.tap"
	done
}

# ---- redis: a dozen runtest units, libc malloc (MALLOC=libc; redis picks jemalloc) ----
REDIS_UNITS=${RWC_SUITES_REDIS:-"unit/printver unit/auth unit/protocol unit/keyspace unit/type/string unit/type/incr
 unit/type/hash unit/type/set unit/type/list unit/expire unit/other unit/dump unit/pubsub unit/info"}
build_redis() { $NICE make -j2 MALLOC=libc OPTIMIZATION=-O1; }
run_redis() {
	local u args=()
	for u in $REDIS_UNITS; do args+=(--single "$u"); done
	$NICE "${RUN[@]}" tclsh8.6 tests/test_helper.tcl --clients 2 --timeout 1200 "${args[@]}" >"$OUT/runtest.log" 2>&1
	result "runtest:exit-status" $?
	# "[ok]: name (N ms)" / "[err]: name in file" per test
	sed 's/\x1b\[[0-9;]*m//g' "$OUT/runtest.log" |
		sed -n 's/^\[ok\]: \(.*\) ([0-9]* ms)$/\1 pass/p; s/^\[err\]: \(.*\)$/\1 fail/p' |
		tr ' ' '_' | sed 's/_pass$/ pass/; s/_fail$/ fail/' >>"$OUT/results"
	tail -5 "$OUT/runtest.log"
}

# ---- sqlite3: testfixture on a set of test files (I/O, journal, WAL, pager) ----
SQLITE_TESTS=${RWC_SUITES_SQLITE3:-"io journal1 journal2 pager1 pager2 wal wal2 wal3 walmode walbig mmap1 mmap2 backup
 backup2 vacuum vacuum2 trans trans2 insert select1 delete lock lock2 shared tempdb fts5aa"}
build_sqlite3() {
	CFLAGS="$CFL -DSQLITE_ENABLE_FTS5" ./configure --enable-fts5 --disable-tcl-stubs --with-tcl=/usr/lib/tcl8.6 &&
		$NICE make -j2 testfixture
}
run_sqlite3() {
	local t f
	for t in $SQLITE_TESTS; do
		f=test/$t.test; [ -f "$f" ] || f=ext/fts5/test/$t.test
		echo "=== $f"
		$NICE "${RUN[@]}" ./testfixture "$f" >"$OUT/$t.out" 2>&1
		# a failing case prints "! NAME expected: ..."; the total "N errors out of M tests"
		sed -n "s/^! \([^ ]*\) expected.*/$t:\1 fail/p" "$OUT/$t.out" >>"$OUT/results"
		grep -q '^0 errors out of' "$OUT/$t.out"; result "$t" $?
		grep 'errors out of' "$OUT/$t.out"
	done
}

# ---- python: Debian's libpython3.11-testsuite with /usr/bin/python3 ----
PY_TESTS=${RWC_SUITES_PYTHON:-"test_io test_fileio test_os test_socket test_subprocess test_select test_selectors
 test_mmap test_shutil test_tarfile test_zipfile test_asyncio"}
# shellcheck disable=SC2034
fetch_python() {
	[ -d /usr/lib/python3.11/test/libregrtest ] || return 77
	VERSION="libpython3.11-testsuite $(dpkg-query -W -f='${Version}' libpython3.11-testsuite)"
	SRC=$CACHE/build/python; mkdir -p "$SRC"
}
build_python() { :; }
run_python() {
	# shellcheck disable=SC2086
	# --ignore: test_socket's VSOCK tests wait forever in accept() on a VM with
	# a vsock device and no peer (the client thread has already failed).
	$NICE "${RUN[@]}" /usr/bin/python3 -m test --timeout 900 --ignore '*VSOCK*' \
		--junit-xml "$OUT/junit.xml" $PY_TESTS
	result "regrtest:exit-status" $?   # a crash loses the junit file
	[ -f "$OUT/junit.xml" ] || return 0
	python3 - "$OUT/junit.xml" >>"$OUT/results" <<'EOF'
import sys, xml.etree.ElementTree as ET
for tc in ET.parse(sys.argv[1]).iter("testcase"):
    bad = any(c.tag in ("failure", "error") for c in tc)
    print("%s.%s %s" % (tc.get("classname"), tc.get("name"), "fail" if bad else "pass"))
EOF
}
