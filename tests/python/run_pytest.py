"""Runs one pytest file for ctest: `run_pytest.py FILE BUILD_DIR [pytest args...]`.

ctest needs a skip to be loud: when every test in the file was skipped (the peer or a Debian
package is missing), print the reasons and exit 77, which the tests declare as
SKIP_RETURN_CODE. Otherwise pytest's own exit status. The build directory's
lib/libtreering.so is what `import treering` loads (TREERING_LIBRARY), and the package
source is put first on sys.path, so the checkout is tested and not an installed copy.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))


class OutcomeCounter:
    """A pytest plugin that counts passes, failures and skips (with their reasons)."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skips = []

    def pytest_runtest_logreport(self, report):
        if report.skipped:
            self.skips.append(str(report.longrepr[-1]) if isinstance(report.longrepr, tuple)
                              else str(report.longrepr))
        elif report.failed:
            self.failed += 1
        elif report.when == "call":
            self.passed += 1

    def pytest_collectreport(self, report):
        if report.skipped:  # a module-level importorskip skips the whole file
            self.skips.append(str(report.longrepr[-1]) if isinstance(report.longrepr, tuple)
                              else str(report.longrepr))


def main():
    if len(sys.argv) < 3:
        print("usage: run_pytest.py TEST_FILE BUILD_DIR [pytest args...]", file=sys.stderr)
        return 2
    test_file, build_dir = sys.argv[1], sys.argv[2]
    os.environ.setdefault("TREERING_LIBRARY", os.path.join(build_dir, "lib", "libtreering.so"))
    os.environ["TREERING_BUILD_DIR"] = build_dir
    sys.path.insert(0, os.path.join(SOURCE, "python-package"))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(SOURCE, "python-package"), HERE, os.environ.get("PYTHONPATH", "")])
    try:
        import pytest
    except ImportError:
        print("skip: python3-pytest is not installed (scripts/install-deps.sh installs it)")
        return 77
    counter = OutcomeCounter()
    status = pytest.main([test_file, "-q", "-p", "no:cacheprovider", "-rs", *sys.argv[3:]],
                         plugins=[counter])
    if counter.passed == 0 and counter.failed == 0 and counter.skips:
        print("skip: every test was skipped:")
        for reason in sorted(set(counter.skips)):
            print(f"  {reason}")
        return 77
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
