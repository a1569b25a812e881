# pytest through rwcheck: rwcheck -- python3 -m pytest, with
# examples/pytest/conftest.py next to the tests.
import os
import subprocess

BUILD = os.environ["RECIPE_BUILD"]


def test_parse_ok():
    assert subprocess.run([os.path.join(BUILD, "parse-ok")]).returncode == 0


def test_parse_header():
    assert subprocess.run([os.path.join(BUILD, "parse-header")]).returncode == 0
