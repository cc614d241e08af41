"""irqlab booted from the network (docs/lab.md): OVMF PXE-boots it from
QEMU's own TFTP server, as a lab's machines boot from its server, and
phase A reads where it came from in the loaded image's device path."""

import os
import shutil
import subprocess
import time

from harness import BUILD, ROOT, check

# The NIC's MAC and the machine's SMBIOS UUID the test gives QEMU, and
# what phase A must name them: the UUID in its canonical text, its first
# three fields stored little-endian (DSP0134 §7.2.1).
MAC = "52:54:00:12:34:56"
UUID = "00112233-4455-6677-8899-aabbccddeeff"
OVMF_CODE = "/usr/share/OVMF/OVMF_CODE_4M.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"
# Phase A's last line before it exits boot services: it has read the
# device path by then.
PHASE_A_DONE = "phase A: a handoff may take"
LIMIT = 240


def pxe_boot_phase_a():
    """QEMU with a virtio NIC and no disk: OVMF's own PXE (the NIC's iPXE
    ROM left out) takes irqlab.efi from QEMU's TFTP server and starts it.
    The boot is stopped once phase A has said where it came from; the
    measuring and the upload are later work (docs/lab.md)."""
    here = os.path.join(BUILD, "pxe-boot")
    shutil.rmtree(here, ignore_errors=True)
    tftp = os.path.join(here, "tftp")
    os.makedirs(tftp)
    shutil.copy(os.path.join(ROOT, "build", "irqlab.efi"), tftp)
    shutil.copy(OVMF_VARS, os.path.join(here, "vars.fd"))
    log = os.path.join(here, "serial.log")
    qemu = subprocess.Popen(
        ["qemu-system-x86_64", "-machine", "q35", "-cpu", "max", "-m", "512",
         "-uuid", UUID, "-display", "none", "-no-reboot",
         "-drive", "if=pflash,format=raw,readonly=on,file=" + OVMF_CODE,
         "-drive", "if=pflash,format=raw,file=" + os.path.join(here,
                                                               "vars.fd"),
         "-netdev", "user,id=n0,tftp=%s,bootfile=irqlab.efi" % tftp,
         "-device", "virtio-net-pci,netdev=n0,mac=%s,romfile=" % MAC,
         "-serial", "file:" + log],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
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
    check("pxe-boot: OVMF PXE-boots irqlab.efi from QEMU's TFTP server and "
          "phase A runs", "NBP file downloaded successfully" in text and
          PHASE_A_DONE in text, text[-1500:])
    line = next((l for l in text.splitlines()
                 if l.startswith("phase A: loaded over the network")), "")
    want = ("phase A: loaded over the network (PXE, IPv4) through the NIC "
            "with MAC %s; a lab's server files this machine's runs under %s"
            % (MAC.replace(":", "-"), UUID))
    check("pxe-boot: phase A reads the network boot from the loaded image's "
          "device path: '%s'" % want, line == want, line or text[-800:])
