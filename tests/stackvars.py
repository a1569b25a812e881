"""Issue 14 item 2: stack buffers judged by the variable that holds them,
from DWARF (RWCHECK_CHECKS=+stack).

Every case of tests/victim_stackvar.c, built -O0 -g, -O2 -g and -O2 -g
-D_FORTIFY_SOURCE=2: the bad mode gives exactly one stack-overflow report
naming the variable (name, C type, size, declaration line, frame, function,
what the overrun reaches), the good twin none and the same result as
without the library.  Buffers no variable holds (alloca, a VLA) and a
binary without DWARF are judged by the frame, as before."""
import atexit
import os
import re
import shutil
import struct
import subprocess
import tempfile

from rwctest import BUILD, SRC, Run, ok, done, skip, check_report

STACK = {"RWCHECK_CHECKS": "+stack"}
PROGS = [("-O0 -g", "victim_stackvar"), ("-O2 -g", "victim_stackvar_o2"),
         ("-O2 -g fortified", "victim_stackvar_fortify")]
NODW = os.path.join(BUILD, "tests", "victim_stackvar_nodw")
SOURCE = open(os.path.join(SRC, "tests", "victim_stackvar.c")).read().splitlines()


def decl_line(text):
    """The line of the declaration TEXT in the victim's source."""
    return [i + 1 for i, l in enumerate(SOURCE) if l.strip() == text][0]


# case: variable, its C type, size, offset of buf in it, count of the bad
# call, frame, function, its declaration, the neighbour it may run into
CASES = {
    "locals": ("name", "char [16]", 16, 0, 64, 0, "c_locals", "char name[16];", ("rest", "char rest[240]")),
    "member": ("s", "struct rec", 36, 4, 64, 0, "c_member", "struct rec s;", None),
    "param": ("b", "struct big", 48, 0, 64, 0, "by_value", "static NOINLINE ssize_t by_value(struct big b)", None),
    "param_down": ("b", "struct big", 48, 0, 64, 1, "by_value_down",
                   "static NOINLINE ssize_t by_value_down(struct big b)", None),
    "callee": ("line", "char [32]", 32, 0, 80, 1, "c_callee", "char line[32];", ("other", "char other[64]")),
    "block": ("blk", "char [24]", 24, 0, 50, 0, "c_block", "char blk[24];", None),
    "inlined": ("ib", "char [32]", 32, 0, 100, 0, "inl_read", "char ib[32];", None),
    "aligned": ("al", "char [32]", 32, 0, 48, 0, "c_aligned", "char al[32] __attribute__((aligned(64)));", None),
}


def run(prog, case, mode, env=STACK, **kw):
    return Run([prog, case, mode], env=env, **kw)


def clean(prog, tag, case, env=STACK):
    base = run(prog, case, "good", preload=False)
    r = run(prog, case, "good", env=env)
    ok(r.status == 0 and not r.reports and r.log == "", "%s %s good: no report" % (tag, case), r.describe())
    ok(r.results == base.results and r.results,
       "%s %s good: same result as without rwcheck (%s)" % (tag, case, r.results), base.describe())


def addrs(r):
    return {m.group(1): int(m.group(2), 16) for m in re.finditer(r"^var (\S+) (0x[0-9a-f]+)$", r.stdout, re.M)}


def variable_bad(prog, tag, case, fortified):
    name, ctype, size, off, count, frame, func, decl, near = CASES[case]
    r = run(prog, case, "bad")
    base = run(prog, case, "bad", preload=False)
    what = "%s %s bad" % (tag, case)
    call = "__read_chk" if fortified and case not in ("callee", "param_down") else "read"
    check_report(r, what, call, "stack-overflow", first=size - off, last=count - 1)
    ok(r.status == base.status and r.results == base.results,
       "%s: the call goes on as without rwcheck (status %s, %s)" % (what, base.status, base.results),
       base.describe() + r.describe())
    if not r.reports:
        return
    rep, a = r.reports[0], addrs(r)
    reg = rep.get("region", {})
    # what the overrun reaches: the neighbour, where the compiler put it
    # right above the variable (the victim prints where they are)
    into = near[0] if near and near[0] in a and a[name] + size <= a[near[0]] < a[name] + count else None
    want = {"kind": "stack-variable", "name": name, "type": ctype, "size": size,
            "decl_line": decl_line(decl), "frame": frame, "function": func}
    got = {k: reg.get(k) for k in want}
    ok(got == want and reg.get("decl_file", "").endswith("tests/victim_stackvar.c") and reg.get("into") == into
       and int(reg.get("end", "0"), 16) - int(reg.get("start", "0"), 16) == size,
       "%s: region names the variable %s (%s, %d bytes, line %d, frame #%d %s), into %s"
       % (what, name, ctype, size, want["decl_line"], frame, func, into), reg)
    if name in a:
        ok(int(reg.get("start", "0"), 16) == a[name], "%s: the variable's address is the program's &%s" % (what, name),
           (reg, a))
    decl_text = ctype.replace(" [", " %s[" % name) if "[" in ctype else "%s %s" % (ctype, name)
    first = size - off
    span = "byte %d of buf runs" % first if first == count - 1 else "bytes %d..%d of buf run" % (first, count - 1)
    words = "%s past `%s` (victim_stackvar.c:%d) in frame #%d %s" % (
        span, decl_text, want["decl_line"], frame, func)
    if into:
        words += ", into `%s`" % near[1]
    ok(rep.get("message") == words and words in rep.get("text", ""),
       "%s: the text says: %s" % (what, words), rep.get("text"))


# The same source built by clang -O2 -g, where clang is installed: its
# frame base is the stack pointer (DW_OP_reg7), so a parameter passed in
# memory is found through the sp of the frame below its holder.
CLANG_DIR = tempfile.mkdtemp()
atexit.register(shutil.rmtree, CLANG_DIR, True)
CLANG = shutil.which("clang")
if CLANG and subprocess.run([CLANG, "-O2", "-g", "-U_FORTIFY_SOURCE", "-w", "-I", os.path.join(SRC, "tests"),
                             "-o", os.path.join(CLANG_DIR, "victim_stackvar_clang"),
                             os.path.join(SRC, "tests", "victim_stackvar.c")]).returncode == 0:
    PROGS.append(("clang -O2 -g", os.path.join(CLANG_DIR, "victim_stackvar_clang")))
else:
    skip("clang -O2 -g", "no clang")

for tag, exe in PROGS:
    prog = os.path.join(BUILD, "tests", exe)
    fortified = "fortified" in tag
    for case in CASES:
        variable_bad(prog, tag, case, fortified)
        clean(prog, tag, case)
    # No variable holds an alloca()ed or variable-length buffer: the frame
    # judges it, as before.
    for case in ("alloca", "vla"):
        clean(prog, tag, case)
        r = run(prog, case, "bad")
        check_report(r, "%s %s bad" % (tag, case), "__read_chk" if fortified else "read", "stack-overflow")
        ok(r.reports and r.reports[0].get("region", {}).get("kind") == "stack-frame",
           "%s %s bad: judged by the frame (stack-frame)" % (tag, case), r.describe())
    # The good call site is cached (the variable's bounds): the bad call
    # at the same site after 1000 good ones is still caught.
    clean(prog, tag, "loop")
    r = run(prog, "loop", "bad")
    check_report(r, "%s loop bad" % tag, "__read_chk" if fortified else "read", "stack-overflow", first=16, last=63)
    ok(r.reports and r.reports[0].get("region", {}).get("name") == "name",
       "%s loop bad: after 1000 good calls at the site, the bad one names `name`" % tag, r.describe())

# The program's file replaced after it started by a copy of itself
# without DWARF (the same program headers; renamed over the name it was
# run by): its variables are still found, from the file it runs.
with tempfile.TemporaryDirectory() as d:
    me, other = os.path.join(d, "victim"), os.path.join(d, "other")
    for mode in ("bad", "good"):
        shutil.copy(os.path.join(BUILD, "tests", PROGS[0][1]), me)
        subprocess.run(["objcopy", "--strip-debug", me, other], check=True)
        r = Run([me, "exe_replaced", mode], env=dict(STACK, RWC_OTHER_EXE=other))
        if mode == "bad":
            rep = r.reports[0] if len(r.reports) == 1 else {}
            ok(rep.get("problem") == "stack-overflow" and rep.get("region", {}).get("name") == "name" and
               rep.get("bad", {}).get("first") == 16,
               "exe_replaced bad: the variable `name` named, from the file the program runs", r.describe())
        else:
            ok(r.status == 0 and not r.reports, "exe_replaced good: no report", r.describe())

# Without DWARF: the frame, as before: 64 bytes into name[16] stay in the
# frame (no report), a read past the frame is reported as stack-frame.
for case in list(CASES) + ["alloca", "vla", "loop"]:
    clean(NODW, "-O2 no DWARF", case)
for case in ("locals", "param", "param_down", "callee"):
    r = run(NODW, case, "bad")
    ok(r.status == 0 and not r.reports, "-O2 no DWARF %s bad: inside the frame, no verdict by variable" % case,
       r.describe())
r = run(NODW, "member", "bad")
rep = r.reports[0] if len(r.reports) == 1 else {}
ok(rep.get("call") == "read" and rep.get("problem") == "stack-overflow" and
   rep.get("region", {}).get("kind") == "stack-frame" and (rep.get("frames") or [{}])[0].get("function") == "c_member",
   "-O2 no DWARF member bad: one report, judged by the frame (stack-frame) of c_member", r.describe())

# A process's first checks ask the kernel for the one mapping that holds
# the buffer (PROCMAP_QUERY) and probe the frame's module for DWARF with
# pread: without DWARF, three good stack reads map none of the library's
# memory (its per-process pages: the one mapping wiped on fork); with the
# query off the snapshot maps it (the twin that shows the count can see it).
def big_anon(r):
    m = re.search(r"^wipe-on-fork mappings (\d+)$", r.stdout, re.M)
    return int(m.group(1)) if m else -1


base = run(NODW, "firstchecks", "good", preload=False)
r = run(NODW, "firstchecks", "good", env={})
ok(r.status == 0 and not r.reports and r.results == base.results and big_anon(r) == big_anon(base) == 0,
   "no DWARF, the first checks: no report, the same result, none of the library's memory mapped", r.describe())
r = run(NODW, "firstchecks", "good", env={"RWCHECK_MAPS_QUERY": "parse"})
ok(r.status == 0 and not r.reports and big_anon(r) == 1,
   "... with RWCHECK_MAPS_QUERY=parse (the whole map read): the library's memory mapped", r.describe())
r = run(os.path.join(BUILD, "tests", PROGS[1][1]), "firstchecks", "good", env={})
ok(r.status == 0 and not r.reports and big_anon(r) == 1,
   "... with DWARF (-O2 -g: libdw runs on the library's own stack): mapped", r.describe())

# Whether a module has DWARF is read from its file (section names, with
# pread), or, where its ELF header in memory leaves no room for any
# between its loaded bytes and its section headers (a stripped file), from
# that alone: the -O2 -g victim without its symbol table still has its
# variables (room: the DWARF), a fully stripped one is judged by frames.
tmp = tempfile.mkdtemp(prefix="rwc-stackvars-")
nosym = os.path.join(tmp, "victim_stackvar_nosym")
stripped = os.path.join(tmp, "victim_stackvar_stripped")
o2 = os.path.join(BUILD, "tests", PROGS[1][1])
made = (subprocess.run(["objcopy", "--strip-all", "--keep-section=.debug_*", o2, nosym]).returncode == 0 and
        subprocess.run(["objcopy", "--strip-all", o2, stripped]).returncode == 0)


def elf_layout(path):
    """Section names, and the room between the loaded bytes and the
    section headers (what dwprobe.c reads from the header in memory)."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phnum, shnum, shstrndx = struct.unpack_from("<H", data, 0x38)[0], *struct.unpack_from("<HH", data, 0x3c)
    end = 0
    for i in range(phnum):
        ptype, _, off, _, _, filesz = struct.unpack_from("<IIQQQQ", data, phoff + 56 * i)
        if ptype == 1:  # PT_LOAD
            end = max(end, off + filesz)
    names_off, = struct.unpack_from("<Q", data, shoff + 64 * shstrndx + 0x18)
    names = set()
    for i in range(shnum):
        name, = struct.unpack_from("<I", data, shoff + 64 * i)
        names.add(data[names_off + name:data.index(b"\0", names_off + name)].decode())
    return names, shoff - end


if made:
    names, room = elf_layout(nosym)
    ok(".symtab" not in names and ".debug_info" in names and room > 512,
       "the victim without .symtab keeps .debug_info, room %d after its loaded bytes" % room, sorted(names))
    r = run(nosym, "locals", "bad")
    rep = r.reports[0] if len(r.reports) == 1 else {}
    ok(rep.get("problem") == "stack-overflow" and rep.get("region", {}).get("kind") == "stack-variable" and
       rep.get("region", {}).get("name") == "name",
       "-O2 -g without .symtab, locals bad: the variable's verdict (`name`)", r.describe())
    clean(nosym, "-O2 -g without .symtab", "locals")
    names, room = elf_layout(stripped)
    ok(".symtab" not in names and ".debug_info" not in names and room <= 512,
       "the fully stripped victim: room %d <= 512 after its loaded bytes (its header in memory says: no DWARF)" % room, sorted(names))
    r = run(stripped, "member", "bad")
    rep = r.reports[0] if len(r.reports) == 1 else {}
    ok(rep.get("problem") == "stack-overflow" and rep.get("region", {}).get("kind") == "stack-frame",
       "fully stripped, member bad: judged by the frame", r.describe())
    clean(stripped, "fully stripped", "member")
else:
    ok(False, "objcopy made the victims without a symbol table and fully stripped")

# Variables sharing a slot (-O2): which one the buffer is in, the DWARF
# does not say, so the widest decides (an overrun of the smaller one
# through such a site is not seen): a read into b (declared before a
# block, or after it past a goto) through a call that -O2 tail merging
# left in the block's code, where the block's a shares b's slot, is
# judged by b (40 of 64 bytes: fine; 80: past b), never by a; a call
# clang merged into code of line 0, where only a third array is in
# scope, is judged by no variable.  (Each good read was reported
# falsely by one rule tried in session 17: the inner scope's variable
# first, or only when the outer one is declared after it, or no line-0
# rule.)
SHARED = ("merged", "gototail", "joined", "shared", "inlshared")
for tag, exe in PROGS:
    prog = os.path.join(BUILD, "tests", exe)
    for case in SHARED:
        clean(prog, tag, case)
    if tag.startswith("clang"):
        continue  # (the merged tail is GCC's)
    r = run(prog, "merged", "bad")
    rep = r.reports[0] if len(r.reports) == 1 else {}
    reg = rep.get("region", {})
    ok(rep.get("problem") == "stack-overflow" and reg.get("name") == "b" and reg.get("size") == 64 and
       rep.get("bad", {}).get("first") == 64, "%s merged bad: one report, past `b` (64 bytes), not `a`" % tag,
       r.describe())

# clang -O2 -g: DWARF 5, no .debug_aranges (the CU is found by its
# ranges), the variable's file numbered 0 (the CU's own, built by a
# relative name in its directory): the caller's file:line and the
# variable's declaration are still named.
clang = shutil.which("clang")
for f in ("victim_stackvar.c", "victim.h"):
    shutil.copy(os.path.join(SRC, "tests", f), tmp)
# (-O0: the frame base is rbp, which the CFI says is the CFA less 16)
for opt in ("-O2", "-O1", "-O0") if clang else ():
    cl = os.path.join(tmp, "victim_stackvar_clang" + opt)
    if subprocess.run([clang, opt, "-g", "-U_FORTIFY_SOURCE", "-o", cl, "victim_stackvar.c"], cwd=tmp).returncode:
        ok(False, "clang %s -g: the victim built" % opt)
        continue
    names, _ = elf_layout(cl)
    ok(".debug_aranges" not in names and ".debug_info" in names, "clang %s -g: .debug_info, no .debug_aranges" % opt,
       sorted(names))
    r = run(cl, "locals", "bad")
    check_report(r, "clang %s -g locals bad" % opt, "read", "stack-overflow", first=16, last=63)
    reg = r.reports[0].get("region", {}) if r.reports else {}
    ok(reg.get("kind") == "stack-variable" and reg.get("name") == "name" and reg.get("size") == 16 and
       reg.get("decl_line") == decl_line("char name[16];") and reg.get("decl_file", "").endswith("victim_stackvar.c"),
       "clang %s -g locals bad: the variable `name` declared at victim_stackvar.c:%d" % (opt, decl_line("char name[16];")),
       reg)
    clean(cl, "clang %s -g" % opt, "locals")
    r = run(cl, "member", "bad")
    reg = r.reports[0].get("region", {}) if len(r.reports) == 1 else {}
    ok(reg.get("kind") == "stack-variable" and reg.get("name") == "s" and reg.get("size") == 36,
       "clang %s -g member bad: past the struct `s` (36 bytes)" % opt, r.describe())
    clean(cl, "clang %s -g" % opt, "member")
    for case in SHARED:
        clean(cl, "clang %s -g" % opt, case)
if not clang:
    print("# clang not found: the clang builds' cases not run")

# clang -ffunction-sections linked with --gc-sections: the discarded
# function's DWARF keeps a range from address 0, in the CU before the
# caller's; the caller's CU is still the one found (file:line, variable).
GC_A = "volatile int v[64];\nint unused_big(void)\n{\n%s\treturn v[1];\n}\nint used_a(void) { return v[2]; }\n" % \
    "".join("\tv[%d] = v[%d] * 3 + %d;\n" % (i % 64, (i * 7) % 64, i) for i in range(400))
GC_B = """#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int used_a(void);
__attribute__((noinline)) int victim(int fd, int n)
{
\tchar small[8];
\tchar other[400];
\tother[0] = 0;
\tssize_t r = read(fd, small, n);
\treturn (int)r + small[0] + other[0];
}
int main(int argc, char **argv)
{
\tint fd = open(argv[1], O_RDONLY);
\tprintf("result %d\\n", victim(fd, argc > 2 ? 16 : 8) + used_a());
\treturn 0;
}
"""
if clang:
    for name, text in (("gc_a.c", GC_A), ("gc_b.c", GC_B), ("gc_data", "abcd")):
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    gc = os.path.join(tmp, "gc_prog")
    built = subprocess.run([clang, "-O2", "-g", "-ffunction-sections", "-Wl,--gc-sections", "-o", gc, "gc_a.c", "gc_b.c"],
                           cwd=tmp).returncode == 0
    ok(built, "clang --gc-sections: built")
    if built:
        r = Run([gc, os.path.join(tmp, "gc_data"), "bad"], env=STACK)
        rep = r.reports[0] if len(r.reports) == 1 else {}
        f0 = (rep.get("frames") or [{}])[0]
        ok(rep.get("problem") == "stack-overflow" and f0.get("function") == "victim" and
           f0.get("file", "").endswith("gc_b.c") and f0.get("line") == 10 and
           rep.get("region", {}).get("name") == "small",
           "clang --gc-sections bad: victim at gc_b.c:10, the variable `small`", r.describe())
        r = Run([gc, os.path.join(tmp, "gc_data")], env=STACK)
        ok(r.status == 0 and not r.reports and "result 101" in r.stdout, "clang --gc-sections good: no report",
           r.describe())
shutil.rmtree(tmp, ignore_errors=True)

# The stack check is on by default; without it, nothing is said.
prog = os.path.join(BUILD, "tests", PROGS[1][1])
r = run(prog, "locals", "bad", env={})
ok(r.status == 0 and len(r.reports) == 1 and r.reports[0].get("region", {}).get("kind") == "stack-variable",
   "default checks: the variable's verdict", r.describe())
r = run(prog, "locals", "bad", env={"RWCHECK_CHECKS": "-stack"})
ok(r.status == 0 and not r.reports and r.log == "", "RWCHECK_CHECKS=-stack: no stack verdict", r.describe())

# Allocation traces (RWCHECK_HEAP_ORIGINS above 1) walk the stack through
# the map view from the start: the first checked call, a bad one into a
# stack variable, is still judged with the checks read (it was answered by
# the fast path with the bounds checks not yet on).
for origins in ("2", "16"):
    r = run(prog, "locals", "bad", env={"RWCHECK_HEAP_ORIGINS": origins})
    ok(r.status == 0 and len(r.reports) == 1 and r.reports[0].get("region", {}).get("kind") == "stack-variable",
       "RWCHECK_HEAP_ORIGINS=%s: the first checked call still judged by the variable" % origins, r.describe())
    clean(prog, "RWCHECK_HEAP_ORIGINS=%s" % origins, "locals", env={"RWCHECK_HEAP_ORIGINS": origins})
done()
