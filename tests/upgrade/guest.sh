# shellcheck shell=dash
# Runs as root in a Debian 12 guest (vm/guest --image debian12), systemd as
# PID 1, after tests/upgrade/run has put its settings and tests/lib/guest-checks.sh
# (check, until_ok, scrape) above this line:
# DEB12 and DEB13 (cgacct's packages for Debian 12 and 13), VERSION13 (the
# latter's version) and SOURCES13 (trixie's sources.list lines, | between
# them).  What an operator does: cgacct installed and its configuration
# edited on Debian 12; the host upgraded to Debian 13 as the release notes
# say (sources to trixie, apt upgrade --without-new-pkgs, apt full-upgrade);
# then cgacct upgraded to the trixie package.  Prints a PASS:, FAIL: or
# SKIP: line per check; the host records them.
set -u
export DEBIAN_FRONTEND=noninteractive
conf=/etc/cgacct/cgacctd.yml
stamp() { echo "== $(date +%T) $*"; }

stamp "install on Debian $(cat /etc/debian_version)"
detail=$(apt-get install -y "$DEB12" 2>&1 | tail -n 1)
check debian12/install dpkg-query -W cgacct
check debian12/serves until_ok 60 scrape
sed -i 's/^naming: native$/naming: cadvisor/' "$conf"
echo '# edited on this host' >>"$conf"
systemctl reload cgacctd.service
scrape /tmp/m
check debian12/edit-applies grep -q '^container_cpu_usage_seconds_total{' /tmp/m

# The upgrade, as Debian 13's release notes tell it: the sources to
# trixie, a minimal upgrade, then the full one, keeping edited conffiles.
stamp upgrading to trixie
echo "$SOURCES13" | tr '|' '\n' >/etc/apt/sources.list
apt="apt-get -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold"
apt-get -q update >/tmp/update.log 2>&1
detail=$(tail -n 1 /tmp/update.log)
check debian13/apt-update test $? -eq 0
$apt upgrade --without-new-pkgs >/tmp/upgrade.log 2>&1
detail=$(tail -n 1 /tmp/upgrade.log)
check debian13/minimal-upgrade test $? -eq 0
stamp full-upgrade
$apt full-upgrade >/tmp/full-upgrade.log 2>&1
detail=$(tail -n 1 /tmp/full-upgrade.log)
check debian13/full-upgrade test $? -eq 0
detail=$(cat /etc/debian_version)
check debian13/is-trixie grep -q '^13' /etc/debian_version
systemd_257() { systemctl --version | head -n 1 | grep -q '^systemd 257 '; }
detail="$(systemctl --version | head -n 1)"
check debian13/systemd-257 systemd_257
# cgacct of Debian 12 still runs after the system's upgrade.
detail=$(dpkg-query -W -f='${Version}' cgacct)
check debian13/old-cgacct-serves until_ok 60 scrape

stamp cgacct to the trixie package
pid=$(systemctl show -P MainPID cgacctd.service)
detail=$($apt install "$DEB13" 2>&1 | tail -n 2 | tr '\n' ' ')
check trixie-package/installs test "$(dpkg-query -W -f='${Version}' cgacct)" = "$VERSION13"
check trixie-package/keeps-edited-conffile grep -qx '# edited on this host' "$conf"
detail=$(echo /etc/cgacct/*)
check trixie-package/no-dpkg-dist test ! -e "$conf.dpkg-dist" -a ! -e "$conf.dpkg-old"
detail="MainPID $pid -> $(systemctl show -P MainPID cgacctd.service)"
check trixie-package/restarts-service test "$(systemctl show -P MainPID cgacctd.service)" != "$pid"
check trixie-package/serves until_ok 60 scrape /tmp/m
check trixie-package/keeps-edit-in-effect grep -q '^container_cpu_usage_seconds_total{' /tmp/m
t64_depends() { dpkg-query -W -f='${Depends}' cgacct | grep -q 'libmicrohttpd12t64'; }
detail=$(dpkg-query -W -f='${Depends}' cgacct)
check trixie-package/depends-on-trixie-libraries t64_depends
for unit in cgacctd.service cgacctd.socket; do
	detail=$(systemctl is-enabled "$unit" 2>&1)
	check "trixie-package/still-enabled/$unit" test "$detail" = enabled
done
stamp finished
