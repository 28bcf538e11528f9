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

# The build the fast tier and the adversarial suite run: -Werror, and ASan
# and UBSan that stop at the first finding.
#   setup_sanitized BUILD_DIR
setup_sanitized() {
	[ -f "$1/build.ninja" ] && return 0
	meson setup "$1" "$top" -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fno-sanitize-recover=all >/dev/null
}
