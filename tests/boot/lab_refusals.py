"""What the lab's server refuses (docs/lab.md "Safety"), over TFTP and
over HTTP: tools/lab_server.py on loopback ports, sent to as a machine
would, with no machine booted."""

import os
import shutil
import subprocess
import time

from harness import BUILD, ROOT, check
from network import fresh_lab


def lab_server_refusals():
    """What the server refuses, each case on its own (docs/lab.md
    "Safety"): tools/lab_server.py's TFTP on a loopback port, sent to by
    tftp-hpa's client as a machine would."""
    top, served = fresh_lab("lab-refusals")
    port = 16969
    server = subprocess.Popen(
        ["python3", os.path.join(ROOT, "tools", "lab_server.py"), "--dir",
         served, "--no-dhcp", "--no-http", "--tftp-address",
         "127.0.0.1:%d" % port, "--seconds", "60"], stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT)
    run = "m1/20261205-091500/"

    def put(data, name):
        src = os.path.join(top, "upload")
        with open(src, "wb") as f:
            f.write(data)
        subprocess.run(["tftp", "127.0.0.1", str(port), "-m", "binary", "-c",
                        "put", src, name], capture_output=True, timeout=60)
        time.sleep(1)

    def log():
        with open(os.path.join(served, "serve.log")) as f:
            return f.read()

    def whole_run():
        put(b"{}\n", run + "results.json")
        put(b"blob", run + "run-1.bin")
        put(b"3 results.json\n4 run-1.bin\n", run + "manifest.txt")
        time.sleep(2)
    try:
        time.sleep(2)
        put(b"x", "../outside")
        put(b"x", run + "../../outside")
        climbed = [p for p in (os.path.join(top, "outside"),
                               os.path.join(served, "outside"))
                   if os.path.exists(p)]
        said = log()
        check("lab-refusals: uploads whose paths climb out of the server's "
              "folder are refused and logged, and nothing is written",
              not climbed and said.count("sending NAK (2, Access denied)")
              == 2, said[-800:])
        put(b"#!/bin/sh\n", run + "evil.sh")
        said = log()
        check("lab-refusals: a name irqlab does not write is refused and "
              "logged, and nothing is written",
              said.count("sending NAK (2, Access denied)") == 3 and
              not any("evil" in n for n in os.listdir(
                  os.path.join(served, "tftp", "incoming"))), said[-800:])
        put(b"\0" * (5 * 1024 * 1024), run + "report.html")
        said = log()
        refused = os.path.join(served, "refused", "m1+20261205-091500+"
                               "report.html")
        check("lab-refusals: a file over the stated size (4 MiB) is cut "
              "there, refused, logged and moved to refused/",
              "refused: m1+20261205-091500+report.html: over its 4194304 "
              "bytes" in said and os.path.exists(refused) and
              os.path.getsize(refused) == 4 * 1024 * 1024 + 1, said[-800:])
        whole_run()
        first = os.path.join(served, "runs", "m1", "20261205-091500",
                             "results.json")
        filed = os.path.exists(first)
        before = log().count("sending NAK (0, Permission denied)")
        put(b"{\"again\": 1}\n", run + "results.json")
        put(b"13 results.json\n", run + "manifest.txt")
        time.sleep(2)
        said = log()
        incoming = os.path.join(served, "tftp", "incoming",
                                "m1+20261205-091500+results.json")
        held = os.stat(os.path.join(served, "refused",
                                    "m1+20261205-091500+report.html"))
        check("lab-refusals: an upload's file is held once its bytes "
              "arrive: root's and read-only, so no later write request "
              "truncates it",
              held.st_uid == 0 and held.st_mode & 0o777 == 0o444,
              "uid %d, mode %o" % (held.st_uid, held.st_mode))
        check("lab-refusals: a run whose manifest's files are all in is "
              "filed, read-only; the same run sent again is refused by "
              "tftpd, each of its two files (Permission denied, logged), so "
              "neither the filed copy nor what a read-back reads changes",
              filed and open(first).read() == "{}\n"
              and open(incoming).read() == "{}\n"
              and said.count("sending NAK (0, Permission denied)")
              - before == 2, said[-800:])
        # A run whose manifest gives a file a size it does not have (a
        # file cut short, or sent again shorter): never filed as whole.
        short = "m1/20261205-101500/"
        put(b"{}\n", short + "results.json")
        put(b"5 results.json\n", short + "manifest.txt")
        time.sleep(2)
        said = log()
        check("lab-refusals: a run whose manifest gives a file another size "
              "than the one that arrived is not filed, nor said complete",
              not os.path.exists(os.path.join(served, "runs", "m1",
                                              "20261205-101500"))
              and "m1/20261205-101500 complete" not in said
              and "m1/20261205-091500 complete" in said, said[-800:])
    finally:
        server.terminate()
        server.wait()


def lab_http_refusals():
    """The server's HTTP side (docs/lab.md "Safety"): lighttpd on a
    loopback port, sent to by curl as an HTTP-booted machine would: the
    same names, sizes and folder as over TFTP."""
    top = os.path.join(BUILD, "lab-http-refusals")
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    served = os.path.join(top, "lab")
    base = "http://127.0.0.1:18080/"
    server = subprocess.Popen(
        ["python3", os.path.join(ROOT, "tools", "lab_server.py"), "--dir",
         served, "--no-dhcp", "--tftp-address", "127.0.0.1:16970",
         "--http-address", "127.0.0.1:18080", "--config",
         os.path.join(ROOT, "image", "irqlab.cfg"), "--seconds", "60"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    run = "m2/20261205-101500/"
    incoming = os.path.join(served, "tftp", "incoming")

    def send(method, name, data=b""):
        """curl's HTTP status for one request; the URL as written, not
        normalised by curl."""
        out = subprocess.run(
            ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
             "--path-as-is", "-X", method] +
            (["--data-binary", "@-"] if method == "PUT" else []) +
            [base + name], input=data, capture_output=True, timeout=60)
        return out.stdout.decode()

    def log():
        with open(os.path.join(served, "serve.log")) as f:
            return f.read()
    try:
        start = time.monotonic()
        while time.monotonic() - start < 20 and not (
                os.path.exists(os.path.join(served, "serve.log")) and
                "HTTP: http://127.0.0.1:18080/" in log()):
            time.sleep(0.5)
        time.sleep(1)
        served_cfg = send("GET", "irqlab.cfg")
        put = send("PUT", run + "results.json", b"{}\n")
        got = subprocess.run(["curl", "-s", base + run + "results.json"],
                             capture_output=True, timeout=60).stdout
        check("lab-http: irqlab.cfg is served by GET, and a PUT of "
              "results.json under <machine>/<run>/ lands in incoming/ "
              "under its flat name, read back the same by GET",
              served_cfg == "200" and put in ("200", "201", "204") and
              got == b"{}\n" and os.path.exists(os.path.join(
                  incoming, "m2+20261205-101500+results.json")),
              "GET %s, PUT %s, read back %r" % (served_cfg, put, got))
        refused = {
            "climbing": send("PUT", run + "../../outside", b"x"),
            "climbing, encoded": send("PUT", run + "%2e%2e/%2e%2e/outside",
                                      b"x"),
            "unknown name": send("PUT", run + "evil.sh", b"#!/bin/sh\n"),
            "incoming's own name": send("PUT", "incoming/evil.sh", b"x"),
            "DELETE": send("DELETE", run + "results.json"),
            "PROPFIND": send("PROPFIND", "incoming/"),
        }
        left = sorted(os.listdir(incoming))
        # lighttpd writes its access log a few seconds late.
        start = time.monotonic()
        while time.monotonic() - start < 15 and \
                log().count(" 403 ") < len(refused):
            time.sleep(0.5)
        check("lab-http: a PUT whose path climbs out (plain or encoded), an "
              "unknown name, a name outside irqlab's, a DELETE and a "
              "PROPFIND are each denied (403) and logged, and nothing is "
              "written or removed",
              all(v == "403" for v in refused.values()) and
              left == ["m2+20261205-101500+results.json"] and
              not os.path.exists(os.path.join(served, "outside")) and
              not os.path.exists(os.path.join(top, "outside")) and
              log().count(" 403 ") >= len(refused),
              "%s; incoming %s" % (refused, left))
        big = send("PUT", run + "report.html", b"\0" * (5 * 1024 * 1024))
        # The access log comes late, as above (a loaded host: seconds).
        start = time.monotonic()
        while time.monotonic() - start < 15 and "-> 413" not in log():
            time.sleep(0.5)
        check("lab-http: a body over the stated size (4 MiB) is refused "
              "(413), logged, and not written",
              big == "413" and "-> 413" in log() and not os.path.exists(
                  os.path.join(incoming, "m2+20261205-101500+report.html")),
              "PUT %s" % big)
        send("PUT", run + "run-1.bin", b"blob")
        send("PUT", run + "acpi/APIC.bin", b"apic")
        send("PUT", run + "manifest.txt",
             b"3 results.json\n4 run-1.bin\n4 acpi/APIC.bin\n")
        time.sleep(2)
        filed = os.path.join(served, "runs", "m2", "20261205-101500")
        check("lab-http: a run sent whole by PUT, its manifest last, is "
              "filed as a TFTP upload is, its ACPI table in acpi/",
              os.path.exists(os.path.join(filed, "results.json")) and
              os.path.exists(os.path.join(filed, "acpi", "APIC.bin")),
              log()[-800:])
        # Another machine's bytes under the filed run's names: lighttpd,
        # not root, cannot replace a file it does not own in the sticky
        # incoming/, so the read-back still reads the run as filed.
        again = send("PUT", run + "results.json", b"[\"forged\"]\n")
        back = send("GET", run + "results.json")
        with open(os.path.join(filed, "results.json"), "rb") as f:
            kept = f.read()
        engines = [line.split(None, 1) for line in subprocess.run(
            ["ps", "-eo", "user:16,args"], capture_output=True,
            text=True).stdout.splitlines() if served in line
            and ("lighttpd" in line or "in.tftpd" in line)]
        # tftpd-hpa's listener too: it runs as tftp from the start,
        # with only the capabilities its transfers need (TFTPD_CAPS).
        check("lab-http: lighttpd runs as www-data, never as root, once it "
              "listens, and tftpd-hpa's listener as tftp",
              [u for u, a in engines if a.startswith("lighttpd")]
              == ["www-data"] and [u for u, a in engines
                                   if a.startswith("in.tftpd")]
              == ["tftp"], str(engines))
        check("lab-http: a PUT over a filed run's file is refused, and both "
              "the filed copy and its read-back keep the run as filed",
              again not in ("200", "201", "204") and kept == b"{}\n",
              "PUT %s, filed %r, read back %s" % (again, kept, back))
    finally:
        server.terminate()
        server.wait()
