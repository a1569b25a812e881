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

# A count larger than the object the compiler saw (issue 14, item 4):
# glibc's __*_chk aborts the call ("buffer overflow detected", status
# SIGABRT); rwcheck reports it first, with the caller, the object and
# both sizes.  The object is the heap block when the buffer is in one,
# else [buf, buf + the compiler's size) on the caller's stack or in the
# module's image.
OVER = [("over_global", "__read_chk", "global-overflow", "global", 16, 16, 63),
        ("over_stack", "__read_chk", "stack-overflow", "stack-variable", 16, 16, 63),
        ("over_heap", "__read_chk", "heap-overflow", "heap-block", 100, 100, 199),
        ("over_fread", "__fread_chk", "global-overflow", "global", 16, 16, 63),
        ("over_recv", "__recv_chk", "global-overflow", "global", 16, 16, 63)]
for case, chk, problem, kind, size, first, last in OVER:
    name = "compiler's size %s" % case
    base = Run([PROG, case, "bad"], preload=False)
    ok(base.status == -6 and "buffer overflow detected" in base.stderr,
       "%s bad without rwcheck: glibc aborts it" % name, base.describe())
    r = Run([PROG, case, "bad"])
    ok(r.status == -6 and "buffer overflow detected" in r.stderr and "result" not in r.stdout,
       "%s bad: still aborted by glibc after the report" % name, r.describe())
    check_report(r, name, chk, problem, first, last)
    if r.reports:
        rep = r.reports[0]
        reg = rep.get("region", {})
        if kind == "stack-variable" and reg.get("kind") == "stack-frame":
            # the stack check on (RWC_TEST_CHECKS=all): the frame is known, and wins
            ok(reg.get("compiler_size") == size and int(reg.get("start", "0"), 16) <= int(rep.get("buf", "0"), 16),
               "%s: region the caller's frame, compiler_size %d" % (name, size), reg)
        else:
            ok(reg.get("kind") == kind and reg.get("size") == size and reg.get("compiler_size") == size and
               int(reg.get("start", "0"), 16) == int(rep.get("buf", "0x1"), 16),
               "%s: region %s of %d bytes at buf, compiler_size %d" % (name, kind, size, size), reg)
        ok("the compiler saw an object of %d bytes at buf; count %d is larger" % (size, last + 1)
           in rep.get("text", ""), "%s: the text says the compiler saw %d bytes" % (name, size), rep.get("text"))
        if kind == "global":
            ok(reg.get("module", "").endswith("victim_fortify"), "%s: the module is the program" % name, reg)
    g = Run([PROG, case, "good"])
    gb = Run([PROG, case, "good"], preload=False)
    ok(g.status == 0 and not g.reports and g.log == "" and g.results == gb.results and g.results,
       "%s good (count == the compiler's size): no report, same result" % name, g.describe())
# Report first, then glibc's abort: the order on stderr.
r = Run([PROG, "over_global", "bad"], fmt="text", log=False)
err = r.stderr
ok(r.status == -6 and 0 <= err.find("[global-overflow]") < err.find("buffer overflow detected"),
   "compiler's size: the report is on stderr before glibc's abort message", r.describe())
r = Run([PROG, "over_global", "bad"], env={"RWCHECK_CHECKS": "maps,offset,count"})
ok(r.status == -6 and not r.reports, "compiler's size: no report without the bounds checks (glibc aborts alone)",
   r.describe())

# Without DWARF the stack check knows only the caller's frame: the bad
# bytes still start where the compiler's object ends (16), not where the
# frame's saved registers do (the new-user trial's D6: "bytes 40..63 ...
# past the object the compiler saw"), and the frame line keeps its own.
nodw = os.path.join(d, "victim_fortify_nodw")
subprocess.run(["objcopy", "--strip-debug", PROG, nodw], check=True)
r = Run([nodw, "over_stack_pad", "bad"], env={"RWCHECK_CHECKS": "all"})
rep = r.reports[0] if len(r.reports) == 1 else {}
reg = rep.get("region", {})
text = rep.get("text", "").split("\n")
ok(rep.get("problem") == "stack-overflow" and rep.get("bad", {}).get("first") == 16 and
   rep.get("bad", {}).get("last") == 63 and reg.get("kind") == "stack-frame" and reg.get("compiler_size") == 16 and
   "bytes 16..63 of buf are past the object the compiler saw" in text[0] and len(text) > 1 and
   re.search(r"buf\+(\d+) reaches the saved registers .* registers saved from \+\1$", text[1]) is not None and
   int(re.search(r"buf\+(\d+)", text[1]).group(1)) > 16,
   "compiler's size over_stack_pad without DWARF: bytes 16..63 past the compiler's object, the frame's saved "
   "registers where they are", r.describe())

# The capacity calls' fortified twins hand over the compiler's size too
# (buflen, fdslen, listlen): a call past it is reported first, with the
# compiler's line, in the -g build and in a copy without DWARF, where that
# size is all that says where a stack array ends (readlink's 40 bytes end
# inside the frame: without the compiler's size there was no report, and
# glibc aborted alone).
CAP_OVER = [("over_readlink", "__readlink_chk", "buf", "stack-overflow", 40),
            ("over_getcwd", "__getcwd_chk", "buf", "global-overflow", 64),
            ("over_gethostname", "__gethostname_chk", "name", "stack-overflow", 64),
            ("over_poll", "__poll_chk", "fds", "stack-overflow", 64),
            ("over_getgroups", "__getgroups_chk", "list", "global-overflow", 64)]
for prog, tag in [(PROG, "-g"), (nodw, "no DWARF")]:
    for case, chk, arg, problem, nbytes in CAP_OVER:
        name = "compiler's size %s (%s)" % (case, tag)
        base = Run([prog, case, "bad"], preload=False)
        ok(base.status == -6 and "buffer overflow detected" in base.stderr,
           "%s bad without rwcheck: glibc aborts it" % name, base.describe())
        r = Run([prog, case, "bad"])
        rep = r.reports[0] if len(r.reports) == 1 else {}
        frames = rep.get("frames") or [{}]
        ok(r.status == -6 and rep.get("call") == chk and rep.get("problem") == problem and
           rep.get("arg") == arg and rep.get("bad", {}).get("first") == 16 and
           rep.get("bad", {}).get("last") == nbytes - 1 and rep.get("region", {}).get("compiler_size") == 16 and
           frames[0].get("function") == "f_" + case and
           "the compiler saw an object of 16 bytes at %s; the call's %d bytes there are more: glibc's %s aborts "
           "the program" % (arg, nbytes, chk) in rep.get("text", ""),
           "%s bad: %s %s, bytes 16..%d of %s, the compiler's 16 bytes, then glibc's abort"
           % (name, chk, problem, nbytes - 1, arg), r.describe())
        w = Run([prog, case, "warm"])
        rep = w.reports[0] if len(w.reports) == 1 else {}
        ok(w.status == -6 and rep.get("call") == chk and rep.get("bad", {}).get("first") == 16,
           "%s warm (three good calls first): the bad call still reported" % name, w.describe())
        g = Run([prog, case, "good"])
        gb = Run([prog, case, "good"], preload=False)
        ok(g.status == 0 and not g.reports and g.log == "" and g.results == gb.results and g.results,
           "%s good (the compiler's size): no report, same result" % name, g.describe())

# Counts past an int or a size_t product: the fortified twins compare the
# raw count with the compiler's size (glibc aborts: reported first); the
# plain readlink's kernel takes (1 << 32) + 40 as 40 (reported: 16..39 of
# char b[16]); the plain poll's kernel fails 2^61 + 1 (EINVAL: nothing).
for case, chk in [("over_readlink", "__readlink_chk"), ("over_poll", "__poll_chk")]:
    name = "compiler's size %s huge" % case
    base, r = Run([PROG, case, "huge"], preload=False), Run([PROG, case, "huge"])
    ok(base.status == -6 and r.status == -6 and len(r.reports) == 1 and r.reports[0].get("call") == chk,
       "%s: one report from %s, then glibc's abort" % (name, chk), base.describe() + r.describe())
plain = os.path.join(BUILD, "tests", "victim_fortify_o2")
r, base = Run([plain, "over_readlink", "huge"]), Run([plain, "over_readlink", "huge"], preload=False)
rep = r.reports[0] if len(r.reports) == 1 else {}
ok(rep.get("call") == "readlink" and rep.get("problem") == "stack-overflow" and
   rep.get("bad", {}).get("first") == 16 and rep.get("bad", {}).get("last") == 39 and r.results == base.results,
   "readlink with (1 << 32) + 40 (the kernel's 40) into char b[16]: stack-overflow, bytes 16..39", r.describe())
r, base = Run([plain, "over_poll", "huge"]), Run([plain, "over_poll", "huge"], preload=False)
ok(not r.reports and r.log == "" and r.results == base.results and r.results,
   "poll with 2^61 + 1 pollfds (the kernel's EINVAL): no report, same result", r.describe())

# The wrapper's summary names the inlined caller too.
want = inlined("-O2 fortified (wrapper)", PROG, "inline_read", "__read_chk") or [("slurp", 0)]
p = subprocess.run([os.path.join(BUILD, "rwcheck"), "--", PROG, "inline_read", "bad"],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
err = p.stderr.decode("utf-8", "replace")
ok(p.returncode == 1 and re.search(r"buf-not-writable in __read_chk\(\) at slurp \(\S*victim_fortify\.c:%d\)"
                                   % want[0][1], err),
   "wrapper: the summary says __read_chk() at slurp (victim_fortify.c:%d)" % want[0][1], err)
done()
