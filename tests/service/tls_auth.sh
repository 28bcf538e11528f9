# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# TLS with a CA made here, basic auth with an htpasswd bcrypt hash, client
# certificates, and a real Prometheus scraping over TLS with auth.

# make_cert NAME CA-NAME SUBJECT-ALT-NAMES USAGE: an EC key and a certificate signed by CA-NAME.
make_cert() {
	local d=$work/pki
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$1" \
		-keyout "$d/$1.key" -out "$d/$1.csr" 2>/dev/null &&
		openssl x509 -req -in "$d/$1.csr" -CA "$d/$2.pem" -CAkey "$d/$2.key" -CAcreateserial \
			-days 2 -out "$d/$1.pem" \
			-extfile <(printf 'subjectAltName=%s\nextendedKeyUsage=%s\n' "$3" "$4") 2>/dev/null
}

make_ca() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
		-subj "/CN=$1" -keyout "$work/pki/$1.key" -out "$work/pki/$1.pem" 2>/dev/null
}

# prometheus_scrapes TARGET-PORT: a Debian Prometheus 2.42 of our own scrapes
# the daemon over TLS with basic auth; the target must turn up.
prometheus_scrapes() {
	local health="" i
	start_prometheus tls-auth "127.0.0.1:$1" "    scheme: https
    tls_config:
      ca_file: $work/pki/ca.pem
    basic_auth:
      username: prom
      password: secret" || return
	for _ in $(seq 60); do
		health=$(curl -s --max-time 2 "$prom_url/api/v1/targets" |
			/usr/bin/python3 -c 'import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
print(t[0]["health"], t[0]["lastError"] or "-") if t else print("none")' 2>/dev/null)
		[ "${health%% *}" = up ] && break
		sleep 0.5
	done
	detail="target: ${health:-no answer}"
	check tls-auth/prometheus-2.42-scrapes-over-tls-with-auth test "${health%% *}" = up
	local series
	series=$(curl -s --max-time 5 "$prom_url/api/v1/query" \
		--data-urlencode 'query=cgroup_cpu_usage_seconds_total{cgroup="/a"}' |
		/usr/bin/python3 -c 'import json, sys; print(len(json.load(sys.stdin)["data"]["result"]))' 2>/dev/null)
	detail="series: ${series:-none}"
	check tls-auth/prometheus-ingested-cgroup-series test "${series:-0}" = 1
	stop "$prom_pid"
}

test_tls_auth() {
	local dir port daemon url out=$work/tls-auth hash code
	mkdir -p "$work/pki" "$out"
	if ! make_ca ca || ! make_cert server ca 'IP:127.0.0.1,DNS:localhost' serverAuth; then
		result fail tls-auth/make-pki
		return
	fi
	hash=$(htpasswd -nbBC 10 prom secret | cut -d: -f2-)
	check tls-auth/htpasswd-makes-2y-hash test "${hash:0:4}" = "\$2y\$"
	cat >"$out/web.yml" <<EOC
tls_server_config:
  cert_file: ../pki/server.pem
  key_file: ../pki/server.key
basic_auth_users:
  prom: '$hash'
EOC
	detail=$(promtool check web-config "$out/web.yml" 2>&1)
	check tls-auth/promtool-accepts-web-config test $? = 0

	serve tls-auth $'web_config_file: web.yml\n' || return
	url=https://127.0.0.1:$port/metrics

	code=$(status "$url" --cacert "$work/pki/ca.pem" -u prom:secret)
	detail="status $code"
	check tls-auth/tls-with-right-password-200 test "$code" = 200
	curl -s --max-time 10 --cacert "$work/pki/ca.pem" -u prom:wrong -D "$out/wrong.h" -o /dev/null "$url"
	check tls-auth/wrong-password-401 grep -q '^HTTP/1.1 401' "$out/wrong.h"
	check tls-auth/401-asks-for-basic-auth grep -qi '^WWW-Authenticate: Basic realm="cgacct"' "$out/wrong.h"
	check tls-auth/unknown-user-401 test "$(status "$url" --cacert "$work/pki/ca.pem" -u nobody:secret)" = 401
	check tls-auth/no-credentials-401 test "$(status "$url" --cacert "$work/pki/ca.pem")" = 401
	check tls-auth/auth-before-404 test "$(status "https://127.0.0.1:$port/nope" --cacert "$work/pki/ca.pem")" = 401
	code=$(status "http://127.0.0.1:$port/metrics" -u prom:secret)
	detail="plain HTTP got status $code"
	check tls-auth/plain-http-rejected test "$code" = 000
	check tls-auth/untrusted-ca-rejected-by-client test "$(status "$url" -u prom:secret)" = 000
	check tls-auth/tls12-works test "$(status "$url" --cacert "$work/pki/ca.pem" -u prom:secret --tlsv1.2 --tls-max 1.2)" = 200
	check tls-auth/tls13-works test "$(status "$url" --cacert "$work/pki/ca.pem" -u prom:secret --tlsv1.3)" = 200

	prometheus_scrapes "$port"
	stop "$daemon"
	test_client_certificates
}

# RequireAndVerifyClientCert: a certificate from client_ca passes, none or
# one from another CA gets 403. max_version TLS12 keeps TLS 1.3 out (the
# GnuTLS priority string follows the web-config).
test_client_certificates() {
	local dir port daemon url out=$work/mtls
	mkdir -p "$out"
	if ! make_ca other || ! make_cert client ca 'DNS:client' clientAuth ||
		! make_cert stranger other 'DNS:stranger' clientAuth; then
		result fail tls-auth/make-client-pki
		return
	fi
	cat >"$out/web.yml" <<EOC
tls_server_config:
  cert_file: ../pki/server.pem
  key_file: ../pki/server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ../pki/ca.pem
  max_version: TLS12
EOC
	detail=$(promtool check web-config "$out/web.yml" 2>&1)
	check tls-auth/promtool-accepts-client-cert-web-config test $? = 0
	serve mtls $'web_config_file: web.yml\n' || return
	url=https://127.0.0.1:$port/metrics
	local p=$work/pki
	check tls-auth/client-cert-from-ca-200 test "$(status "$url" --cacert "$p/ca.pem" --cert "$p/client.pem" --key "$p/client.key")" = 200
	check tls-auth/no-client-cert-403 test "$(status "$url" --cacert "$p/ca.pem")" = 403
	check tls-auth/client-cert-from-other-ca-403 test "$(status "$url" --cacert "$p/ca.pem" --cert "$p/stranger.pem" --key "$p/stranger.key")" = 403
	check tls-auth/max-version-tls12-refuses-tls13 test "$(status "$url" --cacert "$p/ca.pem" --cert "$p/client.pem" --key "$p/client.key" --tlsv1.3)" = 000
	stop "$daemon"
}
