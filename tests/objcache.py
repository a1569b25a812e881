"""The object cache across processes (RWCHECK_CACHE, bounds/objcache.c).

The sorted table of a module's global objects that one process works out
from the module's symbol table is written once to
DIR/<build-id>-<version>.objs; a later process running the same binary
reads that file instead of the symbol table: the same verdicts and the
same reports (objects named from the file's string table), for the
program (-O0, -O2, non-PIE, .dynsym only) and a dlopen()ed library.  The
file is trusted once it checks: one made to say an object is smaller
makes the good twin's read an overrun of it; the same file with one bit
changed is refused (the symbol table is read again: no report).  A
directory that cannot be written, or a file size limit, changes nothing
but the speed.  tests/victim_global.c."""
import os
import resource
import shutil
import struct
import subprocess
import tempfile

from rwctest import BUILD, Run, ok, done

T = os.path.join(BUILD, "tests")
LIB = os.path.join(T, ".libs", "libglob.so")
LIBENV = {"RWC_GLOBLIB": LIB}
PROGS = [("-O0", "victim_global"), ("-O2", "victim_global_o2"), ("no-pie", "victim_global_nopie"),
         ("stripped", "victim_global_stripped")]
CASES = ("bss", "data", "rows", "readv", "lib", "overlap")
MASK = (1 << 64) - 1
VERSION = open(os.path.join(BUILD, "config.h")).read().split('PACKAGE_VERSION "')[1].split('"')[0]


def build_id(path):
    out = subprocess.run(["readelf", "-n", path], stdout=subprocess.PIPE, universal_newlines=True).stdout
    return [l.split()[-1] for l in out.splitlines() if "Build ID" in l][0]


def run(prog, case, mode, cache, **kw):
    env = dict(LIBENV, RWCHECK_CACHE=cache)
    return Run([prog, case, mode], env=env, **kw)


def said(r):
    """What a run's one report says, without the addresses."""
    if len(r.reports) != 1:
        return None
    rep, reg = r.reports[0], r.reports[0].get("region", {})
    return (rep.get("call"), rep.get("problem"), rep.get("message"), reg.get("kind"), reg.get("name"),
            reg.get("size"), os.path.basename(reg.get("module", "")), rep.get("bad", {}).get("first"),
            rep.get("bad", {}).get("last"))


def checksum(words):
    h = 0xcbf29ce484222325
    for w in words:
        h = ((h ^ w) * 0x100000001b3) & MASK
    return h ^ (h >> 29)


def resized(data, rel, by):
    """The cache file DATA with the object starting at REL (relative to the
    load bias) made BY bytes larger, checksum made again; None when no
    object starts there."""
    words = list(struct.unpack("<%dQ" % (len(data) // 8), data))
    for i in range(words[1]):
        if words[9 + 3 * i] == rel:  # (after the header's 9 words)
            words[10 + 3 * i] += by
            words[-1] = checksum(words[:-1])
            return struct.pack("<%dQ" % len(words), *words)
    return None


def cache_name(path):
    """The cache file's name for the binary PATH (objcache.c file_of)."""
    st = os.stat(path)
    h = 0xcbf29ce484222325
    for w in (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns // 10**9, st.st_mtime_ns % 10**9):
        h = ((h ^ w) * 0x100000001b3) & MASK
    return "%s-%s-%016x.objs" % (build_id(path), VERSION, h ^ (h >> 29))


def symbol(path, name):
    out = subprocess.run(["nm", path], stdout=subprocess.PIPE, universal_newlines=True).stdout
    return [int(l.split()[0], 16) for l in out.splitlines() if l.split()[-1] == name][0]


for tag, exe in PROGS:
    prog = os.path.join(T, exe)
    plain = {case: run(prog, case, "bad", "off") for case in CASES}
    cache = tempfile.mkdtemp(prefix="rwc-objs-")
    first = {case: run(prog, case, "bad", cache) for case in CASES}
    files = sorted(f for f in os.listdir(cache) if f.endswith(".objs"))
    ids = sorted(f.split("-")[0] for f in files)
    ok(ids == sorted([build_id(prog), build_id(LIB)]),
       "%s: the first runs wrote one file for the program and one for the library, named by build-id" % tag, files)
    for case in CASES:
        a, b = said(plain[case]), said(first[case])
        ok(a is not None and a[1] == "global-overflow" and a == b,
           "%s %s bad, first run: the same report as without the cache" % (tag, case), first[case].describe())
    before = {f: os.path.getmtime(os.path.join(cache, f)) for f in files}
    for case in CASES:
        r = run(prog, case, "bad", cache)
        ok(said(r) is not None and said(r) == said(plain[case]),
           "%s %s bad, from the cache: the same report, the object named" % (tag, case), r.describe())
        g, base = run(prog, case, "good", cache), Run([prog, case, "good"], env=LIBENV, preload=False)
        ok(not g.reports and g.log == "" and g.results == base.results and g.results,
           "%s %s good, from the cache: no report, the same result" % (tag, case), g.describe())
    ok(before == {f: os.path.getmtime(os.path.join(cache, f)) for f in files},
       "%s: the files were read, not written again" % tag)

    # the file is what decides: `hdr` said to be 16 bytes, not 32, makes
    # the good twin's read of all of it an overrun of 16
    path = os.path.join(cache, [f for f in files if f.startswith(build_id(prog))][0])
    data = open(path, "rb").read()
    if tag != "stripped":  # (hdr is a static there: not in .dynsym, not in the file)
        narrow = resized(data, symbol(prog, "hdr"), -16)  # (nm: its address relative to the load bias)
        ok(narrow is not None, "%s: the file holds `hdr` at its address in the binary" % tag)
        open(path, "wb").write(narrow or data)
        r = run(prog, "bss", "good", cache)
        rep = r.reports[0] if len(r.reports) == 1 else {}
        ok(rep.get("problem") == "global-overflow" and rep.get("region", {}).get("name") == "hdr" and
           rep.get("region", {}).get("size") == 16 and rep.get("bad", {}).get("first") == 16,
           "%s: a file made to say `hdr` is 16 bytes is believed (the good read of 32 overruns it)" % tag,
           r.describe())
        flipped = bytearray(narrow or data)
        flipped[len(flipped) // 2] ^= 4
        open(path, "wb").write(bytes(flipped))
        r = run(prog, "bss", "good", cache)
        ok(not r.reports and r.log == "", "%s: the same file with a bit changed is refused: no report" % tag,
           r.describe())
        open(path, "wb").write(data)
    shutil.rmtree(cache)

# A FIFO in the file's place (an open for reading would wait for a
# writer): the program goes on, the same report.
prog = os.path.join(T, "victim_global")
cache = tempfile.mkdtemp(prefix="rwc-objs-")
os.mkfifo(os.path.join(cache, cache_name(prog)))
r = run(prog, "bss", "bad", cache)
ok(r.status == 0 and said(r) == said(run(prog, "bss", "bad", "off")),
   "a FIFO in the cache file's place: the program goes on, the same report", r.describe())
shutil.rmtree(cache)

# Whatever else sits in the file's place (a FIFO aside) is replaced by the
# table: a file of zeros (its header read, nothing more), a symlink.
for what in ("zeros", "symlink"):
    cache = tempfile.mkdtemp(prefix="rwc-objs-")
    path = os.path.join(cache, cache_name(prog))
    if what == "zeros":
        with open(path, "wb") as fh:
            fh.truncate(64 << 20)
    else:
        os.symlink("/dev/zero", path)
    r = run(prog, "bss", "bad", cache)
    head = open(path, "rb").read(8) if os.path.isfile(path) and not os.path.islink(path) else b""
    ok(said(r) == said(run(prog, "bss", "bad", "off")) and head == b"RWCOBJS2" and
       os.path.getsize(path) < 1 << 20, "a %s in the file's place: the same report, the table written there" % what,
       r.describe())
    shutil.rmtree(cache)

# A binary and its stripped copy (.dynsym only) share the build-id, not
# the table: each run, in either order, reports as without the cache.
dyn, stripped = os.path.join(T, "victim_global_dyn"), os.path.join(T, "victim_global_stripped")
ok(build_id(dyn) == build_id(stripped), "victim_global_dyn and its stripped copy share a build-id")
for a, b in ((dyn, stripped), (stripped, dyn)):
    cache = tempfile.mkdtemp(prefix="rwc-objs-")
    for case in ("bss", "hidden", "overlap"):
        for prog_ in (a, b):
            r, base = run(prog_, case, "bad", cache), run(prog_, case, "bad", "off")
            ok(said(r) == said(base), "%s after %s, %s bad: as without the cache (%s)" %
               (os.path.basename(prog_), os.path.basename(a), case, said(base)), r.describe())
    ok(cache_name(dyn) in os.listdir(cache) and cache_name(stripped) in os.listdir(cache),
       "a file for each of them", os.listdir(cache))
    shutil.rmtree(cache)

# Where nothing can be written (/proc: not even root): the same report.
prog = os.path.join(T, "victim_global")
r = run(prog, "bss", "bad", "/proc")
ok(said(r) is not None and said(r) == said(run(prog, "bss", "bad", "off")),
   "a directory that cannot be written: the same report", r.describe())
lim = tempfile.mkdtemp(prefix="rwc-objs-fsize-")


def fsize():
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))


p = subprocess.run([prog, "bss", "bad"], env=dict(os.environ, LD_PRELOAD=os.path.join(BUILD, "src", ".libs",
                                                                                      "librwcheck.so"),
                                                  RWCHECK_CACHE=lim, **LIBENV),
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=fsize)
ok(p.returncode == 0 and b"global-overflow" in p.stderr and os.listdir(lim) == [],
   "a file size limit (ulimit -f): reported, no file written", p.stderr.decode(errors="replace"))
shutil.rmtree(lim)
done()
