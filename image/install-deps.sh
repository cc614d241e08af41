#!/usr/bin/env bash
# install-deps.sh [run|test]: installs the Debian packages irqlab builds
# and boots with (run, the default), and with `test` also those only the
# tests use, when run as root; otherwise prints the exact line to run.
set -euo pipefail

# console-setup-linux: the console font phase B draws progress with.
# dnsmasq-base, tftpd-hpa, lighttpd and lighttpd-mod-webdav: make serve,
# a lab's server (docs/lab.md); iproute2 and util-linux (unshare): its
# TFTP log, and the lab's test.
packages=(gnu-efi ovmf mtools fdisk qemu-system-x86 swtpm
	  gcc make binutils python3 console-setup-linux
	  dnsmasq-base tftpd-hpa lighttpd lighttpd-mod-webdav iproute2
	  util-linux)
# libcmocka-dev: the unit tests; chromium: the browser the report pages'
# test opens them in; tftp-hpa and curl: the clients the lab server's
# test sends with; kea-dhcp6-server: the lab's own DHCPv6 server in
# the IPv6 lab's test, which answers UEFI HTTP boot clients;
# u-boot-qemu: U-Boot's EFI, firmware that leaves SSE off (docs/run.md
# "The FPU and SSE").
if [ "${1:-run}" = test ]; then
	packages+=(libcmocka-dev chromium tftp-hpa curl kea-dhcp6-server
		   u-boot-qemu)
fi
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
# Node.js and npm install the report pages' charting library (web/).
# A machine may have them from elsewhere than Debian (whose nodejs then
# conflicts with Debian's npm): any node and npm on the PATH will do.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	missing+=(nodejs npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
	line="apt-get install -y ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "irqlab needs: ${missing[*]}" >&2
		echo "run as root:  $line" >&2
		exit 1
	fi
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# x2APIC under TCG needs a newer QEMU than Debian 12's.
"$(dirname "$0")/qemu-backports.sh"
