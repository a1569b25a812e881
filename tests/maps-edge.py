"""The map as the kernel really writes it: paths with spaces, an escaped
newline, a deleted file; tens of thousands of mappings; and no /proc at
all (one warning, every call passed through, never a false report)."""
import os
import shutil
import subprocess
from rwctest import ok, done, skip, victim, LIB, VICTIM

r = victim("oddpaths", "bad", env={"RWCHECK_DEDUP": "0"})
paths = [x["region"].get("path", "") for x in r.reports]
ok(len(r.reports) == 3 and all(x["problem"] == "buf-not-writable" for x in r.reports),
   "reads into read-only file mappings with odd names: three reports", r.describe())
ok(len(paths) == 3 and paths[0].endswith("/with space") and paths[1].endswith("/new\\012line") and
   paths[2].endswith("/gone (deleted)"),
   "paths with a space, an escaped newline and (deleted) are reported as the kernel shows them: %r" % paths)
from rwctest import check_clean
check_clean("oddpaths", name="writes from those mappings")

r = victim("manymaps", "bad")
ok(len(r.reports) == 1 and r.reports[0]["bad"]["first"] == 100 and r.reports[0]["bad"]["last"] == 4095 and
   r.reports[0]["region"]["kind"] == "gap" and
   int(r.reports[0]["region"]["end"], 16) - int(r.reports[0]["region"]["start"], 16) == 4096,
   "30,000 mappings: a read into a one-page gap between two of them is reported with that gap",
   r.describe()[:2000])
check_clean("manymaps", name="30,000 mappings, a good read")

# No /proc: a mount namespace with an empty tmpfs over it (needs root).
unshare = shutil.which("unshare")
probe = subprocess.run([unshare, "-m", "true"], capture_output=True) if unshare and os.geteuid() == 0 else None
for mode in ("bad", "good"):
    if probe is None or probe.returncode != 0:
        skip("no /proc, %s call" % mode, "needs root and unshare(1) for a mount namespace")
    else:
        cmd = "mount -t tmpfs none /proc && exec env LD_PRELOAD='%s' '%s' read %s" % (LIB, VICTIM, mode)
        p = subprocess.run([unshare, "-m", "sh", "-c", cmd], capture_output=True, text=True, timeout=60)
        warns = [l for l in p.stderr.splitlines() if "warning:" in l]
        ok(p.returncode == 0 and "result 10 0" in p.stdout and len(warns) == 1 and "/proc/self/maps" in warns[0]
           and "[buf-" not in p.stderr,
           "no /proc, %s call: one warning, the call passed through, no report" % mode, p.stdout + p.stderr)
done()
