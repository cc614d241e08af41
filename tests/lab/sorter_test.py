#!/usr/bin/env python3
"""The lab server's sorter (tools/lab_server.py Sorter) on what a broken
or hostile machine of the lab's network may upload (docs/lab.md "What
the server keeps"): every input that once stopped the server is refused
with its reason, moved to refused/, and the scan after it files a real
run beside it; nothing a client names reaches serve.log or the terminal
as a control character. No network: the uploads are written into
incoming/ as tftpd-hpa and lighttpd would leave them. Ends with "lab: N
passed, N failed"."""

import contextlib
import importlib.util
import io
import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import Checks  # noqa: E402

check = Checks("lab")
# How many checks the suite counts under CI (tests/checks.py).
CHECKS_UNDER_CI = 11


def load_server():
    spec = importlib.util.spec_from_file_location(
        "lab_server", os.path.join(ROOT, "tools", "lab_server.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Lab:
    """A lab folder with an empty incoming/, its sorter and its log."""

    def __init__(self, server):
        self.dir = tempfile.mkdtemp(prefix="irqlab-lab-")
        self.incoming = os.path.join(self.dir, "tftp", "incoming")
        os.makedirs(self.incoming)
        self.out = io.StringIO()
        with contextlib.redirect_stdout(self.out):
            self.log = server.Log(os.path.join(self.dir, "serve.log"))
        self.sorter = server.Sorter(self.dir, self.log)

    def put(self, machine, run, name, data):
        flat = "%s+%s+%s" % (machine, run, name.replace("/", "+"))
        with open(os.path.join(self.incoming, flat), "wb") as f:
            f.write(data)
        return flat

    def put_run(self, machine, run, manifest=None):
        """A real run's two files and its manifest, written last."""
        files = {"results.json": b'{"run_id": "%s"}\n' % run.encode(),
                 "acpi/APIC.bin": b"APIC" + bytes(40)}
        for name, data in files.items():
            self.put(machine, run, name, data)
        text = manifest if manifest is not None else "".join(
            "%d %s\n" % (len(d), n) for n, d in files.items()).encode()
        return self.put(machine, run, "manifest.txt", text)

    def scan(self):
        with contextlib.redirect_stdout(self.out):
            self.sorter.scan()

    def said(self):
        with open(os.path.join(self.dir, "serve.log")) as f:
            return f.read()

    def refused(self, flat):
        return os.path.exists(os.path.join(self.dir, "refused", flat))

    def filed(self, machine, run):
        return os.path.isfile(os.path.join(self.dir, "runs", machine, run,
                                           "results.json"))


# Manifests that stopped the server, or would have: each is refused
# with its reason and moved aside, never raised.
HOSTILE = [
    ("a size in superscript digits, which str.isdigit() takes and int() "
     "refuses", "\u00b2 results.json\n".encode(), "not ASCII"),
    ("a size of 5000 digits, past int()'s 4300", b"9" * 5000
     + b" results.json\n", "line 1 is not"),
    ("a size of 11 digits", b"12345678901 results.json\n", "line 1 is not"),
    ("a name irqlab never writes", b"16 ../../etc/passwd\n",
     "line 1 is not"),
    ("a name given twice", b"16 results.json\n16 results.json\n",
     "it names a file twice"),
    ("no line at all", b"", "it names no file"),
    ("a line with a carriage return", b"16 results.json\r\n",
     "line 1 is not"),
    ("more lines than a run has files", b"".join(
        b"1 run-%d-part-%d.bin\n" % (i % 100, i // 100) for i in range(300)),
     "over 256 lines"),
]


def sorter_checks():
    server = load_server()
    for what, manifest, why in HOSTILE:
        lab = Lab(server)
        flat = lab.put_run("m1", "20261207-101010", manifest)
        lab.put_run("m2", "20261207-101011")
        lab.scan()
        lab.scan()
        check("sorter: a manifest with %s is refused (\"%s\"), moved to "
              "refused/, and the scan goes on to file another machine's "
              "run" % (what, why),
              lab.refused(flat) and "refused: %s: %s" % (flat, why)
              in lab.said() and lab.filed("m2", "20261207-101011")
              and not lab.filed("m1", "20261207-101010"),
              lab.said()[-600:])
        shutil.rmtree(lab.dir)

    # A run that fails while it is filed (its file gone between the
    # scan's listing and the copy, as a client's new write request
    # truncating it would leave it): refused with the exception, and the
    # next scan, as the next start of the server, meets nothing of it.
    lab = Lab(server)
    flat = lab.put_run("m1", "20261207-101010")
    real = lab.sorter.consider

    def vanish(machine, run, files, now):
        os.remove(os.path.join(lab.incoming, "%s+%s+results.json"
                               % (machine, run)))
        return real(machine, run, files, now)
    lab.sorter.consider = vanish
    lab.scan()
    lab.sorter.consider = real
    lab.scan()
    check("sorter: a run whose file vanishes while it is filed is refused "
          "with the exception named, its manifest moved to refused/, and "
          "the next scan finds nothing of it to stop on",
          lab.refused(flat) and "could not be filed: FileNotFoundError"
          in lab.said() and not lab.filed("m1", "20261207-101010"),
          lab.said()[-600:])
    shutil.rmtree(lab.dir)

    # Control characters a client puts in a name reach neither the
    # terminal nor serve.log: a forged "run ... complete" line stays on
    # the line that names the client's file.
    lab = Lab(server)
    with contextlib.redirect_stdout(lab.out):
        lab.log.say("tftpd: RRQ from 10.0.0.9 filename \x1b[2Jx\n12:00:00 run: "
                    "victim/20261207-101010 complete\\")
    log, out = lab.said(), lab.out.getvalue()
    check("sorter: a control character or backslash a client names is "
          "written as an escape on the terminal and in serve.log, so a "
          "newline cannot forge a line",
          "\x1b" not in log + out and log.count("\n") == 1
          and out.count("\n") == 1
          and "\\x1b[2Jx\\x0a12:00:00 run: victim" in log
          and log.rstrip("\n").endswith("complete\\x5c"), repr(log))
    shutil.rmtree(lab.dir)

    # And the real thing, for the contrast: filed whole.
    lab = Lab(server)
    lab.put_run("m1", "20261207-101010")
    lab.scan()
    check("sorter: a run whose manifest names each file at its size is "
          "filed in runs/<machine>/<run>/ with its ACPI table",
          lab.filed("m1", "20261207-101010") and os.path.isfile(
              os.path.join(lab.dir, "runs", "m1", "20261207-101010", "acpi",
                           "APIC.bin")), lab.said()[-400:])
    shutil.rmtree(lab.dir)


def main():
    check.guarded("the lab sorter's checks", sorter_checks)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
