"""rwctest: helpers for the TAP test scripts.

Runs the victim program with and without librwcheck.so, collects its
"site"/"result" lines and the JSON reports, and prints TAP."""
import json
import os
import re
import resource
import subprocess
import sys
import tempfile

LIB = os.environ.get("RWC_LIB", "")
BUILD = os.environ.get("RWC_BUILDDIR", ".")
SRC = os.environ.get("RWC_SRCDIR", ".")
VICTIM = os.path.join(BUILD, "tests", "victim")
PLUGIN = os.path.join(BUILD, "tests", ".libs", "libplug.so")

_n = 0
_failed = 0


def ok(cond, name, diag=None):
    global _n, _failed
    _n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (_n, name))
    if not cond:
        _failed += 1
        if diag is not None:
            for line in str(diag).splitlines():
                print("#   " + line)
    sys.stdout.flush()
    return cond


def skip(name, reason):
    """A test that cannot run here: counted, and said why."""
    global _n
    _n += 1
    print("ok %d - %s # SKIP %s" % (_n, name, reason))
    sys.stdout.flush()


def entry_points():
    """The interposed I/O entry points as (shape, name), in the order of
    src/base/entries.def (the one list of them)."""
    rows = []
    with open(os.path.join(SRC, "src", "base", "entries.def")) as f:
        for line in f:
            m = re.match(r"(RWC_[A-Z_0-9]+)\s*\(([_a-z0-9]+)", line)
            if m:
                rows.append((m.group(1), m.group(2)))
    return rows


def done():
    print("1..%d" % _n)
    sys.exit(1 if _failed else 0)


class Run:
    """One run of a program; reports parsed from the RWCHECK_LOG file."""

    def __init__(self, argv, preload=True, env=None, fmt="json", log=True, limit_as=None):
        """limit_as: an RLIMIT_AS for the program, in bytes (ulimit -v)."""
        e = dict(os.environ)
        for k in list(e):
            if k.startswith("RWCHECK_"):
                del e[k]
        e["RWC_PLUGIN"] = PLUGIN
        self.logdir = tempfile.mkdtemp(prefix="rwc-test-")
        if preload:
            e["LD_PRELOAD"] = LIB
            if os.environ.get("RWC_TEST_CHECKS"):  # the whole suite under other checks
                e["RWCHECK_CHECKS"] = os.environ["RWC_TEST_CHECKS"]
            e["RWCHECK_FORMAT"] = fmt
            if log:
                e["RWCHECK_LOG"] = os.path.join(self.logdir, "log.%p")
        if env:
            e.update(env)
        try:
            limit = None if limit_as is None else (
                lambda: resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as)))
            p = subprocess.run(argv, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120,
                               preexec_fn=limit)
            self.status, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as ex:  # a hang is a failure, not a crash of the test
            self.status, out, err = "timeout", ex.stdout or b"", ex.stderr or b""
        self.stdout = out.decode("utf-8", "replace")
        self.stderr = err.decode("utf-8", "replace")
        self.log = ""
        for f in sorted(os.listdir(self.logdir)):
            with open(os.path.join(self.logdir, f), "rb") as fh:
                self.log += fh.read().decode("utf-8", "replace")
            os.unlink(os.path.join(self.logdir, f))
        os.rmdir(self.logdir)
        self.reports = []   # one per reported bad call
        self.repeats = []   # dedup's "N more" records, written at exit
        self.bad_json = []
        self.warnings = []  # the library's warnings, as JSON objects
        if fmt == "json":
            for line in self.log.splitlines():
                if line.startswith("{"):
                    try:
                        rec = json.loads(line)
                    except ValueError as ex:
                        self.bad_json.append((line, ex))
                        continue
                    if "warning" in rec:  # RWCHECK_FORMAT=json: warnings are JSON too
                        self.warnings.append(rec)
                    else:
                        (self.repeats if "repeat" in rec else self.reports).append(rec)
        self.sites = [(m.group(1), int(m.group(2)))
                      for m in re.finditer(r"^site (\S+) (\d+)$", self.stdout, re.M)]
        self.results = re.findall(r"^result .*$", self.stdout, re.M)

    def describe(self):
        return "status %s\nstdout:\n%s\nstderr:\n%s\nlog:\n%s" % (
            self.status, self.stdout, self.stderr, self.log)


def victim(entry, mode, **kw):
    return Run([VICTIM, entry, mode], **kw)


def check_report(r, name, call, problem, first=None, last=None, iov_index=None, what=None):
    """Asserts exactly one report, with the given fields, whose first
    frame is the victim's call site."""
    if not ok(len(r.reports) == 1 and not r.bad_json,
              "%s: exactly one JSON report" % name, r.describe()):
        return
    rep = r.reports[0]
    ok(rep.get("call") == call and rep.get("problem") == problem,
       "%s: call %s, problem %s" % (name, call, problem), rep)
    if first is not None:
        bad = rep.get("bad", {})
        ok(bad.get("first") == first and bad.get("last") == last,
           "%s: bad bytes %s..%s" % (name, first, last), rep)
    if iov_index is not None:
        ok(rep.get("iov_index") == iov_index, "%s: iov_index %d" % (name, iov_index), rep)
    if what is not None:
        ok(rep.get("what") == what, "%s: what %s" % (name, what), rep)
    ok(isinstance(rep.get("pid"), int) and isinstance(rep.get("fd"), int) and
       isinstance(rep.get("count"), int) and re.match(r"^0x[0-9a-f]+$", rep.get("buf", "")),
       "%s: pid, fd, count are integers, buf a hex string" % name, rep)
    frames = rep.get("frames") or [{}]
    site = r.sites[-1] if r.sites else ("?", -1)
    f0 = frames[0]
    ok(re.sub(r"\.(constprop|isra|part)\.\d+$", "", f0.get("function") or "") == site[0] and f0.get("file", "").endswith(".c") and
       os.path.basename(f0.get("file", "")).startswith("victim") and f0.get("line") == site[1],
       "%s: first frame is the caller %s at victim.c:%d" % (name, site[0], site[1]),
       json.dumps(frames[:3], indent=1))
    ok(not any("librwcheck" in (f.get("module") or "") for f in frames),
       "%s: no frame of the library" % name, frames)


def check_clean(entry, mode="good", name=None, env=None):
    """The twin: no report, same result as without the library."""
    name = name or "%s %s" % (entry, mode)
    base = victim(entry, mode, preload=False)
    r = victim(entry, mode, env=env)
    ok(r.status == 0 and not r.reports and r.log == "", "%s: no report" % name, r.describe())
    ok(r.results == base.results and r.results,
       "%s: same result as without rwcheck (%s)" % (name, r.results), "%s\n---\n%s" % (base.describe(), r.describe()))
    return r
