"""rwcheck never hurts the program: signal handlers that write while
threads do I/O and the map churns (no deadlock, no lost or corrupted data,
no false report); bad calls from a handler that interrupted malloc
(reported, no deadlock); threads with seeded bad calls while the map
churns (each reported exactly once); vfork and posix_spawn children of a
multithreaded process; calls after the library's destructor; no
descriptor or signal handler of the library in the process; a tight
address-space limit (ulimit -v)."""
import os
import re
from rwctest import ok, done, victim, Run, VICTIM, LIB, BUILD

r = victim("signals", "good")
ok(r.status == 0 and "sequence 200000, alarms many" in r.stdout and not r.reports and r.log == "",
   "handler writes during reads, writes and map churn: data intact, no report, no deadlock",
   r.describe()[:3000])

r = victim("signals", "bad", env={"RWCHECK_DEDUP": "0"})
ok(r.status == 0 and "sequence 200000" in r.stdout and len(r.reports) > 10 and not r.bad_json and
   # (buf-not-readable when the check ran while another thread held the
   # program's gaps with keepout's PROT_NONE placeholders: HACKING)
   all(x["call"] == "write" and x["problem"] in ("buf-unmapped", "buf-not-readable") and x["bad"]["first"] == 100
       for x in r.reports),
   "bad writes from the handler: all reported, each a whole line, data intact (%d)" % len(r.reports),
   r.describe()[:3000])
ok(r.reports and all(x["frames"] and os.path.basename(x["frames"][0].get("module", "")) == "victim"
                     for x in r.reports),
   "... with the handler's module in the first frame (raw frames: safe mode)", r.reports[:1])

r = victim("signal_malloc", "bad", env={"RWCHECK_DEDUP": "0"})
ok(r.status == 0 and "alarms many" in r.stdout and len(r.reports) > 10 and not r.bad_json,
   "bad calls from a handler interrupting malloc, every one reported: no deadlock (%d reports)"
   % len(r.reports), r.describe()[:3000])
r = victim("signal_malloc", "bad")
ok(r.status == 0 and len(r.reports) == 1 and len(r.repeats) == 1,
   "... and with dedup: one report, its repeats counted at exit", r.describe()[:3000])

# The real pwrite64 bound inside a handler that interrupts dlopen/dlclose
# (base/symscope.c reads the modules' tables, no lock): it works, no
# deadlock, no report.  (A smoke test: dlsym there would pass too, the
# loader's lock being recursive in the thread that holds it.)
r = victim("signal_dlopen", "good")
ok(r.status == 0 and "alarms many, loads many" in r.stdout and not r.reports and r.log == "",
   "signal_dlopen: a handler's first pwrite64 while dlopen/dlclose churn: no deadlock, no report",
   r.describe()[:3000])

r = victim("churn", "bad", env={"RWCHECK_DEDUP": "0"})
seeded = [x for x in r.reports if x["call"] == "pread" and x["problem"] == "buf-not-writable"
          and x["bad"]["first"] == 100]
ok(r.status == 0 and len(r.reports) == 60 and len(seeded) == 60,
   "3 threads x 2000 good calls on heap/stack/mmap/file buffers + 60 seeded bad ones while "
   "another thread churns the map: exactly the 60 reported (%d)" % len(r.reports), r.describe()[:3000])

r = victim("vfork", "bad")
kids = dict(re.findall(r"^(vfork|spawned) child (\d+)$", r.stdout, re.M))
by_pid = {}
for x in r.reports:
    by_pid.setdefault(x["pid"], []).append(x)
vf = by_pid.get(int(kids.get("vfork", -1)), [])
sp = by_pid.get(int(kids.get("spawned", -1)), [])
ok(r.status == 0 and len(vf) == 1 and vf[0]["call"] == "write" and len(sp) == 1,
   "vfork child and posix_spawn child of a threaded process: one report each, under their own pid",
   r.describe()[:3000])
ok(vf and vf[0]["frames"] and "function" not in vf[0]["frames"][0],
   "the vfork child's report is made in safe mode (raw frames)", vf[:1])

early = os.path.join(BUILD, "tests", ".libs", "libearly.so")
r = Run([VICTIM, "read", "good"], env={"LD_PRELOAD": LIB + ":" + early})
late = [x for x in r.reports if x["bad"]["first"] == 50]
ok(len(late) == 1 and late[0]["call"] == "write", "a bad call after the library's destructor is reported",
   r.describe())

r = victim("fds", "bad")
lines = re.findall(r"^fds (before|after):(.*)$", r.stdout, re.M)
ok(len(lines) == 2 and lines[0][1] == lines[1][1] and len(r.reports) == 1,
   "no descriptor of the library before or after a report: %s" % (lines[0][1] if lines else "?"), r.describe())
r = victim("closeall", "bad")
ok(len(r.reports) == 1 and r.reports[0]["bad"]["first"] == 100,
   "a program that closed every descriptor still gets its report in RWCHECK_LOG", r.describe())
a = victim("sigcgt", "good", preload=False)
b = victim("sigcgt", "good")
ok(a.stdout.splitlines()[-2:] == b.stdout.splitlines()[-2:] and "SigCgt" in b.stdout,
   "no signal handler installed (SigCgt unchanged)", a.stdout + b.stdout)
r = victim("fork_during_report", "bad", env={"RWCHECK_DEDUP": "0"})
ok(r.status == 0 and "children that did not finish cleanly: 0" in r.stdout and len(r.reports) >= 20,
   "fork while another thread holds the report lock: 20 children report and exit, none hangs",
   r.describe()[:2000])
kids = set(x["pid"] for x in r.reports if x["frames"] and
           (x["frames"][0].get("function") == "c_fork_during_report" or "function" not in x["frames"][0]))
ok(len(kids) == 20, "each of the 20 children made its report (in safe mode when forked mid-report): %d"
   % len(kids), r.describe()[:2000])
r = victim("secret", "bad")
ok(len(r.reports) == 1 and "TOPSECRET" not in r.log and "0123456789" not in r.log,
   "a report never carries the buffer's bytes", r.log[:500])
# The libraries the first report loads (libunwind, libdw and theirs) go
# into address space the library kept at start, not into a hole the
# program unmapped: a bad call there must stay bad.
r = victim("hole_after_report", "bad", env={"RWCHECK_DEDUP": "0"})
m = re.search(r"^mappings in the hole: (\d+)$", r.stdout, re.M)
n = re.search(r"^bad writes into the hole: (\d+)$", r.stdout, re.M)
ok(m and m.group(1) == "0" and n and len(r.reports) == 1 + int(n.group(1)),
   "after the first report, nothing of the library in the program's 16 MiB hole, and every one of %s "
   "bad writes into it reported (%d reports)" % (n.group(1) if n else "?", len(r.reports)), r.describe()[:3000])


# Under an address-space limit (ulimit -v, as some test suites set) the
# library must not keep a program from starting: what it needs in order to
# load at all stays small (its memory is mapped by the constructor, which
# copes with a refusal), so from 2 MB above the program's own need up, the
# program's result is the same with the library as without it.
def limited(kib, preload, mode="good"):
    r = victim("read", mode, preload=preload, limit_as=kib * 1024)
    return r.status, r.stdout, r.stderr


lo, hi = 1024, 256 * 1024  # KiB: the victim fails at lo, runs at hi
if limited(hi, False)[0] != 0 or limited(lo, False)[0] == 0:
    ok(False, "address-space limit: cannot bracket the victim's own need")
else:
    while hi - lo > 256:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if limited(mid, False)[0] == 0 else (mid, hi)
    for mode in ("good", "bad"):
        alone = limited(hi + 32 * 1024, False, mode)
        bad = []
        for extra in range(2, 34, 2):
            got = limited(hi + extra * 1024, True, mode)
            if got[0] != alone[0] or got[1] != alone[1]:
                bad.append("+%d MiB: status %s, stdout %r, stderr %r" % (extra, got[0], got[1], got[2][:300]))
        ok(not bad, "ulimit -v from 2 to 32 MiB above the victim's own %d KiB: the %s call's result is "
           "unchanged at every 2 MiB step" % (hi, mode), "\n".join(bad))
# librwcheck.so dlmopen'ed into a namespace whose first module the
# program closes, a later module taking that module's link map: the
# library's bindings there read the later module's tables, never the
# closed one's (session 20: SIGSEGV in symscope.c find)
dlm = Run([os.path.join(BUILD, "tests", "victim_dlmopen"), LIB, os.path.join(BUILD, "tests", ".libs", "libnsa.so"),
           os.path.join(BUILD, "tests", ".libs", "libnsb.so")], preload=False,
          env={"GLIBC_TUNABLES": "glibc.rtld.optional_static_tls=1000000"})
ok(dlm.status == 0 and "result read 16" in dlm.stdout and "result pread 16" in dlm.stdout and
   "result writev 16" in dlm.stdout,
   "dlmopen'ed into a namespace whose first module is closed: the calls after it work", dlm.describe())

done()
