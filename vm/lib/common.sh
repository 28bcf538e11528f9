# shellcheck shell=bash
# Shared helpers for the vm/ scripts: where the cache lives and how to fail.
# Sourced, not executed.

CGACCT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CGACCT_CACHE=${CGACCT_CACHE:-$HOME/.cache/cgacct}

die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

note() {
	echo "${0##*/}: $*" >&2
}

# The Debian tarball the series applies to.
kernel_tarball() {
	local t
	for t in /usr/src/linux-source-6.12.tar.xz /usr/src/linux-source-6.12.tar.bz2; do
		[ -f "$t" ] && { echo "$t"; return 0; }
	done
	return 1
}

# The patches of the series, in order, without the cover letter.
kernel_patches() {
	local p
	for p in "$CGACCT_ROOT"/kernel/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$p" ] || continue
		case "${p##*/}" in 0000-*) continue ;; esac
		echo "$p"
	done
}

# Install the Debian packages that are missing, after one apt-get update.
need_packages() {
	local missing=() pkg
	for pkg in "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	echo "installing: ${missing[*]}" >&2
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# A free TCP port on 127.0.0.1: the first at or above $1, or any the kernel
# picks when there is no $1.
free_port() {
	python3 - "${1:-0}" <<'PY'
import socket, sys
port = int(sys.argv[1])
while True:
    with socket.socket() as s:
        try:
            s.bind(('127.0.0.1', port))
            print(s.getsockname()[1])
            break
        except OSError:
            port += 1
PY
}
