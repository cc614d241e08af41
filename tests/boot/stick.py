"""The stick, the disk and the boot order: the ESP full, a one-time boot
from another disk, the USB writer, the rescue of a run from its blob,
the progress screen, no display, and Secure Boot."""

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading

import varstore
from harness import (BUILD, IMAGE, ROOT, STICK_REFERENCE, check, entry_thread,
                     load_results,
                     result_folders, run, serial, statuses)


def full_esp(o):
    """No room on the ESP for the files: phase C says "disk full", keeps
    the records, and leaves no 0-byte or partial file behind."""
    rc, run_dir = o.rc, o.run_dir
    log = serial(run_dir, 2)
    listed = subprocess.run(
        ["mdir", "-/", "-b", "-i", os.path.join(run_dir, "disk.img") + "@@1M",
         "::/EFI/irqlab"], capture_output=True, text=True,
        env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    listing = listed.stdout
    left = [f for f in listing.splitlines()
            if f.startswith("::/EFI/irqlab/results/") and not f.endswith("/")]
    check("esp-full: phase C says disk full, keeps the records, and leaves "
          "no file in the results folder, so none 0-byte or partial",
          rc != 0 and "disk full" in log and "records kept" in log
          and varstore.irqlab_records(os.path.join(run_dir, "vars.fd"))
          and listed.returncode == 0
          and "::/EFI/irqlab/irqlab.cfg" in listing and not left,
          "rc %d, mdir %d\n%s\n%s%s" % (rc, listed.returncode, log[-600:],
                                        listing, listed.stderr))


def one_time_boot(o):
    """A stick booted once from the firmware's menu, the installed OS
    first in BootOrder: irqlab's BootNext brings the reset back to it, so
    phase C runs on the next boot anyway, and BootOrder stays as it was."""
    rc, run_dir, results = o.rc, o.run_dir, o.results
    before = varstore.boot_variables(os.path.join(run_dir,
                                                  "vars-after-boot0.fd"))
    after = varstore.boot_variables(os.path.join(run_dir, "vars.fd"))
    doc, folders = load_results(results)
    how = doc["boot_return"] if doc else None
    check("one-time-boot: the other disk boots by default; irqlab started "
          "once through BootNext came back by itself for phase C",
          rc == 0 and doc is not None
          and "the other disk booted" in serial(run_dir, 0)
          and "the other disk booted" not in serial(run_dir, 2)
          and statuses(run_dir, 2, "results")
          and how == {"how": "boot-next",
                      "boot_current": "Boot%04X" % int.from_bytes(
                          varstore.boot_variables(os.path.join(
                              run_dir, "vars-after-boot1.fd")).get(
                              "BootNext", b"\xff\xff"), "little")},
          "rc %d, %s, %s" % (rc, folders, how))
    check("one-time-boot: BootOrder and the boot options are unchanged, and "
          "BootNext is used up", before.get("BootOrder")
          and {k: v for k, v in after.items() if k != "BootNext"}
          == {k: v for k, v in before.items() if k != "BootNext"}
          and "BootNext" not in after,
          "before %s\nafter %s" % (sorted(before), sorted(after)))


def collect_sources(run_dir):
    """make collect reads an image file, a block device and a mounted
    stick alike, copies every run folder and acpi\\, and never
    overwrites a folder already there."""
    collect = os.path.join(ROOT, "image", "collect.sh")
    disk = os.path.join(BUILD, "collect", "disk.img")
    subprocess.run(["rm", "-rf", os.path.dirname(disk)], check=True)
    os.makedirs(os.path.dirname(disk))
    shutil.copy(os.path.join(run_dir, "disk.img"), disk)

    def collect_from(source, label):
        dest = os.path.join(BUILD, "collect", label)
        first = subprocess.run([collect, source, dest], capture_output=True,
                               text=True)
        again = subprocess.run([collect, source, dest], capture_output=True,
                               text=True)
        got = sorted(os.listdir(dest)) if os.path.isdir(dest) else []
        runs = got
        check("collect from %s: every run folder copied and named, with the "
              "tables its run read in its own acpi\\; a second collect "
              "overwrites nothing" % label,
              first.returncode == 0 and again.returncode == 0
              and len(runs) == 1
              and os.path.exists(os.path.join(dest, runs[0], "results.json"))
              and os.path.exists(os.path.join(dest, runs[0], "acpi",
                                              "APIC.bin"))
              and "copied %s" % runs[0] in first.stdout
              and "not overwritten" in again.stdout,
              first.stdout + first.stderr + again.stdout)

    collect_from(disk, "image-file")
    loop = subprocess.run(["losetup", "--find", "--show", "--partscan",
                           "--read-only", disk], capture_output=True,
                          text=True)
    if loop.returncode != 0:
        check.skip("collect from a block device and a mount point",
                   "losetup failed (%s)" % loop.stderr.strip())
        return
    device = loop.stdout.strip()
    try:
        collect_from(device, "loop-device")
    finally:
        subprocess.run(["losetup", "-d", device])
    mnt = os.path.join(BUILD, "collect", "mnt")
    os.makedirs(mnt)
    # the ESP starts 1 MiB in (image/mkimage.sh); partition device nodes
    # need udev, which a container may lack
    mounted = subprocess.run(["mount", "-o", "ro,loop,offset=1048576", disk,
                              mnt], capture_output=True, text=True)
    if mounted.returncode == 0:
        try:
            collect_from(mnt, "mount-point")
        finally:
            subprocess.run(["umount", mnt])
        return
    # No vfat here: the same tree, copied off the ESP, is what a mounted
    # stick shows, and takes the same path through collect.sh.
    print("note  mount failed (%s): collecting from the ESP's tree instead"
          % mounted.stderr.strip().splitlines()[0])
    subprocess.run(["mcopy", "-s", "-n", "-i", disk + "@@1M", "::/EFI", mnt],
                   check=True, env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    collect_from(mnt, "mounted-tree")


# What lsblk shows of a machine's disks, for make usb without DEVICE:
# -P, one KEY="value" a column, for the pick; the table for the disks
# picked. The system's own disk, and a USB one where `stick` is set.
FAKE_LSBLK = """#!/bin/sh
case "$*" in
*-P*) echo 'NAME="vda" RM="0" TRAN=""'
      [ -n "$STICK" ] && echo 'NAME="sdb" RM="0" TRAN="usb"' ;;
*)    echo "NAME RM TRAN SIZE MODEL"
      for a; do case $a in /dev/*) echo "${a#/dev/} 0 usb 15G Stick" ;;
      esac; done ;;
esac
"""


def usb_without_device(usb, folder):
    """make usb without DEVICE lists the disks that could be the stick,
    never the system's own, and where there is none says so; either
    way it writes nothing and fails."""
    bin_dir = os.path.join(folder, "bin")
    os.makedirs(bin_dir)
    with open(os.path.join(bin_dir, "lsblk"), "w") as f:
        f.write(FAKE_LSBLK)
    os.chmod(os.path.join(bin_dir, "lsblk"), 0o755)
    path = bin_dir + os.pathsep + os.environ["PATH"]
    none = subprocess.run([usb, IMAGE], capture_output=True, text=True,
                          env=dict(os.environ, PATH=path, STICK=""))
    check("usb: without DEVICE, on a machine with no removable or USB "
          "disk, it says so and fails", none.returncode != 0
          and "no removable or USB disk found" in none.stderr
          and "vda" not in none.stderr, none.stderr)
    one = subprocess.run([usb, IMAGE], capture_output=True, text=True,
                         env=dict(os.environ, PATH=path, STICK="1"))
    check("usb: without DEVICE, it lists the USB disk, not the system's "
          "own, and fails", one.returncode != 0
          and "sdb 0 usb 15G Stick" in one.stderr
          and "vda" not in one.stderr
          and "no removable or USB disk" not in one.stderr, one.stderr)


def usb_writer():
    """make usb refuses what is not a whole removable or USB disk, and
    leaves the backup GPT header at the end of the device it wrote."""
    usb = os.path.join(ROOT, "image", "usb.sh")
    stick = os.path.join(BUILD, "usb", "stick.img")
    subprocess.run(["rm", "-rf", os.path.dirname(stick)], check=True)
    os.makedirs(os.path.dirname(stick))
    usb_without_device(usb, os.path.dirname(stick))
    with open(stick, "wb") as f:
        f.truncate(96 << 20)    # a stick larger than the 64 MiB image
    refused = subprocess.run([usb, IMAGE, stick], input="yes\n",
                             capture_output=True, text=True)
    check("usb: a file is refused", refused.returncode != 0
          and "not a block device" in refused.stderr, refused.stderr)
    loop = subprocess.run(["losetup", "--find", "--show", stick],
                          capture_output=True, text=True)
    if loop.returncode != 0:
        check.skip("usb: writing a loop device",
                   "losetup failed (%s)" % loop.stderr.strip())
        return
    device = loop.stdout.strip()
    try:
        plain = subprocess.run([usb, IMAGE, device], input="yes\n",
                               capture_output=True, text=True)
        check("usb: a device that is not a whole disk (a loop device) is "
              "refused", plain.returncode != 0
              and "a loop device, not a whole disk" in plain.stderr,
              plain.stderr)
        no = subprocess.run([usb, IMAGE, device], input="no\n",
                            capture_output=True, text=True,
                            env=dict(os.environ, USB_TEST_ALLOW_LOOP="1"))
        wrote = subprocess.run([usb, IMAGE, device], input="yes\n",
                               capture_output=True, text=True,
                               env=dict(os.environ, USB_TEST_ALLOW_LOOP="1"))
        dump = subprocess.run(["sfdisk", "--dump", device],
                              capture_output=True, text=True).stdout
        last = re.search(r"last-lba: (\d+)", dump)
        check("usb: asks first, shows the device, writes, and moves the "
              "backup GPT header to the device's end",
              no.returncode != 0 and "not written" in no.stdout
              and wrote.returncode == 0 and "transport" in wrote.stdout
              and last and int(last.group(1)) == (96 << 20) // 512 - 34,
              "%s %s %s" % (wrote.stdout[-300:], wrote.stderr[-300:], dump))
        mine = os.path.join(os.path.dirname(stick), "mine.cfg")
        with open(mine, "w") as f:
            f.write("samples = 321\n")
        given = subprocess.run([usb, IMAGE, device, mine], input="yes\n",
                               capture_output=True, text=True,
                               env=dict(os.environ, USB_TEST_ALLOW_LOOP="1"))
        on_stick = subprocess.run(
            ["mtype", "-i", device + "@@1M", "::/EFI/irqlab/irqlab.cfg"],
            capture_output=True, text=True,
            env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
        check("usb: CONFIG= puts that file on the stick as its irqlab.cfg",
              given.returncode == 0 and on_stick.stdout == "samples = 321\n",
              given.stdout[-300:] + given.stderr[-300:] + on_stick.stderr)
    finally:
        subprocess.run(["losetup", "-d", device])


# Phase B's progress page (efi/progress.c): its background, and the done
# part of its bar, a colour nothing else on it has.
PROGRESS_BACKGROUND = bytes((0, 0, 48))
PROGRESS_BAR_DONE = bytes((0, 192, 0))


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, size, _, pixels = data.split(b"\n", 3)
    width, height = map(int, size.split())
    return width, height, pixels


def no_display(o):
    """No display adapter, so no GOP: progress stays on serial, and the
    results say why."""
    display = o.doc["display"] if o.doc else None
    summary = o.file("summary.txt") if o.doc else ""
    check("no-display: progress goes to serial only, and results.json and "
          "summary.txt say why", o.rc == 0 and display is not None
          and display["progress_on_screen"] is False
          and "no Graphics Output Protocol" in display["why_not"]
          and "progress went to serial only" in summary
          and "progress: step 1 of" in serial(o.run_dir, 1),
          "rc %d, %s" % (o.rc, display))


def reset_returns(o):
    """A ResetSystem that returns (simulate = reset-returns: it is not
    called): irqlab resets through port 0xCF9 itself, the reset reaches
    phase C, and the results say the run simulated it."""
    resets = [r.get("method") for r in statuses(o.run_dir, 1, "reset")]
    config = o.doc["config"] if o.doc else {}
    check("no-display: with ResetSystem returning, phase B resets through "
          "port 0xCF9, phase C writes the files, and the config in "
          "results.json says reset-returns was simulated",
          o.rc == 0 and resets == ["port-0xcf9"]
          and statuses(o.run_dir, 1, "handed-over")
          and config.get("simulate") == "reset-returns",
          "rc %d, resets %s, simulate %s" % (o.rc, resets,
                                             config.get("simulate")))


def progress_screen():
    """Screendumps every second through the QEMU monitor while phase B
    measures: the screen shows the progress page, it changes, and the
    bar advances, where it used to freeze on "exiting boot services"."""
    name = "progress-screen"
    shots = os.path.join(BUILD, name, "shots")
    subprocess.run(["rm", "-rf", shots], check=True)
    os.makedirs(shots)
    # A short folder of its own: a socket's path must stay under 108 bytes.
    sock = os.path.join(tempfile.mkdtemp(prefix="irqlab-mon-"), "monitor.sock")
    config = ("samples = 5000\nwarmup = 10\ncold_samples = 50\n"
              "thrash_samples = 2\nprimitive_blocks = 20\n"
              "gap_samples = 300\nhistograms = 0\n")
    done = threading.Event()
    result = {}

    def measure():
        try:
            result["run"] = run(name, "", config=config,
                                extra_env={"TPM": "off", "MONITOR": sock})
        finally:
            done.set()

    runner = entry_thread("progress-screen: the measuring run", measure)
    runner.start()
    n = 0
    while not done.wait(1.0):
        try:
            with socket.socket(socket.AF_UNIX) as mon:
                mon.settimeout(5)
                mon.connect(sock)
                mon.recv(4096)
                mon.sendall(b"screendump %s\n" % os.path.join(
                    shots, "shot-%03d.ppm" % n).encode())
                mon.recv(4096)
                n += 1
        except OSError:
            pass
    runner.join()
    rc, run_dir, results = result["run"]
    pages = []
    for shot in sorted(os.listdir(shots)):
        try:
            width, height, pixels = read_ppm(os.path.join(shots, shot))
        except (OSError, ValueError):
            continue
        if pixels[:3] == PROGRESS_BACKGROUND:
            bar = sum(1 for i in range(0, len(pixels), 3)
                      if pixels[i:i + 3] == PROGRESS_BAR_DONE)
            pages.append((shot, bar, pixels))
    bars = [bar for _, bar, _ in pages]
    check("progress-screen: the run completed, and at least 2 screendumps "
          "show phase B's progress page", rc == 0 and len(pages) >= 2,
          "rc %d, %d shots, %d pages" % (rc, n, len(pages)))
    check("progress-screen: the screen changes and the bar advances while "
          "phase B measures", len(pages) >= 2
          and len({p for _, _, p in pages}) >= 2
          and bars == sorted(bars) and bars[-1] > bars[0], str(bars))


def rescue(run_dir, results):
    """Records stranded in the store after boot 1, as Linux's efivarfs
    shows them: irqlab-rescue writes the same files phase C wrote, and
    deletes the records only when asked."""
    tool = os.path.join(ROOT, "build", "irqlab-rescue")
    efivars = os.path.join(BUILD, "rescue", "efivars")
    out = os.path.join(BUILD, "rescue", "results")
    subprocess.run(["rm", "-rf", os.path.dirname(efivars)], check=True)
    varstore.export_records(os.path.join(run_dir, "vars-after-boot1.fd"),
                            efivars)
    stranded = sorted(os.listdir(efivars))
    kept = subprocess.run([tool, "--reference", STICK_REFERENCE, efivars,
                           out], capture_output=True, text=True)
    folders = result_folders(results)
    same = bool(folders) and all(
        os.path.exists(os.path.join(out, folders[0], f))
        and open(os.path.join(results, folders[0], f), "rb").read()
        == open(os.path.join(out, folders[0], f), "rb").read()
        for f in ("results.json", "summary.txt", "run-1.bin"))
    check("rescue: the stranded records give byte for byte the "
          "results.json, summary.txt and run-1.bin phase C wrote; kept "
          "unless asked", kept.returncode == 0 and len(stranded) > 1
          and same and os.path.exists(os.path.join(out, folders[0],
                                                   "results.json"))
          and sorted(os.listdir(efivars)) == stranded,
          "%d records: %s%s" % (len(stranded), kept.stdout, kept.stderr))
    from_vars = subprocess.run(
        [tool, "--reference", STICK_REFERENCE, "--vars",
         os.path.join(run_dir, "vars-after-boot1.fd"), out + "-vars"],
        capture_output=True, text=True)
    same_vars = bool(folders) and all(
        os.path.exists(os.path.join(out + "-vars", folders[0], f))
        and open(os.path.join(results, folders[0], f), "rb").read()
        == open(os.path.join(out + "-vars", folders[0], f), "rb").read()
        for f in ("results.json", "summary.txt", "run-1.bin"))
    check("rescue --vars: the OVMF VARS file itself, read through the "
          "store walk phase A uses, gives the same files byte for byte",
          from_vars.returncode == 0 and same_vars,
          from_vars.stdout[-300:] + from_vars.stderr[-300:])
    check("rescue --vars: says the store file was read, never changed, "
          "and offers no --delete", from_vars.returncode == 0
          and "was read, never changed" in from_vars.stdout
          and "--delete" not in from_vars.stdout + from_vars.stderr,
          from_vars.stdout[-300:] + from_vars.stderr[-300:])
    again = subprocess.run([tool, "--reference", STICK_REFERENCE, efivars,
                            out], capture_output=True, text=True)
    check("rescue: a results folder that exists is never overwritten",
          again.returncode != 0 and "not overwritten" in again.stderr,
          again.stdout[-300:] + again.stderr[-300:])
    gone = subprocess.run([tool, "--delete", efivars, out + "-2"],
                          capture_output=True, text=True)
    check("rescue --delete: the records go once the files are verified",
          gone.returncode == 0 and os.listdir(efivars) == []
          and "wrote and verified" in gone.stdout, gone.stdout + gone.stderr)


def rescue_parts(results):
    """The last part of a run in parts, its records stranded in the store
    (made again from the part's own blob phase C kept): irqlab-rescue
    joins it with the earlier parts on the stick and writes byte for byte
    what phase C wrote; without the stick it names each missing part and
    writes the last part alone."""
    tool = os.path.join(ROOT, "build", "irqlab-rescue")
    folder = result_folders(results)[0]
    kept = os.path.join(results, folder)
    parts = sorted(int(m.group(1)) for m in
                   (re.match(r"run-1-part-(\d+)\.bin$", f)
                    for f in os.listdir(kept)) if m)
    with open(os.path.join(kept, "results.json")) as f:
        run_id = int(json.load(f)["run_id"].replace("-", ""))
    with open(os.path.join(kept, "run-1-part-%d.bin" % parts[-1]), "rb") as f:
        records = varstore.records_of(f.read(), run_id)
    work = os.path.join(BUILD, "rescue-parts")
    efivars = os.path.join(work, "efivars")
    subprocess.run(["rm", "-rf", work], check=True)
    varstore.write_efivars(efivars, [("IrqlabRecord%02d" % seq, record)
                                     for seq, record in enumerate(records)])
    joined = subprocess.run([tool, "--stick", results, "--reference",
                             STICK_REFERENCE, efivars,
                             os.path.join(work, "joined")],
                            capture_output=True, text=True)
    files = ["results.json", "summary.txt", "run-1.bin",
             "run-1-part-%d.bin" % parts[-1]]
    same = [f for f in files
            if os.path.exists(os.path.join(work, "joined", folder, f))
            and open(os.path.join(kept, f), "rb").read()
            == open(os.path.join(work, "joined", folder, f), "rb").read()]
    # The name says "the last part's" rather than its number: how many
    # parts a plain-TCG run takes depends on its histograms' noise.
    check("rescue-parts: the last part, from its records, joined with the "
          "earlier ones on the stick gives byte for byte the results.json, "
          "summary.txt, run-1.bin and the last part's run-1-part-N.bin "
          "phase C wrote",
          joined.returncode == 0 and parts == list(range(1, len(parts) + 1))
          and len(parts) >= 2 and same == files
          and "%d parts joined" % len(parts) in joined.stdout,
          "%s %s\n%s%s" % (parts, same, joined.stdout, joined.stderr))
    alone = subprocess.run([tool, efivars, os.path.join(work, "alone")],
                           capture_output=True, text=True)
    with open(os.path.join(work, "alone", folder, "results.json")) as f:
        doc = json.load(f)
    check("rescue-parts: without the stick, each earlier part is named "
          "missing and the files hold the last part alone",
          alone.returncode == 0 and all(
              "part %d of %d is missing" % (p, len(parts)) in alone.stdout
              for p in parts[:-1]) and doc["handoff"]["parts"] == len(parts)
          and "these files hold this part alone" in alone.stdout,
          alone.stdout + alone.stderr)


def secure_boot(o):
    """Secure Boot on, as on many a stranger's machine: the firmware
    refuses the unsigned image, and the runner says so instead of
    "hung"."""
    with open(os.path.join(o.run_dir, "run.log")) as f:
        log = f.read()
    check("secure-boot: the runner names Secure Boot when the firmware "
          "refuses the image", o.rc != 0 and "Secure Boot is on" in log
          and "Access Denied" in log and "hung" not in log, log[-600:])
