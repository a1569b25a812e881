"""Issue 14: real bugs in miniature (tests/victim_objects.c), with the
default checks: each bad case is reported once, as the right problem, at
the caller's line, naming the object and its size; each good twin gives no
report and the same result as without the library.  Built five ways:
-O0 -g, -O2 -g, -O2 -g -D_FORTIFY_SOURCE=2 (where the compiler sees the
size, glibc aborts after rwcheck's report), -O2 without -g (no DWARF:
stack buffers are judged by their frame, so an overrun that stays inside
the frame is not seen), and -O2 -g non-PIE.  Ends with a table of what
was caught."""
import os

import re

from rwctest import BUILD, Run, ok, done, check_report

VARIANTS = [("O0", "victim_objects_o0", "dwarf"), ("O2", "victim_objects_o2", "dwarf"),
            ("O2-fortify", "victim_objects_fortify", "dwarf"), ("O2-nodebug", "victim_objects_nodebug", ""),
            ("O2-nopie", "victim_objects_nopie", "dwarf")]

REC = 64  # sizeof(struct rec)

# case: (call, problem, region kind, object name, size, first bad, last bad)
CASES = {
    "stack_sysfs": ("read", "stack-overflow", "stack-variable", "value", 64, 64, 4095),
    "stack_neighbours": ("read", "stack-overflow", "stack-variable", "name", 16, 16, 63),
    "stack_answer": ("recv", "stack-overflow", "stack-variable", "ans", 2048, 2048, 65535),  # past ans before off the stack
    "stack_passed_down": ("read", "stack-overflow", "stack-variable", "small", 24, 24, 127),
    "stack_struct": ("read", "stack-overflow", "stack-variable", "r", REC, REC, 2 * REC - 1),
    "stack_epoll": ("epoll_wait", "stack-overflow", "stack-variable", "ee", 120, 120, 64 * 12 - 1),
    "heap_by_one": ("read", "heap-overflow", "heap-block", None, 100, 100, 100),
    "heap_calloc": ("recvfrom", "heap-overflow", "heap-block", None, 41, 41, 67),
    "heap_blksize": ("recvfrom", "heap-overflow", "heap-block", None, 516, 516, 1027),
    "heap_interior": ("pread", "heap-overflow", "heap-block", None, 65536, 65536 - 60000, 65535),
    "heap_large": ("read", "heap-overflow", "heap-block", None, 200000, 200000, 262143),
    "heap_usable": ("read", "heap-overflow", "heap-block", None, 104, 104, 119),  # usable size asked: the block is 104
    "global_offset": ("read", "global-overflow", "global", "pkt_buf", 4096, 4092, 4095),
    "global_static": ("read", "global-overflow", "global", "hdr", 32, 32, 127),
    "global_rodata": ("write", "global-overflow", "global", "greeting", 14, 14, 63),
    "global_row": ("read", "global-overflow", "global", "table", 128, 96, 127),
}

# Without DWARF these stay inside their frame: judged by the frame, not seen.
INSIDE_FRAME = {"stack_neighbours", "stack_struct", "stack_epoll", "stack_passed_down"}

caught = {}


def bad(tag, prog, dwarf, case):
    call, problem, kind, name, size, first, last = CASES[case]
    r = Run([prog, case, "bad"])
    label = "%s %s bad" % (tag, case)
    if not dwarf and case.startswith("stack_"):
        kind, name, first, last = "stack-frame", None, None, None
        if case in INSIDE_FRAME:
            ok(all(rep.get("problem") == "stack-overflow" for rep in r.reports),
               "%s: no DWARF, inside its frame: no report or a stack-overflow" % label, r.describe())
            caught[(case, tag)] = "frame" if r.reports else "-"
            return
    # a fortified call the compiler could size aborts in glibc, after the report
    ok(r.status == 0 or (tag == "O2-fortify" and r.status == -6), "%s: exit status %s" % (label, r.status), r.describe())
    if tag == "O2-fortify" and r.reports and r.reports[0].get("call") == "__%s_chk" % call:
        call = r.reports[0]["call"]  # the fortified twin the compiler chose
    if dwarf:
        check_report(r, label, call, problem, first=first, last=last)
    else:  # no file:line without DWARF: the caller by name
        rep = r.reports[0] if len(r.reports) == 1 else {}
        ok(rep.get("call") == call and rep.get("problem") == problem, "%s: call %s, problem %s" % (label, call, problem),
           r.describe())
        f0 = (rep.get("frames") or [{}])[0]
        site = r.sites[-1][0] if r.sites else "?"
        ok(re.sub(r"\.(constprop|isra|part)\.\d+$", "", f0.get("function") or "") == site,
           "%s: first frame is the caller %s" % (label, site), rep)
        if first is not None:
            ok(rep.get("bad", {}).get("first") == first, "%s: first bad byte %s" % (label, first), rep)
    caught[(case, tag)] = "yes" if len(r.reports) == 1 and r.reports[0].get("problem") == problem else "NO"
    if not r.reports:
        return
    reg = r.reports[0].get("region", {})
    ok(reg.get("kind") == kind, "%s: region kind %s" % (label, kind), reg)
    if size is not None and kind != "stack-frame":
        ok(reg.get("size") == size, "%s: object size %d" % (label, size), reg)
    if name is not None:
        ok(reg.get("name") == name, "%s: object named %s" % (label, name), reg)
    if case == "heap_by_one":
        ok(reg.get("usable", 0) >= 104, "%s: usable size said beside the requested one" % label, reg)


def good(tag, prog, case):
    if tag == "O2-fortify" and case == "heap_usable":
        # glibc's own check aborts here without rwcheck (the compiler saw
        # malloc(100); usable-size reads are why systemd stopped fortifying them)
        return
    base = Run([prog, case, "good"], preload=False)
    r = Run([prog, case, "good"])
    label = "%s %s good" % (tag, case)
    ok(r.status == 0 and not r.reports and r.log == "", "%s: no report" % label, r.describe())
    ok(r.results == base.results and r.results, "%s: same result as without rwcheck (%s)" % (label, r.results),
       base.describe())


for tag, exe, dwarf in VARIANTS:
    prog = os.path.join(BUILD, "tests", exe)
    for case in CASES:
        bad(tag, prog, dwarf, case)
        good(tag, prog, case)

print("# caught with the default checks (yes / frame: judged by the frame / - not seen / NO: missed):")
print("# %-18s %s" % ("case", " ".join("%-10s" % t for t, _, _ in VARIANTS)))
for case in CASES:
    print("# %-18s %s" % (case, " ".join("%-10s" % caught.get((case, t), "?") for t, _, _ in VARIANTS)))
done()
