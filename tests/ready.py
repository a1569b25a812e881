"""epoll_wait, poll and select called in a loop, the same call from the
same place (src/entry/readiness.c remembers a good call and answers its
repeats with a few loads), then once more with the buffer changed under
it or a capacity grown: the last call must be checked as if it were the
first.  Per case of tests/victim_ready.c, built -O0 and -O2: "bad" gives
exactly one report, naming the call, the argument, the problem, the bad
bytes and the caller's line, with the same result and errno as without
the library; "good" (the same loop, a last call that fits) none."""
import os
from rwctest import ok, done, Run, BUILD

HEAP, GLOBAL, STACK, RO = "heap-overflow", "global-overflow", "stack-overflow", "buf-not-writable"
# case: (call, arg, problem, first bad byte, last bad byte, the caller)
CASES = {
    "global_grow": ("epoll_wait", "events", GLOBAL, 96, 767, "ep_call"),
    "heap_shrink": ("epoll_wait", "events", HEAP, 24, 767, "ep_call"),
    "turns_heap": ("epoll_wait", "events", HEAP, 24, 767, "ep_call"),
    "protect": ("poll", "fds", RO, 16, 31, "poll_call"),
    "stack_grow": ("select", "readfds", STACK, 8, 143, "stack_select"),
    "parent_grow": ("select", "readfds", STACK, 8, 143, "sel_call"),
    "other_parent": ("select", "readfds", STACK, 8, 143, "sel_call"),
    "select_shrink": ("select", "readfds", HEAP, 136, 143, "sel_call"),
}
PROGS = [("-O0", "victim_ready"), ("-O2", "victim_ready_o2")]


def run(prog, case, mode, preload=True):
    return Run([os.path.join(BUILD, "tests", prog), case, mode], preload=preload)


for v, prog in PROGS:
    for case, (call, arg, problem, first, last, caller) in CASES.items():
        name = "%s %s bad" % (v, case)
        base, r = run(prog, case, "bad", preload=False), run(prog, case, "bad")
        if base.status == 77:
            ok(True, "%s # SKIP realloc moved the block, or the stack's layout" % name)
            continue
        if ok(len(r.reports) == 1 and not r.bad_json, "%s: exactly one report" % name, r.describe()):
            rep = r.reports[0]
            bad = rep.get("bad", {})
            ok(rep.get("call") == call and rep.get("arg") == arg and rep.get("problem") == problem and
               bad.get("first") == first and bad.get("last") == last and rep.get("count") == last + 1,
               "%s: %s, arg %s, %s, bytes %d..%d of %d" % (name, call, arg, problem, first, last, last + 1),
               rep)
            f0 = (rep.get("frames") or [{}])[0]
            site = r.sites[-1] if r.sites else ("?", -1)
            ok(site[0] == caller and f0.get("function") == caller and f0.get("line") == site[1] and
               os.path.basename(f0.get("file", "")) == "victim_ready.c",
               "%s: the first frame is %s at victim_ready.c:%d, the last call's" % (name, caller, site[1]),
               f0)
        ok(r.results == base.results and r.results and r.status == base.status == 0,
           "%s: same result and errno as without rwcheck (%s)" % (name, r.results),
           base.describe() + r.describe())

        name = "%s %s good" % (v, case)
        base, r = run(prog, case, "good", preload=False), run(prog, case, "good")
        ok(not r.reports and r.log == "" and r.status == base.status == 0,
           "%s: no report" % name, r.describe())
        ok(r.results == base.results and r.results and len(r.sites) == len(base.sites) > 1,
           "%s: same result and errno as without rwcheck, the same calls (%s)" % (name, r.results),
           base.describe() + r.describe())
done()
