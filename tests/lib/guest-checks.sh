# shellcheck shell=dash
# What the check scripts that run as root in a Debian guest share
# (tests/system/guest.sh, tests/upgrade/guest.sh): their runners put this
# file between their settings and the script, all run by the harness's sh.
# check NAME CMD... prints "PASS: NAME (detail)" or "FAIL: ..." as CMD
# succeeds, with $detail, which it then clears; the host records them.
detail=
check() {
	local name=$1
	shift
	if "$@"; then
		echo "PASS: $name${detail:+ ($detail)}"
	else
		echo "FAIL: $name${detail:+ ($detail)}"
	fi
	detail=
}
# until_ok SECONDS CMD...: run CMD once a second until it succeeds.
until_ok() {
	local n=$1 i=0
	shift
	while [ $i -lt "$n" ]; do
		"$@" && return 0
		sleep 1
		i=$((i + 1))
	done
	return 1
}
# scrape [FILE]: cgacctd's exposition on the default port, into FILE.
scrape() { curl -sf --max-time 30 -o "${1:-/dev/null}" http://127.0.0.1:19753/metrics; }
