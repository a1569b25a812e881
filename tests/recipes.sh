#!/bin/sh
# The README's test-suite recipes mark the failing test (issue 18): CTest
# (CMAKE_CROSSCOMPILING_EMULATOR), meson (--wrapper), pytest (the conftest
# fixture of examples/pytest).  tests/integration.sh does automake's.
# Each project has a test that passes and one whose hidden bad call only
# rwcheck sees.  A recipe whose tool is not installed is skipped
# (scripts/install-deps.sh installs cmake, meson and pytest).
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
skip() { n=$((n+1)); echo "ok $n # SKIP $1"; }
W="$RWC_BUILDDIR/rwcheck"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL
cp "$RWC_SRCDIR"/tests/integration/parse-ok.c "$RWC_SRCDIR"/tests/integration/parse-header.c \
	"$RWC_SRCDIR"/tests/recipes/* "$RWC_SRCDIR"/examples/pytest/conftest.py "$work/"
chmod -R u+w "$work"
cd "$work" || exit 1

if command -v cmake >/dev/null && command -v ctest >/dev/null; then
	if cmake -S . -B cmake-build -DCMAKE_CROSSCOMPILING_EMULATOR="$W;--" >cmake.log 2>&1 &&
	   cmake --build cmake-build >>cmake.log 2>&1; then
		(cd cmake-build && ctest --output-on-failure) >ctest.log 2>&1; st=$?
		t "$([ $st != 0 ] && grep -q 'parse-header .*\*\*\*Failed' ctest.log && grep -q 'parse-ok .*Passed' ctest.log &&
			grep -q 'bytes 64..4095 of buf are not mapped \[buf-unmapped\]' ctest.log; echo $?)" \
			"CTest with CMAKE_CROSSCOMPILING_EMULATOR='rwcheck;--': parse-header alone is marked failed, with the report (got $st)"
		[ $st != 0 ] || sed 's/^/# /' ctest.log
	else
		t 1 "the CMake project configures and builds"; sed 's/^/# /' cmake.log | tail -20
	fi
else
	skip "cmake is not installed"
fi

if command -v meson >/dev/null && command -v ninja >/dev/null; then
	if meson setup meson-build >meson.log 2>&1 && meson compile -C meson-build >>meson.log 2>&1; then
		meson test -C meson-build --wrapper="$W --" >mtest.log 2>&1; st=$?
		t "$([ $st != 0 ] && grep -q 'parse-header *FAIL' mtest.log && grep -q 'parse-ok *OK' mtest.log; echo $?)" \
			"meson test --wrapper='rwcheck --': parse-header alone is marked failed (got $st)"
		[ $st != 0 ] || sed 's/^/# /' mtest.log
	else
		t 1 "the meson project configures and builds"; sed 's/^/# /' meson.log | tail -20
	fi
else
	skip "meson or ninja is not installed"
fi

py=
for p in python3 /usr/bin/python3; do
	if "$p" -m pytest --version >/dev/null 2>&1; then py=$p; break; fi
done
if [ -n "$py" ] && cc -o parse-ok parse-ok.c && cc -o parse-header parse-header.c; then
	RECIPE_BUILD=$work "$W" -- "$py" -m pytest -p no:cacheprovider test_parse.py >pytest.log 2>&1; st=$?
	t "$([ $st != 0 ] && grep -q 'FAILED test_parse.py::test_parse_header' pytest.log && grep -q '1 failed, 1 passed' pytest.log &&
		grep -q 'bytes 64..4095 of buf are not mapped \[buf-unmapped\]' pytest.log; echo $?)" \
		"rwcheck -- python3 -m pytest with the conftest fixture: test_parse_header alone fails, with the report (got $st)"
	[ $st != 0 ] || sed 's/^/# /' pytest.log
	printf '{\n  the header bug, triaged\n  rwcheck:buf-unmapped\n  fun:read_header\n}\n' >known.supp
	RECIPE_BUILD=$work "$W" --suppressions=known.supp -- "$py" -m pytest -p no:cacheprovider test_parse.py >supp.log 2>&1; st=$?
	t "$([ $st = 0 ] && grep -q '2 passed' supp.log && grep -q '^rwcheck: 1 bad call suppressed by 1 suppression' supp.log; echo $?)" \
		"... with --suppressions=FILE that suppresses it: both pass, the wrapper counts it suppressed (got $st)"
	[ $st = 0 ] || sed 's/^/# /' supp.log
	RECIPE_BUILD=$work "$py" -m pytest -p no:cacheprovider test_parse.py >plain.log 2>&1; st=$?
	t "$([ $st = 0 ]; echo $?)" "... and without rwcheck the fixture does nothing: both pass (got $st)"
else
	skip "pytest is not installed"
fi
echo "1..$n"
exit $failed
