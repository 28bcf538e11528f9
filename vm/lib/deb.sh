# shellcheck shell=bash
# cgacct's Debian package for what installs or checks it (vm/up --image
# debian, the package and system suites); sourced:
#   package_deb RELEASE
# builds it with vm/package in a clean chroot of RELEASE (bookworm or
# trixie; once per tree, the build is cached) and sets $deb_dir, the folder
# vm/package printed, and $deb, the .deb in it.  vm/package's notes and,
# on failure, the tail of sbuild's log go to stderr.  Needs CGACCT_ROOT
# (vm/lib/common.sh).
package_deb() {
	deb_dir=$("$CGACCT_ROOT/vm/package" "$1") || return 1
	deb=$(echo "$deb_dir"/cgacct_*_amd64.deb)
	[ -f "$deb" ]
}
