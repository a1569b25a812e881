"""The call-site cache across processes (RWCHECK_CACHE, frames/sitecache.c).

What one process works out from a module's DWARF for a call site (the
stack variables in scope) is appended to DIR/<build-id>-<version>.sites; a later
process running the same binary reads it back instead of the DWARF: the
same verdicts and the same reports, without loading libdw.  A record that
does not check (a byte changed, the file cut short) is not used; a
directory that cannot be written changes nothing but the speed.  The
wrapper keeps one cache per run in its directory."""
import os
import resource
import shutil
import subprocess
import tempfile

from rwctest import BUILD, Run, ok, done

PROGS = [("-O0 -g", "victim_stackvar"), ("-O2 -g", "victim_stackvar_o2"),
         ("-O2 -g fortified", "victim_stackvar_fortify")]
CASES = ("locals", "member", "param", "callee", "inlined", "block")
KEYS = ("kind", "name", "type", "size", "decl_file", "decl_line", "frame", "function", "into")


def build_id(path):
    out = subprocess.run(["readelf", "-n", path], stdout=subprocess.PIPE, universal_newlines=True).stdout
    return [l.split()[-1] for l in out.splitlines() if "Build ID" in l][0]


def said(r):
    """What a run's report says, without the addresses."""
    if len(r.reports) != 1:
        return None
    rep = r.reports[0]
    return (rep.get("call"), rep.get("problem"), rep.get("message"),
            tuple(rep.get("region", {}).get(k) for k in KEYS))


def run(prog, case, mode, cache, debug=False):
    env = {"RWCHECK_CACHE": cache}
    if debug:
        env["LD_DEBUG"] = "files"
    return Run([prog, case, mode], env=env)


def libdw_loaded(r):
    return "libdw" in r.stderr


for tag, exe in PROGS:
    prog = os.path.join(BUILD, "tests", exe)
    cache = tempfile.mkdtemp(prefix="rwc-sites-")
    first = {case: run(prog, case, "bad", cache) for case in CASES}
    files = [f for f in os.listdir(cache) if f.endswith(".sites")]  # (not the object cache's .objs)
    path = os.path.join(cache, files[0]) if len(files) == 1 else "none"
    ok(len(files) == 1 and files[0].startswith(build_id(prog) + "-") and files[0].endswith(".sites") and
       os.path.getsize(path) > 0, "%s: the first runs wrote one file, named by the binary's build-id" % tag, files)
    for case in CASES:
        a = said(first[case])
        ok(a is not None and a[1] == "stack-overflow" and a[3][0] == "stack-variable",
           "%s %s bad, first run: judged by the variable (from DWARF)" % (tag, case), first[case].describe())
        r = run(prog, case, "bad", cache)
        ok(said(r) == a, "%s %s bad, again: the same report" % (tag, case), (said(r), a, r.describe()))
        base = Run([prog, case, "good"], preload=False)
        r = run(prog, case, "good", cache, debug=True)
        ok(r.status == 0 and not r.reports and r.results == base.results and r.results and not libdw_loaded(r),
           "%s %s good, from the cache: no report, the same result (%s), libdw not loaded" % (tag, case, base.results),
           r.describe())
    data = open(path, "rb").read()
    name = data.find(b"name\0")  # a variable's name inside a record: only the checksum sees the change
    ok(name > 0, "%s: the file holds the variable `name`" % tag)
    if name > 0:
        open(path, "wb").write(data[:name] + b"nbme\0" + data[name + 5:])
        r = run(prog, "locals", "good", cache, debug=True)
        ok(r.status == 0 and not r.reports and libdw_loaded(r),
           "%s: a record with one byte changed is not used (good: the DWARF read again)" % tag, r.describe())
        r = run(prog, "locals", "bad", cache)
        ok(said(r) == said(first["locals"]), "%s: ... and the bad call's report is the same" % tag,
           (said(r), r.describe()))
    open(path, "wb").write(data[:-1])
    r = run(prog, CASES[-1], "bad", cache)
    ok(said(r) == said(first[CASES[-1]]), "%s: the file cut short by a byte: the same report" % tag, r.describe())
    r = run(prog, CASES[0], "good", cache, debug=True)
    ok(r.status == 0 and not r.reports and not libdw_loaded(r),
       "%s: ... the records before the cut still used (good %s without libdw)" % (tag, CASES[0]), r.describe())
    for i in range(3):
        run(prog, CASES[-1], "good", cache)
    ok(os.path.getsize(path) == len(data) - 1,
       "%s: a file whose end does not check is not written to (it would grow at each run)" % tag,
       (os.path.getsize(path), len(data) - 1))
    shutil.rmtree(cache, ignore_errors=True)

# A directory that is not there (or cannot be written): the same reports.
prog = os.path.join(BUILD, "tests", PROGS[1][1])
nodir = os.path.join(tempfile.gettempdir(), "rwc-no-such-dir", "x")
r = run(prog, "locals", "bad", nodir)
ok(said(r) and said(r)[3][1] == "name" and not os.path.exists(nodir),
   "RWCHECK_CACHE naming no directory: the same report, nothing made", r.describe())

# What could stop or end the program is avoided: a FIFO in the file's
# place (an open for reading would wait for a writer), a file size limit
# (a write past it ends the process with SIGXFSZ); a relative directory is
# refused (it would name the program's own directories).
cache = tempfile.mkdtemp(prefix="rwc-sites-")
fifo = os.path.join(cache, "fifo")
os.mkfifo(fifo)
first = run(prog, "locals", "bad", cache)
name = os.listdir(cache)
name = [n for n in name if n.endswith(".sites")]
if name:
    os.unlink(os.path.join(cache, name[0]))
    os.rename(fifo, os.path.join(cache, name[0]))
r = run(prog, "locals", "good", cache)
ok(name and r.status == 0 and not r.reports and r.results, "a FIFO in the cache file's place: the program goes on",
   r.describe())
shutil.rmtree(cache, ignore_errors=True)
cache = tempfile.mkdtemp(prefix="rwc-sites-")
env = {k: v for k, v in os.environ.items() if not k.startswith("RWCHECK_")}
env.update({"LD_PRELOAD": os.environ.get("RWC_LIB", ""), "RWCHECK_CACHE": cache})
p = subprocess.run([prog, "locals", "good"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                   preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20)))
ok(p.returncode == 0 and os.listdir(cache) == [],
   "a file size limit (ulimit -f): the cache not written (a write past it ends the process with SIGXFSZ)",
   (p.returncode, os.listdir(cache), p.stderr[-300:]))
shutil.rmtree(cache, ignore_errors=True)
r = run(prog, "locals", "good", "relative-dir")
ok(r.status == 0 and not r.reports and "RWCHECK_CACHE" in r.log + r.stderr and not os.path.exists("relative-dir"),
   "RWCHECK_CACHE=relative-dir: refused with a warning, nothing made", r.describe())

# The wrapper: one cache per run, in its directory (kept with --log-dir,
# removed with the temporary one).
wrapper = os.path.join(BUILD, "rwcheck")
tmp = tempfile.mkdtemp(prefix="rwc-wrap-")
env = {k: v for k, v in os.environ.items() if not k.startswith("RWCHECK_")}
env["TMPDIR"] = tmp
twice = "%s locals bad; %s locals bad" % (prog, prog)
logs = os.path.join(tmp, "logs")
p = subprocess.run([wrapper, "--quiet", "--error-exitcode=0", "--log-dir=" + logs, "--", "sh", "-c", twice], env=env,
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
ok(p.returncode == 0 and [n.split("-")[0] for n in os.listdir(os.path.join(logs, "cache"))
                          if n.endswith(".sites")] == [build_id(prog)],
   "rwcheck --log-dir=DIR: the run's cache in DIR/cache", (p.returncode, p.stderr[-400:]))
shutil.rmtree(logs, ignore_errors=True)
p = subprocess.run([wrapper, "--quiet", "--error-exitcode=0", "--log-dir=" + logs, "--", "sh", "-c", twice],
                   env=dict(env, RWCHECK_CACHE="off"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                   universal_newlines=True)
ok(p.returncode == 0 and not os.path.exists(os.path.join(logs, "cache")) and "RWCHECK_CACHE" not in p.stderr and
   len([f for f in os.listdir(logs) if f.startswith("rwcheck.")]) == 2,
   "RWCHECK_CACHE=off: no cache, no warning, both processes report", (p.returncode, p.stderr[-400:]))
shutil.rmtree(logs, ignore_errors=True)
p = subprocess.run([wrapper, "--error-exitcode=0", "--", "sh", "-c", twice], env=env,
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
ok(p.returncode == 0 and p.stderr.count("stack-overflow") >= 2 and os.listdir(tmp) == [],
   "rwcheck: both processes report; its temporary directory and cache removed at the end",
   (os.listdir(tmp), p.stderr[-600:]))
shutil.rmtree(tmp, ignore_errors=True)
done()
