"""Issue 14 item 3: globals by symbol (RWCHECK_CHECKS global, on by default).

Every case of tests/victim_global.c in five builds (-O0 -g, -O2 -g, -O2
-D_FORTIFY_SOURCE=2, -no-pie, and exported with -rdynamic then stripped of
.symtab, so that only .dynsym names the objects): the bad mode gives
exactly one global-overflow report naming the object, its size, its
module and the caller's line; the good twin gives none and the same
result as without the library.  A row of a 2-D array read past the row
but inside the array, a size-0 object, a TLS variable: never a report.
A read from a signal handler before the program's objects are loaded:
no verdict (a handler never loads), the same read after it: reported;
one after they are loaded: reported and named.  An object's name is read
from the file when a report asks: named after a chdir (the file taken by
its absolute name), not named once the file was replaced.
The check off (RWCHECK_CHECKS=-global): no report."""
import os
import re
import subprocess

from rwctest import BUILD, Run, ok, skip, done, check_report

T = os.path.join(BUILD, "tests")
PROGS = [("-O0", os.path.join(T, "victim_global")),
         ("-O2", os.path.join(T, "victim_global_o2")),
         ("fortify", os.path.join(T, "victim_global_fortify")),
         ("no-pie", os.path.join(T, "victim_global_nopie")),
         ("stripped", os.path.join(T, "victim_global_stripped"))]
LIBENV = {"RWC_GLOBLIB": os.path.join(T, ".libs", "libglob.so")}

# case: call, first and last bad byte, object name and size
BAD = {
    "bss": ("read", 32, 127, "hdr", 32),
    "data": ("read", 24, 99, "table", 24),
    "rows": ("read", 32, 63, "grid", 64),
    "rodata": ("write", 16, 63, "banner", 16),
    "readv": ("readv", 16, 47, "vec_b", 16),
    "warm": ("read", 32, 127, "hdr", 32),
    "lib": ("read", 40, 79, "globlib_buf", 40),
    "lib_reopen": ("read", 40, 79, "globlib_buf", 40),  # dlclose, dlopen again
    "handler": ("read", 32, 127, "hdr", 32),  # the handler's call: no verdict
    "overlap": ("read", 48, 63, "victim_ov", 48),  # two symbols, one object
    "hidden": ("read", 16, 47, "hidden", 16),  # a static: not in .dynsym
}
# Calls the fortified build makes through __read_chk (the compiler knows
# the object): glibc aborts after the report, with or without rwcheck.
FORTIFIED = {"bss", "data", "warm", "tls", "handler", "hidden"}


def run(prog, case, mode, **kw):
    kw["env"] = dict(LIBENV, **(kw.get("env") or {}))
    return Run([prog, case, mode], **kw)


def object_of(r):
    m = re.search(r"^object (\S+) (\d+) (0x[0-9a-f]+)$", r.stdout, re.M)
    return (m.group(1), int(m.group(2)), int(m.group(3), 16)) if m else (None, None, None)


def same_as_without(prog, tag, case, mode, r):
    base = run(prog, case, mode, preload=False)
    ok(r.results == base.results and r.status == base.status,
       "%s %s %s: same result as without rwcheck (%s, status %s)" % (tag, case, mode, r.results, r.status),
       base.describe())


def clean(prog, tag, case, mode="good", env=None):
    r = run(prog, case, mode, env=env)
    ok(not r.reports and r.log == "", "%s %s %s: no report" % (tag, case, mode), r.describe())
    same_as_without(prog, tag, case, mode, r)


def bad(prog, tag, case):
    call, first, last, name, size = BAD[case]
    if tag == "fortify" and case in FORTIFIED:
        call = "__read_chk"
    r = run(prog, case, "bad")
    what = "%s %s bad" % (tag, case)
    check_report(r, what, call, "global-overflow", first=first, last=last,
                 iov_index=1 if case == "readv" else None)
    if r.reports:
        rep = r.reports[0]
        reg = rep.get("region", {})
        oname, osize, oaddr = object_of(r)
        start = oaddr  # the object (the whole array for rows), not the buffer
        module = LIBENV["RWC_GLOBLIB"] if case.startswith("lib") else prog
        ok(reg.get("kind") == "global" and reg.get("name") == name and reg.get("size") == size and
           int(reg.get("start", "0"), 16) == start and int(reg.get("end", "0"), 16) == start + size,
           "%s: region global `%s`, %d bytes at %s" % (what, name, size, hex(start or 0)), reg)
        ok(os.path.realpath(reg.get("module", "")) == os.path.realpath(module),
           "%s: module %s" % (what, os.path.basename(module)), reg)
        text = "run past the global `%s` (%d bytes) in %s" % (name, size, reg.get("module"))
        ok(text in rep.get("text", "") and "[global-overflow]" in rep.get("text", ""),
           "%s: the text report names the object" % what, rep.get("text"))
    same_as_without(prog, tag, case, "bad", r)


for tag, prog in PROGS:
    for case in BAD:
        if tag == "stripped" and case == "hidden":
            clean(prog, tag, case, "bad")  # no symbol covers it: no verdict
        elif not (tag == "fortify" and case == "handler"):  # glibc aborts in the handler
            bad(prog, tag, case)
        clean(prog, tag, case)
    clean(prog, tag, "rows")  # a row past its end, inside the array
    for case in ("zero", "tls"):
        clean(prog, tag, case, "good")
        if not (tag == "fortify" and case == "tls"):
            clean(prog, tag, case, "bad")
    clean(prog, tag, "bss", "bad", env={"RWCHECK_CHECKS": "-global"})

    # Four threads, each a bad read into its own object at once.
    r = run(prog, "threads", "bad", env={"RWCHECK_DEDUP": "0"})
    names = sorted(rep.get("region", {}).get("name") or "" for rep in r.reports)
    ok(r.status == 0 and names == ["t_obj0", "t_obj1", "t_obj2", "t_obj3"] and
       all(rep.get("call") == "pread" and rep.get("problem") == "global-overflow" and
           rep.get("bad", {}).get("first") == 24 for rep in r.reports),
       "%s threads bad: one report per thread, each naming its object" % tag, r.describe())
    clean(prog, tag, "threads")

# The fortified TLS read aborts in glibc, after rwcheck's report: no
# symbol covers a TLS variable, so the object is the compiler's size.
r = run(PROGS[2][1], "tls", "bad")
rep = r.reports[0] if len(r.reports) == 1 else {}
ok(r.status == -6 and rep.get("problem") == "global-overflow" and
   rep.get("region", {}).get("module") == "thread-local storage" and rep.get("region", {}).get("compiler_size") == 16,
   "fortify tls bad: reported (thread-local storage, the compiler's 16 bytes), then glibc aborts", r.describe())

# What the overrun reaches: the first object of the module (nm) that
# starts inside the bad bytes, if any.
def objects(prog):
    try:
        out = subprocess.run(["nm", "-S", "--defined-only", prog], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True).stdout
    except OSError:
        return None
    return [(int(a, 16), int(z, 16), n) for a, z, t, n in re.findall(r"^(\S+) (\S+) ([bBdDrR]) (\S+)$", out, re.M)]


for tag, prog in PROGS[:2]:
    syms = objects(prog)
    if syms is None:
        skip("%s into" % tag, "no nm")
        continue
    for case in ("bss", "data", "rows", "readv"):
        r = run(prog, case, "bad")
        reg = r.reports[0].get("region", {}) if r.reports else {}
        bad = r.reports[0].get("bad", {}) if r.reports else {}
        end, stop = int(reg.get("end", "0"), 16), int(bad.get("end", "0"), 16)
        base = int(reg.get("start", "0"), 16) - next((a for a, z, n in syms if n == reg.get("name")), 0)
        hit = sorted((a, n) for a, z, n in syms if end <= a + base < stop)
        ok(reg.get("into") == (hit[0][1] if hit else None),
           "%s %s bad: into %s" % (tag, case, hit[0][1] if hit else "nothing"), (reg, hit))

# A global's name is read from the file when a report first needs it: the
# library's file replaced (another inode) after its objects were read, the
# report names no object, and says the rest; the same file kept, it does.
import shutil
import tempfile
with tempfile.TemporaryDirectory() as d:
    copy, other = os.path.join(d, "libglobcopy.so"), os.path.join(d, "other.so")
    for replaced in (False, True):
        shutil.copy(LIBENV["RWC_GLOBLIB"], copy)
        shutil.copy(LIBENV["RWC_GLOBLIB"], other)
        env = {"RWC_GLOBLIB_COPY": copy}
        if replaced:
            env["RWC_GLOBLIB_OTHER"] = other
        tag = "lib_replaced (file %s)" % ("replaced" if replaced else "kept")
        r = run(PROGS[0][1], "lib_replaced", "bad", env=env)
        check_report(r, tag, "read", "global-overflow", first=40, last=79)
        reg = r.reports[0].get("region", {}) if r.reports else {}
        text = r.reports[0].get("text", "") if r.reports else ""
        if replaced:
            ok(reg.get("kind") == "global" and reg.get("size") == 40 and not reg.get("name") and
               "globlib_buf" not in text and "global object of 40 bytes" in text,
               "%s: the object and its size, without a name" % tag, (reg, text))
        else:
            ok(reg.get("name") == "globlib_buf" and "`globlib_buf` (40 bytes)" in text,
               "%s: the object named" % tag, (reg, text))
        r = run(PROGS[0][1], "lib_replaced", "good", env=env)
        ok(not r.reports and r.log == "", "%s good: no report" % tag, r.describe())

# The program's file replaced (renamed over) after it started, before
# its first global check: its objects are its own, not the new file's
# (the name it was run by no longer is its file: /proc/self/exe is).
with tempfile.TemporaryDirectory() as d:
    for mode in ("bad", "good"):
        me, other = os.path.join(d, "victim"), os.path.join(d, "other")
        shutil.copy(PROGS[0][1], me)
        shutil.copy(PROGS[3][1], other)  # (the same objects elsewhere: no PIE)
        r = Run([me, "exe_replaced", mode], env=dict(LIBENV, RWC_OTHER_EXE=other))
        if mode == "bad":  # (its frames unnamed: the file it runs is deleted)
            rep = r.reports[0] if len(r.reports) == 1 else {}
            reg = rep.get("region", {})
            ok(rep.get("problem") == "global-overflow" and rep.get("bad", {}).get("first") == 32 and
               rep.get("bad", {}).get("last") == 39 and reg.get("name") == "hdr" and reg.get("size") == 32,
               "exe_replaced bad: one report, bytes 32..39 past its own `hdr` (32 bytes)", r.describe())
        else:
            ok(r.status == 0 and not r.reports and r.results == ["result 10 0"],
               "exe_replaced good: no report, the same result", r.describe())

# A name read where the report is made: in a signal handler (objects
# loaded before it), and for a library opened by a relative name after
# the program moved to another directory.
for tag, prog in PROGS[:2]:
    r = run(prog, "handler_named", "bad")
    rep = r.reports[0] if len(r.reports) == 1 else {}
    reg = rep.get("region", {})
    ok(rep.get("problem") == "global-overflow" and reg.get("name") == "hdr" and reg.get("size") == 32 and
       "`hdr` (32 bytes)" in rep.get("text", ""),
       "%s handler_named bad: the handler's report (on an 8 KiB alternate stack) names `hdr`" % tag, r.describe())
    clean(prog, tag, "handler_named")
    r = run(prog, "lib_chdir", "bad")
    check_report(r, "%s lib_chdir bad" % tag, "read", "global-overflow", first=40, last=79)
    reg = r.reports[0].get("region", {}) if r.reports else {}
    ok(reg.get("name") == "globlib_buf" and reg.get("size") == 40,
       "%s lib_chdir bad: named after a chdir (%s)" % (tag, reg.get("module")), reg)
    clean(prog, tag, "lib_chdir")

# A run of unnamed mappings and holes that the global check found to hold
# no module (it remembers the whole run from a second buffer there on),
# then a library opened into one of its holes (a 32 MiB .bss: no smaller
# hole above fits it) and its global read into, good then bad: judged.
with tempfile.TemporaryDirectory() as d:
    big = os.path.join(d, "libbigglob.so")
    src = os.path.join(d, "bigglob.c")
    with open(src, "w") as f:
        f.write(open(os.path.join(os.environ.get("RWC_SRCDIR", "."), "tests", "globlib.c")).read())
        f.write("char globlib_big[32 << 20];\n")
    cc = os.environ.get("CC", "gcc").split()
    if subprocess.run(cc + ["-shared", "-fPIC", "-O2", "-g", "-o", big, src]).returncode != 0:
        ok(False, "lib_in_hole: the library with a 32 MiB .bss built")
    for query in ("parse", None):
        env = {"RWC_GLOBLIB": big}
        if query:
            env["RWCHECK_MAPS_QUERY"] = query
        tag = "lib_in_hole (%s)" % ("the map read" if query else "the first checks' queries")
        r = run(PROGS[1][1], "lib_in_hole", "bad", env=env)
        m = re.search(r"^hole (0x[0-9a-f]+) (0x[0-9a-f]+)$", r.stdout, re.M)
        _, _, at = object_of(r)
        ok(m and at and int(m.group(1), 16) <= at < int(m.group(2), 16),
           "%s: the library was opened into the hole" % tag, r.describe())
        check_report(r, tag, "read", "global-overflow", first=40, last=79)
        reg = r.reports[0].get("region", {}) if r.reports else {}
        ok(reg.get("name") == "globlib_buf" and reg.get("size") == 40, "%s: the library's object named" % tag, reg)
        r = run(PROGS[1][1], "lib_in_hole", "good", env=env)
        ok(not r.reports and r.log == "" and r.status == 0, "%s good: no report" % tag, r.describe())

# The stripped build has no .symtab: its objects came from .dynsym.
with open(PROGS[4][1], "rb") as f:
    ok(b".symtab" not in f.read(), "stripped: no .symtab in the file")
# dlopen is not interposed: glibc takes its caller (RUNPATH, $ORIGIN)
# from its return address, which a wrapper would make the library's.
with tempfile.TemporaryDirectory() as d:
    os.mkdir(os.path.join(d, "lib"))
    shutil.copy(LIBENV["RWC_GLOBLIB"], os.path.join(d, "lib", "libglob.so"))
    src = os.path.join(d, "origin.c")
    with open(src, "w") as f:
        f.write('#include <dlfcn.h>\n#include <stdio.h>\nint main(void)\n{\n'
                '\tvoid *a = dlopen("libglob.so", RTLD_NOW), *b = dlopen("$ORIGIN/lib/libglob.so", RTLD_NOW);\n'
                '\tprintf("%d %d\\n", a != NULL, b != NULL);\n\treturn 0;\n}\n')
    prog = os.path.join(d, "origin")
    cc = os.environ.get("CC", "gcc").split()
    if subprocess.run(cc + ["-o", prog, src, "-ldl", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/lib"]).returncode:
        ok(False, "dlopen by RUNPATH and $ORIGIN: the program built")
    else:
        base, r = Run([prog], preload=False), Run([prog])
        ok(base.stdout.strip() == "1 1" and r.stdout == base.stdout and not r.reports,
           "dlopen by RUNPATH and $ORIGIN: found as without the library (%s)" % r.stdout.strip(), r.describe())

done()
