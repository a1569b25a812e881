"""Reports never go into the program's own files (issue 12): a program
that closed stderr and opened its output file (which got descriptor 2)
must find only its own data there.  Reports go to the stderr the process
started with, or, when descriptor 2 is another file, nowhere but a log
the user named; the messages dropped are counted, and said at exit if
descriptor 2 is the original stderr again."""
import os
import subprocess
import sys
import tempfile

from rwctest import LIB, ok, done

# The program: its bad call is a read of 8192 bytes into one mapped page.
PROG = r"""
import ctypes, os, sys
path, start_closed, restore = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "1"
saved = None if start_closed else os.dup(2)
os.close(2) if not start_closed else None
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
assert fd == 2, fd
libc = ctypes.CDLL(None)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.read.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
m = libc.mmap(None, 8192, 3, 0x22, -1, 0)
libc.munmap(m + 4096, 4096)
src = os.open("/etc/hostname", os.O_RDONLY)
n = libc.read(src, m, 8192)
os.write(2, b"program data\n")
if restore and saved is not None:
    os.dup2(saved, 2)
print("read", n > 0)
"""


def run(start_closed=False, restore=False, log=None):
    d = tempfile.mkdtemp(prefix="rwc-stderr-")
    out = os.path.join(d, "out.txt")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RWCHECK_")}
    env["LD_PRELOAD"] = LIB
    if log:
        env["RWCHECK_LOG"] = os.path.join(d, "log.%p")
    p = subprocess.run([sys.executable, "-c", PROG, out, "1" if start_closed else "0", "1" if restore else "0"],
                       env=env, capture_output=True, text=True, timeout=60,
                       preexec_fn=(lambda: os.close(2)) if start_closed else None)
    data = open(out).read()
    logs = "".join(open(os.path.join(d, f)).read() for f in os.listdir(d) if f.startswith("log."))
    return p, data, logs


p, data, logs = run()
ok(p.returncode == 0 and data == "program data\n",
   "stderr closed and reopened as the program's file: the file holds only the program's data", repr(data))
ok("[buf-unmapped]" not in p.stderr, "... the report is not written anywhere else either", p.stderr)

p, data, logs = run(log=True)
ok(data == "program data\n" and "[buf-unmapped]" in logs and "read(fd=" in logs,
   "the same with RWCHECK_LOG: the report is in the log, the file untouched", repr(data) + logs)

p, data, logs = run(start_closed=True)
ok(p.returncode == 0 and data == "program data\n",
   "started with descriptor 2 closed, then opened as the program's file: only the program's data", repr(data))

p, data, logs = run(restore=True)
ok(p.returncode == 0 and data == "program data\n" and
   "1 message dropped: descriptor 2 was not this process's stderr" in p.stderr and
   "[buf-unmapped]" not in p.stderr,
   "stderr restored before exit: the file untouched, one line on stderr counts the dropped report",
   repr(data) + "\n" + p.stderr)

# The twin: stderr left alone, the report is on stderr, nothing dropped.
env = {k: v for k, v in os.environ.items() if not k.startswith("RWCHECK_")}
env["LD_PRELOAD"] = LIB
twin = PROG.replace("os.close(2) if not start_closed else None", "").replace("assert fd == 2, fd", "")
q = subprocess.run([sys.executable, "-c", twin, os.devnull, "0", "0"], env=env, capture_output=True, text=True,
                   timeout=60)
ok(q.returncode == 0 and q.stderr.count("[buf-unmapped]") == 1 and "dropped" not in q.stderr,
   "a program that keeps its stderr: the report is there, nothing dropped", q.stdout + q.stderr)
done()
