# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/adversarial/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# cgacctd needs no privilege: started with capabilities it says so once,
# and how to run it without; started without any, it says nothing of it.

test_privileges() {
	local port daemon warning='running with capabilities'
	if [ "$(id -u)" != 0 ]; then
		result skip privileges/as-root "not root: the capabilities to warn of are absent"
		return
	fi
	port=$(free_port)
	start_daemon "$logs/privileges-root.log" "$tree" --listen "127.0.0.1:$port"
	daemon=$pid
	wait_listening "$port" || { result fail privileges/start; return; }
	stop "$daemon"
	detail=$(cat "$logs/privileges-root.log")
	check privileges/root-warned-once test "$(grep -c "$warning" "$logs/privileges-root.log")" = 1
	check privileges/warning-says-how grep -q 'run it as an unprivileged user' "$logs/privileges-root.log"
	# as nobody, without capabilities
	chmod a+x "$work"
	chmod -R a+rX "$tree"
	port=$(free_port)
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		"$bin" --listen "127.0.0.1:$port" --mountinfo "$tree/mountinfo" --root "$tree" \
		>"$logs/privileges-nobody.log" 2>&1 &
	daemon=$!
	started+=("$daemon")
	wait_listening "$port" || { result fail privileges/start-as-nobody "$(cat "$logs/privileges-nobody.log")"; return; }
	check privileges/nobody-serves test "$(status "http://127.0.0.1:$port/metrics")" = 200
	stop "$daemon"
	detail=$(cat "$logs/privileges-nobody.log")
	check privileges/nobody-not-warned bash -c "! grep -q '$warning' '$logs/privileges-nobody.log'"
}
