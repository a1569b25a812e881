"""A freed block's mark outlives its memory (tests/victim_stalefree.c):
glibc gives a freed block's memory back (malloc_trim lowers brk), the
program maps new memory at the same place, and a word where the block's
header was reads as a 4 GiB chunk (the previous library: "a freed heap
block of 4294967256 bytes", use-after-free).  A
read inside the new memory is good (no use-after-free: the "block" would
run over unmapped memory); a read into a small block freed just before is
still a use-after-free (its header is real).  With the quarantine off, so
that the block goes back to glibc at once.
python's test_socket met this after a thread's arena heap was given back."""
import os

from rwctest import BUILD, Run, ok, done, check_report, skip

PROG = os.path.join(BUILD, "tests", "victim_stalefree")
ENV = {"RWCHECK_QUARANTINE": "0"}

base = Run([PROG, "good"], preload=False)
if "skip" in base.stdout:
    skip("stalefree", "the block's place could not be had again")
else:
    g = Run([PROG, "good"], env=ENV)
    ok(g.status == 0 and not g.reports and g.log == "", "good: no report", g.describe())
    ok(g.results == base.results and g.results, "good: same result as without rwcheck (%s)" % g.results,
       base.describe())
    r = Run([PROG, "bad"], env=ENV)
    check_report(r, "bad", "read", "use-after-free", first=0, last=15)
done()
