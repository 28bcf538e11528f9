# Result bookkeeping shared by the suites (sourced).  Every check records one
# line "pass|fail|skip NAME" in $CGACCT_RESULTS, which tests/run totals, and
# prints it for the reader.

result() {
	local status=$1 name=$2
	shift 2
	printf '%s %s\n' "$status" "$name" >>"${CGACCT_RESULTS:-/dev/null}"
	printf '%s: %s%s\n' "${status^^}" "$name" "${*:+ ($*)}"
}

# Print "SUITE: N passed, N failed, N skipped" for the lines of one file.
summarize() {
	local label=$1 file=$2
	awk -v label="$label" '
		$1 == "pass" { p++ } $1 == "fail" { f++ } $1 == "skip" { s++ }
		END { printf "%s: %d passed, %d failed, %d skipped\n", label, p, f, s }' "$file"
}

# Install the Debian packages that are missing, after one apt-get update.
need_packages() {
	local missing=() pkg
	for pkg in "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	echo "installing: ${missing[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
