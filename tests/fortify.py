"""A program built with -O2 -D_FORTIFY_SOURCE=2 calls __read_chk & co from
glibc's inlined header wrappers; the report names the __*_chk entry point
and leads to the program's own file:line."""
import os
import subprocess
from rwctest import ok, done, Run, check_report, BUILD

PROG = os.path.join(BUILD, "tests", "victim_fortify")
syms = subprocess.run(["nm", "-D", "--undefined-only", PROG], stdout=subprocess.PIPE).stdout.decode()
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
done()
