"""Bad calls right after good ones on the same buffer and call site: the
library's per-thread caches (the verdict cache of heap blocks and globals,
bounds/vcache.h; the frame cache) must not hide a change.  A block freed,
freed and handed out smaller, shrunk by realloc, read past its end deep
inside, widened by malloc_usable_size; a page made read-only; a global
read past its end; a block freed by another thread; a stack variable read
past its end; a readv of 16 separate blocks (the segment cache,
bounds/segcache.h) with one of them freed, handed out again asking less,
or shrunk in place to the same slack; a readv of 16 segments of one
stack array, or of two, its last segment run past its array; the first call on a block just
allocated (the verdict cache's fresh slot), bad and good the same ways.  Each bad case gives exactly one report (call, problem, bad
bytes, caller); each good twin none, with the result it has without the
library.  tests/victim_warm.c."""
import os

from rwctest import BUILD, Run, ok, done, check_report

PROG = os.path.join(BUILD, "tests", "victim_warm")
NOQ = {"RWCHECK_QUARANTINE": "0"}

# case, env, problem, first bad byte, last bad byte
CASES = [
    ("free", None, "use-after-free", 0, 0),
    ("reuse", NOQ, "heap-overflow", 97, 99),
    ("shrink", None, "heap-overflow", 100, 3999),
    ("interior", None, "heap-overflow", 10, 19),
    ("widen", None, "heap-overflow", None, None),
    ("protect", None, "buf-not-writable", 0, 99),
    ("global", None, "global-overflow", 64, 64),
    ("thread", None, "use-after-free", 0, 0),
    ("stack", None, "stack-overflow", 16, 31),
    ("bigshrink", None, "heap-overflow", 10, 19),
    ("bigend", None, "heap-overflow", 5, 9),
    # readv of 16 separate blocks, segment 7's changed (bounds/segcache.h)
    ("vfree", None, "use-after-free", 0, 255),
    ("vreuse", NOQ, "heap-overflow", 250, 255),
    ("vshrink", None, "heap-overflow", 96, 255),
    # readv of 16 segments of one stack array, and of two taking turns:
    # the last segment run past its array (entry/fastpath.h's one look)
    ("vstack", None, "stack-overflow", 256, 319),
    ("vstack2", None, "stack-overflow", 256, 319),
    # the first call on a block just allocated (vcache.h's fresh slot)
    ("fresh", None, "heap-overflow", 100, 100),
    ("freshcalloc", None, "heap-overflow", 100, 100),
    ("freshaligned", None, "heap-overflow", 100, 100),
    ("freshfree", None, "use-after-free", 0, 0),
    ("freshreuse", NOQ, "heap-overflow", 97, 99),
    ("freshshrink", None, "heap-overflow", 100, 100),
    ("freshwiden", None, "heap-overflow", None, None),
    ("freshthread", None, "use-after-free", 0, 0),
    ("freshprot", NOQ, "buf-not-writable", None, None),
]

for case, env, problem, first, last in CASES:
    r = Run([PROG, case, "bad"], env=env)
    if case.startswith("v"):
        check_report(r, "%s bad" % case, "readv", problem, first=first, last=last,
                     iov_index=15 if case.startswith("vstack") else 7)
    else:
        check_report(r, "%s bad" % case, "read", problem, first=first, last=last)
    base = Run([PROG, case, "good"], preload=False)
    g = Run([PROG, case, "good"], env=env)
    ok(g.status == 0 and not g.reports and g.log == "", "%s good: no report" % case, g.describe())
    ok(g.results == base.results and g.results,
       "%s good: same result as without rwcheck (%s)" % (case, g.results), base.describe())
    if case in ("reuse", "bigshrink", "vreuse", "vshrink", "freshreuse", "freshshrink", "freshprot"):
        ok("same 1" in r.stdout, "%s: the block came back at the same address (same 1)" % case, r.stdout)
done()
