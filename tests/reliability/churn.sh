# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/reliability/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# The churn test: a guest churns cgroups (churn-guest.sh) while a host
# Prometheus scrapes cgacctd every second and scrape_loop.py scrapes it in a
# loop and judges every exposition; cgacctd's RSS must level off.

# rss_levels_off FILE: prints the RSS peaks of the three thirds of the
# samples in kB and succeeds if the last third peaks at most RSS_SLACK_KB
# (default 1024) above the middle one; the first third is warm-up. The
# slack is for malloc: each HTTP thread that leads a collection grows an
# arena of its own once, in steps of about 256 kB, whenever it first does.
# A leak of a tenth of an exposition per scrape (10 kB, over some 140
# scrapes a third) still exceeds it.
rss_levels_off() {
	awk -v slack="${RSS_SLACK_KB:-1024}" '
		$2 !~ /^[0-9]+$/ { print "bad sample: " $0; bad = 1; exit 1 }
		{ rss[n++] = $2 }
		END {
			if (bad) exit 1
			if (n < 6) { print "only " n " samples"; exit 1 }
			for (i = 0; i < n; i++) {
				third = int(3 * i / n)
				if (rss[i] > peak[third]) peak[third] = rss[i]
			}
			printf "RSS peaks by thirds %d, %d, %d kB (slack %d kB)", peak[0], peak[1], peak[2], slack
			exit !(peak[2] <= peak[1] + slack)
		}' "$1"
}

test_churn() {
	local out=$art/churn port state_port go_port guest rc churned
	rm -rf "$out"
	port=$(free_port) state_port=$(free_port) go_port=$(free_port)
	"$top/vm/guest" --kernel "$kernel" --layout "$churn_layout" --smp 2 --mem 512 \
		--timeout $((churn_seconds + 600)) --console "$art/churn.console" \
		--forward "$port:19753" --forward "$state_port:19754" --forward "$go_port:19755" \
		--add "$guest_bin/workload" --add "$top/vm/demo/demo-tree.sh" --add "$bin" \
		--add "$here/churn-guest.sh:/usr/local/bin/churn-guest.sh" --out "$out" \
		-- sh /usr/local/bin/churn-guest.sh "$churn_seconds" >"$art/churn.log" 2>&1 &
	guest=$!
	started+=("$guest")
	for _ in $(seq 300); do
		curl -sf -o /dev/null --max-time 10 "http://127.0.0.1:$port/metrics" && break
		kill -0 "$guest" 2>/dev/null || break
		sleep 1
	done
	start_prometheus churn "127.0.0.1:$port" || return
	/usr/bin/python3 "$here/scrape_loop.py" "http://127.0.0.1:$port/metrics" \
		"http://127.0.0.1:$state_port/churn.done" "$art" >"$art/scrape-loop.txt" 2>&1 &
	local loop=$!
	if ! guest_handshake "$go_port"; then
		result fail churn/guest-starts "see $art/churn.log"
		kill "$loop"
		return
	fi
	echo "churning for $churn_seconds s"
	wait "$loop"
	cat "$art/scrape-loop.txt"
	report_lines <"$art/scrape-loop.txt"
	check_prometheus_scrapes churn tcg
	local scrapes=$prom_scrapes
	stop "$prom_pid"
	guest_handshake "$go_port"
	wait "$guest"
	rc=$?
	cat "$art/churn.log"
	detail="exit $rc, see $art/churn.log and $art/churn.console"
	check churn/guest-passes test "$rc" = 0
	detail="uid $(cat "$out/cgacctd.uid" 2>/dev/null)"
	check churn/cgacctd-runs-unprivileged test "$(cat "$out/cgacctd.uid" 2>/dev/null)" = 990
	detail="exit $(cat "$out/cgacctd.exit" 2>/dev/null)"
	check churn/cgacctd-stops-cleanly test "$(cat "$out/cgacctd.exit" 2>/dev/null)" = 0
	churned=$(sed -n 's/.* \([0-9]*\) cgroups, \([0-9]*\) task moves/\1 \2/p' "$out/churn.log")
	detail="${churned:-no count} $(tail -n 1 "$out/churn.log" 2>/dev/null)"
	check churn/churn-ran-and-cleaned-up grep -qx 'churn exit 0' "$out/churn.log"
	local rss rss_ok
	rss=$(rss_levels_off "$out/rss")
	rss_ok=$?
	detail=$rss
	check churn/cgacctd-rss-levels-off-after-warm-up test $rss_ok = 0
	echo "figure churn: ${churned%% *} cgroups churned with ${churned##* } task moves" \
		"in $churn_seconds s; Prometheus made $scrapes scrapes; $rss"
}
