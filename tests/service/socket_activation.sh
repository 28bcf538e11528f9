# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# systemd integration without systemd: socket activation through
# systemd-socket-activate, the notification protocol through a socket of
# our own (READY, STATUS, RELOADING, WATCHDOG, STOPPING), and priority
# prefixes when stderr is the journal.

test_socket_activation() {
	local port out=$work/sd i
	mkdir -p "$out"
	port=$(free_port)
	# --listen names a port nobody may use: the activated socket must win.
	systemd-socket-activate -l "127.0.0.1:$port" "$bin" --mountinfo "$tree/mountinfo" \
		--root "$tree" --listen 127.0.0.1:1 >"$logs/socket-activation.log" 2>&1 &
	local daemon=$!
	started+=("$daemon")
	wait_listening "$port"
	check systemd/socket-activated-serves test "$(status "http://127.0.0.1:$port/metrics")" = 200
	check systemd/socket-activation-logged logged "$logs/socket-activation.log" 'serving /metrics on socket-activated sockets'
	stop "$daemon"

	# systemd keeps the socket when the daemon stops and activates the
	# next one with it: the first daemon must leave it listening.
	port=$(free_port)
	/usr/bin/python3 "$here/activate-twice.py" "$port" "$bin" --mountinfo "$tree/mountinfo" \
		--root "$tree" --listen 127.0.0.1:1 >"$out/twice" 2>"$logs/activate-twice.log"
	detail=$(tr '\n' ' ' <"$out/twice")
	check systemd/socket-survives-the-daemon grep -qx 'second 200' "$out/twice"

	/usr/bin/python3 "$here/notify-listen.py" "$out/notify.sock" "$out/notify" &
	local listener=$!
	started+=("$listener")
	for i in $(seq 50); do [ -S "$out/notify.sock" ] && break; sleep 0.1; done
	port=$(free_port)
	NOTIFY_SOCKET=$out/notify.sock WATCHDOG_USEC=400000 \
		start_daemon "$logs/notify.log" "$tree" --listen "127.0.0.1:$port"
	daemon=$pid
	wait_listening "$port"
	sleep 1
	kill -HUP "$daemon"
	sleep 0.5
	stop "$daemon"
	sleep 0.2
	stop "$listener"
	detail=$(cat "$out/notify" 2>/dev/null)
	check systemd/notify-ready-with-status grep -q "^READY=1 | STATUS=Serving on 127.0.0.1:$port$" "$out/notify"
	check systemd/notify-watchdog-pings test "$(grep -c '^WATCHDOG=1$' "$out/notify")" -ge 3
	check systemd/notify-reloading-then-ready bash -c "grep -A1 '^RELOADING=1' '$out/notify' | grep -q '^READY=1'"
	check systemd/notify-stopping grep -q '^STOPPING=1$' "$out/notify"

	# stderr is "the journal" when $JOURNAL_STREAM names its device and inode.
	: >"$out/journal"
	port=$(free_port)
	journal_id=$(stat -c '%d:%i' "$out/journal")
	JOURNAL_STREAM=$journal_id \
		"$bin" --mountinfo "$tree/mountinfo" --root "$tree" --listen "127.0.0.1:$port" 2>>"$out/journal" &
	daemon=$!
	started+=("$daemon")
	wait_listening "$port"
	stop "$daemon"
	detail=$(cat "$out/journal")
	check systemd/journal-lines-have-priority-prefix grep -qx '<6>serving /metrics' "$out/journal"
	"$bin" --check-config --config /nonexistent.yml 2>"$out/journal-err" >/dev/null
	check systemd/plain-stderr-has-program-prefix grep -q '^cgacctd: /nonexistent.yml' "$out/journal-err"
}
