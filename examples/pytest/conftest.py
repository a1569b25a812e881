# conftest.py: under `rwcheck -- python3 -m pytest`, a test during which a
# process (the test's subprocesses, or pytest itself through an extension
# module) made a bad call is marked failed, with the report, instead of the
# whole session failing at the end with no test marked.  rwcheck's wrapper
# sets RWCHECK_LOG to DIR/rwcheck.%p.json: these hooks take what was added
# to DIR's logs while each test ran and have the wrapper's collector
# (_RWCHECK_COLLECT) read it, so that `rwcheck --suppressions=FILE` counts
# here too (the logs keep every report: the wrapper applies the
# suppressions itself).  Without the wrapper they do nothing.
#
# Each process reports a call site once (rwcheck's per-process dedup): a
# bad call in pytest's own process (an extension module) marks only the
# first test that reaches that call site; `rwcheck --dedup=0` marks each.
# A test's subprocesses are new processes: each such test is marked.
import glob
import json
import os
import subprocess
import tempfile

import pytest


def _logs():
    log = os.environ.get("RWCHECK_LOG", "")
    if not log.endswith("/rwcheck.%p.json"):
        return {}
    return {p: os.path.getsize(p) for p in glob.glob(os.path.join(os.path.dirname(log), "rwcheck.*.json"))}


def _collected(chunks):
    """The report lines of CHUNKS (log name -> the bytes added), through
    rwcheck-collect with the run's suppressions; None without it."""
    collect = os.environ.get("_RWCHECK_COLLECT", "")
    if not os.access(collect, os.X_OK):
        return None
    supp = os.environ.get("_RWCHECK_SUPPRESS", "")
    # (The collector's own calls are still checked, its reports not mixed
    # into the run's logs.)
    env = dict(os.environ, RWCHECK_LOG="stderr")
    with tempfile.TemporaryDirectory(prefix="rwcheck-pytest.") as d:
        for name, data in chunks.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        cmd = [collect, "--format=json", "--every", "--out=/dev/stdout", d]
        if supp:
            cmd.insert(3, "--suppressions=" + supp)
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    return r.stdout.decode("utf-8", "replace").splitlines()


def _reports_since(before):
    chunks = {}
    for path in _logs():
        with open(path, "rb") as f:
            f.seek(before.get(path, 0))
            data = f.read()
        if data:
            chunks[os.path.basename(path)] = data
    if not chunks:
        return []
    lines = _collected(chunks)
    if lines is None:  # (an older wrapper: the raw logs)
        lines = [ln for data in chunks.values() for ln in data.decode("utf-8", "replace").splitlines()]
    reports = []
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and "problem" in rec and "repeat" not in rec:
            reports.append(rec.get("text") or line + "\n")
    return reports


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    before = _logs()
    yield
    item.rwcheck_reports = _reports_since(before)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    found = getattr(item, "rwcheck_reports", None)
    if call.when == "call" and found and rep.passed:
        rep.outcome = "failed"
        rep.longrepr = "rwcheck: bad calls during this test:\n" + "".join(found)
