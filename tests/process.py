"""The process around the call: errno and results of good calls the kernel
fails are unchanged; concurrent bad calls give one whole report each;
a forked child reports to its own log; calls made before the library's
constructor (another preloaded library's) are checked."""
import os
import re
import tempfile
from rwctest import ok, done, victim, check_clean, Run, VICTIM, LIB, BUILD

for e in ["read_ebadf", "read_eisdir", "pread_espipe", "read_eagain"]:
    check_clean(e)
r = check_clean("write_errno_kept")
ok("errno after good call 4321" in r.stdout, "a good call leaves errno as it was", r.describe())

r = victim("threads", "bad", env={"RWCHECK_DEDUP": "0"})
ok(len(r.reports) == 100 and not r.bad_json,
   "4 threads x 25 bad writes: 100 reports, every one a whole JSON line (%d, %d broken)"
   % (len(r.reports), len(r.bad_json)), r.describe()[:3000])
odd = [x for x in r.reports if not (x["problem"] == "buf-unmapped" and x["frames"] and
                                   x["frames"][0].get("function") == "bad_writer")]
ok(r.reports and not odd, "each names the thread's function", odd[:2])

# dedup (the default): the site is reported once, its repeats counted at exit
r = victim("threads", "bad")
ok(len(r.reports) == 1 and len(r.repeats) == 1 and r.repeats[0]["repeat"] == 99 and
   r.repeats[0]["caller"] == r.reports[0]["caller"] and r.repeats[0]["problem"] == "buf-unmapped",
   "dedup: 100 bad calls from one site: one report, then '99 more' at exit", r.describe()[:3000])
for i in range(40):  # (no frames: a run takes milliseconds)
    r = victim("dedup_race", "bad", env={"RWCHECK_BACKTRACE": "0"})
    counts = sorted(1 + sum(x["repeat"] for x in r.repeats if x["caller"] == rep["caller"])
                    for rep in r.reports)
    if not ok(r.status == 0 and len(r.reports) == 32 and len(set(x["caller"] for x in r.reports)) == 32
              and counts == [4] * 32,
              "dedup: 4 threads racing to a site's first bad call, 32 sites, run %d: each reported once "
              "and counted 4 times (%d reports)" % (i + 1, len(r.reports)), r.describe()[:3000]):
        break
r = victim("threads", "bad", fmt="text")
ok(r.log.count("[buf-unmapped]") == 1 and "99 more bad calls like the one reported above" in r.log,
   "dedup in text: one report and a line with the count", r.log[-600:])

# A call site is (entry point, caller, problem): two entry points called
# from ONE call instruction through a table of function pointers, 3 rounds:
# two reports, each named after its own entry point, each counted 3 times
# (issue 12: both were named after the first, the second folded into it).
def entry(x):
    return x["call"] + (" " + x["syscall"] if "syscall" in x else "")


for case, calls in [("dedup_pread", ["pread", "pread64"]), ("dedup_preadv2", ["preadv2", "preadv64v2"]),
                    ("dedup_recv", ["recv", "__recv_chk"]),
                    ("dedup_syscall", ["syscall pread64", "syscall read"])]:
    check_clean(case)
    r = victim(case, "bad")
    site = r.sites[-1] if r.sites else ("?", -1)
    callers = set(x["caller"] for x in r.reports)
    ok(sorted(entry(x) for x in r.reports) == sorted(calls) and len(callers) == 1 and not r.bad_json and
       all(x["problem"] == "buf-unmapped" and x["frames"] and x["frames"][0].get("function") == site[0]
           and x["frames"][0].get("line") == site[1] for x in r.reports),
       "%s bad: one report per entry point (%s), all from %s at victim.c:%d" % (case, ", ".join(calls), *site),
       r.describe()[:3000])
    ok(sorted((entry(x), x["repeat"], x["caller"], x["problem"]) for x in r.repeats) ==
       [(c, 2, min(callers), "buf-unmapped") for c in sorted(calls)],
       "%s bad: each entry point's repeats counted apart (2 more each)" % case, r.describe()[:3000])
r = victim("dedup_same", "bad")
ok(len(r.reports) == 1 and r.reports[0]["call"] == "pread" and
   [(x["call"], x["repeat"], x["caller"]) for x in r.repeats] == [("pread", 5, r.reports[0]["caller"])],
   "dedup_same bad: one entry point twice from one call: one report, 5 more", r.describe()[:3000])
check_clean("dedup_same")
r = victim("dedup_callers", "bad")
lines = sorted(tuple(f.get("line") for f in x["frames"][:2]) for x in r.reports)
ok(len(r.reports) == 2 and len(set(x["caller"] for x in r.reports)) == 1 and len(set(x.get("site") for x in r.reports)) == 2
   and lines[0][0] == lines[1][0] and lines[0][1] != lines[1][1] and
   sorted((x["repeat"], x["site"]) for x in r.repeats) == sorted((2, x["site"]) for x in r.reports),
   "dedup_callers bad: one pread in a helper reached from two callers: two reports (its callers' lines apart), 2 more each",
   r.describe()[:3000])
check_clean("dedup_callers")
r = victim("dedup_pread", "bad", env={"RWCHECK_DEDUP": "0"})
ok(sorted(x["call"] for x in r.reports) == ["pread"] * 3 + ["pread64"] * 3 and not r.repeats,
   "dedup_pread bad, RWCHECK_DEDUP=0: every call reported under its own name", r.describe()[:3000])
r = victim("dedup_pread", "bad", fmt="text")
more = re.findall(r"2 more bad calls like the one reported above from 0x[0-9a-f]+ \((\S+), buf-unmapped\)", r.log)
ok(r.log.count("[buf-unmapped]") == 2 and sorted(more) == ["pread", "pread64"],
   "dedup_pread bad, text: two reports and a count line for each entry point", r.log[-1500:])

r = victim("fork", "bad")
pids = sorted(set(x["pid"] for x in r.reports))
child = [l for l in r.stdout.splitlines() if l.startswith("child ")]
ok(len(r.reports) == 2 and len(pids) == 2 and child and int(child[0].split()[1]) in pids,
   "parent and forked child each report once, with their own pid", r.describe())
ok(len(r.reports) == 2 and all(x["frames"] and x["frames"][0].get("function") == "c_fork" for x in r.reports),
   "the forked child starts with fresh per-process state: a full, symbolized report", r.describe())

early = os.path.join(BUILD, "tests", ".libs", "libearly.so")
r = Run([VICTIM, "read", "good"], env={"LD_PRELOAD": LIB + ":" + early})
ctor = [x for x in r.reports if x["bad"]["first"] == 100]
ok(len(ctor) == 1 and ctor[0]["call"] == "write" and ctor[0]["problem"] == "buf-unmapped",
   "a bad write() from a constructor that runs before the library's is reported", r.describe())
ok(any(f.get("function") == "early_bad_write" for f in (ctor[0]["frames"] if ctor else [])),
   "... naming the constructor", r.describe())
# A fork child of a process that has made its checks binds none of the
# library's imports again (each lazy bind in a child is ~9 page faults of
# ld.so's lookup, in every subshell a shell forks): of four subshells, at
# most the first (which makes checks the shell had not made) binds any,
# and the output is the one without the library.
d = tempfile.mkdtemp(prefix="rwc-bind-")
script = "read x </dev/null; for i in 1 2 3 4; do x=$(echo hi$i); printf '%s ' \"$x\"; done"
r = Run(["sh", "-c", script], env={"LD_DEBUG": "bindings", "LD_DEBUG_OUTPUT": os.path.join(d, "b")})
lines = []
for f in os.listdir(d):
    with open(os.path.join(d, f), errors="replace") as fh:
        lines += fh.read().splitlines()
pids = [ln.split(":")[0].strip() for ln in lines if ":" in ln]
binders = sorted({ln.split(":")[0].strip() for ln in lines
                  if pids and ln.split(":")[0].strip() != pids[0] and
                  re.search(r"binding file \S*librwcheck\.so ", ln)})
ok(r.status == 0 and r.stdout == "hi1 hi2 hi3 hi4 " and pids and len(binders) <= 1,
   "fork children of a checked shell bind none of the library's imports again (%d binding)" % len(binders),
   (r.describe(), [ln for ln in lines if ln.split(":")[0].strip() in binders][:6]))
# A fork child's first write() and execve() read none of libc's symbol
# tables (bound in the parent before the fork: a child's own lookups read
# pages it does not share, ~3 faults each): the child makes them
# unreadable first (tests/forkbind.c), and a lookup would kill it.
r = Run([os.path.join(BUILD, "tests", "forkbind")])
ok(r.status == 0 and r.stdout == "exit 0 wrote\n" and not r.reports,
   "a fork child's first write and execve bind nothing of libc's tables", r.describe())
r = Run([os.path.join(BUILD, "tests", "forkbind")], preload=False)
ok(r.status == 0 and r.stdout == "exit 0 wrote\n", "... (and without the library)", r.describe())
done()
