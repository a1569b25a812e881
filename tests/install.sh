#!/bin/sh
# make install DESTDIR=...: the wrapper, library, collector and man pages
# land where they belong, and the staged wrapper works from there.
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
unset MAKEFLAGS MFLAGS MAKELEVEL
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
make -s -C "$RWC_BUILDDIR" install DESTDIR="$dest" >"$dest.log" 2>&1; st=$?
t "$([ $st = 0 ]; echo $?)" "make install DESTDIR= succeeds"
[ $st = 0 ] || sed 's/^/# /' "$dest.log"
rm -f "$dest.log"
W=$(find "$dest" -path '*/bin/rwcheck' -type f | head -n 1)
t "$([ -n "$W" ] && [ -x "$W" ]; echo $?)" "the wrapper is installed in bindir"
for f in librwcheck.so rwcheck-collect rwcheck.1 librwcheck.7; do
	found=$(find "$dest" -name "$f" | head -n 1)
	t "$([ -n "$found" ]; echo $?)" "$f is installed${found:+ (${found#$dest})}"
done
lib=$("$W" --print-library 2>&1); st=$?
t "$([ $st = 0 ] && case $lib in "$dest"/*) true ;; *) false ;; esac; echo $?)" "the staged wrapper finds the staged library ($lib)"
"$W" -- "$RWC_BUILDDIR/tests/bad-child" >/dev/null 2>"$dest/err"; st=$?
t "$([ $st = 1 ] && grep -q '^rwcheck: 1 bad call from 1 call site in 1 process$' "$dest/err"; echo $?)" "the staged wrapper catches a bad call (exit $st)"
"$W" -- true; st=$?
t "$([ $st = 0 ]; echo $?)" "and passes a clean run"
nm -D --defined-only "$(find "$dest" -name librwcheck.so | head -n 1)" | grep -q ' T read$'
t $? "the installed library exports read"
echo "1..$n"
exit $failed
