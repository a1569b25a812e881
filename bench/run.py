"""make bench: every workload with and without librwcheck.so, alternating
in one run; medians of repeated samples; a table with the ratio per line.

  python3 bench/run.py [--samples N] [--quick] [--cpu N] [--only WORD]"""
import argparse
import os
import shutil
import tempfile
import statistics
import subprocess
import sys
import time

BUILD = os.environ.get("RWC_BUILDDIR", ".")
LIB = os.environ.get("RWC_LIB", os.path.join(BUILD, "src", ".libs", "librwcheck.so"))
BENCH = os.path.join(BUILD, "bench", "rwbench")
BENCH_NODW = os.path.join(BUILD, "bench", "rwbench-nodw")  # the same, debug info stripped
EMPTY = os.path.join(BUILD, "bench", "libempty.so")

# name, how it is measured, target ratio: issue 17's (with the default
# checks), issue 4's where 17 names none (mmap churn); process start and
# the shell loop are judged against the empty library's ratio measured in
# the same run (OVER_EMPTY times it)
OVER_EMPTY = 1.03
LINES = [
    ("read 1 B (/dev/zero)", ["read1", 300000], 1.05),
    ("read 4 KiB", ["read4k", 200000], 1.03),
    ("read 64 KiB", ["read64k", 30000], 1.03),
    ("write 1 B (/dev/null)", ["write1", 300000], 1.05),
    ("pread 4 KiB (cached file)", ["pread4k", 100000], 1.03),
    ("readv 16 x 256 B", ["readv16", 100000], 1.05),
    ("2 threads, 1 B reads", ["threads2", 300000], 1.05),
    ("mmap churn (64 KiB)", ["mmapchurn", 30000], 1.25),
    ("many maps (20,000), 1 B reads", ["manymaps", 500000], 1.08),
    ("process start (posix_spawn /bin/true)", ["spawn", 200], None),
    # where real programs put their buffers (issue 17's targets)
    ("read 1 B deep inside a 128 KiB block", ["heapmid", 300000], 1.05),
    ("write 1 B from the start of that block", ["heapwrite1", 300000], 1.05),
    ("readv 16 x 256 B inside one 128 KiB block", ["readvblock", 100000], 1.05),
    ("readv 16 separate 256 B blocks", ["readvsep", 100000], 1.05),
    ("malloc 64 B, read 1 B into it, free", ["freshread", 300000], 1.05),
    ("read 1 B into a 64 B global", ["globalread", 300000], 1.05),
    ("read 1 B into a stack variable", ["stackread", 300000], 1.05),
    # the calls that hand the kernel a capacity (issue 15), nothing ready
    ("epoll_wait, 64 events, empty set", ["epollwait", 300000], 1.05),
    ("poll, 4 fds, none ready", ["poll4", 300000], 1.05),
    ("select, 1 fd, none ready", ["select1", 300000], 1.05),
]

# Lines whose noise here is large next to what the library adds get more
# pairs: their median ratio is what the target is judged on.  Process
# start and the shell loop vary by a few percent between moments of this
# shared machine (an empty preloaded library reads 1.04-1.11 on the shell
# loop with 22 pairs); a per-call line's paired ratios by a few percent
# when the library adds well under one (read 64 KiB, pread).
MORE_PAIRS = {"spawn": 3, "loop": 4}
MORE_PAIRS_PER_CALL = 2

# Lines whose cost depends on where a new mapping falls in the kernel's
# tree of mappings (rwbench.c, RWBENCH_PAD): pair i runs with i % n extra
# mappings on both sides, so the line is not one layout's luck.
LAYOUTS = {"mmapchurn": 4}


# The bounds checks (issue 6): each workload without the library, with
# the library and the check off, and with it on; the target (issue 14) is
# on the ratio with it on to without the library; the program, where not
# rwbench.
CHECK_LINES = [
    ("malloc+free, 16 B..4 KiB (no I/O)", ["mallocs", 2000000], "heap", None),
    ("read 1 B into a heap block", ["heapread", 300000], "heap", None),
    ("read 1 B into a stack buffer", ["stackread", 300000], "stack", 1.05),
    ("read 1 B into a global", ["globalread", 300000], "global", 1.05),
    ("process start + 1 read into a global", ["spawnglobal", 100], "global", None),
    ("process start + 1 read into a stack buffer", ["spawnone", 100], "stack", None),
    ("process start + 1 read into a stack buffer, no DWARF", ["spawnone", 100], "stack", 1.15, BENCH_NODW),
    # the same with DWARF, the call site read back from the call-site
    # cache (RWCHECK_CACHE, as the wrapper sets it: the first spawn writes it)
    ("process start + 1 read into a stack buffer, DWARF, call-site cache", ["spawnone", 100], "stackcache", None),
    # issue 16: the default sites ("sites": on/off is the target, off =
    # the library without them, RWCHECK_HEAP_ORIGINS=0, the quarantine as
    # by default on both sides); the quarantine's own cost, no target
    ("malloc+free pair, 16 B", ["pair16", 2000000], "sites", 1.10),
    ("malloc+free pair, 256 B", ["pair256", 2000000], "sites", 1.10),
    ("malloc+free pair, 4 KiB", ["pair4k", 2000000], "sites", 1.10),
    ("malloc+free pair, 16 B", ["pair16", 2000000], "quarantine", None),
    # allocation traces (RWCHECK_HEAP_ORIGINS=8 against the call sites, 16
    # frames down): what a full stack costs, no target
    ("malloc+free pair, 16 frames down, 8-frame traces", ["pairdeep", 200000], "traces", None),
    ("malloc+free pair, 256 B", ["pair256", 2000000], "quarantine", None),
]
# The "check off" side of issue 16's lines.
OFF = {"sites": {"RWCHECK_HEAP_ORIGINS": "0"}, "quarantine": {"RWCHECK_QUARANTINE": "0"},
       "traces": {"RWCHECK_HEAP_ORIGINS": "1"}, "stackcache": {"RWCHECK_CHECKS": "-stack"}}
SITE_CACHE = tempfile.mkdtemp(prefix="rwbench-sites-")
ON = {"traces": {"RWCHECK_HEAP_ORIGINS": "8"}, "stackcache": {"RWCHECK_CHECKS": "+stack", "RWCHECK_CACHE": SITE_CACHE}}
# The library without either (python3's peak RSS line).
SITES_OFF = {"RWCHECK_HEAP_ORIGINS": "0", "RWCHECK_QUARANTINE": "0"}


def on_off(check):
    """The knobs of a check line's two library runs: on, off."""
    if check in OFF:
        return ON.get(check, {}), OFF[check]
    return {"RWCHECK_CHECKS": "+" + check}, {"RWCHECK_CHECKS": "-" + check}
# Whole programs for the same comparison (wall time).
CHECK_PROGRAMS = [
    ("sort of 1 MB of text (malloc-heavy)", "sort {data} >/dev/null", "heap"),
    ("python3 building 10^5 small objects", "python3 -c 'x=[dict(a=i) for i in range(100000)]'", "heap"),
    ("sort of 1 MB, sites", "sort {data} >/dev/null", "sites", 1.05),
    ("python3 10^5 objects, sites", "python3 -c 'x=[dict(a=i) for i in range(100000)]'", "sites", 1.05),
    ("sort of 1 MB, quarantine", "sort {data} >/dev/null", "quarantine", None),
]
# Peak RSS of python3 (issue 16: <= +10% with the default quarantine).
PY_RSS = "import json, resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"


def env(preload):
    """preload: False (nothing), True (librwcheck.so), a library path, or
    a dict of RWCHECK_* knobs (librwcheck.so with them)."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("RWCHECK_") and k != "LD_PRELOAD"}
    if preload is True or isinstance(preload, dict):
        e["LD_PRELOAD"] = LIB
        e["RWCHECK_LOG"] = "/dev/null"
        if isinstance(preload, dict):
            e.update(preload)
    elif preload:
        e["LD_PRELOAD"] = preload
    return e


# The per-call lines run on one CPU (--cpu; the last one by default), so
# that the two sides of a pair never differ by where the scheduler put
# them: unpinned, a 16-segment readv here reads 500 ns in one run and 780
# ns in the next.  Not pinned: the two-thread line (it pins its threads),
# and what starts processes (process start, the whole programs), whose
# cost includes how the kernel spreads parent and children over the CPUs
# (pinned to one, the shell loop costs both libraries ~3% more).
PIN = None
UNPINNED = ("threads2", "spawn", "spawnone", "spawnglobal")


def pinned(args):
    if PIN is None or args[0] in UNPINNED:
        return None
    return lambda: os.sched_setaffinity(0, PIN)


def micro(args, preload, pad=0, prog=None):
    e = env(preload)
    e["RWBENCH_PAD"] = str(pad)
    out = subprocess.run([prog or BENCH] + [str(a) for a in args], env=e, preexec_fn=pinned(args),
                         stdout=subprocess.PIPE, check=True).stdout
    return float(out.split()[-1])


def wall(cmd, preload):
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env(preload), shell=True, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - t0) * 1e9


def peak_rss_kib(preload, i=0):
    return micro(["small"], preload)  # VmHWM of the program itself


def py_rss_kib(preload, i=0):
    """python3's own peak (the interpreter itself, not a launcher that
    execs it: ru_maxrss outlives exec), with the default sites and
    quarantine (preload True) or the library without them."""
    global PYTHON
    if PYTHON is None:
        PYTHON = subprocess.run(["python3", "-c", "import sys; print(sys.executable)"],
                                stdout=subprocess.PIPE, check=True, text=True).stdout.strip()
    out = subprocess.run([PYTHON, "-c", PY_RSS], env=env({} if preload else SITES_OFF),
                         stdout=subprocess.PIPE, check=True).stdout
    return float(out.split()[-1])


PYTHON = None


def measure(fn, samples):
    """Medians of the samples without and with, and the median of the
    ratios of the paired samples: each pair runs back to back, so a noisy
    moment of this shared machine weighs on both sides of its ratio."""
    a, b = [], []
    for i in range(samples):  # alternate, and swap the order each time
        if i % 2:
            b.append(fn(True, i))
            a.append(fn(False, i))
        else:
            a.append(fn(False, i))
            b.append(fn(True, i))
    ratio = statistics.median(y / x for x, y in zip(a, b) if x)
    return statistics.median(a), statistics.median(b), ratio


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=11)
    ap.add_argument("--quick", action="store_true", help="fewer iterations (a smoke run)")
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)),
                    help="the CPU the per-call lines run on (-1: not pinned)")
    ap.add_argument("--only", help="only the lines whose name has this word (no shell loop, dd, RSS)")
    o = ap.parse_args()
    want = (lambda name: o.only in name) if o.only else (lambda name: True)
    global PIN
    PIN = None if o.cpu < 0 else {o.cpu}
    scale = 10 if o.quick else 1
    rows = []
    for name, args, target in LINES:
        if not want(name):
            continue
        a = [args[0], max(1, args[1] // scale)]
        n = LAYOUTS.get(args[0], 1)
        base, lib, ratio = measure(lambda p, i: micro(a, p, i % n),
                                   o.samples * MORE_PAIRS.get(args[0], MORE_PAIRS_PER_CALL))
        rows.append((name, base, lib, ratio, target, "ns/op"))
    # The floor: a preloaded library that does nothing, on process start
    # (and, below, on the shell loop).
    if os.path.exists(EMPTY) and want("reference: empty preload, process start"):
        a = ["spawn", max(1, 200 // scale)]
        base, lib, ratio = measure(lambda p, i: micro(a, EMPTY if p else False), o.samples * MORE_PAIRS["spawn"])
        rows.append(("  reference: empty preload, process start", base, lib, ratio, None, "ns/op"))
        over_empty(rows, "process start", ratio)
    loop = "i=0; while [ $i -lt %d ]; do /bin/true; i=$((i+1)); done" % (1000 // scale)
    loop_pairs = o.samples * MORE_PAIRS["loop"]
    if o.only:
        return report(o, rows, None, checks_of(o, scale, want))
    base, lib, ratio = measure(lambda p, i: wall(loop, p), loop_pairs)
    rows.append(("shell loop of %d processes" % (1000 // scale), base / 1e6, lib / 1e6, ratio, None, "ms"))
    dd = "dd if=/dev/zero of=/dev/null bs=1 count=%d" % (400000 // scale)
    base, lib, ratio = measure(lambda p, i: wall(dd, p), o.samples)
    rows.append(("dd bs=1 of %d kB" % (400 // scale), base / 1e6, lib / 1e6, ratio, 1.10, "ms"))
    if os.path.exists(EMPTY):
        base, lib, ratio = measure(lambda p, i: wall(loop, EMPTY if p else False), loop_pairs)
        rows.append(("  reference: empty preload, shell loop", base / 1e6, lib / 1e6, ratio, None, "ms"))
        over_empty(rows, "shell loop", ratio)
    rss = measure(peak_rss_kib, 3)
    rows.append(("python3 import json RSS vs no sites+q",) + measure(py_rss_kib, 3)
                + (1.10, "KiB"))
    return report(o, rows, rss, checks_of(o, scale, want))


def over_empty(rows, start, ref):
    """The target of the row whose name starts with START: OVER_EMPTY times
    the empty library's ratio REF of the same run."""
    for i, r in enumerate(rows):
        if r[0].startswith(start):
            rows[i] = r[:4] + (round(OVER_EMPTY * ref, 3),) + r[5:]


def checks_of(o, scale, want):
    checks = []
    for name, args, check, target, *prog in CHECK_LINES:
        if not want(name):
            continue
        a = [args[0], max(1, args[1] // scale)]
        on, off = on_off(check)
        prog = prog[0] if prog else None
        # lines that start processes: as many pairs as process start
        n = o.samples * (MORE_PAIRS["spawn"] if args[0] in UNPINNED else 1)
        base, lib, r_none = measure(lambda p, i: micro(a, on if p else False, prog=prog), n)
        off_t, _, r_off = measure(lambda p, i: micro(a, on if p else off, prog=prog), n)
        checks.append((name, check, base, off_t, lib, r_none, r_off, target))
    progs = [p for p in CHECK_PROGRAMS if want(p[0])]
    if not progs:
        return checks
    data = "/tmp/rwbench-sort.txt"
    with open(data, "w") as fh:
        fh.write("\n".join(os.urandom(24).hex() for _ in range(1 << 15 >> (3 if o.quick else 0))))
    for name, cmd, check, *target in progs:
        cmd = cmd.format(data=data)
        on, off = on_off(check)
        n = max(3, o.samples // 2)
        base, lib, r_none = measure(lambda p, i: wall(cmd, on if p else False), n)
        off_t, _, r_off = measure(lambda p, i: wall(cmd, on if p else off), n)
        checks.append((name, check, base / 1e6, off_t / 1e6, lib / 1e6, r_none, r_off, target[0] if target else None))
    os.unlink(data)
    return checks


def report(o, rows, rss, checks):
    print("%-40s %12s %12s %7s %7s" % ("line", "without", "with", "ratio", "target"))
    failed = 0
    for name, base, lib, ratio, target, unit in rows:
        mark = "" if target is None or ratio <= target else "  MISSED"
        failed += bool(mark)
        print("%-40s %9.1f %-2s %9.1f %-2s %7.3f %7s%s" % (name, base, unit, lib, unit, ratio,
                                                          "%.2f" % target if target else "-", mark))
    if rss:
        over = (rss[1] - rss[0]) / 1024.0
        mark = "" if over <= 2.0 else "  MISSED"
        failed += bool(mark)
        print("%-40s %8.0f KiB %9.0f KiB %+6.2f MiB (target <= +2 MiB)%s" % (
            "peak RSS of a small program", rss[0], rss[1], over, mark))
    print()
    # the target is on on/none; for the "sites" lines on on/off (vs the library without them)
    print("%-44s %6s %10s %10s %10s %8s %8s %7s" % ("cost of the bounds checks", "check", "without",
                                                     "check off", "check on", "on/none", "on/off", "target"))
    for name, check, base, off_t, lib, r_none, r_off, target in checks:
        unit = "ms" if name.startswith(("sort", "python3")) else "ns"
        judged = r_off if check == "sites" else r_none  # sites: vs the library without them
        mark = "" if target is None or judged <= target else "  MISSED"
        failed += bool(mark)
        print("%-44s %6s %7.1f %s %7.1f %s %7.1f %s %8.3f %8.3f %7s%s" % (
            name, check, base, unit, off_t, unit, lib, unit, r_none, r_off,
            "%.2f" % target if target else "-", mark))
    print("samples per line: %d (per-call lines x%d, process start and the check lines that start"
          " processes x%d, shell loop x%d), with/without"
          " back to back in alternating order, per-call lines on CPU %s; times are medians, ratio the"
          " median of the paired ratios; %d line(s) missed"
          % (o.samples, MORE_PAIRS_PER_CALL, MORE_PAIRS["spawn"], MORE_PAIRS["loop"],
             "(any)" if PIN is None else o.cpu, failed))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        shutil.rmtree(SITE_CACHE, ignore_errors=True)
