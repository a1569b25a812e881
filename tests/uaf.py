"""Issue 16: freed memory.  Every heap report names where its block was
allocated and, freed, where it was freed (sites on by default); the
quarantine (RWCHECK_QUARANTINE) holds freed blocks back from reuse, so a
read or write into one is a use-after-free, also for a large (mmapped)
block and for the old block of a realloc that moved.  A large block the
quarantine would not hold keeps its range reserved (PROT_NONE) once
freed, up to 64 blocks and 1 GiB, oldest out first: a use of it is a
use-after-free too, and many large frees leave the reserved address
space, the mappings and RSS flat.

tests/victim_uaf.c, one case per run: the bad call uses a freed block and
gives exactly one report (call, problem, bad bytes, caller's file:line,
both sites with their lines, how many frees ago); the good twin uses a
live block and gives none, with the result it has without the library.
A block freed and handed out again gives only its new owner's report;
threads freeing while others read give none; a fork child with a full
quarantine works and reports its own use-after-free; RWCHECK_QUARANTINE=0
behaves as before the quarantine (the block is reused at once)."""
import json
import os
import re
import subprocess
import tempfile

from rwctest import BUILD, Run, ok, done, check_report

PROG = os.path.join(BUILD, "tests", "victim_uaf")


def marks(r, what):
    """(function, line) of the victim's "WHAT FUNCTION LINE" lines."""
    return [(m.group(1), int(m.group(2))) for m in re.finditer(r"^%s (\S+) (\d+)$" % what, r.stdout, re.M)]


def block_of(r):
    m = re.search(r"^block (0x[0-9a-f]+)$", r.stdout, re.M)
    return int(m.group(1), 16) if m else 0


BIGQ = {"RWCHECK_QUARANTINE": "1048576"}


def clean(case, env=None):
    base = Run([PROG, case, "good"], preload=False)
    r = Run([PROG, case, "good"], env=env)
    ok(r.status == 0 and not r.reports and r.log == "", "%s good: no report" % case, r.describe())
    ok(r.results == base.results and r.results,
       "%s good: same result as without rwcheck (%s)" % (case, r.results), base.describe())
    return r


def site_ok(name, frames, want):
    f0 = (frames or [{}])[0]
    return ok(f0.get("function") == want[0] and f0.get("line") == want[1] and
              f0.get("file", "").endswith("victim_uaf.c"),
              "%s: at %s line %d" % (name, want[0], want[1]), frames)


def uaf(case, call, env=None, ago=True):
    """One use-after-free report of the case's call, both sites named."""
    r = Run([PROG, case, "bad"], env=env)
    name = "%s bad" % case
    check_report(r, name, call, "use-after-free", first=0, last=9)
    if not r.reports:
        return r
    rep = r.reports[0]
    reg = rep.get("region", {})
    lo = block_of(r)
    ok(reg.get("kind") == "freed-heap-block" and int(reg.get("start", "0"), 16) == lo,
       "%s: region freed-heap-block at 0x%x" % (name, lo), reg)
    site_ok(name + ": allocated_at", reg.get("allocated_at"), (marks(r, "alloc") or [("?", 0)])[-1])
    site_ok(name + ": freed_at", reg.get("freed_at"), (marks(r, "free") or [("?", 0)])[-1])
    if ago:
        n = 1 if ago is True else ago
        ok(reg.get("freed_ago") == n, "%s: freed %d free%s ago%s" %
           (name, n, "s" if n > 1 else "", " (the latest free)" if n == 1 else ""), reg)
    text = rep.get("text", "")
    a, f = marks(r, "alloc")[-1:], marks(r, "free")[-1:]
    ok(a and f and re.search(r"the block was allocated at:\n.*#0 0x[0-9a-f]+ in %s \S*victim_uaf\.c:%d\n" %
                             a[0], text) and
       re.search(r"the block was freed at( \(\d+ frees? ago\))?:\n.*#0 0x[0-9a-f]+ in %s \S*victim_uaf\.c:%d\n" %
                 f[0], text),
       "%s: the text names both sites" % name, text)
    base = Run([PROG, case, "bad"], preload=False)
    if case == "large_read" and env == BIGQ:
        # held by the quarantine, the freed block stays mapped: the call
        # succeeds where, unmapped at once by glibc, it fails with EFAULT
        ok(r.results == ["result 10 0"] and base.results == ["result -1 14"],
           "%s: result 10 (the block is held mapped; EFAULT without rwcheck)" % name, base.describe())
    else:
        ok(r.results == base.results, "%s: result unchanged (%s)" % (name, r.results), base.describe())
    return r


for case, call in (("small_read", "read"), ("small_write", "write"), ("large_read", "read"),
                   ("large_write", "write"), ("realloc_read", "read"), ("realloc_write", "write"),
                   ("aligned_write", "write")):
    # a large block is held only by a quarantine four times its size
    env = BIGQ if case.startswith("large") else None
    r = uaf(case, call, env=env)
    if case.startswith("realloc"):
        ok("moved 1" in r.stdout, "%s: the block moved" % case, r.describe())
    clean(case, env=env)

# Large blocks with the default quarantine (512 KiB: holds none of
# them): their ranges reserved, PROT_NONE.  The results are those
# without the library (a read into the freed range fails with EFAULT).
for case, call in (("large_read", "read"), ("large_write", "write"), ("huge_read", "read"),
                   ("large_realloc_read", "read"), ("large_realloc_write", "write")):
    r = uaf(case, call)
    if case.startswith("large_realloc"):
        ok("moved 1" in r.stdout, "%s: the block moved" % case, r.describe())
    if case.endswith("read"):
        ok(r.results == ["result -1 14"], "%s: EFAULT, as without the library" % case, r.describe())
    clean(case)

# Counted in frees: 20 frees after it (across the per-thread claims of
# ring slots), a block was freed 21 frees ago.
uaf("aged", "read", ago=21)
clean("aged")

# A block glibc gave without the library's wrappers is not held.
r = Run([PROG, "unrecorded", "good"])
ok(r.status == 0 and "again 1" in r.stdout and not r.reports,
   "a block the library did not see allocated is not held: glibc hands it out again at once", r.describe())
# A block larger than a quarter of the quarantine is not held: its range
# is reserved instead.
uaf("large_write", "write", env={"RWCHECK_QUARANTINE": "600000"})
# Without the heap check, no block is recorded nor reserved: unmapped at once.
r = Run([PROG, "large_write", "bad"], env={"RWCHECK_CHECKS": "-heap"})
check_report(r, "RWCHECK_CHECKS=-heap large_write bad", "write", "buf-unmapped", first=0, last=9)

# Many large frees: at most 64 reservations, the oldest given back to
# glibc (which unmaps them); the reserved bytes, the mappings and RSS stay
# flat from 200 frees to 400; a fork child goes on with the inherited ones.
def nums(r, what):
    m = re.search(r"^%s ([\d ]+)$" % what, r.stdout, re.M)
    return [int(x) for x in m.group(1).split()] if m else [0, 0, 0]


MIB = 1 << 20
r = clean("many_large")
res, mp, rss = nums(r, "reserved"), nums(r, "mappings"), nums(r, "rss")
ok(60 * MIB <= res[1] - res[0] <= 64 * (MIB + 4096),
   "many_large: 64 freed 1 MiB blocks reserved after 200 frees (%d bytes)" % (res[1] - res[0]), r.stdout)
ok(res[2] == res[1] and mp[2] <= mp[1] + 2,
   "many_large: 200 more frees reserve nothing more (%d -> %d bytes, %d -> %d mappings)" %
   (res[1], res[2], mp[1], mp[2]), r.stdout)
ok(rss[2] - rss[1] < 2048, "many_large: RSS flat (%d -> %d KiB)" % (rss[1], rss[2]), r.stdout)
ok("child status 0" in r.stdout, "many_large: a fork child frees 100 more with the inherited reservations",
   r.stdout)
uaf("many_large", "write")
r = clean("many_large", env={"RWCHECK_QUARANTINE": "0"})
res = nums(r, "reserved")
ok(res[1] == res[0] == res[2], "RWCHECK_QUARANTINE=0: nothing reserved", r.stdout)

# The budget: 40 freed blocks of 64 MiB, at most 1 GiB reserved.
r = clean("budget")
res = nums(r, "reserved")
ok(900 * MIB <= res[1] - res[0] <= 1024 * MIB,
   "budget: 40 x 64 MiB freed, %d MiB reserved (at most 1 GiB)" % ((res[1] - res[0]) // MIB), r.stdout)
uaf("budget", "write")

# A freed block's range unmapped and mapped again by the program: its
# memory, never reported nor taken back when the reservations move on.
r = clean("remapped")
ok("remapped 1 intact 1" in r.stdout, "remapped: the program's new mapping is left intact", r.describe())
r = Run([PROG, "remapped", "bad"])
ok(r.status == 0 and not r.reports and "intact 1" in r.stdout, "remapped bad: no report", r.describe())

# Threads freeing large blocks while others read into theirs.
clean("large_threads")
r = Run([PROG, "large_threads", "bad"])
ok(r.status == 0 and len(r.reports) == 1 and r.reports[0].get("problem") == "use-after-free",
   "large_threads bad: after 4 threads x 300 large malloc/read/write/free, one report: the real one",
   r.describe())

# A repeated free of a held small block and of a reserved large one
# (PROT_NONE header): ignored, no crash, no report; the small block still
# reads as freed (its free site the first free).  Without the library
# glibc aborts: no comparison.
r = Run([PROG, "double_free", "good"])
ok(r.status == 0 and "double_free survived" in r.stdout and not r.reports and r.log == "",
   "double_free good: repeated frees ignored, no crash, no report", r.describe())
r = Run([PROG, "double_free", "bad"])
check_report(r, "double_free bad", "read", "use-after-free", first=0, last=9)
ok(r.status == 0 and "double_free survived" in r.stdout and len(r.reports) == 1,
   "double_free bad: the read of the twice-freed block is the one report", r.describe())
if r.reports:
    reg = r.reports[0].get("region", {})
    site_ok("double_free bad: freed_at", reg.get("freed_at"), (marks(r, "free") or [("?", 0)])[-1])

# Freed, held, given back, handed out again: only the new owner's block.
r = clean("reused")
ok(re.search(r"^reused 1 after [1-9]\d+$", r.stdout, re.M),
   "reused good: the block came back only after the quarantine let it go", r.stdout)
r = Run([PROG, "reused", "bad"])
check_report(r, "reused bad", "write", "heap-overflow", first=100, last=100)
ok(r.reports and r.reports[0].get("region", {}).get("kind") == "heap-block" and
   r.reports[0]["region"].get("allocated_at"),
   "reused bad: the new owner's live block, with its allocation site", r.describe())

# Threads: no false report, no crash; a real one still found after them.
clean("threads")
r = Run([PROG, "threads", "bad"])
ok(r.status == 0 and len(r.reports) == 1 and r.reports[0].get("problem") == "use-after-free",
   "threads bad: after 4 threads x 20000 malloc/read/write/free, one report: the real use-after-free",
   r.describe())

# fork with a full quarantine: the child works and reports its own.
r = Run([PROG, "fork", "bad"])
m = re.search(r"^child (\d+) status (\d+)$", r.stdout, re.M)
ok(r.status == 0 and m and m.group(2) == "0", "fork: the child with the inherited quarantine exits 0",
   r.describe())
ok(m and len(r.reports) == 1 and r.reports[0].get("pid") == int(m.group(1)) and
   r.reports[0].get("problem") == "use-after-free" and r.reports[0]["region"].get("freed_at"),
   "fork: the child's use-after-free reported, with its free site", r.describe())

# RWCHECK_QUARANTINE=0: as before the quarantine.
Q0 = {"RWCHECK_QUARANTINE": "0"}
r = clean("reused", env=Q0)
ok(re.search(r"^reused 1 after 0$", r.stdout, re.M),
   "RWCHECK_QUARANTINE=0: the next malloc gets the freed block back at once", r.stdout)
uaf("small_write", "write", env=Q0, ago=False)
r = Run([PROG, "small_write", "bad"], env=Q0)
ok(r.reports and "freed_ago" not in r.reports[0].get("region", {}),
   "RWCHECK_QUARANTINE=0: no count of frees (no quarantine holds it)", r.describe())
for case, call in (("large_write", "write"), ("large_read", "read")):
    r = Run([PROG, case, "bad"], env=Q0)
    check_report(r, "RWCHECK_QUARANTINE=0 %s bad" % case, call, "buf-unmapped", first=0, last=9)
# RWCHECK_HEAP_ORIGINS=0: no sites.
r = Run([PROG, "small_write", "bad"], env={"RWCHECK_HEAP_ORIGINS": "0"})
ok(r.reports and r.reports[0].get("problem") == "use-after-free" and
   "allocated_at" not in r.reports[0].get("region", {}) and "freed_at" not in r.reports[0].get("region", {}),
   "RWCHECK_HEAP_ORIGINS=0: use-after-free without sites", r.describe())
# Traces: RWCHECK_HEAP_ORIGINS=4, both traces.
r = Run([PROG, "small_write", "bad"], env={"RWCHECK_HEAP_ORIGINS": "4"})
reg = r.reports[0].get("region", {}) if r.reports else {}
fa, ff = reg.get("allocated_at") or [], reg.get("freed_at") or []
ok(len(fa) >= 2 and len(ff) >= 2 and fa[0].get("function") == "freed" and fa[1].get("function") == "c_small_write"
   and ff[0].get("function") == "freed" and ff[1].get("function") == "c_small_write",
   "RWCHECK_HEAP_ORIGINS=4: allocation and free traces", reg)
# Traces from deep frames, taken after the heap grew (the walk reads the
# stack the map view vouches for: news of the grown heap keeps it current),
# and from threads that churn while traced.
want = ["freed", "deep_leaf", "deep_d", "deep_c", "deep_b", "deep_a", "c_deep", "main"]
for q in ("default", "0"):  # without the quarantine every free sees the heap top move
    e = {"RWCHECK_HEAP_ORIGINS": "12"}
    if q != "default":
        e["RWCHECK_QUARANTINE"] = q
    clean("deep", env=e)
    r = Run([PROG, "deep", "bad"], env=e)
    reg = r.reports[0].get("region", {}) if r.reports else {}
    for key in ("allocated_at", "freed_at"):
        names = [f.get("function") for f in reg.get(key) or []]
        ok(names[:len(want)] == want, "RWCHECK_HEAP_ORIGINS=12 RWCHECK_QUARANTINE=%s deep: %s is the whole chain %s"
           % (q, key, want), names)
# A trimmed heap leaves the view stale: the walk cannot vouch for the
# stack and backtrace() takes over (the chain stays whole).
e = {"RWCHECK_HEAP_ORIGINS": "12", "RWCHECK_QUARANTINE": "0"}
clean("deep_trimmed", env=e)
r = Run([PROG, "deep_trimmed", "bad"], env=e)
reg = r.reports[0].get("region", {}) if r.reports else {}
wantt = ["freed"] + want[1:6] + ["c_deep_trimmed", "main"]
for key in ("allocated_at", "freed_at"):
    names = [f.get("function") for f in reg.get(key) or []]
    ok(names[:len(wantt)] == wantt, "RWCHECK_HEAP_ORIGINS=12 after a trim: %s is the whole chain" % key, names)
clean("threads", env={"RWCHECK_HEAP_ORIGINS": "8"})
r = Run([PROG, "threads", "bad"], env={"RWCHECK_HEAP_ORIGINS": "8"})
ok(r.status == 0 and len(r.reports) == 1 and len((r.reports[0].get("region") or {}).get("freed_at") or []) >= 3,
   "RWCHECK_HEAP_ORIGINS=8 threads bad: four threads traced while churning, one report with its free trace",
   r.describe())

# The wrapper: summary, SARIF and suppressions know use-after-free.
WRAP = os.path.join(BUILD, "rwcheck")
env = {k: v for k, v in os.environ.items() if not k.startswith("RWCHECK_")}
with tempfile.TemporaryDirectory() as d:
    sarif = os.path.join(d, "run.sarif")
    p = subprocess.run([WRAP, "--sarif=" + sarif, "--", PROG, "small_write", "bad"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    ok(p.returncode == 1 and re.search(r"^rwcheck:   1 x use-after-free in write\(\) at io \(\S*victim_uaf\.c:\d+\)",
                                       p.stderr, re.M),
       "wrapper: exit 1, the summary counts the use-after-free by its call site", p.stderr)
    try:
        res = json.load(open(sarif))["runs"][0]["results"]
    except (OSError, ValueError, KeyError, IndexError):
        res = []
    ok(len(res) == 1 and res[0].get("ruleId") == "use-after-free", "wrapper: SARIF result use-after-free", res)
    supp = os.path.join(d, "uaf.supp")
    with open(supp, "w") as f:
        f.write("{\n   a known use-after-free\n   rwcheck:use-after-free\n   fun:io\n   fun:freed\n}\n")
    p = subprocess.run([WRAP, "--suppressions=" + supp, "--", PROG, "small_write", "bad"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    ok(p.returncode == 0 and "use-after-free in write" not in p.stderr and "suppressed" in p.stderr and
       "warning" not in p.stderr,
       "wrapper: a rwcheck:use-after-free suppression silences it (exit 0, counted as suppressed)", p.stderr)
done()
