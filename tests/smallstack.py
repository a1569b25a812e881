"""Threads with small stacks: 16 KiB (PTHREAD_STACK_MIN) and 64 KiB.  The
library's deep work -- a new call site's DWARF lookup of its variables,
loading libunwind and libdw, unwinding and symbolizing a report -- runs on
a stack of its own (frames/ownstack.c), not the thread's: before it, a
good read into a stack variable on a 16 KiB thread crashed the program
(SIGSEGV in libdw), a bad one on a 64 KiB thread too.  Each bad case: the
program runs to its end with one report whose frames go from the caller
through the thread's start; each good twin: no report, the result it has
without the library.  The same for a read in a signal handler on a
sigaltstack of 8 KiB (SIGSTKSZ) and 16 KiB: the library's check and its
report there fit in what is left of 8 KiB after the kernel's signal frame
(~3.3 KiB with AVX-512 state; before, both crashed with SIGSEGV: a 5 KiB
log path buffer, 1.6 KiB of CFI states, the loader's lazy binding of
sigaction).  tests/victim_smallstack.c at -O0 and -O2."""
import os

from rwctest import BUILD, Run, ok, done, check_report

# case, problem, first bad byte, last bad byte
CASES = [
    ("stack", "stack-overflow", 16, 47),
    ("heap", "heap-overflow", 100, 100),
    ("global", "global-overflow", 32, 39),
]

for prog in ("victim_smallstack", "victim_smallstack_o2"):
    path = os.path.join(BUILD, "tests", prog)
    for size in (16384, 65536):
        for case, problem, first, last in CASES:
            name = "%s %d %s" % (prog, size, case)
            r = Run([path, str(size), case, "bad"])
            ok(r.status == 0 and r.results, "%s bad: runs to its end" % name, r.describe())
            check_report(r, "%s bad" % name, "read", problem, first=first, last=last)
            fns = [f.get("function") for f in (r.reports[0].get("frames") or [])] if r.reports else []
            ok("thread" in fns and "start_thread" in fns,
               "%s bad: the backtrace goes through thread and start_thread" % name, fns)
            base = Run([path, str(size), case, "good"], preload=False)
            g = Run([path, str(size), case, "good"])
            ok(g.status == 0 and not g.reports and g.log == "", "%s good: no report" % name, g.describe())
            ok(g.results == base.results and g.results,
               "%s good: same result as without rwcheck (%s)" % (name, g.results), base.describe())
    for size in (8192, 16384):
        name = "%s altstack %d" % (prog, size)
        r = Run([path, str(size), "altstack", "bad"])
        ok(r.status == 0 and r.results == ["result 0"], "%s bad: runs to its end" % name, r.describe())
        rep = r.reports[0] if len(r.reports) == 1 else {}
        ok(rep.get("call") == "read" and rep.get("problem") == "stack-overflow" and
           rep.get("bad", {}).get("first", 0) >= 16 and rep.get("bad", {}).get("last") == 199,
           "%s bad: one report, read, stack-overflow, bad bytes from 16 or later to 199 (by the frame: no DWARF in a handler)" % name, r.describe())
        base = Run([path, str(size), "altstack", "good"], preload=False)
        g = Run([path, str(size), "altstack", "good"])
        ok(g.status == 0 and not g.reports and g.log == "", "%s good: no report" % name, g.describe())
        ok(g.results == base.results and g.results,
           "%s good: same result as without rwcheck (%s)" % (name, g.results), base.describe())
done()
