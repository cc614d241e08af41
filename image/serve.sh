#!/usr/bin/env bash
# serve.sh LAB INTERFACE [proxy|dhcp FIRST,LAST|user] [RUNS]: the server a
# lab of machines PXE-boots irqlab from (docs/lab.md "The server"). LAB holds
# what it serves (LAB/tftp: irqlab.efi, the report template, the icount
# reference, irqlab.cfg and any irqlab-<MAC>.cfg the lab adds), the
# uploads (LAB/tftp/incoming) and the runs filed from them (LAB/runs).
# dnsmasq answers PXE on INTERFACE, as a proxy beside the lab's own DHCP
# server unless "dhcp" says it leases addresses too; tftpd-hpa serves
# and takes uploads. "user" is for QEMU machines on user networking (no
# INTERFACE: give -), whose own DHCP and TFTP servers boot them and whose
# option 66 names this host. In dhcp mode, RANGE6=FIRST,LAST in the
# environment leases IPv6 addresses too, in INTERFACE's global prefix, and
# boots machines over IPv6 (FIRST,LAST may then be -, for IPv6 alone).
# HTTP_ADDRESS=ADDRESS:PORT has lighttpd listen there instead of port 80
# of the TFTP server's address, for a server of the lab's own in front
# (docs/lab.md "Servers other than lighttpd"). ALLOW=file answers only
# the MACs and UUIDs it lists; ROUTER=1 names this host the default router
# in dhcp mode; FORCE=1 leases though another DHCP server answers;
# LIMITS=NAME=VALUE,... sets what the server keeps at most (docs/lab.md
# "What the server keeps"). It
# prints each machine as it boots and uploads, until interrupted, or until
# RUNS runs are filed and 5 s more (the last read-backs served).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
# What it serves: make serve names this build's files.
efi=${EFI:-$here/build/irqlab.efi}
template=${TEMPLATE:-$here/build/report-template.html}
reference=${REFERENCE:-$here/build/icount.ref}
lab=${1:?usage: serve.sh LAB INTERFACE [proxy|dhcp FIRST,LAST|user] [RUNS]}
interface=${2:?usage: serve.sh LAB INTERFACE|- [proxy|dhcp FIRST,LAST|user] [RUNS]}
mode=${3:-proxy}
range=
if [ "$mode" = dhcp ]; then
	range=${4:?dhcp mode needs FIRST,LAST, or - with RANGE6}
	[ "$range" != - ] || range=
	shift
fi
runs=${4:-0}

for tool in dnsmasq in.tftpd lighttpd; do
	command -v "$tool" >/dev/null || {
		echo "serve.sh: $tool is missing: make deps installs it" >&2
		exit 1
	}
done
if [ "$(id -u)" != 0 ]; then
	echo "serve.sh: DHCP and TFTP take ports 67 and 69: run it as root" >&2
	exit 1
fi
exec python3 "$here/tools/lab_server.py" --dir "$lab" \
	$([ "$interface" = - ] || echo --interface "$interface") --mode "$mode" ${range:+--range "$range"} ${RANGE6:+--range6 "$RANGE6"} \
	--efi "$efi" --template "$template" --reference "$reference" --config "$here/image/irqlab.cfg" \
	${HTTP_ADDRESS:+--http-address "$HTTP_ADDRESS"} ${ALLOW:+--allow "$ALLOW"} \
	$([ "${ROUTER:-0}" = 0 ] || echo --router) $([ "${FORCE:-0}" = 0 ] || echo --force) \
	${LIMITS:+--limits "$LIMITS"} --runs "$runs"
