"""Transparency, per entry point: good buffers on descriptors the kernel
fails the call on (EBADF, EAGAIN on an empty or full non-blocking pipe or
socket, EPIPE, EISDIR, ESPIPE, EINTR from a signal) and the short and full
successes: the same result, errno and file offset with and without the
library, errno never set by a good call, and no report."""
from rwctest import ok, done, victim

ENTRIES = ["read", "write", "__read_chk", "pread", "pread64", "pwrite", "pwrite64",
           "__pread_chk", "__pread64_chk", "readv", "writev", "preadv", "preadv64",
           "pwritev", "pwritev64", "preadv2", "preadv64v2", "pwritev2", "pwritev64v2",
           "recv", "send", "__recv_chk", "recvfrom", "__recvfrom_chk", "sendto",
           "recvmsg", "sendmsg", "syscall_read", "syscall_write", "syscall_pread64",
           "syscall_readv", "recvmmsg", "sendmmsg", "sendfile", "sendfile64", "splice",
           "copy_file_range", "process_vm_readv", "process_vm_writev"]
# stdio needs a stream on the descriptor: only where fdopen works
STDIO = ["fread", "fread_unlocked", "__fread_chk", "__fread_unlocked_chk", "fwrite",
         "fwrite_unlocked", "fgets", "fgets_unlocked", "__fgets_chk", "__fgets_unlocked_chk"]
MODES = ["ebadf", "eagain", "epipe", "eintr", "success"]
for mode in MODES:
    same, errors, clean = [], set(), []
    entries = ENTRIES + (STDIO if mode in ("success", "eagain", "epipe") else [])
    for e in entries:
        env = {} if mode == "success" else {"VICTIM_FDS": mode}
        a = victim(e, "good", preload=False, env=env)
        b = victim(e, "good", env=env)
        if a.stdout == b.stdout and a.status == b.status and a.results:
            same.append(e)
        else:
            print("# %s %s differs:\n# without: %r\n# with:    %r" % (mode, e, a.stdout, b.stdout))
        if not b.reports and b.log == "":
            clean.append(e)
        errors.update(r.split()[2] for r in a.results)
    ok(len(same) == len(entries),
       "%s: result, errno and offset unchanged for all %d entry points (errnos seen: %s)"
       % (mode, len(entries), ",".join(sorted(errors))))
    ok(len(clean) == len(entries), "%s: no report for any of them" % mode)
r = victim("write_errno_kept", "good")
ok("errno after good call 4321" in r.stdout, "a good call leaves errno as it was (never 0)", r.stdout)
done()
