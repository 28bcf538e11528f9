#!/usr/bin/python3
# Parses an OpenMetrics exposition from stdin with the strict parser of the
# Python client library (Debian's python3-prometheus-client, hence Debian's
# python3); exits 1 with the parser's message when it is invalid.
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families

try:
    # OpenMetrics is UTF-8; sys.stdin would let stray bytes through as surrogates
    families = list(text_string_to_metric_families(sys.stdin.buffer.read().decode("utf-8")))
except Exception as e:  # the parser raises plain ValueErrors
    print(f"invalid OpenMetrics: {e}", file=sys.stderr)
    sys.exit(1)
print(f"{len(families)} families")
