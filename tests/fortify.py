"""A program built with -O2 -D_FORTIFY_SOURCE=2 calls __read_chk & co from
glibc's inlined header wrappers; the report names the __*_chk entry point
and leads to the program's own file:line.

Inlined callers (issue 12): victim_fortify built at -O1, -O2, -O3, with and
without _FORTIFY_SOURCE=2.  A call in slurp() (inlined into main) reports
#0 slurp at the call's line, #1 main at slurp's call; a call in inner()
inlined into outer() inlined into main reports all three, each at its
line; glibc's inlined wrapper (a system header) gives no frame.  A
suppression fun:slurp silences the report; one that starts fun:main does
not."""
import json
import os
import re
import subprocess
import tempfile
from rwctest import ok, done, Run, check_report, BUILD

VARIANTS = [("-O1 fortified", "victim_fortify_o1f"), ("-O2 fortified", "victim_fortify"),
            ("-O3 fortified", "victim_fortify_o3f"), ("-O1", "victim_fortify_o1"),
            ("-O2", "victim_fortify_o2"), ("-O3", "victim_fortify_o3")]
PROG = os.path.join(BUILD, "tests", "victim_fortify")


def undefined(prog):
    out = subprocess.run(["nm", "-D", "--undefined-only", prog], stdout=subprocess.PIPE).stdout.decode()
    return [w.split("@")[0] for w in out.split()]


def called(syms, *names):
    """The first of NAMES the program imports (pread may be pread64)."""
    return next((s for s in names if s in syms), names[0])


syms = undefined(PROG)
for entry, chk in [("read", "__read_chk"), ("pread", "__pread64_chk"), ("recv", "__recv_chk"),
                   ("recvfrom", "__recvfrom_chk")]:
    if chk == "__pread64_chk" and chk not in syms:
        chk = "__pread_chk"
    ok(chk in syms, "%s: the fortified build really calls %s" % (entry, chk), syms)
    r = Run([PROG, entry, "bad"])
    check_report(r, "fortified " + entry, chk, "buf-not-writable", 4096, 8191)
    base = Run([PROG, entry, "good"], preload=False)
    g = Run([PROG, entry, "good"])
    ok(not g.reports and g.results == base.results and g.results,
       "fortified %s good: no report, same result" % entry, g.describe())

d = tempfile.mkdtemp()


def supp(name, *frames):
    path = os.path.join(d, name + ".supp")
    with open(path, "w") as f:
        f.write("{\n  %s\n  rwcheck:buf-not-writable\n%s}\n" % (name, "".join("  fun:%s\n" % x for x in frames)))
    return path


def inlined(tag, prog, case, call):
    """One bad call inlined into main: its report shows the r.sites chain."""
    name = "%s %s bad" % (tag, case)
    r = Run([prog, case, "bad"])
    if not ok(len(r.reports) == 1 and len(r.sites) >= 2, "%s: exactly one report" % name, r.describe()):
        return
    rep = r.reports[0]
    want = list(reversed(r.sites))  # innermost first
    frames = rep.get("frames", [])
    got = [(f.get("function"), os.path.basename(f.get("file", "")), f.get("line")) for f in frames[:len(want)]]
    ok(rep.get("call") == call and rep.get("problem") == "buf-not-writable",
       "%s: call %s, buf-not-writable" % (name, call), rep)
    ok(got == [(fn, "victim_fortify.c", line) for fn, line in want],
       "%s: frames %s" % (name, " ".join("%s:%d" % w for w in want)), json.dumps(frames[:4], indent=1))
    ok(len(set(f.get("pc") for f in frames[:len(want)])) == 1,
       "%s: the chain really is inlined (one pc)" % name, json.dumps(frames[:4], indent=1))
    text = rep.get("text", "")
    ok(all(re.search(r"#%d 0x[0-9a-f]+ in %s \S*victim_fortify\.c:%d$" % (i, fn, line), text, re.M)
           for i, (fn, line) in enumerate(want)), "%s: the text report shows the same frames" % name, text)
    base = Run([prog, case, "good"], preload=False)
    g = Run([prog, case, "good"])
    ok(not g.reports and g.results == base.results and g.results,
       "%s %s good: no report, same result" % (tag, case), g.describe())
    return want


for tag, exe in VARIANTS:
    prog = os.path.join(BUILD, "tests", exe)
    syms = undefined(prog)
    fort = "fortified" in tag
    for entry, chk, plain in [("read", ("__read_chk",), ("read",)),
                              ("pread", ("__pread64_chk", "__pread_chk"), ("pread64", "pread")),
                              ("recv", ("__recv_chk",), ("recv",)),
                              ("recvfrom", ("__recvfrom_chk",), ("recvfrom",))]:
        inlined(tag, prog, "inline_" + entry, called(syms, *(chk if fort else plain)))
    inlined(tag, prog, "chain", called(syms, "__read_chk" if fort else "read"))

    base = Run([prog, "inline_read", "bad"], preload=False)
    r = Run([prog, "inline_read", "bad"], env={"RWCHECK_SUPPRESS": supp("slurp", "slurp")})
    ok(not r.reports and r.log == "" and r.results == base.results,
       "%s inline_read: a suppression fun:slurp silences it" % tag, r.describe())
    r = Run([prog, "inline_read", "bad"], env={"RWCHECK_SUPPRESS": supp("slurp_main", "slurp", "main")})
    ok(not r.reports and r.log == "", "%s inline_read: ... and fun:slurp fun:main" % tag, r.describe())
    r = Run([prog, "inline_read", "bad"], env={"RWCHECK_SUPPRESS": supp("main", "main")})
    ok(len(r.reports) == 1, "%s inline_read: fun:main alone does not (slurp is the caller)" % tag, r.describe())
    r = Run([prog, "chain", "bad"], env={"RWCHECK_SUPPRESS": supp("chain", "inner", "outer", "main")})
    ok(not r.reports and r.log == "", "%s chain: fun:inner fun:outer fun:main silences it" % tag, r.describe())

# The wrapper's summary names the inlined caller too.
want = inlined("-O2 fortified (wrapper)", PROG, "inline_read", "__read_chk") or [("slurp", 0)]
p = subprocess.run([os.path.join(BUILD, "rwcheck"), "--", PROG, "inline_read", "bad"],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
err = p.stderr.decode("utf-8", "replace")
ok(p.returncode == 1 and re.search(r"buf-not-writable in __read_chk\(\) at slurp \(\S*victim_fortify\.c:%d\)"
                                   % want[0][1], err),
   "wrapper: the summary says __read_chk() at slurp (victim_fortify.c:%d)" % want[0][1], err)
done()
