"""One check line per assertion, counted, for the Python test suites;
each ends with "<suite>: N passed, N failed", which tests/run.sh adds up.

The suites fail closed:
- an exception in a helper, or in a thread running checks beside the
  others, is a failed check that names it, never a silent end;
- under CI (CI=true), whose machine installs every tool, a check that
  cannot run here is a failure, not a skip;
- under CI a suite may pin how many checks it runs: fewer (checks that
  vanished with a helper) or more (a count nobody updated) fails;
- or, stricter, pin the names of its checks, sorted, in a file: a check
  lost while another is added fails too, and the failure names both.
  RECORD_CHECKS=1 rewrites that file from a run that passed every check
  and skipped none."""

import collections

import os
import sys
import threading
import traceback

UNDER_CI = os.environ.get("CI") == "true"
RECORDING = os.environ.get("RECORD_CHECKS") == "1"


class Checks:
    def __init__(self, suite):
        self.suite = suite
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.names = []   # of every check counted, for a pin of names
        self.lock = threading.Lock()   # boot tests run two QEMUs at once
        # Checks counted by each thread, for what a boot entry fed.
        self.here = threading.local()

    def __call__(self, name, ok, detail=""):
        with self.lock:
            return self.count(name, ok, detail)

    def count(self, name, ok, detail):
        self.names.append(name)
        self.here.counted = getattr(self.here, "counted", 0) + 1
        if ok:
            self.passed += 1
            print("ok    %s" % name)
        else:
            self.failed += 1
            detail = str(detail)
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
                self.skipped += 1
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

    def finish(self, expected_under_ci=None, pinned_names=None):
        """Closes the suite. Under CI with `expected_under_ci`, the
        number of checks counted must equal it; with `pinned_names`, a
        file of names, each name must be counted as often as it is
        listed there, no more, no less. RECORD_CHECKS=1 writes that file
        from this run instead; CHECK_NAMES_SEEN=FILE writes the names
        this run counted to FILE, whatever its outcome."""
        seen = os.environ.get("CHECK_NAMES_SEEN")
        if pinned_names and seen:
            # The names this run counted, whatever its outcome, for a
            # look at what a change adds or loses (never the pin itself).
            with open(seen, "w") as f:
                f.writelines(n + "\n" for n in sorted(self.names))
        if pinned_names and RECORDING:
            self.record_names(pinned_names)
        elif pinned_names and UNDER_CI:
            self.compare_names(pinned_names)
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

    def record_names(self, path):
        """Writes the names counted, sorted, one a line, to `path`: only
        from a run with no failure and no skip, which has every check."""
        names = sorted(self.names)
        if not self("%s: the check names are recorded from a run that "
                    "passed every check and skipped none" % self.suite,
                    self.failed == 0 and self.skipped == 0
                    and all("\n" not in n for n in self.names),
                    "%d failed, %d skipped: %s left as it was"
                    % (self.failed, self.skipped, path)):
            return
        with open(path, "w") as f:
            f.write("# The names of the checks this suite counts under "
                    "CI=true, sorted,\n# one a line (tests/checks.py). "
                    "Recorded by RECORD_CHECKS=1.\n")
            f.writelines(n + "\n" for n in names)
        print("pin   %d check names recorded in %s" % (len(names), path))

    def compare_names(self, path):
        """Every name in `path` counted as often as it is listed there,
        and no other: each one missing or extra is printed."""
        try:
            with open(path) as f:
                pinned = [l.rstrip("\n") for l in f if not l.startswith("#")]
        except OSError as e:
            self("%s: the check names pinned for CI are read" % self.suite,
                 False, "%s; RECORD_CHECKS=1 records them from a run" % e)
            return
        counted = collections.Counter(self.names)
        want = collections.Counter(pinned)
        missing = sorted((want - counted).elements())
        extra = sorted((counted - want).elements())
        for n in missing:
            print("pin   missing: %s" % n)
        for n in extra:
            print("pin   extra: %s" % n)
        self("%s: each of the %d check names pinned for CI was counted as "
             "often as listed, and no other" % (self.suite, len(pinned)),
             not missing and not extra,
             "%d missing, %d extra (listed above as pin lines); a lost "
             "check fails, and a suite whose checks changed records them "
             "again with RECORD_CHECKS=1" % (len(missing), len(extra)))
