#!/bin/sh
# The library exports exactly the interposed libc names: every entry point
# of src/entries.def, the map watchers, and nothing else.
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }

exported=$(nm -D --defined-only "$RWC_LIB" | awk '$2 ~ /^[TWiV]$/ {print $3}' | sed 's/@.*//' | sort -u)
entries=$(sed -n 's/^RWC_[A-Z_0-9]* *(\([_a-z0-9]*\).*/\1/p' "$RWC_SRCDIR/src/base/entries.def" | sort -u)
watchers="brk dlclose free mmap mmap64 mprotect mremap munmap pkey_mprotect realloc reallocarray sbrk shmat shmdt syscall malloc calloc memalign aligned_alloc posix_memalign valloc pvalloc"
expected=$( (echo "$entries"; for w in $watchers; do echo $w; done) | sort -u)

t "$([ "$(echo "$entries" | wc -l)" -ge 27 ]; echo $?)" "entries.def lists the 27 entry points of DESIGN.md"
for e in $entries; do
	echo "$exported" | grep -qx "$e"; t $? "exports $e"
done
extra=$(echo "$exported" | grep -vxF "$expected")
t "$([ -z "$extra" ]; echo $?)" "exports nothing else${extra:+ (extra: $(echo $extra))}"
objects=$(nm -D --defined-only "$RWC_LIB" | awk '$2 ~ /^[BDGR]$/ {print $3}')
t "$([ -z "$objects" ]; echo $?)" "exports no data${objects:+ (got: $(echo $objects))}"
echo "1..$n"
exit $failed
