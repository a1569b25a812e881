"""Issue 12 (7): the library leaves no descriptor in the program.

libunwind opens a pipe at its first use and again at each later one (see
src/frames/unwind.c); those descriptors take the program's lowest free numbers.
A program started with descriptor 0, 1, 2 or all three closed (and one
started normally) lists its open descriptors from inside, at its start
and after its checked calls: with the stack check (a call whose buffer
is on the stack walks the frames, without libunwind), with a report (a
bad read: libunwind's first use), both, and without the stack check.  The
lists must equal those of the same program without the library.  Also
the issue's own case: ls /proc/self/fd with descriptor 0 and/or 2 closed."""
import json
import os
import shutil
import sys
import tempfile

from rwctest import LIB, ok, done

# The program: MODE is words among "stack" (write() from the environment
# strings, on the stack above every frame: walked, not reported) and
# "bad" (read() into a buffer whose bytes 100.. are unmapped: a report).
# It writes its lines to descriptor 9.
PROGRAM = r'''
import ctypes, os, re, sys
mode = sys.argv[1].split(",")
out = []
def fds(when):
    seen = []
    for n in sorted(os.listdir("/proc/self/fd"), key=int):
        try:
            t = os.readlink("/proc/self/fd/" + n)
        except OSError:
            continue  # the listing's own descriptor
        seen.append("%s=%s" % (n, re.sub(r"^(pipe|socket|anon_inode):.*", r"\1", t)))
    out.append("fds %s: %s" % (when, " ".join(seen)))
fds("start")
libc = ctypes.CDLL(None, use_errno=True)
vp, sz = ctypes.c_void_p, ctypes.c_size_t
libc.mmap.restype, libc.mmap.argtypes = vp, [vp, sz, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [vp, sz]
libc.read.restype = libc.write.restype = ctypes.c_ssize_t
libc.read.argtypes = libc.write.argtypes = [ctypes.c_int, vp, sz]
null = os.open("/dev/null", os.O_RDWR)
if "stack" in mode:
    env = ctypes.cast(vp.in_dll(libc, "environ").value, ctypes.POINTER(vp))[0]
    lo, hi = [int(x, 16) for x in re.search(r"^(\w+)-(\w+) .*\[stack\]$",
                                            open("/proc/self/maps").read(), re.M).groups()]
    out.append("stack buffer %s" % ("yes" if lo <= env < hi else "no"))
    out.append("write %d" % libc.write(null, env, 1))
if "bad" in mode:
    p = libc.mmap(None, 8192, 3, 0x22, -1, 0)
    libc.munmap(p + 4096, 4096)
    out.append("read %d" % libc.read(null, p + 4096 - 100, 4096))
os.close(null)
fds("end")
os.write(9, ("\n".join(out) + "\n").encode())
'''

CLOSED = [(), (0,), (1,), (2,), (0, 1, 2)]
# (checks, mode): the stack check (the default) in every mode, and
# without it; libunwind is first used by the report either way.
RUNS = [("", "none"), ("", "stack"), ("", "bad"), ("", "stack,bad"),
        ("-stack", "none"), ("-stack", "bad")]

tmp = tempfile.mkdtemp(prefix="rwc-fds-")
for fd in os.listdir("/proc/self/fd"):  # the programs inherit only what spawn() gives
    try:
        if int(fd) > 2:
            os.set_inheritable(int(fd), False)
    except OSError:
        pass


def spawn(argv, closed, env, out_fd):
    """Runs ARGV with the descriptors CLOSED closed, the others of 0..2 on
    /dev/null or an error file, and a pipe on OUT_FD; returns (status,
    what it wrote to OUT_FD, what it wrote to the error file)."""
    r, w = os.pipe()
    err = os.path.join(tmp, "err")
    devnull, errf = os.open("/dev/null", os.O_RDONLY), os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    acts = [(os.POSIX_SPAWN_DUP2, w, out_fd)]
    for fd in (0, 1, 2):
        if fd == out_fd:
            continue
        acts.append((os.POSIX_SPAWN_CLOSE, fd) if fd in closed else
                    (os.POSIX_SPAWN_DUP2, devnull if fd == 0 else errf, fd))
    pid = os.posix_spawn(argv[0], argv, env, file_actions=acts)
    os.close(w)
    os.close(devnull)
    os.close(errf)
    data = b""
    while True:
        b = os.read(r, 65536)
        if not b:
            break
        data += b
    os.close(r)
    _, status = os.waitpid(pid, 0)
    with open(err, "rb") as f:
        e = f.read().decode("utf-8", "replace")
    return status, data.decode("utf-8", "replace"), e


def environment(preload, checks=None):
    e = {k: v for k, v in os.environ.items() if not k.startswith("RWCHECK_") and k != "LD_PRELOAD"}
    if preload:
        e["LD_PRELOAD"] = LIB
        e["RWCHECK_FORMAT"] = "json"
        e["RWCHECK_LOG"] = os.path.join(tmp, "log.%p")
        if checks:
            e["RWCHECK_CHECKS"] = checks
    return e


def reports():
    recs = []
    for f in sorted(os.listdir(tmp)):
        if f.startswith("log."):
            with open(os.path.join(tmp, f)) as fh:
                recs += [json.loads(l) for l in fh if l.startswith("{") and "repeat" not in l]
            os.unlink(os.path.join(tmp, f))
    return recs


def name(closed):
    return "descriptor%s %s closed" % ("s" if len(closed) > 1 else "", ", ".join(map(str, closed))) \
        if closed else "all descriptors open"


base = {}
for closed in CLOSED:
    for mode in sorted({m for _, m in RUNS}):
        base[closed, mode] = spawn([sys.executable, "-c", PROGRAM, mode], closed, environment(False), 9)
    for checks, mode in RUNS:
        what = "%s, %s, calls: %s" % (name(closed), "RWCHECK_CHECKS=" + checks if checks else "default checks", mode)
        b = base[closed, mode]
        st, out, err = spawn([sys.executable, "-c", PROGRAM, mode], closed, environment(True, checks), 9)
        recs = reports()
        diag = "without the library:\n%s\nwith it (status %s):\n%s\nstderr:\n%s" % (b[1], st, out, err)
        ok(st == 0 and b[0] == 0 and out.count("fds ") == 2, "%s: the program ran" % what, diag)
        ok(out == b[1], "%s: the same descriptors as without the library, at start and after the calls" % what,
           diag)
        if "stack" in mode:
            ok("stack buffer yes" in out, "%s: the write's buffer is on the stack" % what, diag)
        want = 1 if "bad" in mode else 0
        ok(len(recs) == want and all(r.get("call") == "read" and r.get("problem") == "buf-unmapped" for r in recs),
           "%s: %d report%s" % (what, want, "" if want == 1 else "s"), recs)

# The issue's own case: ls lists its descriptors (its own open directory
# included) on its standard output.
ls = shutil.which("ls")
for closed in [(), (0,), (2,), (0, 2)]:
    b = spawn([ls, "/proc/self/fd"], closed, environment(False), 1)
    r = spawn([ls, "/proc/self/fd"], closed, environment(True), 1)
    reports()
    ok(r[0] == 0 and r[1] == b[1] and b[1], "ls /proc/self/fd, %s, default checks: the same list (%s)"
       % (name(closed), " ".join(r[1].split())), "without: %r\nwith: %r" % (b, r))

shutil.rmtree(tmp)
done()
