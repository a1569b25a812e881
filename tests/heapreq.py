"""Issue 14 item 1, issue 16's first bullet: heap blocks judged by the size
the program asked for, not glibc's usable size; malloc_usable_size()
widens a block to its usable size; a read of a freed block is
use-after-free.

Every case of tests/victim_heapreq.c, built -O0 -g, -O2 -g and -O2 -g non-PIE: the bad
call asks a byte (or a few) past the request but inside the usable size
and gives exactly one report: the problem, the bad bytes, the caller's
file:line, the block's requested and usable sizes in JSON and text; the
good twin asks exactly the request and gives none, with the result it
has without the library."""
import os
import re

from rwctest import BUILD, Run, ok, done, check_report

Q0 = {"RWCHECK_QUARANTINE": "0"}
PROGS = [("-O0", os.path.join(BUILD, "tests", "victim_heapreq")),
         ("-O2", os.path.join(BUILD, "tests", "victim_heapreq_o2")),
         ("-O2 non-PIE", os.path.join(BUILD, "tests", "victim_heapreq_o2_nopie"))]


def block_of(r):
    """(start, requested, usable) of the victim's block."""
    m = re.search(r"^block (0x[0-9a-f]+) (\d+) (\d+)$", r.stdout, re.M)
    return (int(m.group(1), 16), int(m.group(2)), int(m.group(3))) if m else (0, 0, 0)


def clean(prog, tag, case, env=None):
    base = Run([prog, case, "good"], preload=False)
    r = Run([prog, case, "good"], env=env)
    ok(r.status == 0 and not r.reports and r.log == "", "%s %s good: no report" % (tag, case), r.describe())
    ok(r.results == base.results and r.results,
       "%s %s good: same result as without rwcheck (%s)" % (tag, case, r.results), base.describe())
    return r


def heap_bad(prog, tag, case, call="read", problem="heap-overflow", first=None, last=None, kind="heap-block",
             offset=0):
    """One report: PROBLEM, the bad bytes from FIRST (default: the first
    byte past the request) to LAST, the block with its sizes."""
    r = Run([prog, case, "bad"])
    lo, req, usable = block_of(r)
    name = "%s %s bad" % (tag, case)
    ok(lo and req < usable or case == "widened", "%s: the victim's block: %d bytes asked, %d usable" %
       (name, req, usable), r.describe())
    check_report(r, name, call, problem, first=req - offset if first is None else first, last=last)
    if r.reports:
        rep = r.reports[0]
        reg = rep.get("region", {})
        ok(reg.get("kind") == kind and int(reg.get("start", "0"), 16) == lo and reg.get("size") == req and
           reg.get("usable") == usable and int(reg.get("end", "0"), 16) == lo + req,
           "%s: region %s, start %s, size %d, usable %d" % (name, kind, hex(lo), req, usable), reg)
        words = "inside a freed heap block" if kind == "freed-heap-block" else "past the end of a heap block"
        ok("%s of %d bytes (%d usable), 0x%x-0x%x" % (words, req, usable, lo, lo + req) in rep.get("text", ""),
           "%s: the text says '%s of %d bytes (%d usable)'" % (name, words, req, usable), rep.get("text"))
    base = Run([prog, case, "bad"], preload=False)
    ok(r.results == base.results, "%s: result unchanged (%s)" % (name, r.results), base.describe())
    return r


for tag, prog in PROGS:
    # count = request + 1 (realloc shrink 200 -> 100: 150)
    for case, last in [("malloc", 100), ("calloc", 100), ("realloc_shrink", 149), ("realloc_grow", 300),
                       ("reallocarray", 100), ("aligned_alloc", 100), ("posix_memalign", 99),
                       ("memalign", 77), ("valloc", 100), ("pvalloc", 4096)]:
        heap_bad(prog, tag, case, last=last)
        clean(prog, tag, case)

    # malloc_usable_size(p) widens p's block: its usable bytes are fine,
    # one more is not.
    r = Run([prog, "widened", "bad"])
    lo, u, _ = block_of(r)
    check_report(r, "%s widened bad" % tag, "read", "heap-overflow", first=u, last=u)
    ok(r.reports and r.reports[0].get("region", {}).get("size") == u,
       "%s widened bad: the block is its usable size, %d bytes" % (tag, u), r.describe())
    clean(prog, tag, "widened")

    # An interior pointer 100 bytes below the end of a 1 MiB block (mapped
    # on its own: its slack, page rounding, does not fit the map's byte).
    r = heap_bad(prog, tag, "large_interior", first=100, last=100, offset=0)
    clean(prog, tag, "large_interior")

    # A freed block: use-after-free, the bytes read from it.
    r = heap_bad(prog, tag, "freed", call="write", problem="use-after-free", first=0, last=9,
                 kind="freed-heap-block")
    if r.reports:
        ok("in a freed heap block" in r.reports[0].get("message", ""),
           "%s freed: the message says so" % tag, r.reports[0])
    clean(prog, tag, "freed")

    # The old block of a realloc that moved: use-after-free, 20 bytes asked.
    r = heap_bad(prog, tag, "realloc_moved", call="write", problem="use-after-free", first=0, last=9,
                 kind="freed-heap-block")
    ok("moved 1" in r.stdout, "%s realloc_moved: the block really moved" % tag, r.describe())
    clean(prog, tag, "realloc_moved")

    # A buffer at the block's usable end: the next chunk's size word.
    heap_bad(prog, tag, "header", call="write", first=0, last=7)
    clean(prog, tag, "header")

    # A buffer 8 bytes below a block (the chunk below: a freed block's),
    # with the quarantine and without: it runs into the block's header.
    for env, how in [(None, ""), (Q0, ", no quarantine")]:
        r = Run([prog, "below", "bad"], env=env)
        lo, req, usable = block_of(r)
        check_report(r, "%s below bad%s" % (tag, how), "write", "heap-overflow", first=0, last=15)
        rep = r.reports[0] if r.reports else {}
        reg = rep.get("region", {})
        ok(reg.get("kind") == "heap-block" and int(reg.get("start", "0"), 16) == lo and reg.get("size") == 100 and
           int(rep.get("buf", "0"), 16) == lo - 8 and
           "buf+0 is 8 bytes before the start of a heap block of 100 bytes (%d usable)" % usable in rep.get("text", "")
           and "of buf are before the start of a heap block" in rep.get("message", ""),
           "%s below bad%s: 8 bytes before the start of the 100-byte block, said so" % (tag, how), r.describe())
        base = Run([prog, "below", "bad"], preload=False)
        ok(r.results == base.results, "%s below bad%s: result unchanged (%s)" % (tag, how, r.results),
           base.describe())
    clean(prog, tag, "below")
    # ... over two blocks: against the lower one (the first bad byte its
    # size word), not the higher
    r = Run([prog, "below_two", "bad"])
    lo, req, usable = block_of(r)
    rep = r.reports[0] if len(r.reports) == 1 else {}
    ok(rep.get("problem") == "heap-overflow" and rep.get("bad", {}).get("first") == 0 and
       int(rep.get("buf", "0"), 16) == lo - 8 and int(rep.get("region", {}).get("start", "0"), 16) == lo and
       "buf+0 is 8 bytes before the start of a heap block of 100 bytes" in rep.get("text", ""),
       "%s below_two bad: one report, against the lower block, from its size word" % tag, r.describe())
    clean(prog, tag, "below_two")
    # Every descriptor in use: the report still reaches the log, and no
    # descriptor is left behind.
    r = Run([prog, "nofile", "bad"])
    if r.status != 77:
        rep = r.reports[0] if len(r.reports) == 1 else {}
        ok(rep.get("problem") == "heap-overflow" and "emfile 1" in r.stdout and r.status == 0,
           "%s nofile bad: reported to the log with every descriptor in use, none left behind" % tag, r.describe())
        g = Run([prog, "nofile", "good"])
        ok(not g.reports and g.log == "" and "emfile 1" in g.stdout, "%s nofile good: no report" % tag, g.describe())
    # ... below a large block, the lowest in its part of the heap map, after
    # good writes (the fast path's warm caches; global check on and off)
    for env, how in [(None, ""), ({"RWCHECK_CHECKS": "-global"}, ", global check off")]:
        r = Run([prog, "below_big", "bad"], env=env)
        lo, req, usable = block_of(r)
        rep = r.reports[0] if len(r.reports) == 1 else {}
        ok(rep.get("problem") == "heap-overflow" and rep.get("bad", {}).get("first") == 0 and
           rep.get("bad", {}).get("last") == 15 and int(rep.get("buf", "0"), 16) == lo - 8 and
           rep.get("region", {}).get("size") == 1 << 20 and "8 bytes before the start of a heap block" in rep.get("text", ""),
           "%s below_big bad%s: one report, 8 bytes before the start of the 1 MiB block" % (tag, how), r.describe())
    clean(prog, tag, "below_big")

    # The freed block handed out again: its new owner's block, live (at
    # once only without the quarantine: tests/uaf.py has it with one).
    r = clean(prog, tag, "reused", env=Q0)
    ok("reused 1" in r.stdout, "%s reused: the next malloc(100) got the freed block back" % tag, r.describe())
    r = Run([prog, "reused", "bad"], env=Q0)
    lo, req, usable = block_of(r)
    check_report(r, "%s reused bad" % tag, "write", "heap-overflow", first=100, last=100)
    ok(r.reports and r.reports[0].get("region", {}).get("kind") == "heap-block",
       "%s reused bad: judged as the new owner's live block, not a freed one" % tag, r.describe())

# The heap check off: none of this is reported.
prog = PROGS[0][1]
r = Run([prog, "malloc", "bad"], env={"RWCHECK_CHECKS": "-heap"})
ok(r.status == 0 and not r.reports and r.log == "", "RWCHECK_CHECKS=-heap: no report", r.describe())
r = Run([prog, "freed", "bad"], env={"RWCHECK_CHECKS": "-heap"})
ok(r.status == 0 and not r.reports and r.log == "", "RWCHECK_CHECKS=-heap: no use-after-free either", r.describe())
done()
