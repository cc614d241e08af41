#!/usr/bin/env python3
"""hostile_client.py SERVER: what a broken or hostile machine of a lab's
network sends to `make serve` (docs/lab.md "What the server keeps"),
run inside the lab's network namespace by lab_hostile.py. Reads a JSON
list of operations on stdin and prints a JSON list of their outcomes:

- {"op": "put", "name": N, "data": HEX}: a TFTP write (RFC 1350), octet;
- {"op": "wrq", "name": N}: a write request alone, no data ever sent;
- {"op": "get", "name": N}: a TFTP read;
- {"op": "dhcp", "mac": M, "interface": I}: a PXE client's DHCPDISCOVER
  (RFC 4578 §2.1, option 60 "PXEClient", architecture 7) from that MAC,
  broadcast on that interface; the outcome
  lists who offered, and whether the offer named a boot file.

Each outcome is {"ok": bool, "error": text, "data": HEX}; a TFTP error
packet's text is the error."""

import json
import os
import socket
import struct
import sys

TIMEOUT = 2.0


def transfer(server, op, name, data=b""):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(TIMEOUT)
    try:
        code = 2 if op in ("put", "wrq") else 1
        s.sendto(struct.pack("!H", code) + name + b"\0octet\0",
                 (server, 69))
        got, block = b"", 0
        while True:
            packet, peer = s.recvfrom(4 + 512)
            kind = struct.unpack("!H", packet[:2])[0]
            if kind == 5:
                return {"ok": False, "error": packet[4:].rstrip(
                    b"\0").decode("latin-1")}
            if op == "wrq":
                return {"ok": kind == 4, "error": ""}
            if kind == 3:       # DATA
                got += packet[4:]
                s.sendto(struct.pack("!HH", 4, block + 1), peer)
                block += 1
                if len(packet) - 4 < 512:
                    return {"ok": True, "error": "", "data": got.hex()}
            elif kind == 4:     # ACK of the block before
                acked = struct.unpack("!H", packet[2:4])[0]
                piece = data[acked * 512:(acked + 1) * 512]
                if acked * 512 > len(data):
                    return {"ok": True, "error": ""}
                s.sendto(struct.pack("!HH", 3, acked + 1) + piece, peer)
                if len(piece) < 512:
                    last = s.recvfrom(4 + 512)[0]
                    return {"ok": struct.unpack("!H", last[:2])[0] == 4,
                            "error": last[4:].rstrip(b"\0").decode(
                                "latin-1")}
    except socket.timeout:
        return {"ok": False, "error": "timeout"}
    finally:
        s.close()


def discover(mac, interface):
    chaddr = bytes.fromhex(mac.replace(":", ""))
    xid = os.urandom(4)
    vendor = b"PXEClient:Arch:00007:UNDI:003016"
    packet = (b"\x01\x01\x06\x00" + xid + b"\x00\x00\x80\x00" + bytes(16) +
              chaddr + bytes(10 + 64 + 128) + b"\x63\x82\x53\x63" +
              b"\x35\x01\x01" + bytes([60, len(vendor)]) + vendor +
              b"\x5d\x02\x00\x07" + b"\xff")
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, interface.encode())
    s.bind(("", 68))
    s.settimeout(TIMEOUT)
    s.sendto(packet, ("255.255.255.255", 67))
    offers = []
    try:
        while True:
            data, peer = s.recvfrom(2048)
            if len(data) > 240 and data[0] == 2 and data[4:8] == xid:
                offers.append({"from": peer[0],
                               "boot_file": data[108:236].rstrip(
                                   b"\0").decode("latin-1")})
    except socket.timeout:
        pass
    finally:
        s.close()
    return {"ok": True, "error": "", "offers": offers}


def main():
    server = sys.argv[1]
    out = []
    for op in json.load(sys.stdin):
        if op["op"] == "dhcp":
            out.append(discover(op["mac"], op["interface"]))
        else:
            out.append(transfer(server, op["op"], op["name"].encode(
                "latin-1"), bytes.fromhex(op.get("data", ""))))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
