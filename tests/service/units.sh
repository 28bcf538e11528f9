# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# The systemd units as shipped: systemd-analyze verify passes (with the
# built binary in ExecStart and the man pages on MANPATH, which verify
# looks up), and the service's exposure level is at most 1.5.

test_units() {
	local d=$work/units out level
	mkdir -p "$d/units" "$d/man/man5" "$d/man/man8"
	sed "s|^\(Exec[A-Za-z]*\)=/usr/sbin/cgacctd |\1=$bin |" "$top/systemd/cgacctd.service" \
		>"$d/units/cgacctd.service"
	cp "$top/systemd/cgacctd.socket" "$d/units/"
	cp "$top/man/cgacctd.8" "$d/man/man8/"
	cp "$top/man/cgacctd.yml.5" "$d/man/man5/"
	out=$(MANPATH=$d/man systemd-analyze verify "$d/units/cgacctd.service" "$d/units/cgacctd.socket" 2>&1)
	detail=$out
	check units/systemd-analyze-verify test $? = 0 -a -z "$out"
	out=$(systemd-analyze security --offline=yes "$top/systemd/cgacctd.service" 2>&1)
	level=$(sed -n 's/.*Overall exposure level for cgacctd.service: \([0-9.]*\).*/\1/p' <<<"$out")
	if awk -v l="${level:-99}" 'BEGIN { exit !(l <= 1.5) }'; then
		result pass units/security-exposure-at-most-1.5 "exposure level $level"
	else
		result fail units/security-exposure-at-most-1.5 "exposure level ${level:-not found}: $out"
	fi
}
