# shellcheck shell=bash disable=SC2034
# (SC2034: the rel_* variables are for the scripts that source this.)
# The Debian releases cgacct is packaged and tested for, in one place:
# their archives, the version each package carries, and the names of
# packages that differ between them (the t64 renames of trixie).  vm/package
# builds a package per release, vm/image a guest per release, and
# vm/guest, vm/up and the suites pick a release by these names.  Sourced.
#
#   release_set RELEASE    sets rel_codename, rel_number (12, 13),
#                          rel_suffix (what the package version gets after
#                          debian/changelog's), rel_sources (the archive's
#                          sources lines) and rel_runtime (the run-time
#                          libraries of the package, for images that install
#                          it offline) and rel_kernel (the Debian kernel
#                          package its image carries, booted by
#                          vm/guest --kernel image, or empty); RELEASE is a
#                          codename or debianNN

# The releases, oldest first; the last is the default (a new host's).
releases=(bookworm trixie)
release_default=trixie

release_set() {
	case "$1" in
	bookworm | debian12 | 12)
		rel_codename=bookworm rel_number=12
		# A rebuild of the trixie package for Debian 12, versioned as the
		# stable updates are: below 0.1.0-1, so that 12 -> 13 upgrades.
		rel_suffix='~deb12u1'
		rel_runtime=libmicrohttpd12,libgnutls30
		rel_kernel=
		;;
	trixie | debian13 | 13)
		rel_codename=trixie rel_number=13 rel_suffix=
		rel_runtime=libmicrohttpd12t64,libgnutls30t64
		# its own kernel (6.12, with BTF), for the BPF reader as packaged
		rel_kernel=linux-image-amd64
		;;
	*) echo "unknown Debian release '$1' (${releases[*]}, or debian12, debian13)" >&2; return 1 ;;
	esac
	rel_runtime+=,libyaml-0-2,libjson-c5,libsystemd0,zlib1g,libisal2,libcrypt1
	rel_sources=("deb http://deb.debian.org/debian $rel_codename main"
		"deb http://deb.debian.org/debian $rel_codename-updates main"
		"deb http://deb.debian.org/debian-security $rel_codename-security main")
}

# release_binary RELEASE PACKAGE PATH: print the path of PATH (say
# usr/bin/promtool) from RELEASE's PACKAGE, downloaded with apt under its
# own sources list and state in $CGACCT_CACHE/apt/RELEASE and unpacked
# there, not installed: for the Go programs (promtool, prometheus) that run
# anywhere, to check against another release's version.  Once unpacked, a
# package is reused.  Needs vm/lib/common.sh.
release_binary() {
	local release=$1 package=$2 path=$3 dir deb
	release_set "$release" || return 1
	dir=$CGACCT_CACHE/apt/$rel_codename
	mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/root"
	(
		exec 9>"$dir/lock"
		flock 9
		set -- "$dir"/root/"${package}"_*/"$path"
		if [ -e "$1" ]; then
			echo "$1"
			exit 0
		fi
		printf '%s\n' "${rel_sources[@]}" >"$dir/sources.list"
		: >"$dir/status"
		opts=(-q -o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
			-o "Dir::State::Lists=$dir/lists" -o "Dir::State::Status=$dir/status"
			-o "Dir::Cache=$dir" -o "Dir::Cache::Archives=$dir/archives" -o APT::Sandbox::User=root)
		if ! apt-get "${opts[@]}" update >"$dir/apt.log" 2>&1 ||
			! (cd "$dir/archives" && apt-get "${opts[@]}" download "$package") >>"$dir/apt.log" 2>&1; then
			echo "release_binary: apt could not fetch $package of $rel_codename: $dir/apt.log" >&2
			exit 1
		fi
		deb=$(find "$dir/archives" -maxdepth 1 -name "${package}_*.deb" | sort -V | tail -n 1)
		rm -rf "$dir/root/$(basename "$deb" _amd64.deb)"
		dpkg-deb -x "$deb" "$dir/root/$(basename "$deb" _amd64.deb)" &&
			echo "$dir/root/$(basename "$deb" _amd64.deb)/$path"
	)
}
