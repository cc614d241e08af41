"""One check line per assertion, counted, for the Python test suites;
each ends with "<suite>: N passed, N failed", which tests/run.sh adds up."""

import sys
import threading


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

    def finish(self):
        print("%s: %d passed, %d failed" % (self.suite, self.passed,
                                             self.failed))
        return 1 if self.failed else 0
