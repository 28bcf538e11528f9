# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# cgacctd --check-config: each kind of mistake exits non-zero with a message
# that names file:line:col; a good file (and its web-config) exits 0.

# bad_config NAME FILE-CONTENT [LOCATED-FILE]: --check-config must fail and
# point at LOCATED-FILE (default: the config itself) with line and column.
bad_config() {
	local name=$1 f=$work/cc/$1.yml located=${3:-$work/cc/$1.yml} msg rc
	printf '%s' "$2" >"$f"
	msg=$("$bin" --check-config --config "$f" 2>&1)
	rc=$?
	detail="exit $rc: $msg"
	# shellcheck disable=SC2016 # (the script's arguments expand in its own shell)
	check "check-config/$name" bash -c '[ "$1" != 0 ] && grep -qE "^cgacctd: $2:[0-9]+:[0-9]+: " <<<"$3"' \
		_ "$rc" "$located" "$msg"
}

test_check_config() {
	mkdir -p "$work/cc"
	bad_config unknown-key $'listen: [":19753"]\nmax_dept: 3\n'
	bad_config wrong-type $'max_depth: [1, 2]\n'
	bad_config bad-glob $'include:\n  - "/system.slice/[a-z"\n'
	bad_config bad-address $'listen:\n  - "127.0.0.1:99999"\n'
	bad_config bad-address-host $'listen:\n  - "[::1:80"\n'
	printf 'tls_server_config:\n  cert_file: /nonexistent/cert.pem\n  key_file: /nonexistent/key.pem\n' \
		>"$work/cc/web-unreadable.yml"
	bad_config unreadable-tls-file $'web_config_file: web-unreadable.yml\n' "$work/cc/web-unreadable.yml"
	bad_config empty-file ''
	bad_config not-yaml $'listen: [":1"\nfoo: {\n'
	bad_config not-a-mapping $'- just\n- a list\n'

	local msg rc
	msg=$("$bin" --check-config --config "$work/cc/missing.yml" 2>&1)
	rc=$?
	detail="exit $rc: $msg"
	check check-config/missing-file-names-it test "$rc" != 0 -a -n "$(grep -F "$work/cc/missing.yml" <<<"$msg")"

	msg=$("$bin" --check-config --config "$top/config/cgacctd.yml" 2>&1)
	detail=$msg
	check check-config/shipped-file-ok test $? = 0
	msg=$("$bin" --check-config --listen 'nonsense' 2>&1)
	rc=$?
	detail="exit $rc: $msg"
	check check-config/bad-listen-flag test "$rc" != 0 -a -n "$(grep -F -- '--listen' <<<"$msg")"
	msg=$("$bin" --check-config --listen '127.0.0.1:1' --listen '[::1]:2' 2>&1)
	detail=$msg
	check check-config/builtin-default-with-flags-ok test $? = 0
	"$bin" --bogus >/dev/null 2>&1
	check check-config/unknown-option-exit-2 test $? = 2
}
