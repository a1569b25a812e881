"""The library maps its own memory at its first need, not at start.  When
that first need is a hole the program makes (munmap, syscall(SYS_munmap),
free of an mmapped block), the memory is mapped before the hole exists and
so never lands in it: a read into the hole is reported.  When it is a
vfork child, the child reports in safe mode and the parent as usual; when
it is a fork child, the child reports as usual; when it is the child of
a raw clone(), as usual where kcmp(2) can tell it is no vfork child, in
safe mode where it cannot (seccomp: tests/nokcmp).  Each case also runs
good: no report, the same result as without the library."""
import os
import re
import shutil
from rwctest import ok, done, skip, victim, check_report, check_clean, Run, VICTIM, BUILD

NOKCMP = os.path.join(BUILD, "tests", "nokcmp")

# (free of an mmapped block unmaps it only without the quarantine: with
# it, the range stays reserved and a read there is a use-after-free)
Q0 = {"RWCHECK_QUARANTINE": "0"}
for entry, env in [("first_munmap", None), ("first_raw_munmap", None), ("first_free", Q0)]:
    r = victim(entry, "bad", env=env)
    check_report(r, entry + " (a read into the top of the program's first hole)", "read",
                 "buf-unmapped", 0, 9)
    check_clean(entry, env=env)
r = victim("first_free", "bad")
check_report(r, "first_free, its range reserved (the default quarantine)", "read", "use-after-free", 0, 9)
check_clean("first_free")


# The first checks' single mappings in the thread's cache (mapview.c),
# then a free that trims the heap before the library's first need: the
# cache lets the heap go (with the heap check off, which would say
# use-after-free first; and with it on).
MAPSONLY = {"RWCHECK_CHECKS": "maps", "RWCHECK_QUARANTINE": "0"}
r = victim("first_trim", "bad", env=MAPSONLY)
check_report(r, "first_trim (checks: maps): a read above the trimmed heap", "read", "buf-unmapped", 0, 9)
check_clean("first_trim", env=MAPSONLY)
r = victim("first_trim", "bad", env=Q0)
ok(r.status == 0 and len(r.reports) == 1 and r.reports[0]["problem"] in ("buf-unmapped", "use-after-free"),
   "first_trim (default checks, no quarantine): reported", r.describe())


def safe_mode(rep):
    return bool(rep["frames"]) and "function" not in rep["frames"][0]


for how, wrap in [("", []), (" (kcmp not allowed)", [NOKCMP])]:
    r = Run(wrap + [VICTIM, "first_vfork", "bad"])
    kid = re.findall(r"^vfork child (\d+)$", r.stdout, re.M)
    child = [x for x in r.reports if kid and x["pid"] == int(kid[0])]
    parent = [x for x in r.reports if not kid or x["pid"] != int(kid[0])]
    ok(r.status == 0 and len(child) == 1 and len(parent) == 1 and
       all(x["call"] == "read" and x["problem"] == "buf-not-writable" for x in r.reports),
       "first need in a vfork child%s: one report from the child, one from the parent" % how,
       r.describe())
    ok(child and safe_mode(child[0]), "... the child's in safe mode (raw frames)", child[:1])
    site = r.sites[-1] if r.sites else ("?", -1)
    f0 = (parent[0]["frames"] or [{}])[0] if parent else {}
    ok(f0.get("function") == site[0] and f0.get("line") == site[1],
       "... the parent's as usual, naming its caller %s at victim.c:%d" % site, parent[:1])

    r = Run(wrap + [VICTIM, "first_fork", "bad"])
    kid = re.findall(r"^fork child (\d+) 0$", r.stdout, re.M)
    check_report(r, "first need in a fork child" + how, "read", "buf-not-writable", 0, 9)
    ok(kid and r.reports and r.reports[0]["pid"] == int(kid[0]),
       "... made under the child's pid", r.describe())

r = victim("first_rawfork", "bad")
check_report(r, "first need in the child of a raw clone()", "read", "buf-not-writable", 0, 9)
r = Run([NOKCMP, VICTIM, "first_rawfork", "bad"])
kid = re.findall(r"^fork child (\d+) 0$", r.stdout, re.M)
ok(kid and len(r.reports) == 1 and r.reports[0]["pid"] == int(kid[0]) and safe_mode(r.reports[0]),
   "... where kcmp is not allowed: reported in safe mode, taken for a vfork child", r.describe())
# After the parent's first need, a raw clone()'s child finds the
# per-process pages wiped: kcmp says it is no vfork child (reported as
# usual); where kcmp is not allowed it is taken for one (safe mode).
for how, wrap, safe in [("", [], False), (" (kcmp not allowed)", [NOKCMP], True)]:
    r = Run(wrap + [VICTIM, "later_rawfork", "bad"])
    kid = re.findall(r"^fork child (\d+) 0$", r.stdout, re.M)
    if not safe:
        check_report(r, "a raw clone() child after the first need" + how, "read", "buf-not-writable", 0, 9)
    ok(kid and len(r.reports) == 1 and r.reports[0]["problem"] == "buf-not-writable" and r.reports[0]["pid"] == int(kid[0]) and safe_mode(r.reports[0]) == safe,
       "a raw clone() child after the first need%s: reported under its pid, %s" %
       (how, "in safe mode" if safe else "as usual"), r.describe())
# A fork() child's own vfork child: the fork child claimed its state at
# the fork, so the vfork child reports in safe mode and leaves it alone;
# the fork child's own report afterwards is as usual (kcmp or not).
for how, wrap in [("", []), (" (kcmp not allowed)", [NOKCMP])]:
    r = Run(wrap + [VICTIM, "fork_vfork", "bad"])
    v = re.findall(r"^vfork child (\d+)$", r.stdout, re.M)
    f = re.findall(r"^fork child (\d+) 0$", r.stdout, re.M)
    vr = [x for x in r.reports if v and x["pid"] == int(v[0])]
    fr = [x for x in r.reports if f and x["pid"] == int(f[0])]
    ok(r.status == 0 and len(r.reports) == 2 and len(vr) == 1 and len(fr) == 1,
       "fork child's vfork child%s: one report each" % how, r.describe())
    ok(vr and safe_mode(vr[0]), "... the vfork child's in safe mode", vr[:1])
    site = r.sites[-1] if r.sites else ("?", -1)
    f0 = (fr[0]["frames"] or [{}])[0] if fr else {}
    ok(f0.get("function") == site[0] and f0.get("line") == site[1],
       "... the fork child's as usual, naming %s at victim.c:%d" % site, fr[:1])
for entry in ["first_vfork", "first_fork", "first_rawfork", "first_threads", "later_rawfork", "fork_vfork"]:
    check_clean(entry)
# Each thread's bad call is reported or counted as a repeat at exit (a
# report made while another thread maps the memory is made in safe mode,
# without dedup: it may be reported more than once).  A bad call made
# while another thread reads the knobs (the first checked call) waits for
# it: it once went through unchecked.
for i in range(10):
    r = victim("first_threads", "bad")
    seen = len(r.reports) + sum(x["repeat"] for x in r.repeats)
    if not ok(r.status == 0 and r.results == ["result 0 0"] and seen == 4 and
              all(x["call"] == "read" and x["problem"] == "buf-not-writable" for x in r.reports),
              "4 threads racing for the first need and the first check, run %d: each thread's bad "
              "call seen (%d reports, %d seen)" % (i + 1, len(r.reports), seen), r.describe()):
        break
# What the loader mapped and malloc handed out is taken on its word by a
# process's first checks (no query of the kernel) -- but not where the
# program changed the map itself: a page of a global, of a heap block
# (its own mapping too, by syscall()), of the stack made read-only or
# unmapped, then read into as the first checked call, is reported; so is
# a read into RELRO data or code; each good twin is not.
VOUCH = [("bss_munmap", "buf-unmapped", "a page of a .bss array unmapped"),
         ("bss_mprotect", "buf-not-writable", "a page of a .bss array made read-only by syscall()"),
         ("relro", "buf-not-writable", "RELRO data (read-only once relocated)"),
         ("text", "buf-not-writable", "the program's code"),
         ("heap_mprotect", "buf-not-writable", "a page of an aligned_alloc block made read-only"),
         ("heap_munmap", "buf-unmapped", "a page of an mmapped malloc block unmapped by syscall()"),
         ("stack", "buf-not-writable", "a page of the main stack made read-only")]
VOUCH += [("forged_header", "buf-unmapped", "above the break, after an overrun forged a chunk header")]
for case, problem, what in VOUCH:
    entry = "first_vouch_" + case
    r = victim(entry, "bad")
    check_report(r, "%s (%s)" % (entry, what), "read", problem, 0, 9)
    check_clean(entry)
# The heap vouched for up to a break the view never took, then trimmed
# back in one free: the iovec array there is reported, not read (the
# library faulted there before).
Q0T = {"RWCHECK_QUARANTINE": "0", "RWCHECK_DEDUP": "0"}
r = victim("first_vouch_trim", "bad", env=Q0T)
ok(r.status == 0 and [x.get("problem") for x in r.reports][-1:] == ["iov-array-bad"] and
   r.results == ["result -1 14"],
   "first_vouch_trim bad: the trimmed iovec array reported (iov-array-bad), EFAULT as without rwcheck", r.describe())
r = victim("first_vouch_trim", "good", env=Q0T)
base = victim("first_vouch_trim", "good", preload=False)
ok(r.status == 0 and len(r.reports) == 1 and r.results == base.results,
   "first_vouch_trim good: only the set-up's bad read reported, the same result", r.describe())

# (setarch -L: the bottom-up layout, where glibc's own mappings lie below
# the program break)
if shutil.which("setarch"):
    for mode in ("bad", "good"):
        r = Run(["setarch", os.uname().machine, "-L", VICTIM, "first_vouch_brk_blocked", mode])
        if mode == "bad":
            ok(len(r.reports) == 1 and r.reports[0].get("problem") == "buf-not-writable",
               "first_vouch_brk_blocked bad (the break blocked, bottom-up layout): the read into code reported",
               r.describe())
        else:
            ok(r.status == 0 and not r.reports and r.results == ["result 10 0"],
               "first_vouch_brk_blocked good: no report", r.describe())
else:
    skip("first_vouch_brk_blocked", "no setarch")

done()
