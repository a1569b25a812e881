"""The real functions the library calls on to are the next definitions,
as dlsym(RTLD_NEXT) finds them: a second interposer preloaded after the
library gets every call (its read, pread), and a plugin dlopened with
RTLD_LOCAL that exports a read and a pread of its own never does, also
when it was loaded before the library's first call bound them (a guard:
libc comes first in load order, so the lookup stops there)
(tests/nextdef/: shim.c, local.c, prog.c, built here)."""
import atexit
import os
import shutil
import subprocess
import tempfile

from rwctest import LIB, SRC as SRCDIR, Run, ok, done

CC = os.environ.get("CC", "gcc").split()
SRC = os.path.join(SRCDIR, "tests", "nextdef")
d = tempfile.mkdtemp(prefix="rwc-nextdef-")
atexit.register(shutil.rmtree, d, True)
shim, local, prog = (os.path.join(d, n) for n in ("libshim.so", "liblocal.so", "prog"))
for cmd in (CC + ["-O2", "-fPIC", "-shared", "-o", shim, os.path.join(SRC, "shim.c"), "-ldl"],
            CC + ["-O2", "-fPIC", "-shared", "-o", local, os.path.join(SRC, "local.c")],
            CC + ["-O0", "-g", "-o", prog, os.path.join(SRC, "prog.c"), "-ldl"]):
    subprocess.run(cmd, check=True)

base = Run([prog, local], preload=False)
ok(base.status == 0 and "read 48 pread 0" in base.stdout and "local 0" in base.stdout,
   "without the library: the read gets 48 bytes, the pread 0, the plugin's functions unused", base.stdout)

r = Run([prog, local])
ok(r.status == 0 and r.stdout == base.stdout and not r.reports,
   "with the library: the same output, no report (libc's read and pread, not the plugin's)", r.describe())

both = {"LD_PRELOAD": LIB + " " + shim}
r = Run([prog, local], env=both)
ok(r.status == 0 and "read 48 pread 0" in r.stdout and "shim read 1 pread 1" in r.stdout and
   "local 0" in r.stdout and not r.reports,
   "library then a second interposer: each call reaches the interposer once", r.describe())
r = Run([prog, local, "bad"], env=both)
ok(r.status == 0 and "read 48 pread 0" in r.stdout and "shim read 1 pread 1" in r.stdout and
   len(r.reports) == 1 and r.reports[0].get("call") == "pread" and
   r.reports[0].get("region", {}).get("name") == "small",
   "... a bad pread into `char small[8]`: reported once, then passed on to the interposer", r.describe())
done()
