"""Every interposed entry point: a bad call (bytes 100..4095 of the buffer,
or of segment 1, unmapped) is reported exactly, with the caller's line,
and the real call's result is unchanged; the good twin gives no report."""
from rwctest import ok, done, victim, check_report, check_clean

BUF = ["read", "write", "__read_chk", "pread", "pread64", "pwrite", "pwrite64",
       "__pread_chk", "__pread64_chk", "recv", "send", "__recv_chk", "recvfrom",
       "__recvfrom_chk", "sendto"]
IOV = ["readv", "writev", "preadv", "preadv64", "pwritev", "pwritev64", "preadv2",
       "preadv64v2", "pwritev2", "pwritev64v2"]
MSG = ["recvmsg", "sendmsg", "recvmmsg", "sendmmsg", "process_vm_readv", "process_vm_writev"]
STDIO = ["fread", "fread_unlocked", "__fread_chk", "__fread_unlocked_chk", "fwrite",
         "fwrite_unlocked", "fgets", "fgets_unlocked", "__fgets_chk", "__fgets_unlocked_chk"]
# Offset pointers: bytes 4..7 of the 8-byte offset unmapped.
OFFP = {"sendfile": "offset", "sendfile64": "offset", "splice": "off_in", "copy_file_range": "off_in"}
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
