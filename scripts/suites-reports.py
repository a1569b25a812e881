#!/usr/bin/env python3
"""suites-reports.py: rwcheck's JSON logs (one object per line) given as
arguments ("-": standard input, e.g. rwcheck-collect --format=json's
output) -> one line per distinct report (call, problem, object, first
frames) with the number of processes and calls that had it, most first."""
import json
import sys


def frame(f):
    where = f.get("function") or "?"
    if f.get("file"):
        where += " %s:%s" % (f["file"], f.get("line", "?"))
    mod = (f.get("module") or "").rsplit("/", 1)[-1]
    return "%s (%s)" % (where, mod) if mod else where


def obj(r):
    reg = r.get("region") or {}
    kind = reg.get("kind", "?")
    if "size" in reg:
        kind += " of %s bytes" % reg["size"]
    if reg.get("name"):
        kind += " '%s'" % reg["name"]
    if reg.get("path"):
        kind += " " + reg["path"]
    return kind


def main():
    seen = {}
    for path in sys.argv[1:]:
        try:
            lines = (sys.stdin if path == "-" else open(path, errors="replace")).read().splitlines()
        except OSError:
            continue
        for line in lines:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if "problem" not in r:
                continue
            frames = " <- ".join(frame(f) for f in r.get("frames", [])[:4])
            key = "%s [%s] count=%s on %s; exe %s; at %s" % (
                r.get("call"), r["problem"], r.get("count"), obj(r),
                (r.get("exe") or "?").rsplit("/", 1)[-1], frames)
            n = seen.setdefault(key, [set(), 0])
            n[0].add(r.get("pid"))
            n[1] += 1
    for key, (pids, calls) in sorted(seen.items(), key=lambda kv: -len(kv[1][0])):
        print("%s  (%d processes, %d records)" % (key, len(pids), calls))


main()
