# e2e: idemlab token issue, and the token strategy's refusals.
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
"$IDEMLAB" init --db "$db" >/dev/null
expect_exit 0 "$IDEMLAB" token issue --db "$db"
[[ "$out" =~ ^[0-9a-f]{32}$ ]] || fail "token format: $out"
t1=$out
expect_exit 0 "$IDEMLAB" token issue --db "$db" --ttl-ms 1 --json
short=$(json_field "$out" token)
[ "$short" != "$t1" ] || fail "tokens repeat"
args=(--db "$db" --from alice --to bob --amount 1)
expect_exit 6 "$IDEMLAB" token "${args[@]}" --biz-seq k0 --token nope --json
expect_equal "$(json_field "$out" outcome)" token_unknown "unknown token"
expect_exit 0 "$IDEMLAB" token "${args[@]}" --biz-seq k1 --token "$t1"
expect_exit 0 "$IDEMLAB" token "${args[@]}" --biz-seq k1 --token "$t1" --json
expect_equal "$(json_field "$out" outcome)" applied "same token, same request"
expect_equal "$(json_field "$out" replayed)" true "same token, same request: a replay"
expect_exit 6 "$IDEMLAB" token "${args[@]}" --biz-seq k2 --token "$t1" --json
expect_equal "$(json_field "$out" outcome)" token_used "same token, another request"
sleep 0.01
expect_exit 6 "$IDEMLAB" token "${args[@]}" --biz-seq k3 --token "$short" --json
expect_equal "$(json_field "$out" outcome)" token_expired "expired token"
expect_exit 2 "$IDEMLAB" token "${args[@]}" --biz-seq k4
expect_one_error_line
expect_contains "$err" "--token is required"
expect_exit 2 "$IDEMLAB" token issue --db "$db" --ttl-ms 0
# An option of the token strategy's transfer, given to token issue, is refused, not ignored.
expect_exit 2 "$IDEMLAB" token issue --db "$db" --read-db "$db"
expect_one_error_line
expect_contains "$err" "token issue takes no --read-db"
# ...while a variable of the environment ($IDEMLAB_DB, which the transfer reads too) is no option.
IDEMLAB_DB=$db expect_exit 0 "$IDEMLAB" token issue
expect_exit 0 "$IDEMLAB" audit --db "$db"
finish
