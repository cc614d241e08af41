"""irqlab booted from the network (docs/lab.md): OVMF PXE-boots it from
QEMU's own TFTP server, as a lab's machines boot from its server; phase
A reads where it came from in the loaded image's device path, and the
config from that server: the machine's own irqlab-<MAC>.cfg, else the
lab's irqlab.cfg."""

import os
import shutil
import subprocess
import threading
import time

from harness import BUILD, ROOT, check

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
    threads = [threading.Thread(target=boot, args=("own",) + OWN),
               threading.Thread(target=boot, args=("lab",) + LABS)]
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
