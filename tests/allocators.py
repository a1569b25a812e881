"""Who serves the program's malloc (issue 12): the heap check needs this
library's malloc first and glibc's own next.  Checked the way the loader
binds malloc, so it holds for PIE, non-PIE (whose own PLT address for
malloc dlsym may answer) and -z now executables, and for Debian's own
non-PIE /usr/bin/python3; glibc's libc_malloc_debug.so.0, which defines
malloc under a symbol version only, is found and kept in the chain in
either order (its aborts still happen), and the heap check is then said
to be off, once."""
import os

from rwctest import BUILD, LIB, Run, ok, done

VICTIMS = [("PIE", "victim_alloc"), ("non-PIE", "victim_alloc_nopie"), ("-z now", "victim_alloc_znow")]
DEBUG = "/lib/x86_64-linux-gnu/libc_malloc_debug.so.0"
if not os.path.exists(DEBUG):
    DEBUG = next((os.path.join(d, "libc_malloc_debug.so.0") for d in
                  ("/lib64", "/usr/lib64", "/lib", "/usr/lib")
                  if os.path.exists(os.path.join(d, "libc_malloc_debug.so.0"))), None)


def warnings(r):
    return [l for l in r.log.splitlines() if "warning:" in l]


for tag, name in VICTIMS:
    prog = os.path.join(BUILD, "tests", name)
    r = Run([prog, "read", "bad"])
    rep = r.reports[0] if len(r.reports) == 1 else {}
    ok(r.status == 0 and rep.get("problem") == "heap-overflow" and rep.get("call") == "read" and
       (rep.get("frames") or [{}])[0].get("function") == "main" and not warnings(r),
       "%s executable taking malloc's address: heap check on, no warning, the overrun reported" % tag,
       r.describe())
    r = Run([prog, "read", "good"])
    ok(r.status == 0 and not r.reports and r.log == "" and r.stdout == "result 1\ndone\n",
       "%s executable, the good read: no report, no warning, same result" % tag, r.describe())

# Debian's own python3 is a non-PIE executable: its malloc is glibc's.
PY = "/usr/bin/python3"
SCRIPT = """
import ctypes, os
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.read.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
p = libc.malloc(100)
fd = os.open("/etc/hostname", os.O_RDONLY)
print("read", libc.read(fd, p, %d) > 0)
"""
if os.path.exists(PY):
    r = Run([PY, "-c", SCRIPT % 200])
    ok(r.status == 0 and len(r.reports) == 1 and r.reports[0].get("problem") == "heap-overflow" and
       not warnings(r), "%s: heap check on, no warning, a heap overrun through ctypes reported" % PY,
       r.describe())
    r = Run([PY, "-c", SCRIPT % 100])
    ok(r.status == 0 and not r.reports and r.log == "" and r.stdout == "read True\n",
       "%s: the good read, no report and no warning" % PY, r.describe())
else:
    print("ok - %s # SKIP not installed" % PY)

# A read into a block the program freed: the report (its first, which
# loads libunwind and libdw, or a later one) takes nothing from the
# program's allocator, so the program runs as it does without the
# library, and the freed block's contents stay as the program left them.
prog = os.path.join(BUILD, "tests", "victim_alloc")
for size, kind in ((24, "small"), (120, "small"), (1200, "small"), (70000, "large"), (1000000, "mmapped")):
    for when in ("first", "later"):
        for mode in ("freed", "freedkeep"):
            base = Run([prog, mode, str(size), when], preload=False)
            r = Run([prog, mode, str(size), when])
            want = 2 if when == "later" else 1
            ok(r.status == base.status == 0 and r.stdout == base.stdout and len(r.reports) == want,
               "%s: a read into a freed %s block of %d, in the %s report: %d report(s), the program as without "
               "the library" % (mode, kind, size, "first" if when == "first" else "second", want),
               "without:\n" + base.describe() + "\nwith:\n" + r.describe())

# glibc's malloc debugging library, after and before this one.
if DEBUG:
    tun = {"GLIBC_TUNABLES": "glibc.malloc.check=3"}
    prog = os.path.join(BUILD, "tests", "victim_alloc")
    alone = Run([prog, "overwrite"], preload=False, env=dict(tun, LD_PRELOAD=DEBUG))
    ok(alone.status == -6 and "done" not in alone.stdout,
       "libc_malloc_debug alone aborts on the overwritten block (status %s)" % alone.status, alone.describe())
    for order, preload, says in (("after", "%s:%s" % (LIB, DEBUG), "goes on to another allocator"),
                                 ("before", "%s:%s" % (DEBUG, LIB), "loaded before rwcheck")):
        r = Run([prog, "overwrite"], env=dict(tun, LD_PRELOAD=preload))
        ok(r.status == alone.status and r.stdout == alone.stdout,
           "libc_malloc_debug %s the library: it still aborts (status %s)" % (order, r.status), r.describe())
        r = Run([prog, "read", "bad"], env=dict(tun, LD_PRELOAD=preload))
        w = warnings(r)
        ok(r.status == 0 and not r.reports and len(w) == 1 and says in w[0] and "heap check is off" in w[0] and
           "libc_malloc_debug" in w[0],
           "libc_malloc_debug %s the library: no heap report, one warning naming it" % order, r.describe())
else:
    print("ok - libc_malloc_debug # SKIP not found")
done()
