#!/usr/bin/env python3
"""Reads an OVMF variable store file (the pflash VARS image) from the host,
so the boot tests can see what phase B left and what phase C deleted.

Layout (edk2 MdeModulePkg/Include/Guid/VariableFormat.h): a firmware volume
header, then a VARIABLE_STORE_HEADER, then 4-byte aligned variables, each a
header (authenticated or plain, as the store's signature GUID says), the
UCS-2 name and the data. A variable is live while its State is VAR_ADDED,
or VAR_ADDED with the in-deleted-transition bit cleared."""

import os
import struct
import sys
import uuid
import zlib

IRQLAB_GUID = uuid.UUID("5f2b0c1e-8a4d-4c6b-9b1f-3e7a2d9c4f61")
GLOBAL_GUID = uuid.UUID("8be4df61-93ca-11d2-aa0d-00e098032b8c")
AUTH_STORE = uuid.UUID("aaf32c78-947b-439a-a180-2e144ec37792")
PLAIN_STORE = uuid.UUID("ddcf3616-3275-4164-98b6-fe85707ffe7d")
START_ID = 0x55AA
VAR_ADDED = 0x3F
VAR_ADDED_IN_DELETE_TRANSITION = 0x3E
VAR_DELETED = 0x3D          # VAR_ADDED with VAR_DELETED's bit cleared
# Not irqlab's: the filler stands for other software's variables.
FILL_GUID = uuid.UUID("0b6e5233-a65c-44c9-9407-d9ab83bfc8bd")
FILL_CHUNK = 0x2000 - 256   # under the 2 MB build's largest variable


class Variable:
    def __init__(self, name, guid, state, data, data_offset):
        self.name, self.guid, self.state = name, guid, state
        self.data, self.data_offset = data, data_offset

    @property
    def live(self):
        return self.state in (VAR_ADDED, VAR_ADDED_IN_DELETE_TRANSITION)


def variables(image):
    """Every variable record in the store, live or deleted, in order."""
    fv_header_length = struct.unpack_from("<H", image, 0x30)[0]
    store = fv_header_length
    signature = uuid.UUID(bytes_le=bytes(image[store:store + 16]))
    size = struct.unpack_from("<I", image, store + 16)[0]
    if signature == AUTH_STORE:
        header, fmt = 60, "<HBBIQ16sIII16s"
    elif signature == PLAIN_STORE:
        header, fmt = 32, "<HBBIII16s"
    else:
        raise ValueError("not a variable store: %s" % signature)
    off, end = store + 28, store + size
    while off + header <= end:
        fields = struct.unpack_from(fmt, image, off)
        if fields[0] != START_ID:
            break
        state = fields[1]
        name_size, data_size, guid = fields[-3], fields[-2], fields[-1]
        name_at = off + header
        name = bytes(image[name_at:name_at + name_size]).decode(
            "utf-16-le").rstrip("\0")
        data_at = name_at + name_size
        yield Variable(name, uuid.UUID(bytes_le=guid), state,
                       bytes(image[data_at:data_at + data_size]), data_at)
        off = (data_at + data_size + 3) & ~3


def store_end(image):
    """(offset where the used part of the store ends, offset of its end,
    header size, authenticated?)"""
    store = struct.unpack_from("<H", image, 0x30)[0]
    signature = uuid.UUID(bytes_le=bytes(image[store:store + 16]))
    size = struct.unpack_from("<I", image, store + 16)[0]
    auth = signature == AUTH_STORE
    used = store + 28
    for v in variables(image):
        used = (v.data_offset + len(v.data) + 3) & ~3
    return used, store + size, 60 if auth else 32, auth


def fill(path, leave, state):
    """Appends variables under FILL_GUID, live or deleted, until `leave`
    bytes stay free at the store's end: a store other software has used,
    as a stranger's machine has one."""
    with open(path, "r+b") as f:
        image = bytearray(f.read())
        at, end, header, auth = store_end(image)
        seq = 0
        while end - at - leave > header + 64:
            name = ("IrqlabTestFill%02d" % seq).encode("utf-16-le") + b"\0\0"
            room = end - at - leave - header - len(name)
            data = min(FILL_CHUNK, room) & ~3
            if auth:
                h = struct.pack("<HBBIQ16sIII16s", START_ID, state, 0, 7, 0,
                                bytes(16), 0, len(name), data,
                                FILL_GUID.bytes_le)
            else:
                h = struct.pack("<HBBIII16s", START_ID, state, 0, 7,
                                len(name), data, FILL_GUID.bytes_le)
            var = h + name + bytes(data)
            image[at:at + len(var)] = var
            at = (at + len(var) + 3) & ~3
            seq += 1
        f.seek(0)
        f.write(image)


def drop_records(path, count):
    """Marks the first `count` live irqlab records deleted, in place: what
    a boot killed while it deleted them leaves."""
    with open(path, "r+b") as f:
        image = bytearray(f.read())
        header = 60 if store_end(image)[3] else 32
        for v in variables(image):
            if count and v.guid == IRQLAB_GUID and v.live:
                name_size = (len(v.name) + 1) * 2
                image[v.data_offset - name_size - header + 2] = VAR_DELETED
                count -= 1
        f.seek(0)
        f.write(image)


def boot_variables(path):
    """BootOrder, BootNext and every Boot#### as they are live in the
    store: name -> data."""
    with open(path, "rb") as f:
        image = f.read()
    return {v.name: v.data for v in variables(image)
            if v.live and v.guid == GLOBAL_GUID and v.name.startswith("Boot")
            and v.name != "BootCurrent"}


def write_efivars(folder, records):
    """Writes (name, data) records under irqlab's GUID as efivarfs shows
    them: a file named <name>-<guid> holding 4 bytes of attributes, then
    the data."""
    os.makedirs(folder, exist_ok=True)
    for name, data in records:
        with open(os.path.join(folder, "%s-%s" % (name, IRQLAB_GUID)),
                  "wb") as f:
            f.write(struct.pack("<I", 7) + data)


def export_records(path, folder):
    """Writes each live irqlab record of the store as efivarfs shows it."""
    write_efivars(folder, [(v.name, v.data) for v in irqlab_records(path)])


def irqlab_records(path, live_only=True):
    """irqlab's records in the store (its marker aside)."""
    with open(path, "rb") as f:
        image = f.read()
    return [v for v in variables(image)
            if v.guid == IRQLAB_GUID and v.name != MARKER_NAME
            and (v.live or not live_only)]


MARKER_NAME = "IrqlabMeasuring"    # efi/handoff_marker.c
MARKER_STATES = {1: "measuring", 2: "not-stored"}   # bench/model/records.h


def marker(path):
    """The live "measuring" marker's state (bench/model/records.c
    marker_encode), "unreadable", or None when there is none."""
    with open(path, "rb") as f:
        image = f.read()
    for v in variables(image):
        if v.guid == IRQLAB_GUID and v.name == MARKER_NAME and v.live:
            d = v.data
            if (len(d) < 23 or d[:4] != b"IRQM"
                    or len(d) != 23 + d[18]
                    or zlib.crc32(d[:-4]) != struct.unpack_from(
                        "<I", d, len(d) - 4)[0]):
                return "unreadable"
            return MARKER_STATES.get(d[5], "unreadable")
    return None


RECORD_HEADER = 36     # bench/model/records.c: the header, then the payload


def records_check(records):
    """Why a run's records (irqlab_records) are not what phase B writes,
    or None: each record's CRC-32 over its header's first 32 bytes and
    its payload, then the blob's own CRC over the payloads in order
    (bench/model/records.c)."""
    parts = {}
    blob_len = blob_crc = total = None
    for v in records:
        d = v.data
        if len(d) < RECORD_HEADER or d[:4] != b"IRQL":
            return "%s: no record header" % v.name
        (seq, total, blob_len, blob_crc, payload_len) = struct.unpack_from(
            "<HHIIH", d, 16)
        crc, = struct.unpack_from("<I", d, 32)
        if len(d) != RECORD_HEADER + payload_len:
            return "%s: payload length %d in %d bytes" % (
                v.name, payload_len, len(d))
        if zlib.crc32(d[:32] + d[RECORD_HEADER:]) != crc:
            return "%s: record CRC mismatch" % v.name
        parts[seq] = d[RECORD_HEADER:]
    if not parts or sorted(parts) != list(range(total)):
        return "records %s of %s" % (sorted(parts), total)
    blob = b"".join(parts[k] for k in sorted(parts))
    if len(blob) != blob_len or zlib.crc32(blob) != blob_crc:
        return "the reassembled blob's length or CRC differs"
    return None


def records_of(blob, run_id):
    """The records phase B writes for `blob` (bench/model/records.c
    record_encode): 36-byte headers, payloads of at most 988 bytes."""
    payload = 1024 - RECORD_HEADER
    total = max(1, (len(blob) + payload - 1) // payload)
    out = []
    for seq in range(total):
        part = blob[seq * payload:(seq + 1) * payload]
        head = struct.pack("<IHHQHHIIHH", 0x4C515249, 1, RECORD_HEADER,
                           run_id, seq, total, len(blob), zlib.crc32(blob),
                           len(part), 0)
        out.append(head + struct.pack("<I", zlib.crc32(head + part)) + part)
    return out


def corrupt_records(path):
    """Flips one payload bit in every live irqlab record, in place."""
    with open(path, "r+b") as f:
        image = bytearray(f.read())
        for v in variables(image):
            if v.guid == IRQLAB_GUID and v.live:
                image[v.data_offset + len(v.data) - 1] ^= 0x01
        f.seek(0)
        f.write(image)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--corrupt":
        corrupt_records(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "--export":
        export_records(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "--drop":
        drop_records(sys.argv[3], int(sys.argv[2]))
    elif len(sys.argv) == 5 and sys.argv[1] == "--fill":
        # --fill LEAVE live|deleted STORE
        fill(sys.argv[4], int(sys.argv[2]),
             VAR_ADDED if sys.argv[3] == "live" else VAR_DELETED)
    else:
        for v in irqlab_records(sys.argv[1], live_only=False):
            print("%-16s state 0x%02x %s %d bytes" %
                  (v.name, v.state, "live" if v.live else "deleted",
                   len(v.data)))
