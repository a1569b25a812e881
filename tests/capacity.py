"""The calls that hand the kernel a capacity (issue 15): readlink, getcwd,
getdents64, getrandom, the xattr getters, gethostname, getgroups,
sched_getaffinity, epoll_wait/pwait/pwait2, poll/ppoll, select/pselect,
accept/accept4, getsockname, getpeername, getsockopt/setsockopt, bind,
connect, sendto's and recvfrom's addresses, mq_receive, msgrcv, their
fortified __*_chk twins and their syscall() numbers.

Per case of tests/victim_capacity.c, built -O0, -O2 and -O2
-D_FORTIFY_SOURCE=2 (also non-PIE): the bad call (its result short and harmless) gives
exactly one report naming the call, the argument ("arg"), the problem,
the bad bytes and the caller's line, and the same result and errno as
without the library; its good twin gives no report and the same result.
Size-0 queries and getcwd(NULL, 0) check nothing."""
import os
import re
import subprocess
from rwctest import ok, done, Run, BUILD

HEAP = "heap-overflow"
RO = "buf-not-writable"
SS = 128  # sizeof(struct sockaddr_storage)
# case: (call, arg, problem, first bad byte, last bad byte, has fd)
CASES = {
    "readlink": ("readlink", "buf", HEAP, 24, 255, False),
    "readlinkat": ("readlinkat", "buf", HEAP, 24, 255, True),
    "getcwd": ("getcwd", "buf", HEAP, 24, 4095, False),
    "getdents64": ("getdents64", "dirp", HEAP, 56, 4095, True),
    "getrandom": ("getrandom", "buf", RO, 16, 31, False),
    "getxattr": ("getxattr", "value", HEAP, 24, 255, False),
    "lgetxattr": ("lgetxattr", "value", HEAP, 24, 255, False),
    "fgetxattr": ("fgetxattr", "value", HEAP, 24, 255, True),
    "listxattr": ("listxattr", "list", HEAP, 24, 255, False),
    "llistxattr": ("llistxattr", "list", HEAP, 24, 255, False),
    "flistxattr": ("flistxattr", "list", HEAP, 24, 255, True),
    "gethostname": ("gethostname", "name", HEAP, 72, 255, False),
    "getdomainname": ("getdomainname", "name", HEAP, 72, 255, False),
    "getgroups": ("getgroups", "list", HEAP, 24, 255, False),
    "sched_getaffinity": ("sched_getaffinity", "mask", HEAP, 24, 27, False),
    "epoll_wait": ("epoll_wait", "events", HEAP, 24, 767, True),
    "epoll_pwait": ("epoll_pwait", "events", HEAP, 24, 767, True),
    "epoll_pwait2": ("epoll_pwait2", "events", HEAP, 24, 767, True),
    "poll": ("poll", "fds", RO, 24, 31, False),
    "ppoll": ("ppoll", "fds", RO, 24, 31, False),
    "select": ("select", "readfds", HEAP, 136, 143, False),
    "pselect": ("pselect", "writefds", HEAP, 136, 143, False),
    "accept": ("accept", "addr", HEAP, 24, SS - 1, True),
    "accept4": ("accept4", "addr", HEAP, 24, SS - 1, True),
    "accept_addrlen": ("accept", "addrlen", RO, 2, 3, True),
    "getsockname": ("getsockname", "addr", HEAP, 24, SS - 1, True),
    "getpeername": ("getpeername", "addr", HEAP, 24, SS - 1, True),
    "getsockopt": ("getsockopt", "optval", HEAP, 24, 63, True),
    "setsockopt": ("setsockopt", "optval", HEAP, 24, 63, True),
    "bind": ("bind", "addr", HEAP, 24, SS - 1, True),
    "connect": ("connect", "addr", HEAP, 24, SS - 1, True),
    "sendto": ("sendto", "dest_addr", HEAP, 24, SS - 1, True),
    "recvfrom": ("recvfrom", "src_addr", HEAP, 24, SS - 1, True),
    "mq_receive": ("mq_receive", "msg_ptr", HEAP, 24, 63, True),
    "mq_timedreceive": ("mq_timedreceive", "msg_ptr", HEAP, 24, 63, True),
    "msgrcv": ("msgrcv", "msgp", HEAP, 24, 71, False),
    "syscall_readlink": ("syscall", "buf", HEAP, 24, 255, True),
    "syscall_epoll_pwait": ("syscall", "events", HEAP, 24, 767, True),
    "syscall_getsockopt": ("syscall", "optval", HEAP, 24, 63, True),
    "syscall_getcwd": ("syscall", "buf", HEAP, 24, 4095, False),
    "syscall_getdents64": ("syscall", "dirp", HEAP, 56, 4095, True),
    "syscall_getxattr": ("syscall", "value", HEAP, 24, 255, False),
    "syscall_sched_getaffinity": ("syscall", "mask", HEAP, 24, 27, False),
    "syscall_pselect6": ("syscall", "readfds", HEAP, 136, 143, False),
    "syscall_accept4": ("syscall", "addr", HEAP, 24, SS - 1, True),
    "syscall_recvfrom": ("syscall", "src_addr", HEAP, 24, SS - 1, True),
    "syscall_sendto": ("syscall", "dest_addr", HEAP, 24, SS - 1, True),
    "syscall_connect": ("syscall", "addr", HEAP, 24, SS - 1, True),
    "syscall_msgrcv": ("syscall", "msgp", HEAP, 24, 71, False),
}
SYSCALL = {"syscall_readlink": "readlinkat", "syscall_epoll_pwait": "epoll_pwait",
           "syscall_getsockopt": "getsockopt", "syscall_getcwd": "getcwd",
           "syscall_getdents64": "getdents64", "syscall_getxattr": "getxattr",
           "syscall_sched_getaffinity": "sched_getaffinity", "syscall_pselect6": "pselect6",
           "syscall_accept4": "accept4", "syscall_recvfrom": "recvfrom", "syscall_sendto": "sendto",
           "syscall_connect": "connect", "syscall_msgrcv": "msgrcv"}
# the fortified twins: (plain call, __*_chk, arg); bad: fbuf's second page read-only
FORT = {"fort_readlink": ("readlink", "__readlink_chk", "buf"),
        "fort_readlinkat": ("readlinkat", "__readlinkat_chk", "buf"),
        "fort_getcwd": ("getcwd", "__getcwd_chk", "buf"),
        "fort_gethostname": ("gethostname", "__gethostname_chk", "name"),
        "fort_getdomainname": ("getdomainname", "__getdomainname_chk", "name"),
        "fort_getgroups": ("getgroups", "__getgroups_chk", "list"),
        "fort_poll": ("poll", "__poll_chk", "fds"),
        "fort_ppoll": ("ppoll", "__ppoll_chk", "fds")}
QUERIES = ["getcwd_null", "getxattr_query", "getgroups_query"]
# The arrays of vector calls against their objects (the helper's D2/D3:
# iovcnt or vlen past the array went unreported, or a garbage "segment"
# past it was): case: (call, what, problem, first, last, count)
ARRAYS = {"writev_array": ("writev", "the iovec array", HEAP, 28, 31, 2),
          "writev_garray": ("writev", "the iovec array", "global-overflow", 16, 31, 2),
          "recvmmsg_array": ("recvmmsg", "the mmsghdr array", HEAP, 124, 127, 2),
          "sendmsg_msghdr": ("sendmsg", "the msghdr", HEAP, 52, 55, 56)}
VARIANTS = [("-O0", "victim_capacity"), ("-O2", "victim_capacity_o2"),
            ("fortified", "victim_capacity_fortify"), ("fortified non-PIE", "victim_capacity_fortify_nopie")]


def run(prog, case, mode, preload=True):
    return Run([os.path.join(BUILD, "tests", prog), case, mode], preload=preload)


def check_bad(v, prog, case, exp):
    call, arg, problem, first, last, has_fd = exp
    name = "%s %s bad" % (v, case)
    base, r = run(prog, case, "bad", preload=False), run(prog, case, "bad")
    if base.stdout.strip().endswith("77") or base.status == 77:
        return
    if not ok(len(r.reports) == 1 and not r.bad_json, "%s: exactly one report" % name, r.describe()):
        return
    rep = r.reports[0]
    bad = rep.get("bad", {})
    ok(rep.get("call") == call and rep.get("arg") == arg and rep.get("problem") == problem and
       bad.get("first") == first and bad.get("last") == last and rep.get("count") == last + 1 and
       re.match(r"^0x[0-9a-f]+$", rep.get("buf", "")),
       "%s: %s, arg %s, %s, bytes %d..%d of %d" % (name, call, arg, problem, first, last, last + 1), rep)
    if case in SYSCALL:
        ok(rep.get("syscall") == SYSCALL[case], "%s: names the system call" % name, rep)
    ok(isinstance(rep.get("fd"), int) if has_fd else "fd" not in rep,
       "%s: %s" % (name, "fd an integer" if has_fd else "no fd (the call has none)"), rep)
    ok(("%s (%d bytes)" % (arg, last + 1)) in rep.get("message", "") and
       rep.get("text", "").split("\n")[0].find("%s(" % call) > 0,
       "%s: the text names the call, the argument and its capacity" % name, rep.get("text"))
    f0 = (rep.get("frames") or [{}])[0]
    site = r.sites[-1] if r.sites else ("?", -1)
    ok(f0.get("function") == site[0] and f0.get("line") == site[1] and
       os.path.basename(f0.get("file", "")) == "victim_capacity.c",
       "%s: the first frame is %s at victim_capacity.c:%d" % (name, site[0], site[1]), f0)
    ok(r.results == base.results and r.results and r.status == base.status == 0,
       "%s: same result and errno as without rwcheck (%s)" % (name, r.results),
       base.describe() + r.describe())


def check_array(v, prog, case, exp):
    call, what, problem, first, last, count = exp
    name = "%s %s bad" % (v, case)
    base, r = run(prog, case, "bad", preload=False), run(prog, case, "bad")
    if not ok(len(r.reports) == 1 and not r.bad_json, "%s: exactly one report" % name, r.describe()):
        return
    rep = r.reports[0]
    bad = rep.get("bad", {})
    f0 = (rep.get("frames") or [{}])[0]
    site = r.sites[-1] if r.sites else ("?", -1)
    ok(rep.get("call") == call and rep.get("what") == what and rep.get("problem") == problem and
       bad.get("first") == first and bad.get("last") == last and rep.get("count") == count and
       f0.get("function") == site[0] and f0.get("line") == site[1],
       "%s: %s, %s, bytes %d..%d of %s (count %d), at %s:%d" % (name, call, problem, first, last, what, count,
                                                               *site), rep)
    ok(r.results == base.results and r.results and r.status == base.status == 0,
       "%s: same result and errno as without rwcheck (%s)" % (name, r.results),
       base.describe() + r.describe())


def check_good(v, prog, case, mode="good"):
    name = "%s %s %s" % (v, case, mode)
    base, r = run(prog, case, mode, preload=False), run(prog, case, mode)
    ok(not r.reports and r.log == "" and r.status == base.status,
       "%s: no report" % name, r.describe())
    ok(r.results == base.results and (r.results or base.status == 77),
       "%s: same result and errno as without rwcheck (%s)" % (name, r.results),
       base.describe() + r.describe())


# An in/out length is read only once proved readable: with the maps check
# off, an addrlen in a PROT_NONE page is neither read nor reported.
for v, prog in VARIANTS[:2]:
    base = run(prog, "accept_addrlen", "bad", preload=False)
    r = Run([os.path.join(BUILD, "tests", prog), "accept_addrlen", "bad"], env={"RWCHECK_CHECKS": "-maps"})
    ok(r.status == 0 and not r.reports and r.results == base.results and r.results,
       "%s accept_addrlen bad, maps check off: the unreadable addrlen is not read, no report, same result"
       % v, base.describe() + r.describe())

fortified = os.path.join(BUILD, "tests", "victim_capacity_fortify")
imports = [w.split("@")[0] for w in subprocess.run(
    ["nm", "-D", "--undefined-only", fortified], stdout=subprocess.PIPE).stdout.decode().split()]
for case, (plain, chk, arg) in FORT.items():
    ok(chk in imports, "the fortified build really calls %s" % chk, imports)
for v, prog in VARIANTS:
    for case, exp in CASES.items():
        check_bad(v, prog, case, exp)
        check_good(v, prog, case)
    for case, (plain, chk, arg) in FORT.items():
        call = chk if v.startswith("fortified") else plain
        has_fd = plain == "readlinkat"
        check_bad(v, prog, case, (call, arg, RO, 4096, 8191, has_fd))
        check_good(v, prog, case)
    for case in QUERIES:
        check_good(v, prog, case, "good")
        check_good(v, prog, case, "bad")
    for case, exp in ARRAYS.items():
        check_array(v, prog, case, exp)
        check_good(v, prog, case)
done()
