"""A lab's server against a hostile network (docs/lab.md "What the server
keeps"): `make serve` in a network namespace beside the lab's own DHCP
server, two machines PXE-booting from it, and each finding of the
server's review replayed from the namespace by hostile_client.py while
they run. After each, the server must still be running and serving,
and have logged its refusal with the reason. One machine's run must be
filed intact, its records deleted; the other, whose run names a
squatter took first, must keep its records."""

import json
import os
import re
import subprocess
import sys
import time

import varstore
from harness import HERE, ROOT, check
from network import (LAB_CONFIG, LAB_LIMIT, LAB_NET, Lab, fresh_lab,
                     lab_machine, sh, text_of)

# The machine filed whole: allowed by its UUID, whose first three fields
# are not palindromes, so that option 97's byte order is what matches.
REAL = ("52:54:00:1a:b0:21", "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9")
# The machine pre-empted: allowed by its MAC.
VICTIM = ("52:54:00:1a:b0:22", "11111111-2222-3333-4444-555555555522")
# A PXE client in no ALLOW list.
STRANGER = "52:54:00:1a:b0:2f"
# Seconds of run IDs squatted after the victim asks for its boot file:
# its phase A names its run within them.
SQUAT_SECONDS = 85


def client(ns, ops):
    """hostile_client.py's outcomes of ops, sent from the namespace."""
    p = subprocess.run(["ip", "netns", "exec", ns, sys.executable,
                        os.path.join(HERE, "hostile_client.py"),
                        LAB_NET + ".1"], input=json.dumps(ops),
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("hostile_client.py: %s" % p.stderr[-600:])
    return json.loads(p.stdout)


def log_when(log_path, said_it, seconds=30):
    """serve.log once said_it(its text) holds, or as it is after
    `seconds`: lighttpd writes its access log in its own time, and the
    sorter scans every half second, later on a busy host."""
    end = time.monotonic() + seconds
    while not said_it(text_of(log_path)) and time.monotonic() < end:
        time.sleep(0.25)
    return text_of(log_path)


def run_id_at(when):
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime(when))


def lab_hostile():
    top, served = fresh_lab("lab-hostile", LAB_CONFIG)
    allow = os.path.join(top, "allow.txt")
    with open(allow, "w") as f:
        f.write("# the lab's machines\n%s\n%s  # by MAC\n"
                % (REAL[1].upper(), VICTIM[0]))
    log_path = os.path.join(served, "serve.log")
    with Lab(top) as lab:
        # MODE=dhcp beside the lab's own DHCP server, once that one is
        # up: refused at start.
        start = time.monotonic()
        while "DHCP, IP range" not in text_of(os.path.join(
                top, "dhcp.log")) and time.monotonic() - start < 30:
            time.sleep(0.2)
        leasing = subprocess.Popen(
            ["ip", "netns", "exec", lab.ns, "make", "-s", "-C", ROOT,
             "serve", "LAB=" + os.path.join(top, "leasing"),
             "INTERFACE=br0", "MODE=dhcp", "RANGE=%s.160,%s.170" % (
                 LAB_NET, LAB_NET)], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            said_leasing = leasing.communicate(timeout=60)[0]
        except subprocess.TimeoutExpired:
            os.killpg(leasing.pid, 15)
            said_leasing = leasing.communicate()[0] + "\n(started: still " \
                "running after 60 s)"
        check("lab-hostile: make serve MODE=dhcp will not start where the "
              "lab's own DHCP server answers on the interface, and names it",
              leasing.returncode != 0 and "a DHCP server already answers on "
              "br0 (%s.2)" % LAB_NET in said_leasing, said_leasing[-600:])
        # The squatted names stay held past the victim's upload, however
        # slow the host: idle_seconds well over a lab boot.
        server = lab.spawn(lab.ns, "serve.out", [
            "make", "-s", "-C", ROOT, "serve", "LAB=" + served,
            "INTERFACE=br0", "ALLOW=" + allow, "LIMITS=idle_seconds=900"])
        time.sleep(3)
        replay(lab, server, served, log_path)
        real = lab_machine(lab, 0, REAL[0], REAL[1], "max")
        victim = lab_machine(lab, 1, VICTIM[0], VICTIM[1], "max")
        squat(lab, log_path)
        start = time.monotonic()
        while time.monotonic() - start < LAB_LIMIT and (
                real.poll() is None or victim.poll() is None):
            time.sleep(2)
        sockets = sh("ss", "-lnpu", ns=lab.ns).stdout + \
            sh("ss", "-lnpt", ns=lab.ns).stdout
        engines = [line.split(None, 1) for line in subprocess.run(
            ["ps", "-eo", "user:16,args"], capture_output=True,
            text=True).stdout.splitlines() if served in line]
        alive = server.poll() is None
    said = text_of(log_path)
    check("lab-hostile: the server ran to the end, every finding replayed",
          alive, said[-800:])
    own = [line for line in sockets.splitlines()
           if re.search(r'"(dnsmasq|in\.tftpd|lighttpd)"', line)]
    check("lab-hostile: ss -lnpu and -lnpt show each of the lab's sockets "
          "on the bridge's address or bound to the bridge, none on another "
          "interface (loopback) or on every address",
          own and all(re.search(r"\s(%s\.1|\S*%%br0):\d+\s" % LAB_NET, line)
                      for line in own), "\n".join(own) or sockets)
    check("lab-hostile: ps shows no engine of the lab's as root (tftpd-hpa "
          "and lighttpd; dnsmasq drops root too)",
          engines and all(user != "root" for user, args in engines
                          if re.match(r"(in\.tftpd|lighttpd|dnsmasq)", args)),
          str(engines))
    machines(top, served, said)
    fleet(served)


def serving(lab, server, name, log_path):
    """After each finding: the server runs, and serves irqlab.cfg."""
    got = client(lab.ns, [{"op": "get", "name": "irqlab.cfg"}])[0]
    check("lab-hostile (%s): the server is still running and serving "
          "irqlab.cfg" % name,
          server.poll() is None and got["ok"] and
          bytes.fromhex(got["data"]) == LAB_CONFIG.encode(),
          "%s; %s" % (got, text_of(log_path)[-400:]))


def replay(lab, server, served, log_path):
    incoming = os.path.join(served, "tftp", "incoming")
    # 1. Manifests that once stopped the server, by TFTP and by HTTP.
    client(lab.ns, [{"op": "put", "name": "m9/20240101-000000/manifest.txt",
                     "data": "\u00b2 manifest.txt".encode().hex()}])
    subprocess.run(["ip", "netns", "exec", lab.ns, "curl", "-s", "-o",
                    "/dev/null", "-T", "-", "http://%s.1/m9/20240101-000001/"
                    "manifest.txt" % LAB_NET], input=b"9" * 5000 +
                   b" manifest.txt", timeout=60)
    said = log_when(log_path, lambda t: "m9+20240101-000001+manifest.txt: "
                    "line 1" in t and "m9+20240101-000000+manifest.txt: "
                    "not" in t)
    check("lab-hostile (1): a manifest sized in superscript digits (TFTP) "
          "and one of 5000 digits (HTTP) are refused with their reasons",
          "m9+20240101-000000+manifest.txt: not ASCII" in said and
          "m9+20240101-000001+manifest.txt: line 1 is not" in said,
          said[-800:])
    serving(lab, server, "1", log_path)
    # 2. A write request with no data over another's upload; the same
    # name sent again over HTTP.
    first = client(lab.ns, [
        {"op": "put", "name": "m8/20240101-000000/results.json",
         "data": b'{"run_id": "mine"}\n'.hex()},
        {"op": "wrq", "name": "m8/20240101-000000/results.json"}])
    again = subprocess.run(
        ["ip", "netns", "exec", lab.ns, "curl", "-s", "-o", "/dev/null",
         "-w", "%{http_code}", "-T", "-", "http://%s.1/m8/20240101-000000/"
         "results.json" % LAB_NET], input=b"[]", capture_output=True,
        timeout=60).stdout.decode()
    path = os.path.join(incoming, "m8+20240101-000000+results.json")
    kept = open(path, "rb").read() if os.path.exists(path) else None
    check("lab-hostile (2, 8): a bare write request, and a PUT, for a name "
          "another upload holds are refused (TFTP: %s; HTTP: %s), and its "
          "19 bytes stay" % (first[1]["error"] or "none", again),
          first[0]["ok"] and not first[1]["ok"] and again not in (
              "200", "201", "204") and kept == b'{"run_id": "mine"}\n'
          and "refused: WRQ from" in text_of(log_path), str(first))
    serving(lab, server, "2", log_path)
    # 3. Past a limit: a machine starting more runs in a day than
    # runs_per_day, and 300 empty write requests of as many machines.
    ops = [{"op": "put", "name": "m7/20240101-%06d/results.json" % i,
            "data": ""} for i in range(101)]
    ops += [{"op": "wrq", "name": "e%d/20240101-000000/summary.txt" % i}
            for i in range(300)]
    client(lab.ns, ops)
    said = log_when(log_path, lambda t: "runs_per_day=100 runs" in t)
    time.sleep(1)
    runs = {n.split("+")[1] for n in os.listdir(incoming)
            if n.startswith("m7+")}
    check("lab-hostile (3): a machine's 101st run of the day is refused "
          "(runs_per_day=100), logged, and 100 stay",
          "runs_per_day=100 runs in the last 24 h" in said and
          len(runs) == 100, "%d runs; %s" % (len(runs), said[-400:]))
    serving(lab, server, "3", log_path)
    # 6. A run forged whole, which the server files as it would a real
    # one (docs/lab.md: what plain TFTP cannot stop), holding what make
    # fleet once crashed on.
    forged = b'{"run_id": NaN, "experiments": [1]}\n'
    client(lab.ns, [
        {"op": "put", "name": "m6/20240101-000000/results.json",
         "data": forged.hex()},
        {"op": "put", "name": "m6/20240101-000000/manifest.txt",
         "data": ("%d results.json\n" % len(forged)).encode().hex()}])
    # 7. A name with an escape and a newline forging a log line, by TFTP
    # and by HTTP: each refused and logged, and nothing of it raw.
    before = len(text_of(log_path))
    forged_name = "\x1b[2Jx\n12:00:00 run: victim/20240101-000000 complete"
    client(lab.ns, [{"op": "put", "name": forged_name, "data": "00"}])
    subprocess.run(["ip", "netns", "exec", lab.ns, "curl", "-s", "-o",
                    "/dev/null", "--path-as-is", "-T", "-",
                    "http://%s.1/%%1b%%5b2Jx%%0a12:00:00%%20run:%%20victim/"
                    "x" % LAB_NET], input=b"00", timeout=60)
    said = log_when(log_path, lambda t: re.search(
        r"PUT \S*victim/x HTTP/1.1 4\d\d", t[before:]) is not None and
        "sending NAK (2, Access denied)" in t[before:])
    check("lab-hostile (7): a file name with an escape and a newline, by "
          "TFTP and by HTTP, is refused and logged (tftpd's NAK, lighttpd's "
          "4xx), with no ESC in serve.log and no line it forged",
          "\x1b" not in said and not re.search(
              r"^12:00:00 run: victim", said, re.M)
          and "sending NAK (2, Access denied)" in said[before:]
          and re.search(r"PUT \S*victim/x HTTP/1.1 4\d\d", said[before:])
          is not None, said[before:][-600:])
    serving(lab, server, "7", log_path)
    # 5. A PXE client in no ALLOW list: make serve's dnsmasq ignores it;
    # the lab's own server still offers it an address, no boot file.
    offers = client(lab.ns, [{"op": "dhcp", "mac": STRANGER,
                              "interface": "br0"}])[0]["offers"]
    said = text_of(log_path)
    check("lab-hostile (5): a PXE client in no ALLOW list gets no answer "
          "from make serve (only the lab's own server offers, naming no "
          "boot file); the start said which machines are answered",
          not any(o["boot_file"] for o in offers) and
          all(o["from"] == LAB_NET + ".2" for o in offers) and
          "answering only the 2 machine(s) in" in said,
          "%s; %s" % (offers, said[:600]))
    serving(lab, server, "5", log_path)


def squat(lab, log_path):
    """Finding 2's pre-emption: once the victim asks for its boot file,
    every run ID it may take in the next SQUAT_SECONDS gets a forged
    manifest under its name, sent first."""
    start = time.monotonic()
    while "boot: %s asked" % VICTIM[0] not in text_of(log_path) and \
            time.monotonic() - start < 120:
        time.sleep(0.2)
    now = time.time()
    client(lab.ns, [{"op": "put", "name": "%s/%s/manifest.txt" % (
        VICTIM[1], run_id_at(now + i)), "data": b"2 results.json\n".hex()}
        for i in range(-5, SQUAT_SECONDS)])


def machines(top, served, said):
    real_text = text_of(os.path.join(top, "machine-0", "serial.log"))
    victim_text = text_of(os.path.join(top, "machine-1", "serial.log"))
    folder = os.path.join(served, "runs", REAL[1])
    found = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    doc = None
    if len(found) == 1:
        with open(os.path.join(folder, found[0], "results.json")) as f:
            doc = json.load(f)
    real_records = varstore.irqlab_records(
        os.path.join(top, "machine-0", "vars.fd"))
    check("lab-hostile: the machine allowed by its UUID booted, and its run "
          "was filed whole in runs/<UUID>/ (every row ok), then its records "
          "deleted",
          doc is not None and all(e["status"] == "ok"
                                  for e in doc["experiments"])
          and "run: %s/%s complete" % (REAL[1], found[0]) in said
          and "results in tftp://" in real_text and real_records == [],
          "%s; %d records; %s" % (found, len(real_records),
                                  real_text[-400:]))
    failed = re.search(r"phase C: results NOT written \((.*)\); records "
                       r"kept", victim_text)
    victim_records = varstore.irqlab_records(
        os.path.join(top, "machine-1", "vars.fd"))
    check("lab-hostile: the machine whose run names were squatted first "
          "found its manifest's name held on the server, sent nothing over "
          "it, said so, and kept its records; nothing of it was filed",
          failed is not None and "the server already holds the name" in
          failed.group(1)
          and len(victim_records) > 0 and not os.path.isdir(
              os.path.join(served, "runs", VICTIM[1])),
          "%s; %d records; %s" % (failed and failed.group(0),
                                  len(victim_records), victim_text[-400:]))


def fleet(served):
    """Finding 6: a forged run that is filed (the server cannot tell it
    from a real one) holds a results.json make fleet cannot read; the
    page is built from the rest, the bad file named."""
    p = subprocess.run(["make", "-s", "-C", ROOT, "fleet", "DIR=" + served],
                       capture_output=True, text=True, timeout=300)
    check("lab-hostile (6): make fleet over the lab builds fleet.html with "
          "the filed machine, the forged run's results.json skipped and "
          "named",
          p.returncode == 0 and REAL[1] in text_of(
              os.path.join(served, "fleet.html")) and "m6" in p.stdout +
          p.stderr, (p.stdout + p.stderr)[-600:])
