# Build cgacctd for a suite that runs it in a guest or on the host:
#   build_cgacctd BUILD_DIR LOG
# configures BUILD_DIR (or reconfigures it, so that meson picks changed
# options up) and compiles the daemon; on failure prints the log's tail.
build_cgacctd() {
	local build=$1 log=$2
	if [ -f "$build/build.ninja" ]; then
		meson setup --reconfigure "$build" "$top" >/dev/null
	else
		meson setup "$build" "$top" >/dev/null
	fi && meson compile -C "$build" cgacctd >"$log" 2>&1 || {
		tail -n 30 "$log"
		return 1
	}
}
