#!/usr/bin/env bash
# Installs what `make demo` or `make test` needs on Debian 12, then fetches
# the Go modules. Usage: scripts/deps.sh demo|test|deb
set -euo pipefail
cd "$(dirname "$0")/.."

what="${1:-demo}"
pkgs=(ca-certificates gcc g++ pkg-config libopencv-dev mosquitto-clients)
case "$what" in
  demo) ;;
  # gstreamer1.0-plugins-base: the camera tests read frames through a real
  # GStreamer pipeline, as the Pi camera (libcamerasrc) does.
  # systemd: systemd-analyze verifies the unit in firmware-config/systemd/
  # (offline: no running systemd is needed).
  # nats-server: Debian's 2.9.10, which make bench and make drills measure
  # against the venue cluster's own (the Go module go.mod pins, built by
  # make nats-server and internal/brokertest).
  test) pkgs+=(mosquitto nats-server chromium fonts-dejavu-core gstreamer1.0-plugins-base qemu-user systemd) ;;
  # deb: `make deb` and `make test-deb`. The arm64 package is cross-built
  # (crossbuild-essential-arm64) against Debian's arm64 OpenCV, which
  # scripts/deb.sh downloads into build/ through apt: the arm64
  # architecture is enabled for that (nothing arm64 is installed). lintian
  # checks the packages, qemu-user runs the arm64 binary, systemd verifies
  # the unit, adduser is what the package's postinst calls.
  deb) pkgs+=(crossbuild-essential-arm64 lintian qemu-user systemd adduser binutils xz-utils) ;;
  *) echo "usage: $0 demo|test|deb" >&2; exit 2 ;;
esac
if ! command -v go >/dev/null 2>&1 && [ ! -x /usr/local/go/bin/go ]; then
  # Debian's Go is older than go.mod asks for; GOTOOLCHAIN=auto then
  # fetches the right toolchain through the Go module proxy.
  pkgs+=(golang-go)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

add_arch=
if [ "$what" = deb ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  add_arch=1
fi

if [ "${#missing[@]}" -gt 0 ] || [ -n "$add_arch" ]; then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    echo "sztab: installing Debian packages with sudo: ${missing[*]}"
    sudo=(sudo)
  else
    echo "sztab: installing Debian packages: ${missing[*]}"
  fi
  export DEBIAN_FRONTEND=noninteractive
  if [ -n "$add_arch" ]; then
    echo "sztab: enabling the arm64 architecture in dpkg (for the arm64 OpenCV of make deb)"
    "${sudo[@]}" dpkg --add-architecture arm64
  fi
  "${sudo[@]}" apt-get update -qq
  if [ "${#missing[@]}" -gt 0 ]; then
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  # The brokers are started by the tests on their own ports; system-wide
  # mosquitto and nats-server services are not needed.
fi

export PATH="$PATH:/usr/local/go/bin"
go mod download
