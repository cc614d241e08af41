"""irqlab booted from the network (docs/lab.md): OVMF PXE-boots it from
QEMU's own TFTP server, as a lab's machines boot from its server; phase
A reads where it came from in the loaded image's device path, and the
config from that server: the machine's own irqlab-<MAC>.cfg, else the
lab's irqlab.cfg."""

import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time

import varstore
from harness import (BUILD, HERE, ROOT, TINY, TINY_SAMPLES, check,
                     entry_thread, launched)
from row_checks import check_run_whole

# Two machines: one with an SMBIOS UUID and a config of its own on the
# server, one with neither, which takes the lab's. What phase A must name
# them: the UUID in its canonical text, its first three fields stored
# little-endian (DSP0134 §7.2.1), else the MAC.
OWN = ("52:54:00:12:34:56", "00112233-4455-6677-8899-aabbccddeeff")
LABS = ("52:54:00:ab:cd:ef", None)
OWN_SAMPLES, LAB_SAMPLES = 1234, 4321
OVMF_CODE = "/usr/share/OVMF/OVMF_CODE_4M.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"
# Phase A's last line before it exits boot services: it has read the
# device path and the config by then.
PHASE_A_DONE = "phase A: a handoff may take"
LIMIT = 240


def mac_name(mac):
    return mac.replace(":", "-")


def boot_until_phase_a(here, tftp, mac, uuid):
    """One machine: a virtio NIC, no disk; OVMF's own PXE (the NIC's iPXE
    ROM left out) takes irqlab.efi from QEMU's TFTP server. Stopped once
    phase A is done; returns its serial text."""
    os.makedirs(here)
    shutil.copy(OVMF_VARS, os.path.join(here, "vars.fd"))
    log = os.path.join(here, "serial.log")
    launched()
    qemu = subprocess.Popen(
        ["qemu-system-x86_64", "-machine", "q35", "-cpu", "max", "-m", "512",
         "-display", "none", "-no-reboot"]
        + (["-uuid", uuid] if uuid else []) +
        ["-drive", "if=pflash,format=raw,readonly=on,file=" + OVMF_CODE,
         "-drive", "if=pflash,format=raw,file=" + os.path.join(here,
                                                               "vars.fd"),
         "-netdev", "user,id=n0,tftp=%s,bootfile=irqlab.efi" % tftp,
         "-device", "virtio-net-pci,netdev=n0,mac=%s,romfile=" % mac,
         "-serial", "file:" + log],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    text, start = "", time.monotonic()
    try:
        while time.monotonic() - start < LIMIT and qemu.poll() is None:
            time.sleep(2)
            with open(log, "rb") as f:
                text = f.read().decode("latin-1").replace("\r", "")
            if PHASE_A_DONE in text:
                break
    finally:
        qemu.kill()
        qemu.wait()
    return text


def line_of(text, start):
    return next((l for l in text.splitlines() if l.startswith(start)), "")


def pxe_boot_phase_a():
    """Both machines at once, from one TFTP folder holding irqlab.efi, the
    lab's irqlab.cfg and the first machine's own file. The measuring and
    the upload are later work (docs/lab.md)."""
    top = os.path.join(BUILD, "pxe-boot")
    shutil.rmtree(top, ignore_errors=True)
    tftp = os.path.join(top, "tftp")
    os.makedirs(tftp)
    shutil.copy(os.path.join(ROOT, "build", "irqlab.efi"), tftp)
    with open(os.path.join(tftp, "irqlab-%s.cfg" % mac_name(OWN[0])),
              "w") as f:
        f.write("samples = %d\n" % OWN_SAMPLES)
    with open(os.path.join(tftp, "irqlab.cfg"), "w") as f:
        f.write("samples = %d\n" % LAB_SAMPLES)
    texts = {}

    def boot(key, mac, uuid):
        texts[key] = boot_until_phase_a(os.path.join(top, key), tftp, mac,
                                        uuid)
    threads = [entry_thread("pxe-boot: a machine", boot, "own", *OWN),
               entry_thread("pxe-boot: a machine", boot, "lab", *LABS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for key, (mac, uuid), file, samples in (
            ("own", OWN, "irqlab-%s.cfg" % mac_name(OWN[0]), OWN_SAMPLES),
            ("lab", LABS, "irqlab.cfg", LAB_SAMPLES)):
        text = texts.get(key, "")
        check("pxe-boot (%s): OVMF PXE-boots irqlab.efi from QEMU's TFTP "
              "server and phase A runs" % key,
              "NBP file downloaded successfully" in text and
              PHASE_A_DONE in text, text[-1500:])
        want = ("phase A: loaded over the network (PXE, IPv4) through the "
                "NIC with MAC %s; a lab's server files this machine's runs "
                "under %s" % (mac_name(mac), uuid or "mac-" + mac_name(mac)))
        line = line_of(text, "phase A: loaded over the network")
        check("pxe-boot (%s): phase A reads the network boot from the "
              "loaded image's device path: '%s'" % (key, want),
              line == want, line or text[-800:])
        said = ("config: read from the server irqlab was booted from: "
                "tftp://10.0.2.2/" + file)
        check("pxe-boot (%s): the config is read from the server, %s, and "
              "its samples = %d holds" % (key, file, samples),
              said in text.splitlines() and line_of(
                  text, "config: samples=").startswith(
                      "config: samples=%d " % samples),
              line_of(text, "config:"))


# A lab on a network of its own (docs/lab.md "Tested"): a namespace with
# a bridge, the lab's own DHCP server in a second namespace on a veth,
# `make serve` in proxy mode on the bridge, and three machines on taps.
LAB_NET = "10.77.0"
# Its IPv6 prefix, from the documentation range (RFC 3849): the server
# is ::1, the lab's own DHCPv6 server ::2.
LAB_NET6 = "2001:db8:1ab::"
LAB_MACHINES = (
    # (MAC, SMBIOS UUID or None, QEMU CPU model, its own config?)
    ("52:54:00:1a:b0:01", "11111111-2222-3333-4444-555555555501", "max",
     True),
    ("52:54:00:1a:b0:02", "11111111-2222-3333-4444-555555555502",
     "Westmere", False),
    ("52:54:00:1a:b0:03", None, "qemu64", False),
)
LAB_CONFIG = (TINY + "schemes = direct\nvariants = none\nsources = int\n"
              "apic_modes = xapic\ncpus = 0\nmatrix_cpus = none\n"
              "finish = shutdown\n")
OWN_CONFIG_SAMPLES = 321
LAB_LIMIT = 420


def sh(*cmd, ns=None):
    full = (["ip", "netns", "exec", ns] if ns else []) + list(cmd)
    return subprocess.run(full, check=True, capture_output=True, text=True)


class Lab:
    """The namespaces, the lab's DHCP server and the bridge; removed on
    exit whatever happened."""

    def __init__(self, top, own_dhcp=True, ipv6=None):
        """own_dhcp: the lab has a DHCP server of its own (else make
        serve leases the addresses). ipv6: the lab's own DHCPv6 server's
        config (Kea's, lab_ipv6.py), with an IPv6 prefix on the bridge
        and the veth; the lab's own DHCPv4 server is then left out."""
        tag = str(os.getpid())
        self.ns, self.dhcp_ns = "irqlab-lab-" + tag, "irqlab-dhcp-" + tag
        self.top, self.procs, self.own_dhcp = top, [], own_dhcp
        self.ipv6 = ipv6

    def __enter__(self):
        sh("ip", "netns", "add", self.ns)
        for cmd in (("ip", "link", "set", "lo", "up"),
                    ("ip", "link", "add", "br0", "type", "bridge"),
                    ("ip", "addr", "add", LAB_NET + ".1/24", "dev", "br0"),
                    ("ip", "link", "set", "br0", "up")):
            sh(*cmd, ns=self.ns)
        if self.ipv6:
            # No duplicate address detection to wait for, and no address
            # of the bridge's own making from make serve's advertisements.
            sh("sysctl", "-qw", "net.ipv6.conf.br0.accept_ra=0", ns=self.ns)
            sh("ip", "addr", "add", LAB_NET6 + "1/64", "dev", "br0",
               "nodad", ns=self.ns)
        if not self.own_dhcp:
            return self
        sh("ip", "netns", "add", self.dhcp_ns)
        for cmd in (("ip", "link", "add", "veth-lab", "type", "veth",
                     "peer", "name", "veth-dhcp"),
                    ("ip", "link", "set", "veth-lab", "master", "br0", "up"),
                    ("ip", "link", "set", "veth-dhcp", "netns",
                     self.dhcp_ns)):
            sh(*cmd, ns=self.ns)
        if self.ipv6:
            # Kea opens its socket on the link-local address at once: no
            # duplicate address detection to leave it tentative.
            sh("sysctl", "-qw", "net.ipv6.conf.veth-dhcp.accept_dad=0",
               ns=self.dhcp_ns)
            sh("ip", "addr", "add", LAB_NET6 + "2/64", "dev", "veth-dhcp",
               "nodad", ns=self.dhcp_ns)
        for cmd in (("ip", "link", "set", "lo", "up"),
                    ("ip", "addr", "add", LAB_NET + ".2/24", "dev",
                     "veth-dhcp"),
                    ("ip", "link", "set", "veth-dhcp", "up")):
            sh(*cmd, ns=self.dhcp_ns)
        if self.ipv6:
            config = os.path.join(self.top, "kea-dhcp6.json")
            with open(config, "w") as f:
                json.dump(self.ipv6, f, indent=1)
            # Kea keeps its pid and lock files where these say.
            self.spawn(self.dhcp_ns, "dhcp6.log", [
                "env", "KEA_PIDFILE_DIR=" + self.top,
                "KEA_LOCKFILE_DIR=" + self.top, "kea-dhcp6", "-c", config])
            return self
        # The lab's own DHCP server: addresses only, no boot file.
        self.spawn(self.dhcp_ns, "dhcp.log", [
            "dnsmasq", "--keep-in-foreground", "--conf-file=/dev/null",
            "--port=0", "--log-dhcp", "--log-facility=-",
            "--interface=veth-dhcp", "--bind-interfaces",
            "--dhcp-range=%s.100,%s.150,1h" % (LAB_NET, LAB_NET),
            "--dhcp-leasefile=" + os.path.join(self.top, "leases"),
            "--pid-file=" + os.path.join(self.top, "dhcp.pid")])
        return self

    def spawn(self, ns, log, cmd):
        out = open(os.path.join(self.top, log), "w")
        p = subprocess.Popen(["ip", "netns", "exec", ns] + cmd, stdout=out,
                             stderr=subprocess.STDOUT, start_new_session=True)
        self.procs.append(p)
        return p

    def tap(self, name):
        sh("ip", "tuntap", "add", name, "mode", "tap", ns=self.ns)
        sh("ip", "link", "set", name, "master", "br0", "up", ns=self.ns)

    def __exit__(self, *exc):
        for p in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, 15)
                except ProcessLookupError:
                    pass
        for p in self.procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, 9)
                p.wait()
        for ns in (self.ns, self.dhcp_ns):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def fresh_lab(name, config=None):
    """The test's folder under BUILD, emptied, and the lab's folder in
    it; with config, the lab's irqlab.cfg holding it."""
    top = os.path.join(BUILD, name)
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    served = os.path.join(top, "lab")
    if config is not None:
        os.makedirs(os.path.join(served, "tftp"))
        with open(os.path.join(served, "tftp", "irqlab.cfg"), "w") as f:
            f.write(config)
    return top, served


def lab_machine(lab, index, mac, uuid, cpu, http=False, ipv6=False):
    """One machine on its tap: OVMF's own PXE, reset allowed (phase B's
    reset starts phase C), finish = shutdown ends it. With http, OVMF's
    PXE is turned off (its fw_cfg switches), so it boots by HTTP; with
    ipv6 alone, its PXE over IPv4 is, so it PXE-boots over IPv6."""
    off = ("IPv4", "IPv6") if http else ("IPv4",) if ipv6 else ()
    here = os.path.join(lab.top, "machine-%d" % index)
    os.makedirs(here)
    shutil.copy(OVMF_VARS, os.path.join(here, "vars.fd"))
    tap = "tap%d" % index
    lab.tap(tap)
    launched()
    return lab.spawn(lab.ns, "machine-%d.qemu.log" % index, [
        "qemu-system-x86_64", "-machine", "q35", "-cpu", cpu, "-m", "512",
        "-display", "none"] + (["-uuid", uuid] if uuid else []) + [
        "-drive", "if=pflash,format=raw,readonly=on,file=" + OVMF_CODE,
        "-drive", "if=pflash,format=raw,file=" + os.path.join(here,
                                                              "vars.fd"),
        "-netdev", "tap,id=n0,ifname=%s,script=no,downscript=no" % tap,
        "-device", "virtio-net-pci,netdev=n0,mac=%s,romfile=" % mac,
        "-serial", "file:" + os.path.join(here, "serial.log")] + [
            a for ip in off for a in (
                "-fw_cfg", "name=opt/org.tianocore/%sPXESupport,string=n"
                % ip)])


def lab_of_machines():
    """Three machines PXE-boot at once through `make serve` beside the
    lab's DHCP server; each measures, and its run arrives in its own
    folder under LAB/runs."""
    top, served = fresh_lab("lab", LAB_CONFIG)
    own = LAB_MACHINES[0][0]
    with open(os.path.join(served, "tftp", "irqlab-%s.cfg" % mac_name(own)),
              "w") as f:
        f.write(LAB_CONFIG + "samples = %d\n" % OWN_CONFIG_SAMPLES)
    with Lab(top) as lab:
        server = lab.spawn(lab.ns, "serve.log", [
            "make", "-s", "-C", ROOT, "serve", "LAB=" + served,
            "INTERFACE=br0", "RUNS=%d" % len(LAB_MACHINES)])
        time.sleep(3)
        machines = [lab_machine(lab, i, mac, uuid, cpu)
                    for i, (mac, uuid, cpu, _) in enumerate(LAB_MACHINES)]
        start = time.monotonic()
        while time.monotonic() - start < LAB_LIMIT and (
                server.poll() is None or
                any(m.poll() is None for m in machines)):
            time.sleep(2)
        served_rc = server.poll()
        leaked = sh("ip", "-o", "link", ns=lab.ns).stdout
    with open(os.path.join(top, "serve.log")) as f:
        said = f.read()
    check("lab: make serve (proxy DHCP beside the lab's own DHCP server) "
          "filed all three machines' runs and stopped by itself",
          served_rc == 0 and "stopped: 3 run(s) filed" in said, said[-1500:])
    check("lab: the lab's DHCP server leased the addresses, make serve's "
          "dnsmasq only answered PXE as a proxy",
          "proxy" in said and "DHCPACK" not in said and
          "DHCPACK" in open(os.path.join(top, "dhcp.log")).read(),
          said[:1500])
    check("lab: the namespace holds only its bridge, veth, taps and "
          "loopback: no link leaves it",
          all(re.search(r"^\d+: (lo|br0|veth-lab@\S+|tap\d):", l)
              for l in leaked.splitlines()), leaked)
    runs = os.path.join(served, "runs")
    for i, (mac, uuid, cpu, has_own) in enumerate(LAB_MACHINES):
        machine = uuid or "mac-" + mac_name(mac)
        folder = os.path.join(runs, machine)
        found = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        doc = None
        if len(found) == 1:
            with open(os.path.join(folder, found[0], "results.json")) as f:
                doc = json.load(f)
        with open(os.path.join(top, "machine-%d" % i, "serial.log"),
                  "rb") as f:
            text = f.read().decode("latin-1").replace("\r", "")
        check("lab (%s): one run arrived in runs/%s/, with every file a "
              "stick's folder has and its manifest" % (cpu, machine),
              len(found) == 1 and all(os.path.exists(os.path.join(
                  folder, found[0], n)) for n in (
                      "results.json", "summary.txt", "report.html",
                      "headline.txt", "manifest.txt", "run-1.bin",
                      "acpi/APIC.bin")), str(found))
        check("lab (%s): its results.json is the %s CPU's run, every row "
              "ok, with the samples of %s" % (
                  cpu, cpu, "its own irqlab-<MAC>.cfg" if has_own
                  else "the lab's irqlab.cfg"),
              doc is not None and doc["config"]["samples"] == (
                  OWN_CONFIG_SAMPLES if has_own else TINY_SAMPLES) and
              doc["experiments"] and all(
                  e["status"] == "ok" for e in doc["experiments"]) and
              ("QEMU" in doc["machine"]["brand"]) == (cpu != "Westmere"),
              str(doc and (doc["config"]["samples"],
                           doc["machine"]["brand"])))
        check("lab (%s): phase C says where the results went: "
              "tftp://%s.1/%s/<run>" % (cpu, LAB_NET, machine),
              bool(found) and "results in tftp://%s.1/%s/%s" % (
                  LAB_NET, machine, found[0]) in text, text[-800:])
    lab_fleet(served)


HTTP_MACHINE = ("52:54:00:1a:b0:09", "11111111-2222-3333-4444-555555555509")


def lab_http_boot():
    """UEFI HTTP boot from make serve in dhcp mode, on a network
    namespace of its own: its dnsmasq answers the HTTP boot client with
    the boot file's URL, lighttpd serves it, and irqlab reads its config
    and sends its run through the firmware's HTTP protocol. Between them
    a relay answers as servers other than lighttpd do
    (tests/boot/http_relay.py): the config chunked, with no length, and
    each PUT's 2xx with a body of 600 bytes; irqlab must read the one
    whole and take the other as stored."""
    top, served = fresh_lab("lab-http-boot", LAB_CONFIG)
    mac, uuid = HTTP_MACHINE
    with Lab(top, own_dhcp=False) as lab:
        server = lab.spawn(lab.ns, "serve.log", [
            "env", "HTTP_ADDRESS=%s.1:8080" % LAB_NET,
            "make", "-s", "-C", ROOT, "serve", "LAB=" + served,
            "INTERFACE=br0", "MODE=dhcp",
            "RANGE=%s.100,%s.150" % (LAB_NET, LAB_NET), "RUNS=1"])
        lab.spawn(lab.ns, "relay.log", [
            sys.executable, os.path.join(HERE, "http_relay.py"),
            "%s.1:80" % LAB_NET, "%s.1:8080" % LAB_NET])
        time.sleep(3)
        machine = lab_machine(lab, 0, mac, uuid, "max", http=True)
        wait_for([server, machine], LAB_LIMIT)
        served_rc = server.poll()
    said = text_of(os.path.join(top, "serve.log"))
    relayed = text_of(os.path.join(top, "relay.log"))
    text = text_of(os.path.join(top, "machine-0", "serial.log"))
    url = "http://%s.1/" % LAB_NET
    check("lab-http-boot: the relay sent the config chunked, with no "
          "Content-Length, and answered every PUT's 2xx with a 600-byte "
          "body",
          re.search(r"^relay: GET /irqlab\.cfg 200 chunked [1-9]\d* bytes$",
                    relayed, re.M) is not None
          and re.search(r"^relay: PUT \S+ 2\d\d, reply body 600 bytes$",
                        relayed, re.M) is not None, relayed[-800:])
    check("lab-http-boot: make serve's dnsmasq answered the HTTP boot "
          "client with the boot file's URL, and lighttpd served it",
          "vendor class: HTTPClient" in said and
          "bootfile-name  %sirqlab.efi" % url in said and
          "GET /irqlab.efi HTTP/1.1 200" in said, said[-1500:])
    check("lab-http-boot: phase A knew it was HTTP-booted from that URL, "
          "and read the lab's config from the server over HTTP",
          "phase A: from %sirqlab.efi" % url in text and
          "config: read from the server irqlab was booted from: "
          "%sirqlab.cfg" % url in text.splitlines(),
          line_of(text, "config:") + line_of(text, "phase A: from"))
    folder = os.path.join(served, "runs", uuid)
    found = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    doc = None
    if len(found) == 1:
        with open(os.path.join(folder, found[0], "results.json")) as f:
            doc = json.load(f)
    check("lab-http-boot: the run was sent by PUT and filed whole in "
          "runs/<UUID>/, every row ok; the server stopped by itself",
          served_rc == 0 and doc is not None and doc["experiments"] and all(
              e["status"] == "ok" for e in doc["experiments"]) and
          os.path.exists(os.path.join(folder, found[0], "acpi",
                                      "APIC.bin")) and
          "run: %s/%s complete" % (uuid, found[0]) in said,
          "%s; %s" % (found, said[-800:]))
    check("lab-http-boot: the run measured with the config read over "
          "HTTP: results.json's config has the lab's samples (%d, not the "
          "image's own)" % TINY_SAMPLES,
          doc is not None and doc["config"].get("samples") == TINY_SAMPLES,
          str(doc and doc["config"]))
    check("lab-http-boot: phase C says where the results went: "
          "%s%s/<run>" % (url, uuid),
          bool(found) and "results in %s%s/%s" % (url, uuid, found[0])
          in text, text[-800:])


def lab_fleet(served):
    """make fleet over the lab's folder: fleet.db holds each machine's
    run and every row of its results.json with the same medians, and
    fleet.html names the three machines, one CPU model each."""
    p = subprocess.run(["make", "-s", "-C", ROOT, "fleet", "DIR=" + served],
                       capture_output=True, text=True)
    db_path = os.path.join(served, "fleet.db")
    check("lab: make fleet DIR=<lab> writes fleet.db and fleet.html",
          p.returncode == 0 and os.path.exists(db_path) and
          os.path.exists(os.path.join(served, "fleet.html")),
          (p.stdout + p.stderr)[-800:])
    if p.returncode:
        return
    db = sqlite3.connect(db_path)
    want = {}
    for mac, uuid, cpu, _ in LAB_MACHINES:
        machine = uuid or "mac-" + mac_name(mac)
        folder = os.path.join(served, "runs", machine)
        for run in (os.listdir(folder) if os.path.isdir(folder) else []):
            with open(os.path.join(folder, run, "results.json")) as f:
                doc = json.load(f)
            for e in doc["experiments"]:
                want[(machine, run, e["name"])] = (
                    e["status"], e["round_trip"]["median"] if
                    e["status"] == "ok" else None)
    got = {(m, r, n): (s, rt) for m, r, n, s, rt in db.execute(
        "SELECT machine, run, row, state, round_trip FROM rows WHERE topic "
        "IN ('schemes', 'i386', 'variants', 'caches', 'mitigations')")}
    check("lab: fleet.db has a row per machine, run and experiment of the "
          "three results.json files, each with its state and median round "
          "trip, and no other",
          len(want) >= 3 and got == want,
          str(sorted(set(got.items()) ^ set(want.items()))[:6]))
    machines = db.execute("SELECT machine, cpu_model FROM machines "
                          "ORDER BY machine").fetchall()
    with open(os.path.join(served, "fleet.html")) as f:
        page = f.read()
    data = json.loads(re.search(
        r'<script type="application/json" id="irqlab-data">(.*?)</script>',
        page, re.S).group(1))
    shown = sorted((m["machine"], g["cpu_model"]) for g in data["groups"]
                   for m in g["machines"])
    check("lab: fleet.html shows the three machines in three groups, one "
          "per CPU model, as fleet.db's machines table has them",
          len(machines) == 3 and shown == machines and
          len(data["groups"]) == 3, str((shown, machines)))


def serve_user_mode(top, config, runs=1):
    """make serve MODE=user with LAB=top/lab serving this config, in a
    session of its own; returns the server, where it logs, and the
    -netdev its machines boot with (None where it named none in 60 s)."""
    served = os.path.join(top, "lab")
    os.makedirs(os.path.join(served, "tftp"), exist_ok=True)
    with open(os.path.join(served, "tftp", "irqlab.cfg"), "w") as f:
        f.write(config)
    log_path = os.path.join(top, "serve-%d.out" % len(
        [n for n in os.listdir(top) if n.startswith("serve-")]))
    with open(log_path, "w") as out:
        server = subprocess.Popen(
            ["make", "-s", "-C", ROOT, "serve", "LAB=" + served, "MODE=user",
             "RUNS=%d" % runs], stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True)
    netdev, start = None, time.monotonic()
    while netdev is None and time.monotonic() - start < 60 and \
            server.poll() is None:
        time.sleep(1)
        with open(log_path) as f:
            netdev = re.search(r"boot with: -netdev (\S+)", f.read())
    return server, log_path, netdev and netdev.group(1)


def stop_server(server):
    if server.poll() is None:
        os.killpg(server.pid, 15)
    server.wait()


def user_machine(here, netdev, uuid, qmp=None, disk=None):
    """One QEMU machine on user networking, PXE-booted by QEMU's own
    servers (first in its boot order); its variable store stays in
    here/vars.fd (made on its first boot), its serial text goes to
    here/serial-<boot>.log. A disk image is attached as virtio-blk."""
    os.makedirs(here, exist_ok=True)
    store = os.path.join(here, "vars.fd")
    if not os.path.exists(store):
        shutil.copy(OVMF_VARS, store)
    boot = len([n for n in os.listdir(here) if n.startswith("serial-")])
    launched()
    return subprocess.Popen(
        ["qemu-system-x86_64", "-machine", "q35", "-cpu", "max", "-m",
         "512", "-display", "none", "-uuid", uuid,
         "-drive", "if=pflash,format=raw,readonly=on,file=" + OVMF_CODE,
         "-drive", "if=pflash,format=raw,file=" + store,
         "-netdev", netdev,
         "-device", "virtio-net-pci,netdev=n0,romfile=,bootindex=1",
         "-serial", "file:" + os.path.join(here, "serial-%d.log" % boot)]
        + (["-qmp", "unix:%s,server=on,wait=off" % qmp] if qmp else [])
        + (["-drive", "if=none,id=disk,format=raw,file=" + disk,
            "-device", "virtio-blk-pci,drive=disk,bootindex=2"]
           if disk else []),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def blank_system_partition(path, kib=64 * 1024, start=2048):
    """A disk as a machine's OS disk has one: GPT, one FAT EFI system
    partition from sector start to the backup GPT, nothing on it;
    returns its mtools address."""
    with open(path, "wb") as f:
        f.truncate(kib * 1024)
    subprocess.run(["sfdisk", "--quiet", path], check=True, input=(
        "label: gpt\nfirst-lba: %d\nstart=%d, type=C12A7328-F81F-11D2-BA4B-"
        "00A0C93EC93B\n" % (start, start)).encode())
    part = "%s@@%d" % (path, start * 512)
    subprocess.run(["mformat", "-i", part, "-T", str(kib * 2 - start - 33),
                    "::"], check=True,
                   env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    return part


def esp_files(part, folder):
    """The files under folder on an mtools partition, with their bytes."""
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    listing = subprocess.run(["mdir", "-i", part, "-b", "-/", "::" + folder],
                             capture_output=True, text=True, env=env)
    files = {}
    for name in listing.stdout.split():
        if name.endswith("/"):
            continue
        data = subprocess.run(["mtype", "-i", part, name],
                              capture_output=True, env=env).stdout
        files[name[len("::" + folder) + 1:]] = data
    return files


def text_of(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("latin-1").replace("\r", "")
    except FileNotFoundError:
        return ""


def wait_for(procs, limit, until=lambda: False, step=2):
    """Waits while any of procs runs, up to limit seconds, or until
    until() holds."""
    start = time.monotonic()
    while time.monotonic() - start < limit and not until() and \
            any(p.poll() is None for p in procs):
        time.sleep(step)


def run_out(machine, server, limit):
    """Waits while the machine or the server runs, up to limit seconds;
    then the machine is stopped if it still runs."""
    wait_for([server, machine], limit)
    if machine.poll() is None:
        machine.kill()
    machine.wait()


# A run in parts, under QEMU's user networking: histograms of plain
# TCG's noisy figures outgrow a handoff capped at 8 KiB, so the run goes
# in parts, each uploaded as it comes.
USER_NET_CONFIG = ("samples = 300\nwarmup = 10\ncold_samples = 20\n"
                   "thrash_samples = 2\nprimitive_blocks = 5\n"
                   "gap_samples = 50\nhistograms = 1\nhandoff_kib = 8\n"
                   "variants = none\napic_modes = xapic\ncpus = 0\n"
                   "matrix_cpus = none\nfinish = shutdown\n")
USER_NET_UUID = "11111111-2222-3333-4444-5555555555aa"
USER_NET_LIMIT = 400


def lab_user_networking():
    """make serve MODE=user on this host, no namespace: QEMU's user
    networking boots the machine from its own DHCP and TFTP servers, and
    its option 66 (tftp-server-name) names the lab's server, which phase
    A reads the config from and phase C uploads to. The run goes in two
    parts or more, each uploaded as it comes, and is filed whole; the
    machine's own blank ESP gets a copy of every file."""
    top, served = fresh_lab("lab-user-net")
    server, log_path, netdev = serve_user_mode(top, USER_NET_CONFIG)
    here = os.path.join(top, "machine")
    try:
        check("lab-user-net: make serve MODE=user names the -netdev line "
              "its machines boot with, option 66 naming this host",
              netdev is not None and "tftp-server-name=" in netdev,
              text_of(log_path)[-800:])
        if netdev is None:
            return
        server_address = re.search(r"tftp-server-name=([0-9.]+)",
                                   netdev).group(1)
        esp = blank_system_partition(os.path.join(top, "esp.img"))
        machine = user_machine(here, netdev, USER_NET_UUID,
                               disk=os.path.join(top, "esp.img"))
        run_out(machine, server, USER_NET_LIMIT)
    finally:
        stop_server(server)
    said = text_of(log_path)
    text = text_of(os.path.join(here, "serial-0.log"))
    check("lab-user-net: the server filed the machine's run and stopped by "
          "itself",
          server.returncode == 0 and "stopped: 1 run(s) filed" in said,
          said[-800:])
    check("lab-user-net: phase A read its config from the server option "
          "66 names, not from QEMU's own TFTP server",
          "config: read from the server irqlab was booted from: tftp://%s/"
          "irqlab.cfg" % server_address in text.splitlines(),
          line_of(text, "config:"))
    folder = os.path.join(served, "runs", USER_NET_UUID)
    found = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    doc = None
    if len(found) == 1:
        with open(os.path.join(folder, found[0], "results.json")) as f:
            doc = json.load(f)
    parts = (doc or {}).get("handoff", {}).get("parts", 0)
    blobs = sorted(n for n in (os.listdir(os.path.join(folder, found[0]))
                               if doc else []) if n.endswith(".bin"))
    check("lab-user-net: the run went in parts, each kept on the lab's "
          "server as it came, and its folder there holds every part's "
          "blob and the joined run's",
          parts >= 2 and text.count("kept on the lab's server") == parts - 1
          and blobs == sorted(["run-1.bin"] + [
              "run-1-part-%d.bin" % i for i in range(1, parts + 1)]),
          "parts %s, blobs %s" % (parts, blobs))
    check("lab-user-net: the joined results.json has every row measured "
          "(none left to a later part), with the config's samples",
          doc is not None and doc["handoff"]["unmeasured_from_row"] is None
          and doc["config"]["samples"] == 300 and len(doc["experiments"])
          > 20 and all(e["status"] in ("ok", "skipped")
                       for e in doc["experiments"]),
          str(doc and doc["handoff"]))
    check_run_whole("lab-user-net", doc, text)
    check("lab-user-net: phase C says where the results went: "
          "tftp://<this host>/%s/<run>" % USER_NET_UUID,
          bool(found) and "results in tftp://%s/%s/%s" % (
              server_address, USER_NET_UUID, found[0]) in text, text[-800:])
    on_server = {}
    for base, _, names in os.walk(os.path.join(folder, found[0]) if found
                                  else folder):
        for name in names:
            path = os.path.join(base, name)
            with open(path, "rb") as f:
                on_server[os.path.relpath(path, os.path.join(
                    folder, found[0])).replace(os.sep, "/")] = f.read()
    on_server.pop("manifest.txt", None)
    copied = esp_files(esp, "/EFI/irqlab/results/%s" % found[0]) if found \
        else {}
    check("lab-user-net: the machine's own ESP holds a copy of every file "
          "the server filed (its manifest aside), byte for byte, and phase "
          "C said so",
          bool(on_server) and copied == on_server and
          "a copy on this machine's ESP: \\EFI\\irqlab\\results\\%s" %
          found[0] in text,
          "server %s; ESP %s" % (sorted(on_server), sorted(copied)))


def qmp(path, command, **arguments):
    """One QMP command to a QEMU started with -qmp unix:path (the QEMU
    Machine Protocol specification: the greeting, qmp_capabilities, then
    the command); returns its reply."""
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(path)
        f = s.makefile("rw")
        json.loads(f.readline())
        for message in ({"execute": "qmp_capabilities"},
                        {"execute": command, "arguments": arguments}):
            f.write(json.dumps(message) + "\n")
            f.flush()
            while True:
                reply = json.loads(f.readline())
                if "event" not in reply:
                    break
        return reply


CUT_OFF_UUID = "11111111-2222-3333-4444-5555555555cc"
CUT_OFF_LIMIT = 300
# QEMU's filter-buffer holds the machine's packets and lets them go this
# often (microseconds): an upload then takes seconds, long enough to stop
# the server half-way through one.
CUT_OFF_INTERVAL_US = 100000
# An ESP with room for the run's first files but not all of them.
SMALL_ESP_KIB = 160


def lab_cut_off_upload():
    """The lab's server stops while phase C uploads (docs/lab.md "When
    an upload fails"): once the first upload starts, the machine's
    packets are slowed (a QMP filter-buffer) and the server is stopped.
    Phase C must keep its records and say why; booted again with the
    server back, it uploads the same run, which the server files, and
    deletes its records, though its copy on an ESP too small fails."""
    top = fresh_lab("lab-cut-off")[0]
    incoming = os.path.join(top, "lab", "tftp", "incoming")
    runs = os.path.join(top, "lab", "runs", CUT_OFF_UUID)
    here = os.path.join(top, "machine")
    monitor = os.path.join(top, "qmp.sock")
    config = TINY + "variants = none\napic_modes = xapic\ncpus = 0\n" \
        "matrix_cpus = none\nfinish = shutdown\n"
    server, log_path, netdev = serve_user_mode(top, config)
    slowed = None
    try:
        if netdev is None:
            check("lab-cut-off: make serve MODE=user started", False,
                  text_of(log_path)[-800:])
            return
        machine = user_machine(here, netdev, CUT_OFF_UUID, qmp=monitor)
        wait_for([machine], CUT_OFF_LIMIT,
                 until=lambda: "WRQ from" in text_of(log_path), step=0.05)
        if "WRQ from" in text_of(log_path):
            slowed = qmp(monitor, "object-add", **{
                "qom-type": "filter-buffer", "id": "slow", "netdev": "n0",
                "interval": CUT_OFF_INTERVAL_US})
        stop_server(server)
        wait_for([machine], CUT_OFF_LIMIT)
        if machine.poll() is None:
            machine.kill()
        machine.wait()
    finally:
        stop_server(server)
    text = text_of(os.path.join(here, "serial-0.log"))
    arrived = sorted(os.listdir(incoming)) if os.path.isdir(incoming) \
        else []
    check("lab-cut-off: the server was stopped once the machine's first "
          "upload had begun, its packets slowed then; nothing was filed "
          "and no manifest arrived",
          slowed == {"return": {}} and arrived and not any(
              n.endswith("manifest.txt") for n in arrived)
          and not os.path.exists(runs), "%s; %s" % (slowed, arrived))
    failed = re.search(r"phase C: results NOT written \((.*)\); records "
                       r"kept", text)
    records = varstore.irqlab_records(os.path.join(here, "vars.fd"))
    check("lab-cut-off: phase C said the results were NOT written, why "
          "(the server did not answer) and that it kept its records; it "
          "powered off with them in the store",
          failed is not None and "did not answer" in failed.group(1) and
          machine.returncode == 0 and len(records) > 0,
          "%s; exit %s; %d records" % (failed and failed.group(0),
                                       machine.returncode, len(records)))
    server, log_path, netdev = serve_user_mode(top, config)
    try:
        blank_system_partition(os.path.join(top, "small-esp.img"),
                               kib=SMALL_ESP_KIB, start=40)
        machine = user_machine(here, netdev, CUT_OFF_UUID,
                               disk=os.path.join(top, "small-esp.img"))
        run_out(machine, server, CUT_OFF_LIMIT)
    finally:
        stop_server(server)
    measured = text
    text = text_of(os.path.join(here, "serial-1.log"))
    filed = sorted(os.listdir(runs)) if os.path.isdir(runs) else []
    doc = None
    if len(filed) == 1:
        with open(os.path.join(runs, filed[0], "results.json")) as f:
            doc = json.load(f)
    check("lab-cut-off: booted again with the server back, the machine "
          "measured nothing and uploaded the kept run, which the server "
          "filed whole",
          "stopped: 1 run(s) filed" in text_of(log_path) and doc is not None
          and "phase B:" not in text and "results in tftp://" in text and
          all(e["status"] in ("ok", "skipped") for e in doc["experiments"]),
          "%s; %s" % (filed, text[-600:]))
    # incoming/<machine>+<run>+<file>: the run the cut-off upload sent.
    first = sorted({n.split("+")[1] for n in arrived if n.count("+") >= 2})
    check("lab-cut-off: the run filed is the one the first boot measured "
          "and began to upload (its run ID), not another",
          len(first) == 1 and filed == first, "%s; %s" % (first, filed))
    check_run_whole("lab-cut-off", doc, measured + text)
    check("lab-cut-off: after the upload the records are deleted from the "
          "store",
          doc is not None and varstore.irqlab_records(
              os.path.join(here, "vars.fd")) == [], text[-600:])
    check("lab-cut-off: the copy on the machine's ESP, too small for "
          "the run, failed and phase C said why (disk full), which kept "
          "no records: the server has the run",
          re.search(r"no copy on this machine's ESP: \\EFI\\irqlab\\"
                    r"results\\[0-9-]+\\[a-z.]+: disk full", text)
          is not None, text[-600:])
