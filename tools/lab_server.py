#!/usr/bin/env python3
"""lab_server.py --dir LAB --interface IF [--mode proxy|dhcp|user]: the
server a lab of machines PXE-boots irqlab from (docs/lab.md "The
server").

It runs two of Debian's engines and watches what they do:

- dnsmasq answers PXE clients. In proxy mode (the default) it only
  names the boot file and this server, and never hands out an address,
  so it runs beside the lab's own DHCP server. In dhcp mode it also
  leases addresses, for an isolated network. In user mode there is no
  dnsmasq: the machines are QEMU guests on its user networking, whose
  own DHCP and TFTP servers boot them, and option 66
  (tftp-server-name) names this server for the config and the uploads.
- tftpd-hpa serves LAB/tftp and takes uploads. Its remap file
  (tftp-remap, written here) lets a client write only irqlab's own
  file names under <machine>/<run>/, and puts them in LAB/tftp/incoming;
  anything else is refused with "access violation". Each transfer runs
  with a file size limit, so no file grows past FILE_LIMIT bytes.
- lighttpd serves the same folder over HTTP, for UEFI HTTP boot, and
  takes the same uploads as PUT (mod_webdav) into the same incoming/,
  under the same names and sizes (lighttpd_config). In dhcp mode dnsmasq
  also answers HTTP boot clients with the boot file's URL.

Uploads arrive flat, as <machine>+<run>+<file>. A run is complete when
its manifest.txt is in and every file it names has the size it gives:
irqlab writes the manifest last, after reading every file back, and a
cut-off upload leaves only part of a file. The run is then copied to
LAB/runs/<machine>/<run>/, which `make fleet DIR=LAB` reads. An existing run there is
never overwritten, and a file over its kind's size is moved to
LAB/refused/. Every event is printed, and appended to LAB/serve.log.
"""

import argparse
import ctypes
import ctypes.util
import os
import pwd
import re
import resource
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

# The sizes irqlab writes at most (efi/run_store.h, bench/report/
# context.h): report text 4 MiB, a run's blob 8 handoffs of 64 KiB.
TEXT_LIMIT = 4 * 1024 * 1024
BLOB_LIMIT = 8 * 64 * 1024
# What tftpd-hpa may write at all: one byte over the largest, so a file
# cut there is known to have been too large.
FILE_LIMIT = TEXT_LIMIT + 1

MACHINE = r"[0-9A-Za-z-]{1,64}"
RUN = r"[0-9]{8}-[0-9]{6}(-discarded)?"
FILES = r"results\.json|summary\.txt|report\.html|headline\.txt|manifest\.txt"
BLOB = r"run-[0-9]{1,2}(-part-[0-9]{1,2})?\.bin"
TABLE = r"acpi/([0-9A-Za-z_]{4}|SMBIOS)\.bin"
# An upload's flat name in incoming/: machine, run, and the file, whose
# folders are joined by '+' as well.
FLAT = re.compile(r"^(%s)\+(%s)\+(%s|%s|acpi\+([0-9A-Za-z_]{4}|SMBIOS)\.bin)$"
                  % (MACHINE, RUN, FILES, BLOB))


# A manifest's line: the file's size in bytes, a space, and its name as
# the run's folder has it (docs/lab.md "The server"); no more lines
# than a run has files (results, 4 texts, 8 handoffs' blob parts, the
# ACPI and SMBIOS tables).
MANIFEST_LINE = re.compile(r"^([0-9]{1,10}) (%s|%s|acpi/([0-9A-Za-z_]{4}|"
                           r"SMBIOS)\.bin)$" % (FILES, BLOB))
MANIFEST_LINES = 256

# The users the engines run as, once they listen (Debian's own).
TFTP_USER = "tftp"
HTTP_USER = "www-data"


def user_exists(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


# Seconds the server keeps serving after the last run it was to file.
LINGER = 5


def printable(text):
    """text with every control character (C0, DEL, C1) and every
    backslash written as an escape, so that nothing a client names can
    move the terminal's cursor or forge a line of serve.log."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f\\]",
                  lambda m: "\\x%02x" % ord(m.group(0)), text)

def remap_rules():
    """tftpd-hpa's rules (in.tftpd(8) "FILENAME REMAPPING"): uploads and
    their read-back go to incoming/ under their flat names; any other
    upload is refused. Reads of anything else are served as they are."""
    whole = r"^(%s)/(%s)/(%s|%s)$" % (MACHINE, RUN, FILES, BLOB)
    table = r"^(%s)/(%s)/acpi/([0-9A-Za-z_]{4}|SMBIOS)\.bin$" % (MACHINE, RUN)
    lines = ["# written by lab_server.py: irqlab's uploads only"]
    for op in ("P", "G"):
        lines.append("r%se %s incoming/\\1+\\2+\\4" % (op, whole))
        lines.append("r%se %s incoming/\\1+\\2+acpi+\\4.bin" % (op, table))
    lines.append("aP .*")
    return "\n".join(lines) + "\n"


def lighttpd_config(root, state, address, port, also=()):
    """lighttpd's config (lighttpd.conf(5), mod_rewrite, mod_webdav):
    GET and HEAD of anything under root; PUT only of irqlab's names under
    <machine>/<run>/, rewritten to incoming/ under their flat names as
    tftpd-hpa's remap puts them, so a read-back reads the same file. Any
    other method or name is denied (403); a body over FILE_LIMIT is
    refused (413). The URL is normalised before it is matched, so a path
    that climbs out matches nothing and is denied. `also`: more
    addresses to listen on, at the same port (an IPv6 one in brackets)."""
    whole = r"^/(%s)/(%s)/(%s|%s)$" % (MACHINE, RUN, FILES, BLOB)
    table = r"^/(%s)/(%s)/acpi/([0-9A-Za-z_]{4}|SMBIOS)\.bin$" % (
        MACHINE, RUN)
    flat = r"^/incoming/%s" % FLAT.pattern.lstrip("^")
    return "\n".join([
        "# written by lab_server.py: irqlab's uploads only",
        'server.document-root = "%s"' % root,
        'server.bind = "%s"' % address,
        "server.port = %d" % port] + [
        '$SERVER["socket"] == "%s:%d" { }' % (a, port) for a in also] + (
        # Never root once it listens.
        ['server.username = "%s"' % HTTP_USER,
         'server.groupname = "%s"' % HTTP_USER]
        if os.geteuid() == 0 and user_exists(HTTP_USER) else []) + [
        'server.modules = ("mod_access", "mod_rewrite", "mod_webdav", '
        '"mod_accesslog")',
        # Its errors on stderr (no server.errorlog), followed; its
        # accesses in a file, written as they come and followed too (on
        # stderr they would wait in a buffer).
        'server.upload-dirs = ("%s")' % os.path.join(state, "http-bodies"),
        'accesslog.filename = "%s"' % os.path.join(state, "access.log"),
        'accesslog.format = "%h %r %>s %b"',
        "server.max-request-size = %d" % ((FILE_LIMIT + 1023) // 1024),
        'url.rewrite-once = ("%s" => "/incoming/$1+$2+$4", '
        '"%s" => "/incoming/$1+$2+acpi+$4.bin")' % (whole, table),
        '$HTTP["request-method"] !~ "^(GET|HEAD|PUT)$" '
        '{ url.access-deny = ("") }',
        '$HTTP["request-method"] == "PUT" {',
        '  $HTTP["url"] !~ "%s" { url.access-deny = ("") }' % flat,
        '  $HTTP["url"] =~ "%s" { webdav.activate = "enable" }' % flat,
        "}", ""])


def limit_for(name):
    """The most bytes an upload of this flat name may hold."""
    return BLOB_LIMIT if name.endswith(".bin") and "+acpi+" not in name \
        else TEXT_LIMIT


class Log:
    def __init__(self, path):
        self.file = open(path, "a", buffering=1)
        self.lock = threading.Lock()

    def say(self, text):
        line = "%s %s" % (time.strftime("%H:%M:%S"), printable(text))
        with self.lock:
            print(line, flush=True)
            self.file.write(line + "\n")


# What the server keeps at most (docs/lab.md "What the server keeps"),
# each settable with --limits NAME=VALUE,...; printed at start. Bytes
# take a K, M or G suffix.
LIMITS = {
    # A real run has fewer files than its manifest may name, and its
    # largest (a long series' texts and blobs) stays well under this.
    "run_files": MANIFEST_LINES,
    "run_bytes": 64 << 20,
    # Runs a machine starts in a day: a series of 100 at most.
    "runs_per_day": 100,
    # incoming/ whole, filed runs included (they are the same files):
    # its bytes, and its files (inodes: empty uploads cost no bytes).
    "incoming_bytes": 4 << 30,
    "incoming_files": 100000,
    "refused_bytes": 256 << 20,
    "refused_files": 10000,
    # An upload left unfinished this long frees its names: the
    # machine's next boot sends the run again.
    "idle_seconds": 120,
    "refused_days": 7,
}


def parse_limits(text):
    """LIMITS with NAME=VALUE,... from text applied; a bad name or value
    raises ValueError naming it."""
    limits = dict(LIMITS)
    for item in filter(None, (text or "").split(",")):
        name, _, value = item.partition("=")
        m = re.fullmatch(r"([0-9]{1,15})([KMG]?)", value.strip())
        if name.strip() not in limits or not m:
            raise ValueError("limit %r: NAME=VALUE with NAME one of %s and "
                             "VALUE a number (K, M or G after bytes)"
                             % (item, ", ".join(sorted(limits))))
        limits[name.strip()] = int(m.group(1)) << {
            "": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]
    return limits


def limits_text(limits):
    return ", ".join("%s=%d" % kv for kv in sorted(limits.items()))


class Sorter:
    """Files complete runs from incoming/ into runs/, and keeps incoming/
    and refused/ within their limits (docs/lab.md "What the server
    keeps").

    An upload's name, once written, is held: the file becomes read-only
    (root's, where the server is root) as its first bytes arrive, so no
    later write request over TFTP or PUT over HTTP, from this machine or
    another, can truncate or replace it. A run is filed by hard links:
    runs/<machine>/<run>/ and incoming/ name the same read-only files,
    one copy on disk, so a read-back reads the filed copy, and a machine
    whose names another took first has its own uploads refused and keeps
    its records. An unfinished run frees its names after idle_seconds
    without an upload, and at the server's start, moved to refused/."""

    def __init__(self, lab, log, limits=None):
        self.incoming = os.path.join(lab, "tftp", "incoming")
        self.runs = os.path.join(lab, "runs")
        self.refused = os.path.join(lab, "refused")
        self.log = log
        self.limits = limits or dict(LIMITS)
        self.seen = {}      # flat name -> (size, mtime) last seen
        self.filed = {}     # flat name of a filed run's file -> size
        self.held = set()   # flat names made read-only
        self.started = {}   # machine -> {run: when its first file came}
        self.sorted = 0
        self.first_scan = True
        self.lock = threading.Lock()    # hold() runs in the watcher too
        self.filed_runs = set()
        if os.path.isdir(self.runs):
            for machine in os.listdir(self.runs):
                folder = os.path.join(self.runs, machine)
                for run in (os.listdir(folder) if os.path.isdir(folder)
                            else ()):
                    self.filed_runs.add((machine, run))
                    when = os.stat(os.path.join(folder, run)).st_mtime
                    self.started.setdefault(machine, {})[run] = when

    def hold(self, name):
        """The upload's name is held: its file read-only from now on
        (in.tftpd(8): a write needs a file writable by all; lighttpd, not
        root, can replace no file of another owner in the sticky
        incoming/). The open transfer writing it goes on."""
        path = os.path.join(self.incoming, name)
        with self.lock:
            if name in self.held:
                return
            try:
                if os.geteuid() == 0:
                    os.chown(path, 0, 0)
                os.chmod(path, 0o444)
                self.held.add(name)
            except FileNotFoundError:
                pass

    def scan(self):
        groups, sizes, stable = {}, {}, set()
        now = time.time()
        listed = []
        with os.scandir(self.incoming) as it:
            for entry in it:
                if entry.name in self.filed:
                    listed.append((entry.name, self.filed[entry.name]))
                    continue
                try:
                    listed.append((entry.name, entry.stat()))
                except FileNotFoundError:
                    pass
        # What incoming/ holds of uploads taken: filed, or seen before.
        taken = [st if isinstance(st, int) else st.st_size
                 for name, st in listed
                 if isinstance(st, int) or name in self.seen]
        kept, count = sum(taken), len(taken)
        for name, st in sorted(listed, key=lambda e: e[0]):
            m = FLAT.match(name)
            if isinstance(st, int) or not m:
                continue    # filed, or not irqlab's (tftpd-hpa writes
                # nothing else here)
            machine, run = m.group(1), m.group(2)
            if (machine, run) in self.filed_runs and st.st_nlink > 1:
                self.filed[name] = st.st_size   # filed by an earlier start
                continue
            group = groups.get((machine, run), {})
            if name not in self.seen:
                why = self.over_limit(machine, run, group, kept, now) or (
                    "incoming/ holds incoming_files=%d files" %
                    self.limits["incoming_files"]
                    if count >= self.limits["incoming_files"] else None)
                if why:
                    self.drop(name, why)
                    continue
                kept, count = kept + st.st_size, count + 1
            groups[(machine, run)] = group
            self.hold(name)
            if st.st_size > limit_for(name):
                self.refuse(name, "over its %d bytes" % limit_for(name))
                continue
            if self.seen.get(name) != (st.st_size, st.st_mtime_ns):
                self.seen[name] = (st.st_size, st.st_mtime_ns)
                self.log.say("upload: %s/%s/%s (%d bytes)" % (
                    machine, run, m.group(4).replace("+", "/"),
                    st.st_size))
            elif m.group(4) == "manifest.txt":
                # Read only once it stood still for a scan (or was there
                # before the server started): its transfer may have
                # created it and not yet written its bytes.
                stable.add((machine, run))
            group[m.group(4)] = st
            sizes[(machine, run)] = sizes.get((machine, run), 0) + \
                st.st_size
        for (machine, run), files in groups.items():
            # Nothing a client sent stops the server: a run that cannot
            # be read or filed is refused, its manifest moved aside so
            # that the next scan, or the next start, does not meet it.
            try:
                if sizes.get((machine, run), 0) > self.limits["run_bytes"]:
                    self.release(machine, run, files, "its files hold over "
                                 "run_bytes=%d" % self.limits["run_bytes"])
                elif not self.consider(machine, run, files,
                                       self.first_scan or
                                       (machine, run) in stable):
                    self.free_if_idle(machine, run, files, now)
            except Exception as e:
                self.refuse("%s+%s+manifest.txt" % (machine, run),
                            "could not be filed: %s: %s"
                            % (type(e).__name__, e))
        self.first_scan = False

    def over_limit(self, machine, run, group, kept, now):
        """Why a new upload is past a limit, or None."""
        lim = self.limits
        runs = self.started.setdefault(machine, {})
        for r, when in list(runs.items()):
            if now - when > 86400:
                del runs[r]
        if run not in runs and len(runs) >= lim["runs_per_day"]:
            return "its machine started runs_per_day=%d runs in the last " \
                "24 h" % lim["runs_per_day"]
        if len(group) >= lim["run_files"]:
            return "its run has run_files=%d files already" % \
                lim["run_files"]
        if kept >= lim["incoming_bytes"]:
            return "incoming/ holds over incoming_bytes=%d" % \
                lim["incoming_bytes"]
        runs.setdefault(run, now)
        return None

    def drop(self, name, why):
        """A new upload past a limit: deleted, whatever it held, so that
        its bytes count nowhere (its transfer may still be writing them
        to the unlinked file: tftpd-hpa's size limit ends it)."""
        try:
            os.unlink(os.path.join(self.incoming, name))
        except FileNotFoundError:
            pass
        with self.lock:
            self.held.discard(name)
        self.log.say("refused: %s: %s (deleted)" % (name, why))

    def release(self, machine, run, files, why):
        for f in files:
            self.refuse("%s+%s+%s" % (machine, run, f), why)

    def free_if_idle(self, machine, run, files, now):
        """An unfinished run frees its names once no file of it changed
        for idle_seconds, or at once where the server started after it:
        moved to refused/, so that the machine's next boot can send it."""
        newest = max(st.st_mtime for st in files.values())
        idle = self.limits["idle_seconds"]
        if self.first_scan:
            self.release(machine, run, files, "left unfinished when the "
                         "server last stopped: its names are free again")
        elif now - newest > idle:
            self.release(machine, run, files, "unfinished, no upload for "
                         "idle_seconds=%d: its names are free again" % idle)

    def refuse(self, name, why):
        os.makedirs(self.refused, exist_ok=True)
        try:
            os.replace(os.path.join(self.incoming, name),
                       os.path.join(self.refused, name))
            where = "moved to refused/"
        except OSError as e:
            where = "could not be moved to refused/: %s" % e.strerror
        self.seen.pop(name, None)
        with self.lock:
            self.held.discard(name)
        self.log.say("refused: %s: %s (%s)" % (name, why, where))
        self.trim_refused()

    def trim_refused(self):
        """refused/ within refused_days and refused_bytes: the oldest
        files go first."""
        kept, now = [], time.time()
        for entry in os.scandir(self.refused):
            try:
                st = entry.stat()
            except FileNotFoundError:
                continue
            if now - st.st_mtime > self.limits["refused_days"] * 86400:
                os.unlink(entry.path)
            else:
                kept.append((st.st_mtime, st.st_size, entry.path))
        total, count = sum(k[1] for k in kept), len(kept)
        for _, size, path in sorted(kept):
            if total <= self.limits["refused_bytes"] and \
                    count <= self.limits["refused_files"]:
                break
            os.unlink(path)
            total, count = total - size, count - 1
            self.log.say("refused/: %s deleted, over refused_bytes=%d or "
                         "refused_files=%d" % (
                             os.path.basename(path),
                             self.limits["refused_bytes"],
                             self.limits["refused_files"]))

    def consider(self, machine, run, files, manifest_still=True):
        """Files the run where its manifest is in, unchanged since the
        scan before (manifest_still), and names each file at its size;
        True where the run is filed or refused."""
        if "manifest.txt" not in files or not manifest_still:
            return False
        listed = self.manifest(machine, run, files)
        if listed is None:
            # Refused (moved aside), or a file it names not all there.
            return not os.path.exists(os.path.join(
                self.incoming, "%s+%s+manifest.txt" % (machine, run)))
        target = os.path.join(self.runs, machine, run)
        if os.path.exists(target):
            self.release(machine, run, files, "conflict: %s/%s is already "
                         "filed, and an existing run is never overwritten"
                         % (machine, run))
            return True
        staging = target + ".sorting"
        shutil.rmtree(staging, ignore_errors=True)
        for f in files:
            src = os.path.join(self.incoming, "%s+%s+%s" % (machine, run, f))
            dest = os.path.join(staging, *f.split("+"))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            try:
                os.link(src, dest)
            except OSError:
                shutil.copy2(src, dest)    # another file system
            self.filed["%s+%s+%s" % (machine, run, f)] = files[f].st_size
        os.replace(staging, target)
        self.protect(target)
        self.filed_runs.add((machine, run))
        for f in files:
            self.seen.pop("%s+%s+%s" % (machine, run, f), None)
        self.sorted += 1
        self.log.say("run: %s/%s complete, %d files (%d in its manifest), "
                     "in runs/%s/%s" % (machine, run, len(files), listed,
                                        machine, run))
        return True

    def protect(self, target):
        """A filed run cannot be changed by an upload: its files, which
        incoming/ names too for the read-backs, are read-only and, where
        the server is root, root's."""
        for here, dirs, names in os.walk(target):
            for n in names:
                path = os.path.join(here, n)
                if os.geteuid() == 0:
                    os.chown(path, 0, 0)
                os.chmod(path, 0o444)

    def manifest(self, machine, run, files):
        """How many files the run's manifest names, or None where one of
        them is missing or has another size."""
        flat = "%s+%s+manifest.txt" % (machine, run)
        with open(os.path.join(self.incoming, flat), "rb") as f:
            data = f.read(TEXT_LIMIT + 1)
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError as e:
            self.refuse(flat, "not ASCII (byte %d)" % e.start)
            return None
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        matched = [MANIFEST_LINE.match(line) for line in lines]
        bad = [i for i, m in enumerate(matched) if not m]
        names = [m.group(2) for m in matched if m]
        why = ("line %d is not \"<bytes> <name>\", a size of 1-10 digits "
               "and a name irqlab writes" % (bad[0] + 1) if bad
               else "it names no file" if not lines
               else "over %d lines" % MANIFEST_LINES
               if len(lines) > MANIFEST_LINES
               else "it names a file twice"
               if len(set(names)) != len(names) else None)
        if why:
            self.refuse(flat, why)
            return None
        for m in matched:
            st = files.get(m.group(2).replace("/", "+"))
            if not st or st.st_size != int(m.group(1)):
                return None
        return len(lines)


# inotify(7): what the watcher is told of a file in incoming/.
IN_MODIFY, IN_CLOSE_WRITE, IN_MOVED_TO = 0x2, 0x8, 0x80


def watch_uploads(sorter, log):
    """Holds each upload's name as its first bytes arrive (inotify(7)),
    not at the next scan: a write request for the name in between would
    truncate it. Not at its creation: tftpd-hpa checks the file it
    created is writable by all before it answers (in.tftpd(8), --secure),
    and its first DATA comes after that answer."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6",
                           use_errno=True)
        fd = libc.inotify_init1(0)
        if fd < 0 or libc.inotify_add_watch(
                fd, sorter.incoming.encode(),
                IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO) < 0:
            raise OSError(ctypes.get_errno(), "inotify")
    except (OSError, AttributeError) as e:
        log.say("uploads are held at each scan, not as they arrive: %s" % e)
        return

    def run():
        while True:
            data, at = os.read(fd, 65536), 0
            while at + 16 <= len(data):
                size = struct.unpack_from("iIII", data, at)[3]
                name = data[at + 16:at + 16 + size].rstrip(b"\0")
                at += 16 + size
                if FLAT.match(name.decode("utf-8", "replace")):
                    sorter.hold(name.decode())
    threading.Thread(target=run, daemon=True).start()


def interface_address(interface, family=4):
    """The interface's address and prefix length: IPv4's, or with
    family 6 its global IPv6 one; None where it has none."""
    out = subprocess.run(["ip", "-%d" % family, "-o", "addr", "show", "dev",
                          interface, "scope", "global"],
                         capture_output=True, text=True, check=True).stdout
    # The address the lab gave it, before one it made itself from a
    # router's advertisement (RFC 4862's, marked "dynamic").
    found = sorted(re.findall(r"inet6? ([0-9a-f.:]+)/([0-9]+)(.*)", out),
                   key=lambda a: " dynamic" in a[2])
    return (found[0][0], int(found[0][1])) if found else None


def host_address():
    """This host's own IPv4 address, as QEMU's user networking reaches
    it: the source of its default route, else its first global one."""
    out = subprocess.run(["ip", "-4", "route", "get", "203.0.113.1"],
                         capture_output=True, text=True).stdout
    m = re.search(r"\bsrc ([0-9.]+)", out)
    if not m:
        out = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope",
                              "global"], capture_output=True,
                             text=True).stdout
        m = re.search(r"inet ([0-9.]+)/", out)
    if not m:
        sys.exit("lab_server: this host has no IPv4 address of its own, "
                 "which QEMU's user networking could reach")
    return m.group(1)


def http_address(args, v4, v6):
    """Where lighttpd listens: --http-address, else the TFTP server's
    address (the interface's in proxy and dhcp modes: v4, else v6, as
    interface_address gives them), port 80."""
    if args.http_address:
        host, port = args.http_address.rsplit(":", 1)
        return host, int(port)
    host = (args.tftp_address or ":").rsplit(":", 1)[0]
    if (not host or host == "[::]") and (v4 or v6):
        host = v4[0] if v4 else "[%s]" % v6[0]
    if not host or host in ("0.0.0.0", "[::]"):
        # Never every address: no other network of this host reaches it.
        sys.exit("lab_server: no address of the lab's to serve HTTP on: "
                 "give --interface or --http-address")
    return host, 80


def network_of(address, bits):
    n = int.from_bytes(socket.inet_aton(address), "big")
    n &= (0xffffffff << (32 - bits)) & 0xffffffff
    return socket.inet_ntoa(n.to_bytes(4, "big"))


def dnsmasq_command(args, v4, v6, state):
    """dnsmasq's command line: over IPv4 (v4, the interface's address
    and prefix), PXE's answers, as a proxy or leasing; over IPv6 (v6, in
    dhcp mode with --range6), leases, router advertisements and the boot
    file's URL (RFC 5970 §3.1) for PXE clients."""
    cmd = ["dnsmasq", "--keep-in-foreground", "--conf-file=/dev/null",
           "--port=0", "--log-dhcp", "--log-facility=-",
           "--interface=%s" % args.interface, "--bind-interfaces",
           "--pid-file=%s" % os.path.join(state, "dnsmasq.pid"),
           "--dhcp-leasefile=%s" % os.path.join(state, "leases")]
    if args.allowed is not None:
        # Only the machines listed are answered, in every mode: a MAC by
        # its address, a UUID by the client machine identifier PXE
        # clients send (RFC 4578 §2.3, option 97: type 0, then the
        # SMBIOS UUID's bytes).
        for mac, uuid in args.allowed:
            cmd.append("--dhcp-host=%s,set:allowed" % mac if mac else
                       "--dhcp-match=set:allowed,97,00:%s"
                       % ":".join("%02x" % b for b in uuid_wire(uuid)))
        cmd.append("--dhcp-ignore=tag:!allowed")
    if args.mode == "dhcp" and not args.router:
        # No default route through this host unless asked (dnsmasq(8):
        # an option given with no value is not sent).
        cmd.append("--dhcp-option=3")
    if v4:
        address, bits = v4
        # Both client types OVMF and real x86-64 firmware send (RFC
        # 4578 §2.1: 7 EFI BC, 9 EFI x86-64).
        cmd += ["--pxe-service=BC_EFI,irqlab,irqlab.efi,%s" % address,
                "--pxe-service=x86-64_EFI,irqlab,irqlab.efi,%s" % address,
                "--dhcp-boot=irqlab.efi,,%s" % address]
    if v4 and args.mode == "proxy":
        cmd.append("--dhcp-range=%s,proxy" % network_of(address, bits))
    elif v4 and args.range:
        cmd.append("--dhcp-range=%s" % args.range)
        # UEFI HTTP boot clients (UEFI 2.10 §24.7.2): vendor class
        # "HTTPClient", answered with the same and the boot file's URL.
        # dnsmasq's proxy mode answers PXE clients only.
        cmd += ["--dhcp-vendorclass=set:httpboot,HTTPClient",
                "--dhcp-option-force=tag:httpboot,60,HTTPClient",
                "--dhcp-boot=tag:httpboot,http://%s/irqlab.efi" % address]
    if v6 and args.range6:
        # A lease and the boot file's URL by address: a PXE client reads
        # the server from it (edk2 looks up no name there). The router
        # advertisements say to ask DHCPv6 (RFC 4861 §4.2's M flag).
        address, bits = v6
        if not args.router:
            # A router lifetime of 0: no default router (RFC 4861 §4.2);
            # the M flag still sends clients to DHCPv6.
            cmd.append("--ra-param=%s,60,0" % args.interface)
        cmd += ["--enable-ra",
                "--dhcp-range=%s,%d" % (args.range6, bits),
                "--dhcp-option=option6:bootfile-url,tftp://[%s]/irqlab.efi"
                % address,
                # An HTTP boot client takes an offer as its own only where
                # it carries DHCPv6's vendor class "HTTPClient" (RFC 8415
                # §21.16, enterprise 343; UEFI 2.10 §24.7.2), which
                # dnsmasq cannot send: it writes option 16 as a list of
                # strings, no enterprise number. Such clients are left to
                # the lab's own DHCPv6 server (docs/lab.md "IPv6").
                "--dhcp-vendorclass=set:httpboot6,enterprise:343,"
                "HTTPClient",
                "--dhcp-ignore=tag:httpboot6"]
    return cmd


def uuid_wire(text):
    """A UUID's 16 bytes as SMBIOS and PXE clients send them (SMBIOS
    3.6 §7.2.1): its first three fields little-endian."""
    b = bytes.fromhex(text.replace("-", ""))
    return b[3::-1] + b[5:3:-1] + b[7:5:-1] + b[8:]


def read_allowed(path):
    """ALLOW's file: a MAC or a UUID a line, '#' comments; [(mac, uuid)],
    one of each pair None. A line that is neither stops the server."""
    allowed = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip().lower()
            if not line:
                continue
            if re.fullmatch(r"([0-9a-f]{2}:){5}[0-9a-f]{2}", line):
                allowed.append((line, None))
            elif re.fullmatch(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}",
                              line):
                allowed.append((None, line))
            else:
                sys.exit("lab_server: %s line %d is neither a MAC "
                         "(52:54:00:12:34:56) nor a UUID" % (path, number))
    return allowed


def dhcp_server_answers(interface, seconds=8.0):
    """The address of a DHCP server that answers a DISCOVER on the
    interface (RFC 2131 §4.4.1, broadcast flag set; sent again after 4 s,
    as a client would, since a server may first ping the address it will
    offer: dnsmasq waits up to 3 s), or None."""
    with open("/sys/class/net/%s/address" % interface) as f:
        mac = bytes.fromhex(f.read().strip().replace(":", ""))
    xid = os.urandom(4)
    packet = (b"\x01\x01\x06\x00" + xid + b"\x00\x00\x80\x00" +
              bytes(16) + mac + bytes(10 + 64 + 128) +
              b"\x63\x82\x53\x63\x35\x01\x01\xff")
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE,
                     interface.encode())
        s.bind(("", 68))
        start = time.monotonic()
        sent = 0
        while time.monotonic() - start < seconds:
            if sent * 4 <= time.monotonic() - start:
                s.sendto(packet, ("255.255.255.255", 67))
                sent += 1
            s.settimeout(0.25)
            try:
                data, source = s.recvfrom(2048)
            except socket.timeout:
                continue
            # BOOTREPLY to this DISCOVER: an offer, whoever sent it.
            if len(data) > 240 and data[0] == 2 and data[4:8] == xid:
                return source[0]
        return None
    finally:
        s.close()


def tftp_listens(args, v4, v6):
    """tftpd-hpa's addresses: --tftp-address, else the interface's own,
    IPv4's and IPv6's, one tftpd-hpa each (it takes one address): never
    every address, so that no other network of this host reaches it."""
    if args.tftp_address:
        return [args.tftp_address]
    listens = ["%s:69" % v4[0]] if v4 else []
    listens += ["[%s]:69" % v6[0]] if v6 else []
    if not listens:
        sys.exit("lab_server: %s has no address to serve TFTP on"
                 % args.interface)
    return listens


# What tftpd-hpa's listener keeps of root, running as TFTP_USER
# (capabilities(7)): port 69, the chroot of each transfer's child into
# LAB/tftp (--secure), and setting that child's groups as in.tftpd(8)'s
# --user does. Never the rest: no file of another user's is its own.
TFTPD_CAPS = "-all,+net_bind_service,+sys_chroot,+setgid"


def tftpd_command(args, listen, root, state):
    tftpd = ["in.tftpd", "--foreground", "--address", listen, "--secure",
             "--create", "--verbose", "--verbose",
             "--map-file", os.path.join(state, "tftp-remap")]
    if os.geteuid() == 0:
        # Never root, its listener included: Debian's own user for it.
        user = pwd.getpwnam(TFTP_USER if user_exists(TFTP_USER)
                            else "nobody")
        tftpd = ["setpriv", "--reuid=%d" % user.pw_uid,
                 "--regid=%d" % user.pw_gid, "--clear-groups",
                 "--inh-caps=" + TFTPD_CAPS, "--ambient-caps=" + TFTPD_CAPS,
                 "--bounding-set=" + TFTPD_CAPS] + tftpd + [
                     "--user", user.pw_name]
    tftpd.append(root)
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return tftpd, None
    # tftpd-hpa logs only to syslog (/dev/log). In a mount namespace of
    # its own, /dev holds /dev/null and this server's socket as /dev/log,
    # so what it refuses is printed here too, and the host's syslog is
    # left alone.
    dev = os.path.join(state, "dev")
    os.makedirs(dev, exist_ok=True)
    open(os.path.join(dev, "null"), "a").close()
    sock = os.path.join(dev, "log")
    script = ('mount --bind /dev/null "$1/null" && mount --rbind "$1" /dev '
              '&& shift && exec "$@"')
    return (["unshare", "--mount", "--propagation", "private", "sh", "-c",
             script, "sh", dev] + tftpd), sock


def listen_syslog(sock_path, log):
    if os.path.exists(sock_path):
        os.unlink(sock_path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(sock_path)
    # tftpd-hpa writes to it after it drops root.
    os.chmod(sock_path, 0o666)

    asked = {}      # transfer's pid -> what it was asked

    def run():
        while True:
            data = s.recv(4096).decode("utf-8", "replace")
            text = re.sub(r"^<\d+>(\w{3} [ \d]\d [\d:]{8} )?", "",
                          data).strip()
            log.say("tftpd: " + text)
            m = re.match(r"in\.tftpd\[(\d+)\]: (WRQ from \S+ filename "
                         r"\S+)", text)
            if m:
                asked[m.group(1)] = m.group(2)
            m = re.match(r"in\.tftpd\[(\d+)\]: sending NAK \(\d+, "
                         r"(Permission denied|File must have global write "
                         r"permissions)\)", text)
            if m and m.group(1) in asked:
                log.say("refused: %s: its name is held, by an upload "
                        "already made or a filed run" % asked.pop(
                            m.group(1)))
    threading.Thread(target=run, daemon=True).start()


# A boot's DHCP exchanges come within this many seconds of each other
# (a PXE client asks twice, then once more from its boot server): one
# line per boot.
BOOT_SECONDS = 20


def follow(proc, name, log):
    macs, leased, said = {}, {}, {}

    def boot(mac, how=""):
        if time.monotonic() - said.get(mac, -BOOT_SECONDS) >= BOOT_SECONDS:
            log.say("boot: %s asked for irqlab.efi%s" % (mac, how))
        said[mac] = time.monotonic()

    def run():
        for line in proc.stdout:
            line = line.rstrip()
            m = re.search(r"PXE\(\S+\) ([0-9a-f:]{17}) proxy", line) or \
                re.search(r"DHCPACK\(\S+\) ([0-9.]+) ([0-9a-f:]{17})", line)
            if m:
                boot(m.group(m.lastindex))
            # DHCPv6 names the client by its DUID; dnsmasq gives its MAC
            # on a line of its own, each line led by the transaction. A
            # boot is a reply that leased an address and sent the boot
            # file's URL: the firmware's own DHCPv6 client (edk2's
            # Ip6Config, where advertisements say to ask) asks for no URL.
            m = re.search(r"^\S+ (\d+) client MAC address: ([0-9a-f:]{17})",
                          line)
            if m:
                macs[m.group(1)] = m.group(2)
            m = re.search(r"^\S+ (\d+) DHCPREPLY\(\S+\) ([0-9a-f:]+) ", line)
            if m:
                leased[m.group(1)] = m.group(2)
            m = re.search(r"^\S+ (\d+) sent size: +\d+ option: 59 ", line)
            if m and m.group(1) in leased and m.group(1) in macs:
                boot(macs.pop(m.group(1)), " (IPv6, leased %s)"
                     % leased.pop(m.group(1)))
            log.say("%s: %s" % (name, line))
    threading.Thread(target=run, daemon=True).start()


def follow_file(path, name, log):
    """Prints and logs each whole line appended to path, as tail -f
    would."""
    def run():
        open(path, "ab").close()
        at, rest = os.path.getsize(path), b""
        while True:
            with open(path, "rb") as f:
                f.seek(at)
                data = f.read()
            at += len(data)
            *lines, rest = (rest + data).split(b"\n")
            for line in lines:
                log.say("%s: %s" % (name, line.decode("utf-8", "replace")))
            time.sleep(0.2)
    threading.Thread(target=run, daemon=True).start()


def prepare(args):
    root = os.path.join(args.dir, "tftp")
    state = os.path.join(args.dir, "state")
    for d in (root, os.path.join(root, "incoming"), state,
              os.path.join(args.dir, "runs")):
        os.makedirs(d, exist_ok=True)
    # The engines write here as their own users; sticky, as /tmp is,
    # so that neither can replace or remove a file it does not own: a
    # run's files, once filed, are root's and read-only (Sorter.file).
    os.chmod(os.path.join(root, "incoming"), 0o1777)
    if os.geteuid() == 0 and user_exists(HTTP_USER):
        for d in ("http-bodies", "access.log"):
            path = os.path.join(state, d)
            if d.endswith(".log"):
                open(path, "a").close()
            else:
                os.makedirs(path, exist_ok=True)
            shutil.chown(path, HTTP_USER, HTTP_USER)
    with open(os.path.join(state, "tftp-remap"), "w") as f:
        f.write(remap_rules())
    for src, name in ((args.efi, "irqlab.efi"), (args.template, "report.tpl"),
                      (args.reference, "icount.ref"),
                      (args.config, "irqlab.cfg")):
        dest = os.path.join(root, name)
        if src and (name != "irqlab.cfg" or not os.path.exists(dest)):
            shutil.copyfile(src, dest)
    return root, state


def serve(args, limits, root, state, log, procs, tftpds):
    """Starts the engines (into procs; tftpd-hpa's also into tftpds) and
    files runs until told to stop; returns (exit status, runs filed)."""
    # The interface's addresses, read once: IPv4's, and its global IPv6
    # one, where it has them.
    v4 = args.interface and interface_address(args.interface)
    v6 = args.interface and interface_address(args.interface, 6)
    if not args.no_dhcp:
        if args.range6 and not v6:
            sys.exit("lab_server: %s has no global IPv6 address to serve "
                     "--range6 from" % args.interface)
        if not v4 and not args.range6:
            sys.exit("lab_server: %s has no IPv4 address" % args.interface)
        other = args.mode == "dhcp" and v4 and not args.force and \
            dhcp_server_answers(args.interface)
        if other:
            sys.exit("lab_server: a DHCP server already answers on %s (%s): "
                     "leasing beside it would take its clients. Use the "
                     "default proxy mode, or FORCE=1 on a network of the "
                     "lab's own" % (args.interface, other))
        dns = subprocess.Popen(dnsmasq_command(args, v4, v6, state),
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        follow(dns, "dnsmasq", log)
        procs.append(dns)
        log.say("serving irqlab.efi from %s on %s (%s DHCP)" % (
            " and ".join(a[0] for a in (v4, v6 if args.range6 else None)
                         if a), args.interface, args.mode))
        log.say("answering only the %d machine(s) in %s" % (
            len(args.allowed), args.allow) if args.allowed is not None else
            "answering EVERY PXE client on %s: each one that network-boots "
            "will boot irqlab, write its ESP and store and send its tables "
            "here. ALLOW=file lists the machines to answer" % args.interface)
        if args.mode == "dhcp":
            log.say("default router: %s" % (
                "this host (ROUTER=1)" if args.router else
                "none named (ROUTER=1 names this host)"))
    def file_size_limit():
        # One byte over the largest file irqlab writes: a write past it
        # fails (EFBIG, SIGXFSZ ignored) and tftpd-hpa refuses it.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
        os.setsid()
    for listen in tftp_listens(args, v4, v6):
        cmd, sock = tftpd_command(args, listen, root, state)
        if sock and not tftpds:
            listen_syslog(sock, log)
        tftpd = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True,
                                 preexec_fn=file_size_limit)
        follow(tftpd, "tftpd", log)
        procs.append(tftpd)
        tftpds.append(tftpd)
        log.say("TFTP: %s served from %s, uploads into incoming/" % (
            listen, root))
    # QEMU's user networking cannot HTTP-boot a machine (its DHCP
    # server does not answer HTTP boot clients): no HTTP unless asked.
    if args.mode == "user" and not args.http_address:
        args.no_http = True
    if not args.no_http:
        http = http_address(args, v4, v6)
        # Where the interface has an IPv6 address, it is served there too.
        also = ["[%s]" % v6[0]] if v6 and not args.http_address else []
        also = [a for a in also if a != http[0]]
        with open(os.path.join(state, "lighttpd.conf"), "w") as f:
            f.write(lighttpd_config(root, state, *http, also=also))
        os.makedirs(os.path.join(state, "http-bodies"), exist_ok=True)
        web = subprocess.Popen(["lighttpd", "-D", "-f",
                                os.path.join(state, "lighttpd.conf")],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        follow(web, "http", log)
        follow_file(os.path.join(state, "access.log"), "http", log)
        procs.append(web)
        log.say("HTTP: http://%s:%d/ served from %s, uploads (PUT) into "
                "incoming/%s" % (http[0], http[1], root,
                                 "".join(" (and on %s)" % a for a in also)))
    if args.mode == "user":
        log.say("QEMU machines on user networking boot with: -netdev user,"
                "id=n0,tftp=%s,bootfile=irqlab.efi,tftp-server-name=%s "
                "-device virtio-net-pci,netdev=n0,romfile=" % (
                    root, args.tftp_address.rsplit(":", 1)[0]))

    log.say("limits: %s" % limits_text(limits))
    sorter = Sorter(args.dir, log, limits)
    watch_uploads(sorter, log)
    stop = []
    done_at = None
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    start = time.time()
    while not stop:
        try:
            sorter.scan()
        except Exception as e:
            # Never a reason to stop serving the lab (docs/lab.md
            # "What the server keeps").
            log.say("sorter: a scan failed and is retried: %s: %s"
                    % (type(e).__name__, e))
        # The run is filed once its manifest is in; the machine then
        # reads the manifest back to verify it. Stopping at once
        # left that read unanswered, and the machine kept its
        # records as not written (seen with the host busy).
        if args.runs and sorter.sorted >= args.runs and done_at is None:
            done_at = time.time()
            log.say("%d run(s) filed: stopping in %d s, once the last "
                    "read-backs are served" % (sorter.sorted, LINGER))
        if done_at is not None and time.time() - done_at >= LINGER:
            break
        if args.seconds and time.time() - start > args.seconds:
            break
        if any(p.poll() is not None for p in procs):
            log.say("an engine stopped: %s" % " ".join(
                "%s=%s" % (p.args[0], p.returncode) for p in procs))
            return 1, sorter.sorted
        time.sleep(0.5)
    return 0, sorter.sorted


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True, help="the lab's folder")
    ap.add_argument("--interface", help="the NIC the machines are on")
    ap.add_argument("--mode", choices=("proxy", "dhcp", "user"),
                    default="proxy")
    ap.add_argument("--range", help="dhcp mode: FIRST,LAST[,LEASE]")
    ap.add_argument("--range6",
                    help="dhcp mode: IPv6 leases FIRST,LAST, in the "
                    "interface's global prefix")
    ap.add_argument("--efi", help="irqlab.efi to serve")
    ap.add_argument("--template", help="the report page's template")
    ap.add_argument("--reference", help="the icount reference")
    ap.add_argument("--config", help="irqlab.cfg, where the lab has none")
    ap.add_argument("--no-dhcp", action="store_true",
                    help="TFTP only (another server answers PXE)")
    ap.add_argument("--tftp-address", help="[ADDRESS]:PORT, else :69")
    ap.add_argument("--http-address",
                    help="ADDRESS:PORT, else the TFTP address's, port 80")
    ap.add_argument("--no-http", action="store_true",
                    help="no HTTP server (TFTP alone)")
    ap.add_argument("--allow", help="a file of the MACs or UUIDs answered "
                    "(DHCP, PXE); else every PXE client on the segment")
    ap.add_argument("--router", action="store_true",
                    help="dhcp mode: name this host as the default router")
    ap.add_argument("--force", action="store_true",
                    help="dhcp mode: start though another DHCP server "
                    "answers on the interface")
    ap.add_argument("--limits", default="",
                    help="NAME=VALUE,...: what the server keeps at most "
                    "(%s)" % limits_text(LIMITS))
    ap.add_argument("--runs", type=int, default=0,
                    help="stop once this many runs are filed")
    ap.add_argument("--seconds", type=float, default=0,
                    help="stop after this long")
    args = ap.parse_args()
    if args.mode == "dhcp" and not (args.range or args.range6):
        ap.error("--mode dhcp needs --range or --range6")
    if args.range6 and args.mode != "dhcp":
        # dnsmasq's proxy mode is DHCPv4's (RFC 4578's PXE), and QEMU's
        # user networking boots over IPv4.
        ap.error("--range6 needs --mode dhcp")
    if args.mode == "user":
        # QEMU's user networking: its own DHCP server answers, and this
        # host is reached at its own address.
        args.no_dhcp = True
        args.tftp_address = args.tftp_address or host_address() + ":69"
    if not args.no_dhcp and not args.interface:
        ap.error("--interface is needed to answer PXE clients")
    try:
        limits = parse_limits(args.limits)
    except ValueError as e:
        ap.error(str(e))
    args.allowed = read_allowed(args.allow) if args.allow else None

    root, state = prepare(args)
    log = Log(os.path.join(args.dir, "serve.log"))
    procs, tftpds = [], []
    rc, filed = 1, 0
    try:
        rc, filed = serve(args, limits, root, state, log, procs, tftpds)
    except KeyboardInterrupt:
        rc = 0
    finally:
        # Whatever ended it, no engine is left behind.
        for p in procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM) if p in tftpds \
                        else p.terminate()
                except ProcessLookupError:
                    pass
        for p in procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
    log.say("stopped: %d run(s) filed" % filed)
    return rc


if __name__ == "__main__":
    sys.exit(main())
