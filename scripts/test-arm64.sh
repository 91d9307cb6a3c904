#!/usr/bin/env bash
# Runs the cgo-free test suite for linux/arm64 (the Raspberry Pi's
# architecture) under qemu-aarch64, on an amd64 machine.
#
#   scripts/test-arm64.sh [extra go test flags, e.g. -run Tracker -v]
#
# Installs Debian's qemu-user when qemu-aarch64 is missing (with sudo when
# not root). The packages are those that build with CGO_ENABLED=0 for
# arm64 and whose tests do too: the camera code (OpenCV through cgo) is
# left out, vision's pure geometry is in. Go builds static binaries without
# cgo, so qemu needs no arm64 system libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"

if ! command -v qemu-aarch64 >/dev/null 2>&1; then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    echo "sztab: installing qemu-user (for qemu-aarch64) with sudo"
    sudo=(sudo)
  else
    echo "sztab: installing qemu-user (for qemu-aarch64)"
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends qemu-user >/dev/null
fi

export CGO_ENABLED=0 GOOS=linux GOARCH=arm64

# Packages that build without cgo; then drop those whose test build fails
# without cgo (a test importing the camera code).
mapfile -t candidates < <(go list -e -f '{{if and (not .Error) (or .GoFiles .TestGoFiles .XTestGoFiles)}}{{.ImportPath}}{{end}}' ./... | sed '/^$/d')
mapfile -t broken < <(go list -e -test -f '{{if or .Error .DepsErrors}}{{.ForTest}}{{end}}' "${candidates[@]}" | sed '/^$/d' | sort -u)
# The venue's broker cluster and its failover drill run on the venue's
# server, not on a table's Pi: amd64 tests them (under qemu the drill's
# tables would be emulated against native brokers, timing nothing real).
venue_only=(github.com/sztab/sztab/companion/fleet github.com/sztab/sztab/internal/brokertest)
pkgs=()
for p in "${candidates[@]}"; do
  skip=
  for b in "${broken[@]}"; do
    [ "$p" = "$b" ] && skip=1
  done
  for v in "${venue_only[@]}"; do
    [ "$p" = "$v" ] && skip=venue
  done
  if [ "$skip" = venue ]; then
    echo "sztab: $p: the venue's brokers, tested on amd64; left out of the arm64 run"
  elif [ -n "$skip" ]; then
    echo "sztab: $p: its tests need cgo; left out of the arm64 run"
  else
    pkgs+=("$p")
  fi
done
if [ "${#pkgs[@]}" -eq 0 ]; then
  echo "sztab: no package builds without cgo for arm64" >&2
  exit 1
fi
echo "sztab: testing ${#pkgs[@]} packages for linux/arm64 under $(qemu-aarch64 --version | head -1)"
# The TestBrowser* tests drive Debian's amd64 chromium against the pages; they
# check HTML and JavaScript, not arm64 code, and run in the amd64 suite.
# -short: the property and accuracy tests play fewer games and trays under
# emulation (they still assert everything); amd64 runs them in full.
go test -exec qemu-aarch64 -count=1 -short -timeout 45m -skip '^TestBrowser' "$@" "${pkgs[@]}"
