"""Bad calls as real programs make them, and their clean twins.

tests/realbugs/NN_*.c were written by an independent tester from the
issues' descriptions alone (a 64 KiB I/O buffer read at an offset, struct
members, neighbouring locals, arrays of structs, a library's globals, a
buffer passed down, realloc, calloc, the aligned allocators, epoll_wait,
poll, select, getsockopt, accept, readlink, getcwd, recvfrom, freed
blocks, the vector and positional calls, the capacity calls, stdio,
syscall(), threads, fork, dlopen...).  Each marks its bad calls with
/*BAD call=... problem=... kind=... name=... size=... arg=...*/ and builds
its clean twin with -DCLEAN; a short transfer keeps every bad run going.

Every program is built four ways (-O0 -g; -O2 -g; -O2 -g
-D_FORTIFY_SOURCE=2; -O2 without DWARF, non-PIE) and run without and
with the library.  Each run's verdict line (each marked call matched to
its report by caller line, with whatever differs from the mark; reports
left over; whether the output and exit status are the same) must equal
the one in tests/realbugs/expected.txt, which also records what is known
to be missed (no DWARF: by the frame; a handler's first look at a module's
globals; a tail call's caller) and the quarantine's realloc placement.
A program whose plain run exits 2 could not set itself up here (a
message queue, SysV IPC): skipped.  To accept a change of verdicts:
RWC_REALBUGS_WRITE=1 rewrites expected.txt (review its diff)."""
import functools
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

from rwctest import BUILD, LIB, SRC, ok, skip, done

SRCDIR = os.path.join(SRC, "tests", "realbugs")
BIN = os.path.join(BUILD, "tests", "realbugs-bin")
EXPECTED = os.path.join(SRCDIR, "expected.txt")
CC = os.environ.get("CC", "gcc").split()
BUILDS = {
    "O0g": ["-O0", "-g"],
    "O2g": ["-O2", "-g"],
    "fort": ["-O2", "-g", "-D_FORTIFY_SOURCE=2"],
    "nog": ["-O2", "-no-pie", "-fno-pie"],
}
VARS = ("bad", "clean")
WARN = ["-w", "-U_FORTIFY_SOURCE"]


@functools.lru_cache(maxsize=None)
def source(fn):
    """The text of tests/realbugs/FN."""
    with open(os.path.join(SRCDIR, fn)) as f:
        return f.read()


def build(job):
    """Builds program NAME for BUILD and VAR: None, or what failed."""
    name, b, var = job
    d = os.path.join(BIN, "%s-%s" % (b, var))
    src = os.path.join(SRCDIR, name + ".c")
    flags = WARN + BUILDS[b] + (["-DCLEAN"] if var == "clean" else [])
    text = source(name + ".c")
    libflags = [f for f in flags if f not in ("-no-pie", "-fno-pie")]
    cmds, extra = [], []
    if "LIB: libstore.c" in text:
        cmds.append(CC + libflags + ["-fPIC", "-shared", "-o", os.path.join(d, "libstore.so"),
                                     os.path.join(SRCDIR, "libstore.c")])
        extra = ["-L" + d, "-lstore", "-Wl,-rpath," + d]
    if "DL: libstore.c" in text:
        cmds.append(CC + libflags + ["-fPIC", "-shared", "-o", os.path.join(d, "libstore_dl.so"),
                                     os.path.join(SRCDIR, "libstore.c")])
    cmds.append(CC + flags + ["-o", os.path.join(d, name), src, "-lpthread", "-lrt"] + extra)
    for c in cmds:
        r = subprocess.run(c, capture_output=True, text=True)
        if r.returncode:
            return " ".join(c) + "\n" + r.stderr[-1500:]
    return None


def run(job, work):
    """Runs the build of JOB plainly and with the library, in WORK."""
    name, b, var = job
    exe = os.path.join(BIN, "%s-%s" % (b, var), name)
    logs = os.path.join(work, "logs")
    env0 = {k: v for k, v in os.environ.items() if not k.startswith(("LD_PRELOAD", "RWCHECK_"))}
    r0 = subprocess.run([exe], cwd=work, capture_output=True, env=env0, timeout=120)
    tag = "%s.%s.%s" % (name, b, var)
    env1 = dict(env0, LD_PRELOAD=LIB, RWCHECK_FORMAT="json", RWCHECK_LOG=os.path.join(logs, tag + ".%p.log"))
    r1 = subprocess.run([exe], cwd=work, capture_output=True, env=env1, timeout=120)
    reps = []
    for f in sorted(glob.glob(os.path.join(logs, tag + ".*.log"))):
        for line in open(f, errors="replace"):
            if line.strip():
                try:
                    reps.append(json.loads(line))
                except ValueError:
                    reps.append({"unparsable": line.strip()})
    return dict(name=name, build=b, var=var, rc0=r0.returncode, rc1=r1.returncode,
                same=r0.stdout == r1.stdout and r0.returncode == r1.returncode, reports=reps)


def markers(name):
    """The marked bad calls of NAME (and of libstore.c when it uses it)."""
    files = [name + ".c"]
    if "LIB: libstore.c" in source(name + ".c"):
        files.append("libstore.c")
    ms = []
    for fn in files:
        for i, line in enumerate(source(fn).splitlines(), 1):
            m = re.search(r"/\*BAD ([^*]*)\*/", line)
            if m:
                kv = dict(x.split("=", 1) for x in m.group(1).split())
                kv["line"], kv["file"] = i, fn
                ms.append(kv)
    return ms


def brief(r):
    """A report in one line: call, problem, object, argument, caller."""
    reg = r.get("region", {})
    fr = (r.get("frames") or [{}])[0]
    if fr.get("file"):
        loc = "%s:%s" % (os.path.basename(fr["file"]), fr.get("line", "?"))
    else:
        loc = "%s@%s" % (fr.get("function", "?"), os.path.basename(fr.get("module", "?")))
    s = "%s%s/%s %s" % (r.get("call"), "(%s)" % r["syscall"] if r.get("syscall") else "", r.get("problem"),
                        reg.get("kind"))
    for k, label in (("name", "name"), ("size", "size"), ("compiler_size", "csize")):
        if k in reg and (k != "name" or reg[k]):
            s += " %s=%s" % (label, reg[k])
    if r.get("arg"):
        s += " arg=%s" % r["arg"]
    return s + " @" + loc


def matches(m, r):
    """What of report R differs from mark M (empty: none)."""
    reg, call = r.get("region", {}), r.get("call", "")
    diffs = []
    if call not in (m["call"], "__%s_chk" % m["call"], m["call"] + "64", "__%s64_chk" % m["call"]):
        diffs.append("call=%s" % call)
    if r.get("problem") != m.get("problem"):
        diffs.append("problem=%s" % r.get("problem"))
    for k in ("kind", "name"):
        if k in m and reg.get(k) != m[k]:
            diffs.append("%s=%s" % (k, reg.get(k)))
    if "size" in m and str(reg.get("size")) != m["size"]:
        diffs.append("size=%s" % reg.get("size"))
    if "arg" in m and r.get("arg") != m["arg"]:
        diffs.append("arg=%s" % r.get("arg"))
    fr = (r.get("frames") or [{}])[0]
    if fr.get("line") is None:
        diffs.append("noline")
    elif (os.path.basename(fr.get("file", "")), fr.get("line")) != (m["file"], m["line"]):
        diffs.append("line=%s:%s" % (os.path.basename(fr.get("file", "")), fr.get("line")))
    return diffs


def verdict(c):
    """The verdict block of one run: its header line, then one per mark
    and per report left over."""
    reps = [r for r in c["reports"] if "problem" in r and "repeat" not in r]  # (not the repeat counts at exit)
    head = "%s %s %s n=%d rc=%s/%s %s" % (c["name"], c["build"], c["var"], len(reps), c["rc0"], c["rc1"],
                                        "same" if c["same"] else "DIFFERENT")
    lines, used = [head], set()
    for m in (markers(c["name"]) if c["var"] == "bad" else []):
        hit = None
        for j, r in enumerate(reps):  # by the caller's line, else by problem and call
            fr = (r.get("frames") or [{}])[0]
            if j not in used and (os.path.basename(fr.get("file", "")), fr.get("line")) == (m["file"], m["line"]):
                hit = j
                break
        for j, r in enumerate(reps):
            if hit is None and j not in used and r.get("problem") == m.get("problem") and \
                    m["call"].replace("syscall", "") in (r.get("call") or "") + (r.get("syscall") or ""):
                hit = j
                break
        if hit is None:
            lines.append("  L%d MISSING" % m["line"])
            continue
        used.add(hit)
        d = matches(m, reps[hit])
        lines.append("  L%d %s :: %s" % (m["line"], "OK" if not d else "DIFF[%s]" % ",".join(d), brief(reps[hit])))
    lines += ["  EXTRA :: " + brief(r) for j, r in enumerate(reps) if j not in used]
    return lines


def main():
    names = sorted(os.path.basename(s)[:-2] for s in glob.glob(os.path.join(SRCDIR, "[0-9]*.c")))
    jobs = [(n, b, v) for n in names for b in BUILDS for v in VARS]
    for b in BUILDS:
        for v in VARS:
            os.makedirs(os.path.join(BIN, "%s-%s" % (b, v)), exist_ok=True)
    with ThreadPoolExecutor(2) as ex:
        failed = [(j, e) for j, e in zip(jobs, ex.map(build, jobs)) if e]
    ok(not failed, "all %d programs built" % len(jobs), "\n".join("%s: %s" % f for f in failed[:5]))
    work = tempfile.mkdtemp(prefix="rwcrb")  # short: getcwd's 64-byte buffer holds it
    try:
        os.mkdir(os.path.join(work, "logs"))
        os.mkdir(os.path.join(work, "emptydir"))
        with open(os.path.join(work, "two.txt"), "w") as f:
            f.write("hi")
        os.symlink("two.txt", os.path.join(work, "lnk"))
        with ThreadPoolExecutor(2) as ex:
            broken = {f[0] for f in failed}
            res = list(ex.map(lambda j: run(j, work), [j for j in jobs if j not in broken]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    got = {(c["name"], c["build"], c["var"]): (c, verdict(c)) for c in res}
    if os.environ.get("RWC_REALBUGS_WRITE"):
        with open(EXPECTED, "w") as f:
            for j in jobs:
                if j in got:
                    f.write("\n".join(got[j][1]) + "\n")
    want, cur = {}, None
    for line in open(EXPECTED):
        if not line.startswith(" "):
            cur = tuple(line.split()[:3])
            want[cur] = []
        want[cur].append(line.rstrip("\n"))
    for j in jobs:
        what = "%s %s %s" % j
        if j not in got:
            continue
        c, lines = got[j]
        if c["rc0"] == 2:
            skip(what, "the program could not set itself up here (plain run exited 2)")
        else:
            ok(lines == want.get(j), "%s: %s" % (what, lines[0].split(" ", 3)[3]),
               "want:\n" + "\n".join(want.get(j, ["(none)"])) + "\ngot:\n" + "\n".join(lines))
    done()


main()
