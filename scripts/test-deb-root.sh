#!/usr/bin/env bash
# Run by scripts/test-deb.sh inside its throw-away root (an overlay of the
# machine, chrooted): install OLD.deb, configure a table as the README says,
# upgrade to NEW.deb, remove, purge; after each step, what is on disk.
#
#   test-deb-root.sh OLD.deb NEW.deb NEW_VERSION
set -euo pipefail
old=$1 new=$2 newver=$3
export DEBIAN_FRONTEND=noninteractive

fail() {
	echo "test-deb (root): FAIL: $*" >&2
	exit 1
}
owner() { stat -c '%U:%G %a' "$1"; }

if dpkg-query -W sztab >/dev/null 2>&1; then
	dpkg --purge sztab >/dev/null
fi

echo "test-deb (root): dpkg -i $old"
dpkg -i "$old" >/dev/null
[ -x /usr/bin/sztab ] || fail "no /usr/bin/sztab"
getent passwd sztab >/dev/null || fail "no sztab user"
[ "$(getent passwd sztab | cut -d: -f6,7)" = /var/lib/sztab:/usr/sbin/nologin ] || fail "sztab user: $(getent passwd sztab)"
for g in sztab spi i2c gpio video; do
	tr ' ' '\n' <<<"$(id -nG sztab)" | grep -qx "$g" || fail "sztab is not in group $g ($(id -nG sztab))"
done
[ "$(owner /var/lib/sztab)" = "sztab:sztab 750" ] || fail "/var/lib/sztab is $(owner /var/lib/sztab)"
[ "$(owner /etc/sztab)" = "root:sztab 750" ] || fail "/etc/sztab is $(owner /etc/sztab)"
[ -f /etc/sztab/table.example.yaml ] && [ -f /etc/sztab/layouts/skirmish.yaml ] || fail "no examples in /etc/sztab"
[ -f /lib/systemd/system/sztab.service ] && [ -f /lib/udev/rules.d/99-sztab.rules ] || fail "no unit or udev rules"
# Starts nothing: not enabled, and not before /etc/sztab/table.yaml exists.
[ ! -e /etc/systemd/system/multi-user.target.wants/sztab.service ] || fail "the unit was enabled"
[ ! -e /etc/sztab/table.yaml ] || fail "a table.yaml was installed"
grep -qx 'ConditionPathExists=/etc/sztab/table.yaml' /lib/systemd/system/sztab.service || fail "the unit does not wait for table.yaml"

echo "test-deb (root): a table configured, a journal written, an example edited"
cp /etc/sztab/table.example.yaml /etc/sztab/table.yaml
echo "# edited by the organiser" >>/etc/sztab/table.example.yaml
echo "a journal" >/var/lib/sztab/stol-1.journal.db
chown sztab:sztab /var/lib/sztab/stol-1.journal.db
systemctl enable sztab.service 2>/dev/null
[ -L /etc/systemd/system/multi-user.target.wants/sztab.service ] || fail "systemctl enable"

echo "test-deb (root): dpkg -i $new (upgrade)"
dpkg -i "$new" >/dev/null
[ "$(dpkg-query -W -f '${Version}' sztab)" = "$newver" ] || fail "version after the upgrade: $(dpkg-query -W -f '${Version}' sztab)"
# (its output read whole first: grep -q stops reading at the first line,
# and under pipefail the writer's SIGPIPE would fail the pipe)
out=$(sztab version) || fail "sztab version after the upgrade: exit $?"
grep -q "^sztab " <<<"$out" || fail "sztab version after the upgrade: $out"
[ "$(tail -1 /etc/sztab/table.example.yaml)" = "# edited by the organiser" ] || fail "the upgrade overwrote an edited conffile"
cmp -s /etc/sztab/table.yaml <(sed '$d' /etc/sztab/table.example.yaml) || fail "the upgrade changed table.yaml"
[ "$(cat /var/lib/sztab/stol-1.journal.db)" = "a journal" ] || fail "the upgrade changed the journal"
[ "$(owner /var/lib/sztab)" = "sztab:sztab 750" ] || fail "/var/lib/sztab is $(owner /var/lib/sztab) after the upgrade"
[ -L /etc/systemd/system/multi-user.target.wants/sztab.service ] || fail "the upgrade disabled the unit"

echo "test-deb (root): dpkg --remove"
systemctl disable sztab.service 2>/dev/null
dpkg --remove sztab >/dev/null
[ ! -e /usr/bin/sztab ] || fail "remove left /usr/bin/sztab"
[ -f /etc/sztab/table.example.yaml ] || fail "remove took the conffiles"
[ -f /var/lib/sztab/stol-1.journal.db ] || fail "remove took the journal"

echo "test-deb (root): dpkg --purge"
dpkg --purge sztab >/dev/null
[ ! -e /etc/sztab/table.example.yaml ] && [ ! -e /etc/sztab/layouts ] || fail "purge left conffiles: $(find /etc/sztab)"
[ -f /etc/sztab/table.yaml ] || fail "purge took the organiser's own table.yaml"
[ ! -e /var/lib/sztab ] || fail "purge left /var/lib/sztab"
[ ! -e /lib/systemd/system/sztab.service ] || fail "purge left the unit"
! dpkg-statoverride --list /etc/sztab >/dev/null || fail "purge left the statoverride of /etc/sztab"
getent passwd sztab >/dev/null || fail "purge took the sztab user (Debian leaves system users)"
echo "test-deb (root): ok"
