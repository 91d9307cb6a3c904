#!/usr/bin/env bash
# Checks the Debian packages `make deb` built (build/deb/sztab_VERSION_*.deb):
#
#  0. the version comes from the git tag (a clone with tags of its own);
#  1. lintian finds nothing (an override would be listed, with its reason,
#     in packaging/debian/lintian-overrides) but bytes of the binary that
#     read as a misspelt word and are no text of Sztab's (see below);
#  2. the files they carry: the unit and udev rules are firmware-config's
#     own, byte for byte; the unit passes `systemd-analyze verify` offline
#     in the unpacked package (the udev rules' parser is
#     firmware-config/udev_test.go: Debian 12 has no `udevadm verify`);
#  3. the arm64 binary from the package runs under qemu-aarch64 with the
#     arm64 libraries and reads a camera frame from a file through OpenCV;
#  4. install, upgrade and purge with the real dpkg in a throw-away root:
#     a copy-on-write overlay of this machine in a private mount namespace
#     (debootstrap needs the network), so nothing here changes.
#
# Needs root (the overlay). Run by `make test-deb`, after `make deb`.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
	echo "test-deb: FAIL: $*" >&2
	exit 1
}

shopt -s nullglob
debs=(build/deb/sztab_*_amd64.deb)
[ "${#debs[@]}" -eq 1 ] || fail "want one build/deb/sztab_*_amd64.deb, found ${#debs[@]} (make deb; rm the old ones)"
amd64="${debs[0]}"
debs=(build/deb/sztab_*_arm64.deb)
[ "${#debs[@]}" -eq 1 ] || fail "want one build/deb/sztab_*_arm64.deb, found ${#debs[@]}"
arm64="${debs[0]}"
version=$(dpkg-deb -f "$amd64" Version)

work=$(mktemp -d /tmp/sztab-test-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT

# 0. the version from the git tag (tags v1.2.3; CHANGELOG.md), in a clone
# of this commit with tags of its own
echo "test-deb: the version from the git tag"
tagged="$work/tagged"
git clone -q --no-tags --no-checkout . "$tagged"
mkdir -p "$tagged/scripts"
cp scripts/deb.sh "$tagged/scripts/"
tagged_version() { (unset SZTAB_DEB_VERSION; "$tagged/scripts/deb.sh" --version); }
want_version() {
	local got
	got=$(tagged_version)
	[ "$got" = "$1" ] || fail "version $2: got '$got', want '$1'"
}
sha=$(git -C "$tagged" rev-parse --short=12 HEAD)
want_version "0.0.0~git$sha 0.0.0-git.$sha" "without a tag"
git -C "$tagged" tag v1.2.3
want_version "1.2.3 1.2.3" "on the tag v1.2.3"
git -C "$tagged" -c user.name=test -c user.email=test@invalid commit -q --allow-empty -m "after the tag"
d=$(git -C "$tagged" describe --tags)
want_version "1.2.3+1.g${d##*-g} 1.2.3+1.g${d##*-g}" "a commit after v1.2.3"
git -C "$tagged" tag v1.3.0-rc.1
want_version "1.3.0~rc.1 1.3.0-rc.1" "on the pre-release v1.3.0-rc.1"

# 1. lintian
# spelling-error-in-binary reads every string of the compiled binary: the Go
# modules' strings and bytes that happen to spell a word ("nam", "aDDD"),
# which come and go with every build and differ between amd64 and arm64, so
# an override of them goes stale ("mismatched-override") at the next
# change. Such a word passes when it is not Sztab's own text (not a word of
# its tracked sources); a misspelling of Sztab's fails here, or is kept in
# the overrides with its reason when it is meant (a Go name).
not_ours() {
	local word
	word=$(sed -n 's/^[A-Z]: sztab[^:]*: \(mismatched-override \)\{0,1\}spelling-error-in-binary \([^ ]*\) .*/\2/p' <<<"$1")
	[ -n "$word" ] && ! git grep -q -w -F -e "$word" -- . ':!packaging/debian/lintian-overrides' ':!scripts/test-deb.sh'
}
for deb in "$amd64" "$arm64"; do
	echo "test-deb: lintian $deb"
	# (lintian's own note that it runs as root is not about the package;
	# errors fail at once, and any other line it prints fails below)
	out=$(lintian --fail-on error --display-level '>=pedantic' --tag-display-limit 0 "$deb" 2>&1 |
		grep -v '^running with root privileges is not recommended!$'; exit "${PIPESTATUS[0]}") || {
		echo "$out"
		fail "lintian $deb"
	}
	said=""
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		if not_ours "$line"; then
			echo "test-deb: (not Sztab's text: bytes of the binary or a module's string) $line"
		else
			said+="$line"$'\n'
		fi
	done <<<"$out"
	if [ -n "$said" ]; then
		printf '%s' "$said"
		fail "lintian said something about $deb"
	fi
done

# 2. the files they carry
for deb in "$amd64" "$arm64"; do
	root="$work/$(basename "$deb" .deb)"
	dpkg-deb -x "$deb" "$root"
	cmp firmware-config/systemd/sztab.service "$root/lib/systemd/system/sztab.service" || fail "$deb: the unit is not firmware-config's"
	cmp firmware-config/udev/99-sztab.rules "$root/lib/udev/rules.d/99-sztab.rules" || fail "$deb: the udev rules are not firmware-config's"
	cmp firmware-config/table.example.yaml "$root/etc/sztab/table.example.yaml" || fail "$deb: the example config is not firmware-config's"
	grep -q 'libopencv-core406' <<<"$(dpkg-deb -f "$deb" Depends)" || fail "$deb: Depends has no OpenCV: $(dpkg-deb -f "$deb" Depends)"
	# Every file under /etc is a conffile.
	diff <(cd "$root" && find etc -type f | sed 's|^|/|' | sort) \
		<(dpkg-deb -I "$deb" conffiles | sort) || fail "$deb: conffiles"
done
root="$work/$(basename "$amd64" .deb)"
mkdir -p "$root/usr/lib/systemd"
cp -a /usr/lib/systemd/system "$root/usr/lib/systemd/"
echo "test-deb: systemd-analyze verify (the package's unit, offline)"
out=$(SYSTEMD_LOG_COLOR=0 systemd-analyze verify --man=no --root="$root" "$root/lib/systemd/system/sztab.service" 2>&1) ||
	fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify: $out"

# 3. the arm64 binary under qemu-aarch64, reading a frame through OpenCV
root="$work/$(basename "$arm64" .deb)"
bin="$root/usr/bin/sztab"
grep -q 'ARM aarch64' <<<"$(file -b "$bin")" || fail "$bin is not arm64: $(file -b "$bin")"
# The sysroot's libraries, the alternatives' links (libblas.so.3,
# liblapack.so.3) included: what the package's Depends install on a Pi.
echo "test-deb: qemu-aarch64 $bin version"
out=$(qemu-aarch64 -L build/arm64-sysroot "$bin" version 2>&1) || fail "arm64 sztab version: $out"
echo "$out"
grep -q "^sztab [0-9]" <<<"$out" || fail "the arm64 binary prints no version"
grep -q "^protokół MQTT / wire contract: v[0-9]" <<<"$out" || fail "the arm64 binary prints no wire contract"
grep -q "^schemat dziennika / journal schema: [0-9]" <<<"$out" || fail "the arm64 binary prints no journal schema"
frame=vision/testdata/golden/hands-2304x1296.jpg
echo "test-deb: qemu-aarch64 $bin version --frame $frame"
out=$(qemu-aarch64 -L build/arm64-sysroot "$bin" version --frame "$frame") || fail "arm64 sztab version: $out"
echo "$out"
grep -q "^OpenCV: 4\." <<<"$out" || fail "the arm64 binary has no OpenCV"
grep -q "hands-2304x1296.jpg 2304x1296$" <<<"$out" || fail "the arm64 binary did not read the frame"
if out=$(qemu-aarch64 -L build/arm64-sysroot "$bin" version --frame "$work/none.jpg" 2>&1); then
	fail "a missing frame was read: $out"
fi

# 4. install, upgrade, purge (amd64: this machine's architecture)
old="${version}~old"
echo "test-deb: the older package $old (the same binary)"
dpkg-deb -x "$amd64" "$work/old-bin"
SZTAB_DEB_VERSION="$old" SZTAB_DEB_BIN="$work/old-bin/usr/bin/sztab" scripts/deb.sh amd64 >/dev/null
olddeb="build/deb/sztab_${old}_amd64.deb"
trap 'rm -rf "$work" "$olddeb" "build/deb/sztab_${old}_amd64"' EXIT

mnt="$work/root"
mkdir -p "$mnt" "$work/ov"
cp "$olddeb" "$amd64" scripts/test-deb-root.sh "$work/"
echo "test-deb: install $old, upgrade to $version, remove, purge in an overlay of /"
unshare --mount --propagation private bash -euo pipefail -c '
	work=$1
	mount -t tmpfs tmpfs "$work/ov"
	mkdir "$work/ov/upper" "$work/ov/work"
	mount -t overlay overlay -o "lowerdir=/,upperdir=$work/ov/upper,workdir=$work/ov/work" "$work/root"
	mount -t proc proc "$work/root/proc"
	mount --rbind /dev "$work/root/dev"
	mount -t tmpfs tmpfs "$work/root/run"
	mount -t tmpfs tmpfs "$work/root/tmp"
	cp "$work"/*.deb "$work/test-deb-root.sh" "$work/root/tmp/"
	chroot "$work/root" bash /tmp/test-deb-root.sh "/tmp/$(basename "$2")" "/tmp/$(basename "$3")" "$4"
' _ "$work" "$olddeb" "$amd64" "$version"
echo "test-deb: ok ($amd64, $arm64)"
