#!/bin/sh
# The library exports exactly the interposed libc names: every entry point
# of src/base/entries.def, every other interposed function (real.h's
# RWC_MISC_REALS: the map-changing calls, syscall(), the allocator family),
# __asan_default_options (for ASan-built programs: src/entry/init.c), and
# nothing else; the generated version script lists exactly those.
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }

exported=$(nm -D --defined-only "$RWC_LIB" | awk '$2 ~ /^[TWiV]$/ {print $3}' | sed 's/@.*//' | sort -u)
entries=$(sed -n 's/^RWC_[A-Z_0-9]* *(\([_a-z0-9]*\).*/\1/p' "$RWC_SRCDIR/src/base/entries.def" | sort -u)
misc=$(sed -n '/^#define RWC_MISC_REALS/,/^$/p' "$RWC_SRCDIR/src/base/real.h" | grep -o 'X([_a-z0-9]*)' |
	sed 's/^X(\(.*\))$/\1/' | sort -u)
expected=$( (echo "$entries"; echo "$misc"; echo __asan_default_options) | sort -u)
script=$(sed -n 's/^    \([_a-z0-9]*\);$/\1/p' "$RWC_BUILDDIR/src/librwcheck.map" | sort -u)

t "$([ "$(echo "$entries" | wc -w)" -gt 0 ] && [ "$(echo "$misc" | wc -w)" -gt 0 ]; echo $?)" \
	"entries.def ($(echo $entries | wc -w)) and RWC_MISC_REALS ($(echo $misc | wc -w)) read"
for e in $expected; do
	echo "$exported" | grep -qx "$e"; t $? "exports $e"
done
extra=$(echo "$exported" | grep -vxF "$expected")
t "$([ -z "$extra" ]; echo $?)" "exports nothing else${extra:+ (extra: $(echo $extra))}"
t "$([ "$script" = "$expected" ]; echo $?)" "the version script lists exactly those names"
# The library's own calls reach the real functions (REAL()), not its own
# wrappers (whose checks would walk the library's own stack on a first
# use): no PLT slot of the library binds one of its exported names, but
# the allocator family (its own heap serves the library's allocations on
# purpose) and readlink (the report's "exe", report/format_json.c, linked
# alone into tests/format-test).
own=$(readelf -rW "$RWC_LIB" | awk '/JUMP_SLO|GLOB_DAT/ {print $5}' | sed 's/@.*//' | sort -u |
	grep -xF "$exported" | grep -vxE 'malloc|calloc|realloc|free|readlink')
t "$([ -z "$own" ]; echo $?)" "the library calls none of its own wrappers${own:+ (calls: $(echo $own))}"
objects=$(nm -D --defined-only "$RWC_LIB" | awk '$2 ~ /^[BDGR]$/ {print $3}')
t "$([ -z "$objects" ]; echo $?)" "exports no data${objects:+ (got: $(echo $objects))}"
echo "1..$n"
exit $failed
