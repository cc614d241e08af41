#!/usr/bin/env python3
"""The lab server's sorter (tools/lab_server.py Sorter) on what a broken
or hostile machine of the lab's network may upload (docs/lab.md "What
the server keeps"): every input that once stopped the server is refused
with its reason, moved to refused/, and the scan after it files a real
run beside it; nothing a client names reaches serve.log or the terminal
as a control character. No network: the uploads are written into
incoming/ as tftpd-hpa and lighttpd would leave them. Ends with "lab: N
passed, N failed"."""

import argparse
import contextlib
import importlib.util
import io
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import Checks  # noqa: E402

check = Checks("lab")
# How many checks the suite counts under CI (tests/checks.py).
CHECKS_UNDER_CI = 23


def load_server():
    spec = importlib.util.spec_from_file_location(
        "lab_server", os.path.join(ROOT, "tools", "lab_server.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Lab:
    """A lab folder with an empty incoming/, its sorter and its log."""

    def __init__(self, server, limits=None, folder=None):
        self.dir = folder or tempfile.mkdtemp(prefix="irqlab-lab-")
        self.incoming = os.path.join(self.dir, "tftp", "incoming")
        os.makedirs(self.incoming, exist_ok=True)
        self.out = io.StringIO()
        with contextlib.redirect_stdout(self.out):
            self.log = server.Log(os.path.join(self.dir, "serve.log"))
        self.sorter = server.Sorter(self.dir, self.log, limits)

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
        """Two scans, as the server makes in a second: a manifest is
        read once it stood still for one."""
        with contextlib.redirect_stdout(self.out):
            self.sorter.scan()
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

    def vanish(machine, run, files, still):
        if still:
            os.remove(os.path.join(lab.incoming, "%s+%s+results.json"
                                   % (machine, run)))
        return real(machine, run, files, still)
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


def limit_checks():
    """What the server keeps (docs/lab.md "What the server keeps"):
    names held, runs filed by link, unfinished runs freed, each limit."""
    server = load_server()
    lab = Lab(server)
    lab.scan()          # the start's scan: nothing left from before
    flat = lab.put_run("m1", "20261207-101010")
    lab.scan()
    filed = os.path.join(lab.dir, "runs", "m1", "20261207-101010",
                         "results.json")
    inside = os.path.join(lab.incoming, "m1+20261207-101010+results.json")
    st, fst = os.stat(inside), os.stat(filed)
    check("sorter: a filed run's files are linked, not copied: incoming/ "
          "and runs/ name one read-only inode (one copy on disk, and the "
          "read-back reads the filed copy)",
          st.st_ino == fst.st_ino and st.st_nlink == 2
          and st.st_mode & 0o222 == 0 and (os.geteuid() != 0
                                           or st.st_uid == 0),
          "%s %s" % (st, fst))
    again = Lab(server, folder=lab.dir)
    again.scan()
    check("sorter: a server started again over the same lab knows the "
          "filed run's names as filed: no conflict, nothing refused",
          "refused" not in again.said().split("limits")[-1][
              len(lab.said()):] and not os.path.exists(os.path.join(
                  lab.dir, "refused")) and os.path.exists(inside),
          again.said()[-400:])
    shutil.rmtree(lab.dir)

    lab = Lab(server, server.parse_limits("idle_seconds=60"))
    lab.scan()
    half = lab.put("m1", "20261207-101010", "results.json", b"{}")
    lab.scan()
    held = os.stat(os.path.join(lab.incoming, half))
    old = time.time() - 61
    os.utime(os.path.join(lab.incoming, half), (old, old))
    lab.scan()
    check("sorter: an upload's name is held at once (read-only), and a run "
          "left unfinished for idle_seconds is moved to refused/ with the "
          "reason, its names free again",
          held.st_mode & 0o222 == 0 and lab.refused(half)
          and "unfinished, no upload for idle_seconds=60" in lab.said(),
          lab.said()[-400:])
    lab.put("m1", "20261207-101011", "results.json", b"{}")
    started = Lab(server, folder=lab.dir)
    started.scan()
    check("sorter: at the server's start, a run an earlier server left "
          "unfinished is moved to refused/, so the machine can send it "
          "again",
          started.refused("m1+20261207-101011+results.json") and
          "left unfinished when the server last stopped" in started.said(),
          started.said()[-400:])
    shutil.rmtree(lab.dir)

    cases = [
        ("runs_per_day=2", lambda lab: [lab.put("m1", "20261207-10101%d" % i,
                                                "results.json", b"{}")
                                        for i in range(3)][-1],
         "its machine started runs_per_day=2 runs"),
        ("run_files=2", lambda lab: [lab.put("m1", "20261207-101010", n,
                                             b"{}") for n in (
            "report.html", "results.json", "summary.txt")][-1],
         "its run has run_files=2 files already"),
        ("incoming_bytes=10", lambda lab: [lab.put(
            "m%d" % i, "20261207-101010", "results.json", b"x" * 8)
            for i in (1, 2, 3)][-1], "incoming/ holds over incoming_bytes=10"),
        ("incoming_files=2", lambda lab: [lab.put(
            "m%d" % i, "20261207-101010", "results.json", b"")
            for i in (1, 2, 3)][-1], "incoming/ holds incoming_files=2 files"),
    ]
    for limit, upload, why in cases:
        lab = Lab(server, server.parse_limits(limit))
        lab.scan()
        last = upload(lab)
        lab.scan()
        check("sorter: past %s a new upload is deleted with its reason "
              "(\"%s\"), and the uploads before it stay" % (limit, why),
              not os.path.exists(os.path.join(lab.incoming, last))
              and "refused: %s: %s" % (last, why) in lab.said()
              and len(os.listdir(lab.incoming)) == 2,
              lab.said()[-400:])
        shutil.rmtree(lab.dir)

    lab = Lab(server, server.parse_limits("run_bytes=10,refused_bytes=12"))
    lab.scan()
    lab.put("m1", "20261207-101010", "results.json", b"x" * 8)
    lab.put("m1", "20261207-101010", "summary.txt", b"x" * 8)
    lab.scan()
    left = sorted(os.listdir(os.path.join(lab.dir, "refused")))
    check("sorter: a run past run_bytes is moved to refused/ with the "
          "reason, and refused/ past refused_bytes loses its oldest files",
          "its files hold over run_bytes=10" in lab.said() and len(left) == 1
          and "deleted, over refused_bytes=12" in lab.said(),
          "%s; %s" % (left, lab.said()[-400:]))
    shutil.rmtree(lab.dir)

    bad = []
    for text in ("run_file=2", "run_bytes=-1", "run_bytes=1T", "idle=9"):
        try:
            server.parse_limits(text)
        except ValueError as e:
            bad.append(str(e))
    check("sorter: a limit with a name or value not known stops the server "
          "with what is wrong (4 of 4 refused)", len(bad) == 4, str(bad))
    base = dict(interface="br0", mode="dhcp", range="10.0.0.100,10.0.0.150",
                range6="2001:db8::100,2001:db8::150", router=False,
                allowed=[("52:54:00:12:34:56", None),
                         (None, "00112233-4455-6677-8899-aabbccddeeff")])
    quiet = server.dnsmasq_command(argparse.Namespace(**base), (
        "10.0.0.1", 24), ("2001:db8::1", 64), "/tmp")
    routed = server.dnsmasq_command(argparse.Namespace(
        **dict(base, router=True, allowed=None)), ("10.0.0.1", 24),
        ("2001:db8::1", 64), "/tmp")
    check("sorter: dnsmasq names no default router (option 3 not sent, "
          "IPv6 router lifetime 0) unless ROUTER=1, and with ALLOW= "
          "answers only the MAC and the UUID (option 97, wire order) listed",
          "--dhcp-option=3" in quiet and "--ra-param=br0,60,0" in quiet
          and "--dhcp-option=3" not in routed and not any(
              a.startswith("--ra-param") for a in routed)
          and "--dhcp-host=52:54:00:12:34:56,set:allowed" in quiet
          and "--dhcp-match=set:allowed,97,00:33:22:11:00:55:44:77:66:88:"
          "99:aa:bb:cc:dd:ee:ff" in quiet
          and "--dhcp-ignore=tag:!allowed" in quiet
          and not any("allowed" in a for a in routed), str(quiet))
    check("sorter: a UUID goes on the wire as SMBIOS and PXE send it, its "
          "first three fields little-endian",
          server.uuid_wire("00112233-4455-6677-8899-aabbccddeeff").hex()
          == "33221100554477668899aabbccddeeff", "")


def main():
    check.guarded("the lab sorter's checks", sorter_checks)
    check.guarded("the lab sorter's limits", limit_checks)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
