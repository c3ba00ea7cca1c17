# e2e: idemlab faults and idemlab scenarios list what exists.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 "$IDEMLAB" faults
for fault in request-lost response-lost slow crash redeliver double-submit short-ttl busy "p=PROBABILITY"; do
  expect_contains "$out" "$fault"
done
expect_exit 0 "$IDEMLAB" faults --json
expect_contains "$out" '"name":"double-submit"'
expect_exit 0 "$IDEMLAB" scenarios
listing=$out
for scenario in response-lost double-click queue-redelivery slow-server crash-mid-transfer \
                lock-expiry token-expiry aba-version retry-new-key; do
  expect_contains "$listing" "$scenario"
  expect_exit 0 "$IDEMLAB" scenarios "$scenario"
  expect_contains "$out" "name = \"$scenario\""
  cmp -s <(printf '%s\n' "$out") "$ROOT/scenarios/$scenario.toml" || fail "scenarios $scenario differs from the file"
done
expect_exit 2 "$IDEMLAB" scenarios no-such
expect_one_error_line
finish
