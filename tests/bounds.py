"""Issue 6: heap-block and stack-frame bounds (RWCHECK_CHECKS heap, stack).

Every case of tests/victim_bounds.c, built at -O0, at -O2 and at -O2
without PIE: the bad
mode gives exactly one report with the problem, the bad bytes, the block
or frame that holds the buffer and the caller's file:line; the good twin
gives none and the same result as without the library.  Also: freed
blocks, threads (exactly the seeded bad calls, while another thread
changes the map), allocation sites (RWCHECK_HEAP_ORIGINS), another
allocator (one warning, no report), and RWCHECK_CHECKS switching each
family off.  Issue 14: the stack check on by default and walking without
libunwind (none loaded for good reads), buffers passed down two frames,
signal handlers (also on an alternate stack), a vfork child, threads."""
import json
import os
import re
import shutil
import subprocess
import tempfile

from rwctest import BUILD, Run, ok, done, check_report

PROGS = [("-O0", os.path.join(BUILD, "tests", "victim_bounds")),
         ("-O2", os.path.join(BUILD, "tests", "victim_bounds_o2")),
         ("-O2 no-PIE", os.path.join(BUILD, "tests", "victim_bounds_nopie")),
         ("-O0 no-PIE", os.path.join(BUILD, "tests", "victim_bounds_o0_nopie"))]
BUMP = os.path.join(BUILD, "tests", ".libs", "libbump.so")
STACK = {"RWCHECK_CHECKS": "+stack"}


def run(prog, case, mode, **kw):
    return Run([prog, case, mode], **kw)


def block_of(r):
    m = re.search(r"^block (0x[0-9a-f]+) (\d+)$", r.stdout, re.M)
    return (int(m.group(1), 16), int(m.group(2))) if m else (None, None)


def clean(prog, tag, case, env=None):
    base = run(prog, case, "good", preload=False)
    r = run(prog, case, "good", env=env)
    ok(r.status == 0 and not r.reports and r.log == "", "%s %s good: no report" % (tag, case), r.describe())
    ok(r.results == base.results and r.results,
       "%s %s good: same result as without rwcheck (%s)" % (tag, case, r.results), base.describe())


def heap_bad(prog, tag, case, count=8192, offset=0):
    r = run(prog, case, "bad")
    lo, size = block_of(r)
    name = "%s %s bad" % (tag, case)
    check_report(r, name, "read" if case != "heap_readv" else "readv", "heap-overflow",
                 first=size - offset, last=count - 1)
    if r.reports:
        reg = r.reports[0].get("region", {})
        ok(reg.get("kind") == "heap-block" and int(reg.get("start", "0"), 16) == lo and reg.get("size") == size,
           "%s: the block is described: start %s, %s bytes" % (name, hex(lo or 0), size), reg)
        ok("past the end of a heap block of %d bytes" % size in r.reports[0].get("text", ""),
           "%s: the text report names the block" % name, r.reports[0].get("text"))
    base = run(prog, case, "bad", preload=False)
    ok(r.results == base.results, "%s: result unchanged (the file is short: %s)" % (name, r.results), base.describe())


for tag, prog in PROGS:
    for case in ["heap_malloc", "heap_calloc", "heap_early", "heap_memalign", "heap_aligned_alloc", "heap_valloc",
                 "heap_pvalloc", "heap_posix_memalign", "heap_realloc", "heap_realloc_shrink"]:
        heap_bad(prog, tag, case)
        clean(prog, tag, case)
    heap_bad(prog, tag, "heap_interior", count=100, offset=50)
    clean(prog, tag, "heap_interior")
    heap_bad(prog, tag, "heap_readv", count=4096)
    clean(prog, tag, "heap_readv")

    r = run(prog, "heap_freed", "bad")
    check_report(r, "%s heap_freed bad" % tag, "write", "use-after-free", first=0, last=9)
    if r.reports:
        reg = r.reports[0].get("region", {})
        ok(reg.get("kind") == "freed-heap-block" and "in a freed heap block" in r.reports[0].get("message", ""),
           "%s heap_freed: described as a freed block" % tag, r.reports[0])
    clean(prog, tag, "heap_freed")

    r = run(prog, "heap_large", "bad")
    ok(len(r.reports) == 1 and r.reports[0].get("problem") in ("heap-overflow", "buf-unmapped"),
       "%s heap_large bad: reported once (past the block, and its mapping)" % tag, r.describe())
    clean(prog, tag, "heap_large")

    r = run(prog, "heap_threads", "bad", env={"RWCHECK_DEDUP": "0"})
    seeded = re.search(r"^seeded (\d+)$", r.stdout, re.M)
    ok(seeded and int(seeded.group(1)) == 40 and len(r.reports) == 40 and
       all(x.get("problem") == "heap-overflow" and x.get("call") == "pread" for x in r.reports),
       "%s heap_threads: 4 threads x 1000 calls, another moving a page, exactly the 40 seeded bad calls "
       "reported (%d)" % (tag, len(r.reports)), r.describe()[:3000])
    clean(prog, tag, "heap_threads")
    # Every call bad, 80,000 of them (dedup: one report, the rest counted
    # at exit) while the page moves every 8 calls: the map
    # changing between the fast path's look at the buffer and its look at
    # the block's header once let a bad call pass (a few to hundreds of
    # the 80,000 in each run).
    many = {"VICTIM_ROUNDS": "20000", "VICTIM_EVERY": "1"}
    r = run(prog, "heap_threads", "bad", env=many)
    seeded = re.search(r"^seeded (\d+)$", r.stdout, re.M)
    counted = len(r.reports) + sum(x.get("repeat", 0) for x in r.repeats)
    ok(seeded and int(seeded.group(1)) == 80000 and counted == 80000 and len(r.reports) == 1 and
       all(x.get("problem") == "heap-overflow" and x.get("call") == "pread" for x in r.reports + r.repeats),
       "%s heap_threads, every call bad while the map changes: all 80000 reported or counted (%d)"
       % (tag, counted), r.describe()[:3000])
    clean(prog, tag + " every call", "heap_threads", env=many)

    # Stack (RWCHECK_CHECKS=+stack).
    r = run(prog, "stack_local", "bad", env=STACK)
    check_report(r, "%s stack_local bad" % tag, "read", "stack-overflow")
    if r.reports:
        rep = r.reports[0]
        reg, bad = rep.get("region", {}), rep.get("bad", {})
        # judged by its variable (DWARF: tests/stackvars.py)
        ok(reg.get("kind") == "stack-variable" and reg.get("name") == "b" and reg.get("size") == 64 and
           reg.get("frame") == 0 and bad.get("first") == 64 and bad.get("last") == 255,
           "%s stack_local: b[64] of frame #0 (local64) holds buf; bytes from %s on run past it"
           % (tag, bad.get("first")), rep)
        ok("run past `char b[64]`" in rep.get("text", "") and "in frame #0 local64" in rep.get("text", ""),
           "%s stack_local: the text report names the variable and the frame" % tag, rep.get("text"))
    for case in ["stack_local", "stack_caller", "stack_alloca", "stack_vla", "stack_thread", "stack_loop"]:
        clean(prog, tag, case, env=STACK)
    r = run(prog, "stack_caller", "bad", env=STACK)
    check_report(r, "%s stack_caller bad" % tag, "read", "stack-overflow")
    if r.reports:
        reg = r.reports[0].get("region", {})
        ok(reg.get("frame") == 1 and r.reports[0]["bad"]["first"] >= 256,
           "%s stack_caller: the buffer is the caller's: frame #1, past its 256 bytes" % tag, r.reports[0])
    clean(prog, tag, "stack_two_callers", env=STACK)
    for case in ["stack_alloca", "stack_vla", "stack_thread", "stack_loop", "stack_two_callers"]:
        r = run(prog, case, "bad", env=STACK)
        check_report(r, "%s %s bad" % (tag, case), "read", "stack-overflow")

    # Issue 14: the stack check on by default, its walk without libunwind.
    r = run(prog, "stack_nolib", "good")
    ok("libunwind not loaded" in r.stdout,
       "%s stack_nolib good: a good read into a local loads no libunwind" % tag, r.describe())
    clean(prog, tag, "stack_nolib")
    r = run(prog, "stack_nolib", "bad")
    check_report(r, "%s stack_nolib bad (default checks)" % tag, "read", "stack-overflow")
    if r.reports:
        reg, bad = r.reports[0].get("region", {}), r.reports[0].get("bad", {})
        # by its variable (DWARF: b[64], from byte 64), or by its frame
        ok((reg.get("kind") == "stack-variable" and reg.get("name") == "b" and bad.get("first") == 64) or
           (reg.get("kind") == "stack-frame" and reg.get("frame") == 0 and 64 <= bad.get("first", 0) <= 96),
           "%s stack_nolib bad: past b[64] or frame #0's saved registers, from byte %s" % (tag, bad.get("first")),
           r.reports[0])
    r = run(prog, "stack_down2", "bad")
    check_report(r, "%s stack_down2 bad" % tag, "read", "stack-overflow")
    if r.reports:
        reg, bad = r.reports[0].get("region", {}), r.reports[0].get("bad", {})
        ok(reg.get("frame") == 2 and 128 <= bad.get("first", 0) <= 160 and bad.get("last") == 511,
           "%s stack_down2: the buffer passed down two frames is frame #2's, past its 128 bytes" % tag,
           r.reports[0])
    clean(prog, tag, "stack_down2")
    for case, call, count in [("stack_signal", "pread", 128), ("stack_altstack", "pread", 128),
                              ("stack_vfork", "pread", 200)]:
        size = {"stack_vfork": 48}.get(case, 32)
        r = run(prog, case, "good")
        ok(r.status == 0 and not r.reports and r.log == "" and
           re.search(r"^(handled 1|child 0)$", r.stdout, re.M),
           "%s %s good: no report, the handler or child ran to its end" % (tag, case), r.describe())
        clean(prog, tag, case)
        r = run(prog, case, "bad")
        rep = r.reports[0] if len(r.reports) == 1 else {}
        frames = rep.get("frames") or [{}]
        ok(r.status == 0 and rep.get("call") == call and rep.get("problem") == "stack-overflow" and
           size <= rep.get("bad", {}).get("first", 0) <= size + 48 and rep.get("bad", {}).get("last") == count - 1 and
           rep.get("region", {}).get("frame") == 0 and "victim_bounds" in (frames[0].get("module") or ""),
           "%s %s bad: one report: bytes from %d on (of %d) past its own frame #0's buffer, caller in the victim"
           % (tag, case, size, count), r.describe())
    r = run(prog, "stack_threads", "bad", env={"RWCHECK_DEDUP": "0"})
    ok(len(r.reports) == 4 and all(x.get("problem") == "stack-overflow" and x.get("region", {}).get("frame") == 0
                                   for x in r.reports) and len({x.get("buf") for x in r.reports}) == 4,
       "%s stack_threads: 4 threads' stacks, 4 overruns of frame #0 reported" % tag, r.describe()[:3000])
    clean(prog, tag, "stack_threads")

# A binary without debug information: the walk needs only .eh_frame.
nodw = os.path.join(tempfile.mkdtemp(prefix="rwc-nodw-"), "victim_bounds_nodw")
subprocess.run(["objcopy", "--strip-debug", PROGS[1][1], nodw], check=True)
for case in ["stack_local", "stack_down2"]:
    r = run(nodw, case, "bad")
    rep = r.reports[0] if len(r.reports) == 1 else {}
    ok(rep.get("problem") == "stack-overflow" and
       rep.get("region", {}).get("frame") == {"stack_local": 0, "stack_down2": 2}[case],
       "-O2 without debug information, %s bad: reported, the frame found from .eh_frame alone" % case,
       r.describe())
    clean(nodw, "-O2 without debug information", case)
shutil.rmtree(os.path.dirname(nodw))

prog = PROGS[0][1]
r = run(prog, "heap_malloc", "bad", env={"RWCHECK_HEAP_ORIGINS": "1"})
alloc_line = [i + 1 for i, l in enumerate(open(os.path.join(os.environ.get("RWC_SRCDIR", "."), "tests",
                                                             "victim_bounds.c")))
              if "c_heap_malloc(void)" in l]
at = (r.reports[0].get("region", {}).get("allocated_at") or [{}]) if r.reports else [{}]
ok(len(at) == 1 and at[0].get("function") == "c_heap_malloc" and at[0].get("line") in alloc_line and
   "the block was allocated at:" in r.reports[0].get("text", ""),
   "RWCHECK_HEAP_ORIGINS=1: the report names where the block was allocated (c_heap_malloc, line %s)"
   % alloc_line, r.describe())
for origins in ("4", "16"):
    r = run(prog, "heap_malloc", "bad", env={"RWCHECK_HEAP_ORIGINS": origins})
    at = (r.reports[0].get("region", {}).get("allocated_at") or [{}]) if r.reports else [{}]
    names = [f.get("function") for f in at]
    ok(names[:2] == ["c_heap_malloc", "main"] and at[0].get("line") in alloc_line and
       len(at) <= int(origins) and "librwcheck" not in str(at),
       "RWCHECK_HEAP_ORIGINS=%s: the allocation's backtrace (%s)" % (origins, names), r.describe())
r = run(prog, "heap_threads", "bad", env={"RWCHECK_HEAP_ORIGINS": "8", "RWCHECK_DEDUP": "0"})
origins = [(x.get("region", {}).get("allocated_at") or [{}])[0].get("function") for x in r.reports]
# the big blocks' tails (24 MiB, allocated before the threads start) and the threads' own blocks
big = [x.get("region", {}).get("size", 0) >= 24 << 20 for x in r.reports]
odd = [x for x, f, b in zip(r.reports, origins, big) if f != ("c_heap_threads" if b else "heap_worker")]
ok(len(r.reports) == 40 and not odd and sum(big) == 20,
   "RWCHECK_HEAP_ORIGINS=8 with 4 threads allocating: 40 reports, each block traced to heap_worker "
   "(or, for the big blocks, c_heap_threads)",
   "%d reports, first allocation frames %s\n%s\n%s" % (
       len(r.reports), sorted(set(map(str, origins))), json.dumps(odd[:1], indent=1)[:3000],
       r.describe()[:1500]))
clean(prog, "-O0 origins", "heap_threads", env={"RWCHECK_HEAP_ORIGINS": "8"})
for env in ({"RWCHECK_HEAP_ORIGINS": "8"}, STACK):
    base = run(prog, "heap_threads", "good", preload=False, env={"VICTIM_FDS": "1"})
    env = dict(env, VICTIM_FDS="1")
    r = run(prog, "heap_threads", "good", env=env)
    r2 = run(prog, "stack_thread", "bad", env=env)
    fds = lambda x: re.findall(r"^fds \d+$", x.stdout, re.M)
    ok(fds(base) and fds(r) == fds(base) and fds(r2) == fds(base),
       "%s: no descriptor of the library left in the program (%s)" % (env, fds(r) + fds(r2)),
       base.describe() + r.describe())
r = run(prog, "heap_early", "bad", env={"RWCHECK_HEAP_ORIGINS": "2"})
at = (r.reports[0].get("region", {}).get("allocated_at") or [{}]) if r.reports else [{}]
ok([f.get("function") for f in at] == ["main", "__libc_start_call_main"],
   "RWCHECK_HEAP_ORIGINS=2: a block allocated before the first checked call has its origin too",
   r.describe())
r = run(prog, "heap_malloc", "bad")
ok(r.reports and (r.reports[0].get("region", {}).get("allocated_at") or [{}])[0].get("function") == "c_heap_malloc",
   "by default the allocation site is recorded (c_heap_malloc)", r.describe())
r = run(prog, "heap_malloc", "bad", env={"RWCHECK_HEAP_ORIGINS": "0"})
ok(r.reports and "allocated_at" not in r.reports[0].get("region", {}),
   "RWCHECK_HEAP_ORIGINS=0: no allocation site", r.describe())

# Another allocator, preloaded after and before the library: a stand-in
# (tests/bump.c), and jemalloc and tcmalloc where installed (Debian's
# libjemalloc2, libtcmalloc-minimal4: scripts/install-deps.sh).
ALLOCATORS = [("bump", BUMP)] + [
    (n, p) for n, p in [("jemalloc", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"),
                        ("tcmalloc", "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4")]
    if os.path.exists(p)]
for name, other in ALLOCATORS:
    for order in ("after", "before"):
        lib = os.environ["RWC_LIB"]
        env = {"LD_PRELOAD": "%s:%s" % (lib, other) if order == "after" else "%s:%s" % (other, lib)}
        r = run(prog, "heap_malloc", "bad", env=env)
        warn = [l for l in r.log.splitlines() if "the heap check is off" in l]
        ok(r.status == 0 and not r.reports and len(warn) == 1,
           "%s preloaded %s the library: one warning, the heap check off, no report" % (name, order),
           r.describe())
        r = run(prog, "heap_threads", "good", env=env)
        ok(r.status == 0 and not r.reports, "... and 4 threads allocating through it run clean",
           r.describe())
        r = run(prog, "heap_malloc", "bad", env=dict(env, RWCHECK_CHECKS="maps"))
        ok(r.status == 0 and not r.reports and r.log == "",
           "... and with the heap check not asked for, not even the warning", r.describe())

# The unwinders' own calls (libunwind probes memory with write(2) on a
# pipe) are the library's: never checked, never reported.  Timing-
# dependent, hence 40 runs.
noisy = [r for r in (run(prog, "stack_local", "good", env=dict(STACK, RWCHECK_HEAP_ORIGINS="4"))
                     for _ in range(40)) if r.reports or r.status != 0]
ok(not noisy, "40 runs with the stack check and allocation traces: no report from the library's own unwinding",
   noisy[0].describe() if noisy else None)

for env in ({}, {"RWCHECK_HEAP_ORIGINS": "8"}, STACK):
    r = run(prog, "alloc_errno", "good", env=env)
    ok("errno changed 0 times" in r.stdout and not r.reports,
       "malloc, calloc, realloc, free, aligned_alloc, posix_memalign leave errno alone %s" % env, r.describe())

# RWCHECK_CHECKS: each family off.
r = run(prog, "heap_malloc", "bad", env={"RWCHECK_CHECKS": "-heap"})
ok(r.status == 0 and not r.reports and r.log == "", "RWCHECK_CHECKS=-heap: no heap report", r.describe())
r = run(prog, "stack_local", "bad")
ok(len(r.reports) == 1 and r.reports[0].get("problem") == "stack-overflow", "the stack check is on by default",
   r.describe())
r = run(prog, "stack_local", "bad", env={"RWCHECK_CHECKS": "-stack"})
ok(r.status == 0 and not r.reports, "RWCHECK_CHECKS=-stack: the stack check off", r.describe())
r = run(prog, "stack_local", "bad", env={"RWCHECK_CHECKS": "maps,stack"})
ok(len(r.reports) == 1 and r.reports[0].get("problem") == "stack-overflow",
   "RWCHECK_CHECKS=maps,stack: the stack check on", r.describe())
r = run(prog, "heap_malloc", "bad", env={"RWCHECK_CHECKS": "maps,stack"})
ok(not r.reports, "RWCHECK_CHECKS=maps,stack: no heap check", r.describe())
r = run(prog, "heap_malloc", "bad", env={"RWCHECK_CHECKS": "bogus"})
ok(len(r.reports) == 1 and "RWCHECK_CHECKS" in r.log and "bogus" in r.log,
   "RWCHECK_CHECKS=bogus: one warning naming it, the default checks", r.describe())
done()
