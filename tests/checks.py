"""One check line per assertion, counted, for the Python test suites;
each ends with "<suite>: N passed, N failed", which tests/run.sh adds up.

The suites fail closed:
- an exception in a helper, or in a thread running checks beside the
  others, is a failed check that names it, never a silent end;
- under CI (CI=true), whose machine installs every tool, a check that
  cannot run here is a failure, not a skip;
- under CI a suite may pin how many checks it runs: fewer (checks that
  vanished with a helper) or more (a count nobody updated) fails."""

import os
import sys
import threading
import traceback

UNDER_CI = os.environ.get("CI") == "true"


class Checks:
    def __init__(self, suite):
        self.suite = suite
        self.passed = 0
        self.failed = 0
        self.lock = threading.Lock()   # boot tests run two QEMUs at once

    def __call__(self, name, ok, detail=""):
        with self.lock:
            return self.count(name, ok, detail)

    def count(self, name, ok, detail):
        if ok:
            self.passed += 1
            print("ok    %s" % name)
        else:
            self.failed += 1
            if len(detail) > 600:
                detail = detail[:600] + "..."
            print("FAIL  %s%s" % (name, (": " + detail) if detail else ""))
        sys.stdout.flush()
        return ok

    def skip(self, name, why):
        """Checks that cannot run on this machine, and why. Outside CI
        a line says so; under CI it fails, since CI installs every tool."""
        with self.lock:
            if UNDER_CI:
                self.count("%s: runs under CI" % name, False, why)
            else:
                print("skip  %s: %s" % (name, why))
                sys.stdout.flush()

    def guarded(self, name, fn, *args, **kwargs):
        """Runs fn; an exception in it is a failed check naming `name`
        and the traceback's last lines. Returns fn's value, or None."""
        try:
            return fn(*args, **kwargs)
        except Exception:   # noqa: BLE001 -- every exception fails closed
            self("%s ran to its end without an exception" % name, False,
                 traceback.format_exc()[-1200:])
            return None

    def thread(self, name, fn, *args):
        """A thread running checks beside the suite's own, guarded."""
        return threading.Thread(target=self.guarded, args=(name, fn) + args)

    def total(self):
        return self.passed + self.failed

    def finish(self, expected_under_ci=None):
        """Closes the suite. Under CI with `expected_under_ci`, the
        number of checks counted must equal it."""
        if UNDER_CI and expected_under_ci is not None:
            counted = self.total()
            self("%s: the %d checks pinned for CI were each counted, passed "
                 "or failed" % (self.suite, expected_under_ci),
                 counted == expected_under_ci,
                 "%d counted; a helper that stopped early loses its checks, "
                 "and a suite that gained checks updates its pin"
                 % counted)
        print("%s: %d passed, %d failed" % (self.suite, self.passed,
                                             self.failed))
        return 1 if self.failed else 0
