# shellcheck shell=bash
# Build cgacct's Debian package for what installs or checks it (vm/up
# --image debian, the package and system suites); sourced:
#   build_deb DIR
# runs `dpkg-buildpackage -us -uc -b` on a copy of the tree (what git
# tracks or would, committed or not, less build directories) and leaves the
# .deb, the .changes and build.log in DIR/<hash of the tree>/, whose path it
# puts in $deb_dir.  The same tree in the same DIR is built once: the
# package and system suites of one run share the build.  On failure prints
# the log's tail.  Needs CGACCT_ROOT (vm/lib/common.sh).
build_deb() {
	local base=$1 files hash copy
	files=$(cd "$CGACCT_ROOT" && git ls-files -co --exclude-standard | grep -v '^build' | sort)
	hash=$( (cd "$CGACCT_ROOT" && xargs -d '\n' sha256sum -- 2>/dev/null <<<"$files") | sha256sum | cut -c1-16)
	deb_dir=$base/$hash
	[ -f "$deb_dir/built" ] && return 0
	rm -rf "$deb_dir"
	mkdir -p "$deb_dir/src/cgacct"
	copy=$deb_dir/src/cgacct
	(cd "$CGACCT_ROOT" && tar -cf - -T - <<<"$files") | tar -xf - -C "$copy"
	# nocheck: the unit suite runs the same meson tests.
	if ! (cd "$copy" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) >"$deb_dir/build.log" 2>&1; then
		tail -n 30 "$deb_dir/build.log"
		return 1
	fi
	mv "$deb_dir"/src/*.deb "$deb_dir"/src/*.changes "$deb_dir"/src/*.buildinfo "$deb_dir/"
	rm -rf "$deb_dir/src"
	touch "$deb_dir/built"
}
