# shellcheck shell=bash disable=SC2154
# (Sourced by the suites that build cgacctd, which set $top: a check of this
# file alone cannot see it.)
# Build cgacctd for a suite that runs it in a guest or on the host:
#   build_cgacctd BUILD_DIR LOG
# configures BUILD_DIR (or reconfigures it, so that meson picks changed
# options up) and compiles the daemon; on failure prints the log's tail.
build_cgacctd() {
	local build=$1 log=$2 reconfigure=
	[ ! -f "$build/build.ninja" ] || reconfigure=--reconfigure
	if ! meson setup $reconfigure "$build" "$top" >/dev/null ||
		! meson compile -C "$build" cgacctd >"$log" 2>&1; then
		tail -n 30 "$log"
		return 1
	fi
}
