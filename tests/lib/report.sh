# shellcheck shell=bash
# Result bookkeeping shared by the suites (sourced).  Every check records one
# line "pass|fail|skip NAME" in $CGACCT_RESULTS, which tests/run totals, and
# prints it for the reader.  CGACCT_RESULT_PREFIX goes before every name, for
# a suite run again in another build (tests/quick/run).

result() {
	local status=$1 name=${CGACCT_RESULT_PREFIX:-}$2
	shift 2
	printf '%s %s\n' "$status" "$name" >>"${CGACCT_RESULTS:-/dev/null}"
	printf '%s: %s%s\n' "${status^^}" "$name" "${*:+ ($*)}"
}

# check NAME COMMAND...: records pass if COMMAND succeeds, else fail with
# $detail as the reason; clears $detail either way.
check() {
	local name=$1
	shift
	if "$@"; then
		result pass "$name"
	else
		result fail "$name" "${detail:-}"
	fi
	detail=
}

# Print "SUITE: N passed, N failed, N skipped" for the lines of one file.
summarize() {
	local label=$1 file=$2
	awk -v label="$label" '
		$1 == "pass" { p++ } $1 == "fail" { f++ } $1 == "skip" { s++ }
		END { printf "%s: %d passed, %d failed, %d skipped\n", label, p, f, s }' "$file"
}

# need_packages comes with the vm/ scripts' shared helpers.
. "$(dirname "${BASH_SOURCE[0]}")/../../vm/lib/common.sh"
