"""The library maps its own memory at its first need, not at start.  When
that first need is a hole the program makes (munmap, syscall(SYS_munmap),
free of an mmapped block), the memory is mapped before the hole exists and
so never lands in it: a read into the hole is reported.  When it is a
vfork child, the child reports in safe mode and the parent as usual; when
it is a fork child, the child reports as usual.  Each case also runs good:
no report, the same result as without the library."""
import re
from rwctest import ok, done, victim, check_report, check_clean

for entry in ["first_munmap", "first_raw_munmap", "first_free"]:
    r = victim(entry, "bad")
    check_report(r, entry + " (a read into the top of the program's first hole)", "read",
                 "buf-unmapped", 0, 9)
    check_clean(entry)

r = victim("first_vfork", "bad")
kid = re.findall(r"^vfork child (\d+)$", r.stdout, re.M)
child = [x for x in r.reports if kid and x["pid"] == int(kid[0])]
parent = [x for x in r.reports if not kid or x["pid"] != int(kid[0])]
ok(r.status == 0 and len(child) == 1 and len(parent) == 1 and
   all(x["call"] == "read" and x["problem"] == "buf-not-writable" for x in r.reports),
   "first need in a vfork child: one report from the child, one from the parent", r.describe())
ok(child and child[0]["frames"] and "function" not in child[0]["frames"][0],
   "... the child's in safe mode (raw frames)", child[:1])
site = r.sites[-1] if r.sites else ("?", -1)
f0 = (parent[0]["frames"] or [{}])[0] if parent else {}
ok(f0.get("function") == site[0] and f0.get("line") == site[1],
   "... the parent's as usual, naming its caller %s at victim.c:%d" % site, parent[:1])
check_clean("first_vfork")

r = victim("first_fork", "bad")
kid = re.findall(r"^fork child (\d+) 0$", r.stdout, re.M)
check_report(r, "first need in a fork child", "read", "buf-not-writable", 0, 9)
ok(kid and r.reports and r.reports[0]["pid"] == int(kid[0]),
   "... made under the child's pid", r.describe())
check_clean("first_fork")
done()
