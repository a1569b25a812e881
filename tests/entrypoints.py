"""Every interposed entry point: a bad call (bytes 100..4095 of the buffer,
or of segment 1, unmapped) is reported exactly, with the caller's line,
and the real call's result is unchanged; the good twin gives no report."""
from rwctest import ok, done, victim, check_report, check_clean

BUF = ["read", "write", "__read_chk", "pread", "pread64", "pwrite", "pwrite64",
       "__pread_chk", "__pread64_chk", "recv", "send", "__recv_chk", "recvfrom",
       "__recvfrom_chk", "sendto"]
IOV = ["readv", "writev", "preadv", "preadv64", "pwritev", "pwritev64", "preadv2",
       "preadv64v2", "pwritev2", "pwritev64v2"]
MSG = ["recvmsg", "sendmsg"]
SYS = {"syscall_read": "read", "syscall_write": "write", "syscall_pread64": "pread64",
       "syscall_readv": "readv"}

for e in BUF + IOV + MSG + list(SYS):
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
done()
