"""Every RWCHECK_* knob: good values take effect; bad ones (garbage, empty,
huge, negative) give one warning line naming the knob, the value and what
is expected, where reports go, then the default; the program is unaffected."""
import os
import re
import stat
import tempfile
from rwctest import ok, done, victim, Run, VICTIM

BAD = {
    "RWCHECK_FORMAT": ["xml", "", "JSON"],
    "RWCHECK_ACTION": ["explode", "", "EFAULT"],
    "RWCHECK_BACKTRACE": ["65", "-1", "abc", "", "99999999999999999999999", "1x"],
    "RWCHECK_LOG": ["", "/tmp/rwc-%d.log", "/tmp/rwc-%"],
    "RWCHECK_SUPPRESS": [""],
    "RWCHECK_MAPS_QUERY": ["sometimes"],
    "RWCHECK_DEDUP": ["2", "yes", "\xff\xfe"],
    "RWCHECK_GEN_SUPPRESSIONS": ["-1", "on"],
    "RWCHECK_CHECKS": ["", "heap,", "maps,,heap", "-none", "stackz", "+", "\xff", "maps;heap"],
    "RWCHECK_HEAP_ORIGINS": ["17", "-1", "two", ""],
    "RWCHECK_QUARANTINE": ["1073741825", "-1", "1M", ""],
}
for knob, values in BAD.items():
    for v in values:
        # Without RWCHECK_LOG reports and warnings go to stderr.
        r = Run([VICTIM, "read", "bad"], env={knob: v, "RWCHECK_FORMAT": "text"}
                if knob != "RWCHECK_FORMAT" else {knob: v}, fmt="text", log=False)
        warns = [l for l in r.stderr.splitlines() if "warning:" in l]
        ok(len(warns) == 1 and knob in warns[0] and ("'%s'" % v) in warns[0] and "expected" in warns[0],
           "%s=%r: one warning naming knob, value and expectation" % (knob, v), r.describe())
        ok(r.status == 0 and "result 10 0" in r.stdout, "%s=%r: program unaffected" % (knob, v), r.describe())
        ok(re.search(r"^rwcheck\[\d+\]: read\(", r.stderr, re.M) and
           len(re.findall(r"#\d+ 0x", r.stderr)) >= 2,
           "%s=%r: default in effect (text report, full backtrace, to stderr)" % (knob, v), r.describe())

# Good values.
r = victim("read", "bad", env={"RWCHECK_BACKTRACE": "1"})
ok(len(r.reports) == 1 and len(r.reports[0]["frames"]) == 1, "RWCHECK_BACKTRACE=1: one frame", r.describe())
r = victim("read", "bad", env={"RWCHECK_BACKTRACE": "0"})
ok(len(r.reports) == 1 and r.reports[0]["frames"] == [], "RWCHECK_BACKTRACE=0: no frames", r.describe())
r = victim("read", "bad", env={"RWCHECK_BACKTRACE": "64"})
ok(len(r.reports) == 1 and 2 <= len(r.reports[0]["frames"]) <= 64, "RWCHECK_BACKTRACE=64", r.describe())

# RWCHECK_LOG: %p is the pid, the file is 0600, appended, quiet on stderr.
d = tempfile.mkdtemp()
tmpl = os.path.join(d, "r.%p.100%%.log")
r = Run([VICTIM, "read", "bad"], env={"RWCHECK_LOG": tmpl, "RWCHECK_FORMAT": "json"}, log=False)
files = os.listdir(d)
ok(len(files) == 1 and re.match(r"^r\.\d+\.100%\.log$", files[0]), "RWCHECK_LOG: %%p and %%%% expanded (%s)" % files)
if files:
    st = os.stat(os.path.join(d, files[0]))
    ok(stat.S_IMODE(st.st_mode) == 0o600, "RWCHECK_LOG: created mode 0600 (%o)" % stat.S_IMODE(st.st_mode))
    ok(open(os.path.join(d, files[0])).read().count('"call"') == 1, "RWCHECK_LOG: report in the file")
    os.unlink(os.path.join(d, files[0]))
ok(r.stderr == "", "RWCHECK_LOG: nothing on the program's stderr", r.describe())
# appended, never truncated
fixed = os.path.join(d, "fixed.log")
with open(fixed, "w") as fh:
    fh.write("earlier\n")
Run([VICTIM, "read", "bad"], env={"RWCHECK_LOG": fixed, "RWCHECK_FORMAT": "json"}, log=False)
text = open(fixed).read()
ok(text.startswith("earlier\n") and text.count('"call"') == 1, "RWCHECK_LOG: appends to an existing file")
os.unlink(fixed)
# a symlink is not followed
target = os.path.join(d, "target")
open(target, "w").close()
os.symlink(target, os.path.join(d, "link"))
r = Run([VICTIM, "read", "bad"], env={"RWCHECK_LOG": os.path.join(d, "link"), "RWCHECK_FORMAT": "json"}, log=False)
ok(os.path.getsize(target) == 0 and '"call"' in r.stderr,
   "RWCHECK_LOG: a symlink is not followed; the report goes to stderr instead", r.describe())
for f in os.listdir(d):
    os.unlink(os.path.join(d, f))
os.rmdir(d)
# a warning goes where reports go
d = tempfile.mkdtemp()
r = Run([VICTIM, "read", "bad"], env={"RWCHECK_LOG": os.path.join(d, "l"), "RWCHECK_FORMAT": "yaml"}, log=False)
text = open(os.path.join(d, "l")).read() if os.path.exists(os.path.join(d, "l")) else ""
ok("RWCHECK_FORMAT='yaml'" in text and r.stderr == "", "knob warnings go to RWCHECK_LOG, not stderr", text + r.describe())
for f in os.listdir(d):
    os.unlink(os.path.join(d, f))
os.rmdir(d)
done()
