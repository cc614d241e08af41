"""A lab over IPv6 (docs/lab.md "IPv6"): on a network namespace of its
own, `make serve` leases IPv6 addresses and names its boot file to PXE
clients by URL; the lab's own DHCPv6 server (Kea) answers UEFI HTTP boot
clients, which dnsmasq cannot. One machine PXE-boots over IPv6, the
other HTTP-boots over IPv6, at once; each reads its config from the
server and sends its run back the way it came."""

import json
import os
import re
import time

from harness import ROOT, TINY_SAMPLES, check
from network import (LAB_CONFIG, LAB_LIMIT, LAB_NET6, Lab, fresh_lab,
                     lab_machine, line_of, mac_name, sh, text_of, wait_for)

SERVER6 = LAB_NET6 + "1"
# make serve's leases, and the lab's own DHCPv6 server's.
RANGE6 = "%s100,%s1ff" % (LAB_NET6, LAB_NET6)
PXE6_MACHINE = ("52:54:00:1a:b0:16", "11111111-2222-3333-4444-555555555516")
HTTP6_MACHINE = ("52:54:00:1a:b0:17", None)

# The lab's own DHCPv6 server, Kea (kea-dhcp6(8)), as docs/lab.md
# "IPv6" gives it: it answers UEFI HTTP boot clients only (vendor class
# 16, enterprise 343, "HTTPClient"; UEFI 2.10 §24.7.2), with a lease,
# the boot file's URL (RFC 5970 §3.1) and the vendor class echoed, which
# the client looks for in an offer. Its identity and leases are kept in
# memory, so it writes nothing outside its test's folder.
KEA_HTTP_BOOT = {"Dhcp6": {
    "interfaces-config": {"interfaces": ["veth-dhcp"]},
    "server-id": {"type": "EN", "enterprise-id": 32473,
                  "identifier": "6972716c6162", "persist": False},
    "lease-database": {"type": "memfile", "persist": False},
    "client-classes": [{
        "name": "http-boot",
        "test": "substring(option[16].hex,6,10) == 'HTTPClient'",
        "option-data": [
            {"name": "bootfile-url",
             "data": "http://[%s]/irqlab.efi" % SERVER6},
            {"name": "vendor-class", "csv-format": False,
             "data": "00000157000A" + b"HTTPClient".hex().upper()}]}],
    "subnet6": [{"subnet": LAB_NET6 + "/64", "interface": "veth-dhcp",
                 "client-class": "http-boot",
                 "pools": [{"pool": "%s200-%s2ff" % (LAB_NET6, LAB_NET6)}]}],
    "loggers": [{"name": "kea-dhcp6", "severity": "INFO",
                 "output_options": [{"output": "stdout"}]}],
}}


def filed_run(served, machine):
    """The one run filed under runs/<machine>/, and its results.json."""
    folder = os.path.join(served, "runs", machine)
    found = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    if len(found) != 1:
        return found, None
    with open(os.path.join(folder, found[0], "results.json")) as f:
        return found, json.load(f)


def lab_ipv6():
    top, served = fresh_lab("lab-ipv6", LAB_CONFIG)
    with Lab(top, ipv6=KEA_HTTP_BOOT) as lab:
        server = lab.spawn(lab.ns, "serve.log", [
            "make", "-s", "-C", ROOT, "serve", "LAB=" + served,
            "INTERFACE=br0", "MODE=dhcp", "RANGE6=" + RANGE6, "RUNS=2"])
        time.sleep(3)
        machines = [
            lab_machine(lab, 0, PXE6_MACHINE[0], PXE6_MACHINE[1], "max",
                        ipv6=True),
            lab_machine(lab, 1, HTTP6_MACHINE[0], HTTP6_MACHINE[1], "max",
                        http=True)]
        wait_for([server] + machines, LAB_LIMIT)
        served_rc = server.poll()
        leaked = sh("ip", "-o", "link", ns=lab.ns).stdout
    said = text_of(os.path.join(top, "serve.log"))
    kea = text_of(os.path.join(top, "dhcp6.log"))
    pxe_mac, http_mac = PXE6_MACHINE[0], HTTP6_MACHINE[0]
    check("lab-ipv6: make serve leased the PXE machine an IPv6 address and "
          "named the boot file tftp://[%s]/irqlab.efi; it left the HTTP "
          "boot client alone" % SERVER6,
          re.search(r"boot: %s asked for irqlab\.efi \(IPv6, leased %s1[0-9a-f]"
                    r"{2}\)" % (pxe_mac, re.escape(LAB_NET6)), said) and
          "bootfile-url  tftp://[%s]/irqlab.efi" % SERVER6 in said and
          "boot: %s" % http_mac not in said, said[-1500:])
    check("lab-ipv6: the lab's own DHCPv6 server (Kea) leased the HTTP boot "
          "client an address of its pool, and lighttpd served it irqlab.efi "
          "over IPv6",
          re.search(r"DHCP6_LEASE_ALLOC .*lease for address %s2[0-9a-f]{2}"
                    % re.escape(LAB_NET6), kea) and
          re.search(r"http: %s2[0-9a-f]{2} GET /irqlab\.efi HTTP/1\.1 200"
                    % re.escape(LAB_NET6), said), kea[-800:] + said[-800:])
    check("lab-ipv6: the namespaces hold only their bridge, veths, taps and "
          "loopback: no link leaves them",
          all(re.search(r"^\d+: (lo|br0|veth-lab@\S+|tap\d):", l)
              for l in leaked.splitlines()), leaked)
    for index, (mac, uuid), how, url in (
            (0, PXE6_MACHINE, "PXE", "tftp://[%s]/" % SERVER6),
            (1, HTTP6_MACHINE, "HTTP boot", "http://[%s]/" % SERVER6)):
        machine = uuid or "mac-" + mac_name(mac)
        text = text_of(os.path.join(top, "machine-%d" % index, "serial.log"))
        check("lab-ipv6 (%s): phase A knew it came over IPv6, and read the "
              "lab's config from %sirqlab.cfg" % (how, url),
              "phase A: loaded over the network (%s, IPv6) through the NIC "
              "with MAC %s" % (how, mac_name(mac)) in text and
              "config: read from the server irqlab was booted from: "
              "%sirqlab.cfg" % url in text.splitlines(),
              line_of(text, "phase A: loaded") + line_of(text, "config:"))
        found, doc = filed_run(served, machine)
        check("lab-ipv6 (%s): the run measured with the config read over "
              "IPv6: results.json's config has the lab's samples (%d, not "
              "the image's own)" % (how, TINY_SAMPLES),
              doc is not None
              and doc["config"].get("samples") == TINY_SAMPLES,
              str(doc and doc["config"]))
        check("lab-ipv6 (%s): its run was filed whole in runs/%s/, every "
              "row ok; phase C says it is in %s%s/<run>" % (how, machine,
                                                           url, machine),
              doc is not None and doc["experiments"] and all(
                  e["status"] == "ok" for e in doc["experiments"]) and
              "results in %s%s/%s" % (url, machine, found[0]) in text,
              "%s; %s" % (found, text[-800:]))
    check("lab-ipv6: make serve filed both runs and stopped by itself",
          served_rc == 0 and "stopped: 2 run(s) filed" in said, said[-600:])
