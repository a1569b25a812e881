# conftest.py: under `rwcheck -- python3 -m pytest`, a test during which a
# process (the test's subprocesses, or pytest itself through an extension
# module) made a bad call is marked failed, with the report, instead of the
# whole session failing at the end with no test marked.  rwcheck's wrapper
# sets RWCHECK_LOG to DIR/rwcheck.%p.json: these hooks read what was added
# to DIR's logs while each test ran.  Without the wrapper they do nothing.
import glob
import json
import os

import pytest


def _logs():
    log = os.environ.get("RWCHECK_LOG", "")
    if not log.endswith("/rwcheck.%p.json"):
        return {}
    return {p: os.path.getsize(p) for p in glob.glob(os.path.join(os.path.dirname(log), "rwcheck.*.json"))}


def _reports_since(before):
    reports = []
    for path in _logs():
        with open(path, "rb") as f:
            f.seek(before.get(path, 0))
            for line in f.read().decode("utf-8", "replace").splitlines():
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
