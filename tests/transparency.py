"""Transparency, per entry point: good buffers on descriptors the kernel
fails the call on (EBADF, EAGAIN on an empty or full non-blocking pipe or
socket, EPIPE, EISDIR, ESPIPE, EINTR from a signal) and the short and full
successes: the same result, errno and file offset with and without the
library, errno never set by a good call, and no report."""
from rwctest import ok, done, victim, entry_points

# stdio needs a stream on the descriptor: only where fdopen works
STDIO_SHAPES = ("RWC_STDIO", "RWC_FREAD_CHK", "RWC_FGETS", "RWC_FGETS_CHK")
STDIO = [n for shape, n in entry_points() if shape in STDIO_SHAPES]
# every other entry point of entries.def, and the victim's syscall() cases
# (the calls that take a capacity, RWC_CAP: tests/capacity.py, the same
# result and errno for each of their cases)
ENTRIES = [n for shape, n in entry_points() if shape not in STDIO_SHAPES + ("RWC_CAP",)] + \
    ["syscall_read", "syscall_write", "syscall_pread64", "syscall_readv"]
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
