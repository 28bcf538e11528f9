# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# min_interval: scrapes within it get the last collection's exposition.

test_min_interval() {
	local dir port daemon url
	serve min-interval $'min_interval: 1m\n' || return
	url=http://127.0.0.1:$port/metrics

	curl -s -o "$dir/1" "$url"
	sleep 1.2
	curl -s -o "$dir/2" "$url"
	curl -s -H 'Accept-Encoding: gzip' -o "$dir/3.gz" "$url"
	detail="collections: $(metric_value "$dir/1" cgacct_collections_total) then $(metric_value "$dir/2" cgacct_collections_total)"
	check min-interval/second-scrape-served-from-last-collection cmp -s "$dir/1" "$dir/2"
	check min-interval/one-collection test "$(metric_value "$dir/2" cgacct_collections_total)" = 1
	# the gzip body is the same rendering, compressed
	gunzip -c <"$dir/3.gz" >"$dir/3" 2>/dev/null
	check min-interval/gzip-round-trips-to-identical-body cmp -s "$dir/1" "$dir/3"
	stop "$daemon"
}
