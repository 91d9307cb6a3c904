#!/usr/bin/env bash
# Builds the Debian packages of Sztab, each with the camera (cgo + OpenCV):
#
#   scripts/deb.sh [amd64] [arm64]      (default: both) → build/deb/sztab_VERSION_ARCH.deb
#
# amd64 links the system's OpenCV (libopencv-dev). arm64 is cross-built with
# aarch64-linux-gnu-gcc against Debian's arm64 OpenCV in a sysroot under
# build/arm64-sysroot: libopencv-dev:arm64 cannot be installed beside the
# amd64 one (apt would remove the amd64 OpenCV the tests need), so apt
# downloads the arm64 libraries and their dependencies into build/ (its own
# status file: nothing is installed) and dpkg-deb -x unpacks them there.
# Needs `scripts/deps.sh deb` (the arm64 architecture and the cross compiler).
#
# The version comes from `git describe --tags` (tags v1.2.3): 1.2.3 on a
# tag, 1.2.3+4.gSHA four commits after it, 0.0.0~gitSHA without a tag; a
# pre-release v1.3.0-rc.1 is 1.3.0~rc.1 for dpkg (below 1.3.0) and
# 1.3.0-rc.1 in `sztab version` (`scripts/deb.sh --version` prints both).
# SZTAB_DEB_VERSION overrides it (the upgrade test builds an older package
# that way).
#
# The package: /usr/bin/sztab, the systemd unit and the udev rules from
# firmware-config/ (the same files), /etc/sztab with the examples
# (conffiles), the man page, and the maintainer scripts in
# packaging/debian/. Depends: the shared libraries the binary needs, mapped
# to packages through the shlibs files of the packages that hold them.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"

archs=("$@")
[ "${#archs[@]}" -gt 0 ] || archs=(amd64 arm64)

out=build/deb
mkdir -p "$out"

# The OpenCV modules gocv's core package uses; the arm64 link names these
# only (Debian's opencv4.pc names every module, the contrib ones and viz
# with VTK included).
# vision/ adds aruco, one of the contrib modules (libopencv-contrib406).
opencv_modules=(core imgproc imgcodecs videoio highgui video calib3d features2d flann objdetect dnn photo aruco)
# opencv2/opencv.hpp, which gocv includes, includes these modules' headers
# too (their -dev packages only: nothing links them).
opencv_header_modules=(ml shape stitching superres videostab viz)

versions() {
	local d base n sha
	if [ -n "${SZTAB_DEB_VERSION:-}" ]; then
		debver="$SZTAB_DEB_VERSION"
		semver="${SZTAB_DEB_VERSION/\~/-}"
		return
	fi
	if d=$(git describe --tags --match 'v[0-9]*' 2>/dev/null); then
		d="${d#v}"
		if [[ $d =~ ^(.*)-([0-9]+)-g([0-9a-f]+)$ ]]; then
			base="${BASH_REMATCH[1]}" n="${BASH_REMATCH[2]}" sha="${BASH_REMATCH[3]}"
			semver="$base+$n.g$sha"
		else
			base="$d" semver="$d"
			n="" sha=""
		fi
		# The pre-release's hyphen sorts below the release in dpkg as ~.
		debver="${semver/-/\~}"
	else
		sha=$(git rev-parse --short=12 HEAD)
		debver="0.0.0~git$sha"
		semver="0.0.0-git.$sha"
	fi
}

# arm64_sysroot downloads Debian's arm64 OpenCV (runtime libraries with all
# their dependencies, and the modules' -dev packages for the headers and
# .so links) and unpacks it into build/arm64-sysroot, once.
arm64_sysroot() {
	sysroot="$PWD/build/arm64-sysroot"
	local want stamp="$sysroot/.packages"
	local runtime=() dev=() m
	for m in "${opencv_modules[@]}"; do
		[ "$m" != aruco ] || m=contrib
		runtime+=("libopencv-$m""406")
		dev+=("libopencv-$m-dev")
	done
	for m in "${opencv_header_modules[@]}"; do
		dev+=("libopencv-$m-dev")
	done
	# (the first word names how the sysroot is made: a new one is made
	# when it changes)
	want="links ${runtime[*]} ${dev[*]}"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
		return
	fi
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		echo "sztab: the arm64 architecture is not enabled; run scripts/deps.sh deb" >&2
		exit 1
	fi
	local apt="$PWD/build/arm64-apt"
	rm -rf "$sysroot" "$apt"
	mkdir -p "$apt/state" "$apt/cache/archives/partial" "$sysroot"
	: >"$apt/state/status"
	local opts=(-q -o APT::Architecture=arm64 -o APT::Architectures::=arm64
		-o Dir::State::status="$apt/state/status" -o Dir::Cache="$apt/cache"
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	echo "sztab: downloading Debian's arm64 OpenCV into $apt"
	apt-get "${opts[@]}" install -y --download-only --no-install-recommends "${runtime[@]}" >"$apt/download.log"
	(cd "$apt/cache/archives" && apt-get "${opts[@]}" download "${dev[@]/%/:arm64}" >>"$apt/download.log")
	local deb ctl="$apt/control"
	: >"$sysroot/shlibs"
	for deb in "$apt"/cache/archives/*.deb; do
		dpkg-deb -x "$deb" "$sysroot"
		rm -rf "$ctl" && dpkg-deb -e "$deb" "$ctl"
		[ ! -f "$ctl/shlibs" ] || cat "$ctl/shlibs" >>"$sysroot/shlibs"
		[ ! -f "$ctl/postinst" ] || alternatives "$ctl/postinst" "$sysroot"
	done
	echo "$want" >"$stamp"
}

# alternatives POSTINST SYSROOT: the links a package's postinst makes with
# `update-alternatives --install LINK NAME PATH PRIORITY [--slave LINK NAME
# PATH]...`, made in the sysroot (unpacked, never configured: libblas3 and
# liblapack3 have their libblas.so.3 and liblapack.so.3 only that way).
# The links are relative, so that they resolve inside the sysroot under
# qemu-aarch64 -L and the linker's -rpath-link.
alternatives() {
	local postinst=$1 root=$2 line link path
	local -a w
	while read -r line; do
		read -ra w <<<"$line"
		set -- "${w[@]}"
		while [ $# -gt 0 ]; do
			case "$1" in
			--install)
				[ $# -ge 5 ] || break
				link=$2 path=$4
				shift 5
				;;
			--slave)
				[ $# -ge 4 ] || break
				link=$2 path=$4
				shift 4
				;;
			*) shift; continue ;;
			esac
			if [[ $link == /* && $path == /* && $link != *'$'* && $path != *'$'* ]]; then
				mkdir -p "$root$(dirname "$link")"
				ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$path")" "$root$link"
			fi
		done
	done < <(sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$postinst" | grep -E '(^|[[:space:]])update-alternatives[[:space:]].*--install')
}

# build_binary ARCH FILE: the daemon with the camera, PIE, full RELRO,
# stripped, its version stamped in.
build_binary() {
	local arch=$1 bin=$2
	local env=(CGO_ENABLED=1 GOOS=linux GOARCH="$arch"
		CGO_CFLAGS="-O2 -g0 -fstack-protector-strong -D_FORTIFY_SOURCE=2"
		CGO_CXXFLAGS="-O2 -g0 -fstack-protector-strong -D_FORTIFY_SOURCE=2"
		CGO_LDFLAGS="-Wl,--as-needed -Wl,-z,relro -Wl,-z,now")
	if [ "$arch" = arm64 ] && [ "$(dpkg --print-architecture)" != arm64 ]; then
		arm64_sysroot
		local pc="$PWD/build/arm64-pkgconfig" lib="$sysroot/usr/lib/aarch64-linux-gnu" libs="" m
		mkdir -p "$pc"
		for m in "${opencv_modules[@]}"; do libs+=" -lopencv_$m"; done
		cat >"$pc/opencv4.pc" <<-EOF
			# Written by scripts/deb.sh: the arm64 sysroot's OpenCV, the modules gocv uses.
			libdir=/usr/lib/aarch64-linux-gnu
			includedir=/usr/include/opencv4
			Name: OpenCV
			Description: Debian's arm64 OpenCV in build/arm64-sysroot
			Version: 4.6.0
			Libs: -L\${libdir}$libs
			Cflags: -I\${includedir} -I/usr/include/aarch64-linux-gnu/opencv4
		EOF
		env+=(CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++
			PKG_CONFIG_LIBDIR="$pc" PKG_CONFIG_SYSROOT_DIR="$sysroot"
			CGO_LDFLAGS="-Wl,--as-needed -Wl,-z,relro -Wl,-z,now -Wl,-rpath-link,$lib -Wl,-rpath-link,$sysroot/lib/aarch64-linux-gnu -Wl,--allow-shlib-undefined")
	fi
	echo "sztab: building $bin ($arch, version $semver)"
	env "${env[@]}" go build -trimpath -buildmode=pie \
		-ldflags "-s -w -X github.com/sztab/sztab/companion.Version=$semver" \
		-o "$bin" ./cmd/sztab
}

# run_binary ARCH BIN ARGS...: runs the built binary, under qemu-aarch64
# with the sysroot's libraries on an amd64 machine.
run_binary() {
	local arch=$1 bin=$2
	shift 2
	if [ "$arch" = arm64 ] && [ "$(dpkg --print-architecture)" != arm64 ]; then
		qemu-aarch64 -L "$PWD/build/arm64-sysroot" "$bin" "$@"
	else
		"$bin" "$@"
	fi
}

# depends ARCH BIN: the packages of the shared libraries BIN needs, from
# the shlibs files (the host's for amd64, the sysroot's for arm64).
depends() {
	local arch=$1 bin=$2 shlibs
	if [ "$arch" = arm64 ] && [ "$(dpkg --print-architecture)" != arm64 ]; then
		shlibs=("$PWD/build/arm64-sysroot/shlibs")
	else
		shlibs=(/var/lib/dpkg/info/*:"$arch".shlibs)
	fi
	local so name ver dep missing=0 deps=()
	while read -r so; do
		if [[ $so =~ ^(.+)\.so\.(.+)$ ]]; then
			name="${BASH_REMATCH[1]}" ver="${BASH_REMATCH[2]}"
		elif [[ $so =~ ^(.+)-([0-9.]+)\.so$ ]]; then
			name="${BASH_REMATCH[1]}" ver="${BASH_REMATCH[2]}"
		else
			name="$so" ver=""
		fi
		dep=$(cat "${shlibs[@]}" | awk -v n="$name" -v v="$ver" \
			'$1 !~ /:$/ && $1 == n && $2 == v { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }')
		if [ -z "$dep" ]; then
			echo "sztab: no package found for $so (needed by $bin)" >&2
			missing=1
		fi
		deps+=("$dep")
	done < <(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	printf '%s\n' "${deps[@]}" | sort -u | paste -sd, | sed 's/,/, /g'
	return "$missing"
}

package() {
	local arch=$1
	local name="sztab_${debver}_$arch"
	local st="$out/$name" bin="$out/sztab-$arch"
	if [ -n "${SZTAB_DEB_BIN:-}" ]; then
		install -m 0755 "$SZTAB_DEB_BIN" "$bin"
	else
		build_binary "$arch" "$bin"
	fi
	local deps
	deps=$(depends "$arch" "$bin")

	rm -rf "$st"
	install -d "$st/DEBIAN" "$st/usr/bin" "$st/lib/systemd/system" "$st/lib/udev/rules.d" \
		"$st/etc/sztab" "$st/var/lib/sztab" "$st/usr/share/doc/sztab" "$st/usr/share/man/man1"
	install -m 0755 "$bin" "$st/usr/bin/sztab"
	# The C compiler's notes: nothing a running binary needs.
	local objcopy=objcopy
	[ "$arch" = "$(dpkg --print-architecture)" ] || objcopy=aarch64-linux-gnu-objcopy
	"$objcopy" --remove-section=.comment "$st/usr/bin/sztab"
	install -m 0644 firmware-config/systemd/sztab.service "$st/lib/systemd/system/sztab.service"
	install -m 0644 firmware-config/udev/99-sztab.rules "$st/lib/udev/rules.d/99-sztab.rules"
	# /etc/sztab: what firmware-config/README.md has a table copy there.
	install -m 0644 firmware-config/table.example.yaml firmware-config/camera.example.yaml \
		firmware-config/markers.yaml "$st/etc/sztab/"
	local d
	for d in boards layouts tags cards; do
		install -d "$st/etc/sztab/$d"
		install -m 0644 firmware-config/$d/*.yaml "$st/etc/sztab/$d/"
	done
	install -m 0644 packaging/debian/copyright "$st/usr/share/doc/sztab/copyright"
	changelog >"$st/usr/share/doc/sztab/changelog"
	gzip -9n "$st/usr/share/doc/sztab/changelog"
	manpage "$arch" "$bin" | gzip -9n >"$st/usr/share/man/man1/sztab.1.gz"
	if [ -f packaging/debian/lintian-overrides ]; then
		install -d "$st/usr/share/lintian/overrides"
		install -m 0644 packaging/debian/lintian-overrides "$st/usr/share/lintian/overrides/sztab"
	fi
	install -m 0755 packaging/debian/postinst packaging/debian/postrm packaging/debian/prerm "$st/DEBIAN/"
	(cd "$st" && find etc -type f | sort | sed 's|^|/|') >"$st/DEBIAN/conffiles"
	local size
	size=$(du -sk --exclude=DEBIAN "$st" | cut -f1)
	sed -e "s/@VERSION@/$debver/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$deps/" \
		packaging/debian/control.in >"$st/DEBIAN/control"
	(cd "$st" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$st/DEBIAN/md5sums"
	chmod 0644 "$st/DEBIAN/md5sums" "$st/DEBIAN/conffiles" "$st/DEBIAN/control"
	find "$st" -type d -exec chmod 0755 {} +
	# One package per architecture in build/deb (test-deb checks that
	# one): an earlier commit's goes; the upgrade test's older one
	# (SZTAB_DEB_BIN) leaves the others be.
	if [ -z "${SZTAB_DEB_BIN:-}" ]; then
		find "$out" -maxdepth 1 \( -name "sztab_*_$arch.deb" -o -name "sztab_*_$arch" \) ! -name "$name" ! -name "$name.deb" -exec rm -rf {} +
	fi
	dpkg-deb --root-owner-group -Zxz --build "$st" "$out/$name.deb" >/dev/null
	echo "sztab: $out/$name.deb (Depends: adduser, $deps)"
}

# changelog: the Debian changelog of this native package; what changed for
# players, referees and organisers is CHANGELOG.md.
changelog() {
	local date
	date=$(git log -1 --format=%aD 2>/dev/null || date -R)
	cat <<-EOF
		sztab ($debver) stable; urgency=medium

		  * Sztab $semver. What changed and what an upgrade requires:
		    CHANGELOG.md in the source.

		 -- Sztab maintainers <sztab@example.org>  $date
	EOF
}

# manpage ARCH BIN: sztab(1) from the binary's own help, the same words as
# `sztab --help`.
manpage() {
	local arch=$1 bin=$2 date
	date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
	echo ".TH SZTAB 1 \"$date\" \"sztab $semver\" \"Sztab\""
	echo ".SH NAME"
	echo "sztab \\- game table daemon for five Polish board games"
	echo ".SH SYNOPSIS"
	echo ".B sztab"
	echo ".I command"
	echo "[flags]"
	echo ".SH DESCRIPTION"
	echo ".nf"
	run_binary "$arch" "$bin" --help | sed -e 's/\\/\\e/g' -e 's/^[.'"'"']/\\\&&/'
	echo ".fi"
	echo ".SH FILES"
	echo ".TP"
	echo ".I /etc/sztab/table.yaml"
	echo "the table's configuration (from /etc/sztab/table.example.yaml); the service starts once it exists"
	echo ".TP"
	echo ".I /var/lib/sztab"
	echo "the journals"
}

versions
# (--version: the version this tree builds, for dpkg and for sztab version)
if [ "${archs[0]}" = --version ]; then
	echo "$debver $semver"
	exit 0
fi
for a in "${archs[@]}"; do
	case "$a" in
	amd64 | arm64) package "$a" ;;
	*) echo "usage: $0 [amd64] [arm64]" >&2; exit 2 ;;
	esac
done
