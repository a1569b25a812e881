# real-workloads.sh: the real programs on ordinary work that
# tests/real-programs.sh checks (same output, no report) and
# bench/suites.sh times (with and without the library).  Sourced; the
# caller defines run NAME CMD (CMD a shell snippet run in a fresh
# directory, ../big.txt and ../net.py beside it) and calls
# real_workloads_setup in its work directory, then real_workloads.

real_workloads_setup() {
head -c 3000000 /dev/urandom | od -An -tx1 >big.txt
# The calls that take a capacity (issue 15): asyncio (epoll, accept,
# getsockname, getsockopt, setsockopt, bind, connect) with a server and a
# client on 127.0.0.1, and each selector (epoll, poll, select).
cat >net.py <<'PY'
import asyncio, selectors, socket

async def handle(r, w):
    w.write((await r.readline()).upper())
    await w.drain()
    w.close()

async def main():
    srv = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = srv.sockets[0].getsockname()[1]
    for i in range(3):
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(b"hello %d\n" % i)
        print((await r.readline()).decode().strip())
        w.close()
    srv.close()
    await srv.wait_closed()

asyncio.run(main())
for cls in (selectors.EpollSelector, selectors.PollSelector, selectors.SelectSelector):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen()
    c = socket.create_connection(ls.getsockname())
    sel = cls()
    sel.register(ls, selectors.EVENT_READ)
    print(cls.__name__, len(sel.select(5)))
    s, _ = ls.accept()
    c.sendall(b"ping")
    sel.register(s, selectors.EVENT_READ)
    sel.unregister(ls)
    print(cls.__name__, [k.fileobj is s for k, _ in sel.select(5)], s.recv(4), s.getpeername() == c.getsockname())
    for x in (sel, s, c, ls):
        x.close()
PY
}

real_workloads() {
run "cat" "cat ../big.txt | sha256sum"
run "cp" "cp ../big.txt c && sha256sum c"
run "dd bs=1" "head -c 20000 ../big.txt | dd bs=1 2>/dev/null | sha256sum"
run "dd bs=1M" "dd if=../big.txt bs=1M 2>/dev/null | sha256sum"
run "sort" "sort ../big.txt | sha256sum"
run "tar+gzip" "tar cf - -C .. big.txt | gzip -1 | gzip -d | tar xOf - | sha256sum"
# python3 from PATH, and Debian's own /usr/bin/python3 (a non-PIE executable).
py='-c '"'"'
import threading, subprocess, hashlib
h = hashlib.sha256(open(\"../big.txt\", \"rb\").read()).hexdigest()
out = []
ts = [threading.Thread(target=lambda: out.append(open(\"../big.txt\").read().count(\"a\"))) for _ in range(4)]
[x.start() for x in ts]; [x.join() for x in ts]
print(h, out, subprocess.run([\"echo\", \"child\"], capture_output=True).stdout)
'"'"
run "python3" "python3 $py"
if [ -x /usr/bin/python3 ]; then run "/usr/bin/python3" "/usr/bin/python3 $py"; fi
run "perl" "perl -ne '\$n += length; END { print \"\$n\\n\" }' ../big.txt"
run "git" "git init -q r && cd r && git config user.email t@e && git config user.name t && cp ../../big.txt . && git add big.txt && GIT_COMMITTER_DATE=2020-01-01T00:00:00Z GIT_AUTHOR_DATE=2020-01-01T00:00:00Z git commit -qm x && git log --format=%H%n%s && git cat-file -p HEAD:big.txt | sha256sum"
run "gcc" "printf '#include <stdio.h>\nint main(void){puts(\"hi\");return 0;}\n' >h.c && gcc -O2 -g -o h h.c && ./h"
run "ls -l" "ls -l /usr/lib/x86_64-linux-gnu /usr/bin /etc | sha256sum"
run "find" "find /usr/share/doc /usr/lib -maxdepth 3 | sort | sha256sum; find /usr/lib -maxdepth 2 -type l -xtype f | sort | sha256sum"
run "pwd" "cd /usr/share && pwd && /bin/pwd && env pwd"
run "python3 asyncio, selectors, sockets" "python3 ../net.py"
run "failing command" "cat /nonexistent; sha256sum ../big.txt; exit 3"
run "xargs, 1,000 processes" "seq 1000 | xargs -n 1 /bin/echo | sha256sum"
run "make -j2" "printf 'all: x y\nx:\n\techo x >x\ny:\n\techo y >y\n' >Makefile && make -s --no-print-directory -j2 && cat x y"
}
