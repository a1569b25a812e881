"""C++ programs: the frames' function names demangled as valgrind and ASan
print them (and an optimized clone's suffix, " [clone .isra.0]") (the
new user's trial: the backtrace and the wrapper's summary
said `_Z14sso_string_badv` while the report's first line said
`sso_string_bad`), in the text and JSON reports, the wrapper's summary
and the suppressions --gen-suppressions writes, which then match.

A small C++ program is built here with g++ (-O0 -g, and -O2 without
DWARF, non-PIE): a member function of a class in a namespace reads 64
bytes into a std::vector<char> of 16 (heap-overflow); its good twin reads
16.  Skipped without g++."""
import json
import os
import re
import shutil
import subprocess
import tempfile

from rwctest import BUILD, Run, ok, skip, done

SRC = r'''
#include <fcntl.h>
#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <vector>

namespace store {
struct Reader {
	int fd;
	__attribute__((noinline)) long fill(char *p, unsigned long n)
	{
		long r = read(fd, p, n);
		__asm__ volatile("" : : "r"(r) : "memory"); /* not a tail call */
		return r;
	}
};
}

int main(int argc, char **argv)
{
	std::vector<char> v(16);
	store::Reader r{open("/proc/self/exe", O_RDONLY)};
	unsigned long n = argc > 1 && std::strcmp(argv[1], "bad") == 0 ? 64 : 16;
	std::printf("result %ld\n", r.fill(v.data(), n));
	return 0;
}
'''
FILL = "store::Reader::fill(char*, unsigned long)"

gxx = shutil.which("g++")
if not gxx:
    skip("C++ names demangled", "no g++")
    done()
d = tempfile.mkdtemp(prefix="rwc-cxx-")
with open(os.path.join(d, "victim.cc"), "w") as f:
    f.write(SRC)
progs = []
for tag, flags in [("-O0 -g", ["-O0", "-g"]), ("-O2 non-PIE, no DWARF", ["-O2", "-no-pie", "-fno-pie"])]:
    exe = os.path.join(d, "victim" + str(len(progs)))
    subprocess.run([gxx, "-w"] + flags + ["-o", exe, os.path.join(d, "victim.cc")], check=True)
    progs.append((tag, exe))

for tag, exe in progs:
    r = Run([exe, "bad"], env={"RWCHECK_GEN_SUPPRESSIONS": "1"})
    rep = r.reports[0] if len(r.reports) == 1 else {}
    frames = rep.get("frames") or [{}, {}]
    ok(rep.get("problem") == "heap-overflow" and frames[0].get("function", "").startswith(FILL) and
       len(frames) > 1 and frames[1].get("function") == "main",
       "%s bad: heap-overflow, frame #0 %s, #1 main (JSON)" % (tag, FILL), r.describe())
    ok(re.search(r"#0 0x[0-9a-f]+ in %s " % re.escape(FILL), rep.get("text", "")) is not None,
       "%s bad: the text report's frame #0 says %s" % (tag, FILL), rep.get("text"))
    supp = rep.get("suppression", "")
    esc = re.sub(r"([*?\[\]\\])", r"\\\1", FILL)  # as a literal glob
    ok("fun:%s" % esc in supp, "%s bad: the suppression names fun:%s (as a literal glob)" % (tag, esc), supp)
    path = os.path.join(d, "cxx.supp")
    with open(path, "w") as f:
        f.write(supp)
    s = Run([exe, "bad"], env={"RWCHECK_SUPPRESS": path})
    ok(not s.reports and s.log == "" and s.results == r.results,
       "%s bad: the generated suppression silences it" % tag, s.describe())
    g, base = Run([exe, "good"]), Run([exe, "good"], preload=False)
    ok(not g.reports and g.log == "" and g.results == base.results and g.results,
       "%s good: no report, same result" % tag, g.describe())

# The wrapper's summary names the function as the reports do.
p = subprocess.run([os.path.join(BUILD, "rwcheck"), "--", progs[0][1], "bad"],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
err = p.stderr.decode("utf-8", "replace")
ok(re.search(r"^rwcheck:   1 x heap-overflow in read\(\) at %s \(\S*victim\.cc:\d+\)" % re.escape(FILL), err, re.M)
   is not None, "wrapper: the summary says at %s (victim.cc:N)" % FILL, err)
shutil.rmtree(d, ignore_errors=True)
done()
