"""Each problem of the vocabulary that the memory map and the offsets can
show, with its clean twin; the actions efault and abort; the text format."""
import re
import signal
from rwctest import ok, done, victim, check_report, check_clean

CASES = [
    # entry, call, problem, first, last
    ("read_readonly", "read", "buf-not-writable", 100, 4095),
    ("write_noaccess", "write", "buf-not-readable", 100, 4095),
    ("write_all_unmapped", "write", "buf-unmapped", 0, 4095),
    ("pread_negative", "pread", "offset-negative", None, None),
    ("pread_overflow", "pread", "offset-overflow", None, None),
    ("preadv2_offset", "preadv2", "offset-negative", None, None),
    ("preadv_none", "preadv", "offset-negative", None, None),
    ("recvmsg_iovlen", "recvmsg", "iovcnt-invalid", None, None),
    ("read_count", "read", "count-too-large", None, None),
    ("readv_iovcnt", "readv", "iovcnt-invalid", None, None),
    ("readv_iovcnt_big", "readv", "iovcnt-invalid", None, None),
    ("readv_array", "readv", "iov-array-bad", 100, 31),
    ("readv_len", "readv", "iov-len-overflow", None, None),
    ("read_warm", "read", "buf-unmapped", 100, 4095),
    ("readv_warm", "readv", "buf-unmapped", 100, 4095),
    ("recvmsg_control", "recvmsg", "buf-unmapped", 100, 199),
    ("sendfile_negative", "sendfile", "offset-negative", None, None),
    ("splice_overflow", "splice", "offset-overflow", None, None),
    ("fread_count", "fread", "count-too-large", None, None),
]
for entry, call, problem, first, last in CASES:
    base = victim(entry, "bad", preload=False)
    r = victim(entry, "bad")
    if entry == "readv_array":
        # the array starts 16 bytes before the page end: bytes 16..31 unmapped
        first, last = 16, 31
    check_report(r, entry, call, problem, first, last)
    ok(r.results == base.results and r.results, "%s: result unchanged (%s)" % (entry, r.results),
       base.describe() + r.describe())
    check_clean(entry)

# write() of an unmapped range to /dev/null: the kernel says full success.
r = victim("write_all_unmapped", "bad")
ok(r.results == ["result 4096 0"], "write of unmapped memory to /dev/null 'succeeds' in full", r.describe())
# read() of a 10-byte file into a 4096-byte request: short and 'successful'.
r = victim("read", "bad")
ok(r.results == ["result 10 0"], "short read into a half-unmapped buffer 'succeeds'", r.describe())
check_clean("read_null_zero", name="read(fd, NULL, 0)")
check_clean("preadv2_offset", name="preadv2 offset -1 (current position)")
r = victim("recvmsg_iovlen", "bad")
ok(r.reports and "iovcnt 2000 is outside 0..1024" in r.reports[0].get("text", "") and
   r.reports[0].get("count") == 2000, "recvmsg with msg_iovlen 2000: said as 2000", r.describe())

# efault: the call fails as a full kernel check would, nothing transferred.
r = victim("read_efault_offset", "bad", env={"RWCHECK_ACTION": "efault"})
ok(len(r.reports) == 1 and r.reports[0].get("action") == "efault", "efault: reported", r.describe())
ok("result -1 14" in r.stdout, "efault: read fails with EFAULT", r.describe())
ok("offset 0" in r.stdout, "efault: the file offset did not move", r.describe())
r = victim("pread_negative", "bad", env={"RWCHECK_ACTION": "efault"})
ok("result -1 22" in r.stdout, "efault: bad offset fails with EINVAL", r.describe())
# A buffer past its object, or freed, is a bad buffer too: EFAULT.
import os
from rwctest import Run, BUILD
for prog, case, problem in [("victim_bounds", "heap_malloc", "heap-overflow"),
                            ("victim_bounds", "heap_freed", "use-after-free"),
                            ("victim_bounds", "stack_local", "stack-overflow"),
                            ("victim_global", "bss", "global-overflow")]:
    r = Run([os.path.join(BUILD, "tests", prog), case, "bad"], env={"RWCHECK_ACTION": "efault"})
    ok(len(r.reports) == 1 and r.reports[0].get("problem") == problem and "result -1 14" in r.stdout,
       "efault: %s %s (%s) fails with EFAULT" % (prog, case, problem), r.describe())
r = victim("read_efault_offset", "good", env={"RWCHECK_ACTION": "efault"})
ok("result 10 0" in r.stdout and "offset 10" in r.stdout and not r.reports,
   "efault: a good call is untouched", r.describe())

# abort: report first, then SIGABRT.
r = victim("read", "bad", env={"RWCHECK_ACTION": "abort"})
ok(r.status == -signal.SIGABRT, "abort: the program dies of SIGABRT", r.describe())
ok(len(r.reports) == 1 and r.reports[0].get("action") == "abort", "abort: the report came first", r.describe())

# text format: the DESIGN.md layout.
r = victim("read", "bad", fmt="text")
lines = r.log.splitlines()
site = r.sites[-1] if r.sites else ("?", 0)
ok(len(lines) >= 3 and re.match(
    r"^rwcheck\[\d+\]: read\(fd=\d+, buf=0x[0-9a-f]+, count=4096\): bytes 100\.\.4095 of buf are not mapped \[buf-unmapped\]$",
    lines[0]), "text: first line names call, bad bytes and problem", r.log)
ok(len(lines) >= 3 and re.match(
    r"^rwcheck\[\d+\]:   buf\+100 is 0 bytes past the end of 0x[0-9a-f]+-0x[0-9a-f]+ rw-p", lines[1]),
   "text: second line says what lies there", r.log)
ok(len(lines) >= 3 and re.match(
    r"^rwcheck\[\d+\]:     #0 0x[0-9a-f]+ in %s \S*victim\.c:%d$" % (site[0], site[1]), lines[2]),
   "text: frame #0 is the caller's file:line", r.log)
r = victim("read_readonly", "bad", fmt="text")
ok(re.search(r"buf\+100 is inside 0x[0-9a-f]+-0x[0-9a-f]+ r--p", r.log),
   "text: a read-only mapping is described with its permissions", r.log)
# With the maps check off, an offset pointer half in unmapped memory is
# still never read (its offset check is skipped): no report, no crash.
for e in ("sendfile", "splice", "copy_file_range"):
    base = victim(e, "bad", preload=False)
    r = victim(e, "bad", env={"RWCHECK_CHECKS": "-maps"})
    ok(r.status == 0 and not r.reports and r.results == base.results,
       "%s, maps check off: the unreadable offset pointer is not read (%s)" % (e, r.results), r.describe())
done()
