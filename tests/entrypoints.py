"""Every interposed entry point: a bad call (bytes 100..4095 of the buffer,
or of segment 1, unmapped) is reported exactly, with the caller's line,
and the real call's result is unchanged; the good twin gives no report."""
import os
from rwctest import ok, done, victim, check_report, check_clean, entry_points, SRC

# Every row of src/base/entries.def, grouped by its shape; a shape not
# placed here fails the first test (a new kind of entry point needs its
# cases here and in victim.c).
GROUPS = {"BUF": ("RWC_BUF", "RWC_BUF_CHK", "RWC_BUF_OFF", "RWC_BUF_OFF_CHK", "RWC_SOCK",
                  "RWC_SOCK_CHK", "RWC_RECVFROM", "RWC_RECVFROM_CHK", "RWC_SENDTO"),
          "IOV": ("RWC_IOV", "RWC_IOV_OFF", "RWC_IOV_OFF2"),
          "MSG": ("RWC_MSG", "RWC_MMSG", "RWC_PVM"),
          "STDIO": ("RWC_STDIO", "RWC_FREAD_CHK", "RWC_FGETS", "RWC_FGETS_CHK"),
          "OFFP": ("RWC_SENDFILE", "RWC_XFER"),
          "CAP": ("RWC_CAP",)}
ROWS = entry_points()
unplaced = [n for shape, n in ROWS if not any(shape in g for g in GROUPS.values())]
ok(ROWS and not unplaced, "every entry point of entries.def (%d) has a group here" % len(ROWS), unplaced)


def group(g):
    return [n for shape, n in ROWS if shape in GROUPS[g]]


BUF, IOV, MSG, STDIO = group("BUF"), group("IOV"), group("MSG"), group("STDIO")
# The calls that take a capacity have their cases in tests/capacity.py.
with open(os.path.join(SRC, "tests", "capacity.py")) as f:
    CAPTEST = f.read()
uncovered = [n for n in group("CAP") if '"%s"' % n not in CAPTEST]
ok(group("CAP") and not uncovered,
   "every RWC_CAP entry point (%d) has its cases in tests/capacity.py" % len(group("CAP")), uncovered)
# Offset pointers: bytes 4..7 of the 8-byte offset unmapped.
OFFP = {n: ("offset" if shape == "RWC_SENDFILE" else "off_in") for shape, n in ROWS if shape in GROUPS["OFFP"]}
SYS = {"syscall_read": "read", "syscall_write": "write", "syscall_pread64": "pread64",
       "syscall_readv": "readv"}

for e in BUF + STDIO + IOV + MSG + list(SYS):
    base = victim(e, "bad", preload=False)
    r = victim(e, "bad")
    call = "syscall" if e in SYS else e
    vector = e in IOV + MSG or e == "syscall_readv"
    check_report(r, e + " bad", call, "buf-unmapped", 100, 4095,
                 iov_index=1 if vector else None)
    if e in SYS and r.reports:
        ok(r.reports[0].get("syscall") == SYS[e], "%s: names the system call" % e, r.reports[0])
    ok(r.results == base.results and r.results,
       "%s bad: result unchanged by rwcheck (%s)" % (e, r.results), base.describe() + r.describe())
    check_clean(e)
for e, what in OFFP.items():
    base = victim(e, "bad", preload=False)
    r = victim(e, "bad")
    check_report(r, e + " bad", e, "buf-unmapped", 4, 7, what=what)
    ok(r.results == base.results and r.results,
       "%s bad: result unchanged by rwcheck (%s)" % (e, r.results), base.describe() + r.describe())
    check_clean(e)
for e in ["recvmmsg", "sendmmsg"]:
    r = victim(e, "bad")
    ok(r.reports and r.reports[0].get("msg_index") == 0 and "msgvec[0] iov[1]" in r.reports[0].get("message", ""),
       "%s: the report names the message and the segment (msgvec[0] iov[1])" % e, r.describe())
for e in STDIO:
    r = victim(e, "bad")
    ok(r.reports and r.reports[0].get("fd") == -1 and r.reports[0].get("stream", "").startswith("0x"),
       "%s: the report names the stream (fd -1)" % e, r.describe())
done()
