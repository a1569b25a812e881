"""RWCHECK_SUPPRESS and RWCHECK_GEN_SUPPRESSIONS: a matching suppression
silences the report (and the action); others do not; a generated
suppression silences the report it came from; a malformed file gives
warnings with file:line and never stops the program."""
import os
import re
import tempfile
from rwctest import ok, done, victim

d = tempfile.mkdtemp()


def supp(text):
    path = os.path.join(d, "s%d.supp" % len(os.listdir(d)))
    with open(path, "w") as f:
        f.write(text)
    return path


base = victim("read", "bad")
site = base.sites[-1] if base.sites else ("?", 0)

s = supp("{\n  read tail\n  rwcheck:buf-unmapped\n  fun:c_read\n  fun:main\n}\n")
r = victim("read", "bad", env={"RWCHECK_SUPPRESS": s})
ok(not r.reports and r.results == base.results, "fun: frames matching the caller silence the report", r.describe())
r = victim("read", "bad", env={"RWCHECK_SUPPRESS": s, "RWCHECK_ACTION": "efault"})
ok(not r.reports and "result 10 0" in r.stdout, "... and the action: the real call is made", r.describe())
r = victim("write", "bad", env={"RWCHECK_SUPPRESS": s})
ok(len(r.reports) == 1, "a call elsewhere is still reported", r.describe())

s = supp("{\n  by line\n  rwcheck:buf-*\n  src:victim.c:%d\n}\n" % site[1])
r = victim("read", "bad", env={"RWCHECK_SUPPRESS": s})
ok(not r.reports, "src:file:line with a problem glob", r.describe())
s = supp("{\n  wrong line\n  rwcheck:buf-unmapped\n  src:victim.c:%d\n}\n" % (site[1] + 1))
r = victim("read", "bad", env={"RWCHECK_SUPPRESS": s})
ok(len(r.reports) == 1, "another line is not suppressed", r.describe())
s = supp("{\n  by module\n  rwcheck:*\n  ...\n  obj:*/victim\n}\n")
r = victim("read", "bad", env={"RWCHECK_SUPPRESS": s})
ok(not r.reports, "... then obj: glob", r.describe())

# generated suppressions round-trip
r = victim("read", "bad", env={"RWCHECK_GEN_SUPPRESSIONS": "1"})
gen = r.reports[0].get("suppression", "") if r.reports else ""
ok(gen.startswith("{") and "rwcheck:buf-unmapped" in gen and "fun:c_read" in gen,
   "RWCHECK_GEN_SUPPRESSIONS=1: the report carries a suppression", r.describe())
r2 = victim("read", "bad", env={"RWCHECK_SUPPRESS": supp(gen)})
ok(gen and not r2.reports, "the generated suppression silences that report", r2.describe())
r = victim("read", "bad", fmt="text", env={"RWCHECK_GEN_SUPPRESSIONS": "1"})
ok(re.search(r"^\{\n   <insert_a_suppression_name_here>\n   rwcheck:buf-unmapped\n   fun:c_read\n", r.log, re.M),
   "in text, the block follows the report", r.log)

# malformed files
s = supp("{\n  good\n  rwcheck:buf-unmapped\n  fun:c_read\n}\n{\n  bad\n  memcheck:Addr4\n}\njunk\n")
r = victim("read", "bad", fmt="text", log=False, env={"RWCHECK_SUPPRESS": s})
warns = [l for l in r.stderr.splitlines() if "warning:" in l]
ok(len(warns) == 2 and all(s in w for w in warns) and ":8:" in warns[0] and ":10:" in warns[1],
   "a malformed file: one warning per bad entry, with file:line", r.stderr)
ok("result 10 0" in r.stdout and "[buf-unmapped]" not in r.stderr,
   "... the program runs on, and the good entry still applies", r.describe())
r = victim("read", "bad", fmt="text", log=False, env={"RWCHECK_SUPPRESS": os.path.join(d, "missing")})
ok(r.stderr.count("warning:") == 1 and "RWCHECK_SUPPRESS" in r.stderr and "[buf-unmapped]" in r.stderr,
   "a missing file: one warning, reports as usual", r.stderr)
r = victim("read", "bad", fmt="text", log=False, env={"RWCHECK_SUPPRESS": "/"})
ok(r.stderr.count("warning:") == 1 and "result 10 0" in r.stdout, "a directory: one warning", r.stderr)
s = supp("\0\xff{{{\n}}}\n" * 50)
r = victim("read", "bad", fmt="text", log=False, env={"RWCHECK_SUPPRESS": s})
ok(r.status == 0 and "result 10 0" in r.stdout, "binary garbage: warnings, no crash", r.describe()[:2000])
for f in os.listdir(d):
    os.unlink(os.path.join(d, f))
os.rmdir(d)
done()
