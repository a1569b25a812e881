#!/bin/sh
# Replays the kept fuzz corpora (tests/fuzz/corpus-*: the seeds and what
# make fuzz found) through the parsers: every input the fuzzer once found
# stays a test.  One TAP line per corpus.
n=0; failed=0
for t in maps supp cfi sites; do
	n=$((n+1))
	count=$(ls "$RWC_SRCDIR/tests/fuzz/corpus-$t" | wc -l)
	if out=$("$RWC_BUILDDIR/tests/fuzz/replay_$t" "$RWC_SRCDIR"/tests/fuzz/corpus-$t/* 2>&1) &&
	   [ "$(echo "$out" | grep -c '^ok ')" = "$count" ] && [ "$count" -gt 0 ]; then
		echo "ok $n - the $t parser survives its $count corpus inputs"
	else
		echo "not ok $n - the $t parser on its corpus"; echo "$out" | grep -v '^ok ' | sed 's/^/# /' | head -20
		failed=1
	fi
done
echo "1..$n"
exit $failed
