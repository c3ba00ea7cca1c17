# A schema-version-1 ledger (before requests had a source) is upgraded on first open, by any
# command, in one transaction: every request gets the source "api" and keeps its history.
source "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")
v1=$work/v1.db
sqlite3 "$v1" < "$here/schema-v1.sql"
sqlite3 "$v1" <<'SQL'
INSERT INTO account VALUES ('alice', 10000, 7500), ('bob', 0, 2500);
INSERT INTO transfer_flow (biz_seq, from_account, to_account, amount_minor, status, version,
  unique_key, strategy, outcome, reason, created_at_ms, updated_at_ms)
  VALUES ('m1', 'alice', 'bob', 2500, 2, 0, 1, 'select-insert', 'applied', NULL, 1, 2);
INSERT INTO journal (biz_seq, account, side, amount_minor, created_at_ms)
  VALUES ('m1', 'alice', 'debit', 2500, 2), ('m1', 'bob', 'credit', 2500, 2);
INSERT INTO dedup VALUES ('d1', 'dedup-table', 'alice>bob:100', 3);
INSERT INTO lock VALUES ('transfer:k1', 99, 1, 'pid-1');
INSERT INTO attempt (biz_seq, strategy, pitfall, outcome, reason, replayed, fault, at_ms)
  VALUES ('m1', 'select-insert', 0, 'applied', NULL, 0, NULL, 2),
         ('m1', 'select-insert', 1, 'replayed', NULL, 1, NULL, 3);
SQL
journal_before=$(sqlite3 "$v1" "SELECT group_concat(biz_seq || account || side || amount_minor) FROM journal")

# A reader upgrades it; nothing is lost.
expect_exit 0 "$IDEMLAB" history --db "$v1" --json
expect_equal "$(sqlite3 "$v1" 'PRAGMA user_version')" 8 "schema version after upgrade"
expect_equal "$(sqlite3 "$v1" "SELECT group_concat(biz_seq || account || side || amount_minor) FROM journal")" \
  "$journal_before" "journal kept"
expect_equal "$(sqlite3 "$v1" "SELECT DISTINCT source FROM journal")" api "journal source"
expect_equal "$(sqlite3 "$v1" "SELECT dedup_key || ' ' || strategy FROM dedup")" "api:d1 dedup-table" "dedup row"
expect_equal "$(sqlite3 "$v1" "SELECT name FROM lock")" "transfer:api:k1" "lock row"
expect_contains "$out" '"pitfall":"no-unique-index"'
expect_contains "$out" '"outcome":"applied","reason":null,"replayed":true'
integrity_ok "$v1"

# The upgraded ledger serves as before: a repeat of m1 is a replay, from either command family.
expect_exit 0 "$IDEMLAB" select-insert --db "$v1" --biz-seq m1 --from alice --to bob --amount 25 --json
expect_contains "$out" '"outcome":"applied","replayed":true'
expect_exit 0 "$IDEMLAB" query --db "$v1" --biz-seq m1
expect_exit 0 "$IDEMLAB" audit --db "$v1"
# A second source's m1 is a request of its own.
expect_exit 0 "$IDEMLAB" select-insert --db "$v1" --source batch --biz-seq m1 --from alice --to bob --amount 1 --json
expect_contains "$out" '"outcome":"applied","replayed":false'
expect_exit 0 "$IDEMLAB" audit --db "$v1"

# A version-2 ledger (before account limits, a consumer's deliveries and fences) gains the empty
# account_limit, delivery and fence tables, defined as a fresh ledger defines them, and keeps
# everything else.
v2=$work/v2.db
expect_exit 0 "$IDEMLAB" init --db "$v2"
expect_exit 0 "$IDEMLAB" select-insert --db "$v2" --biz-seq a1 --from alice --to bob --amount 3
sqlite3 "$v2" "DROP TABLE account_limit; DROP TABLE delivery; DROP TABLE fence; PRAGMA user_version = 2"
expect_exit 0 "$IDEMLAB" limit --db "$v2" --account alice
expect_equal "$out" "limit: alice none" "no limit after the upgrade"
expect_equal "$(sqlite3 "$v2" 'PRAGMA user_version')" 8 "version 2 upgraded"
expect_exit 0 "$IDEMLAB" history --db "$v2" --json
expect_contains "$out" '"biz_seq":"a1","strategy":"select-insert"'
expect_contains "$out" '"isolation":null'
expect_exit 0 "$IDEMLAB" init --db "$work/fresh.db"
schema_of() { sqlite3 "$1" "SELECT type, name, sql FROM sqlite_schema ORDER BY name"; }
expect_equal "$(schema_of "$v2")" "$(schema_of "$work/fresh.db")" "upgraded schema is the fresh one"
expect_exit 0 "$IDEMLAB" limit --db "$v2" --account alice --set 2
expect_exit 3 "$IDEMLAB" select-insert --db "$v2" --biz-seq a2 --from alice --to bob --amount 3
expect_exit 0 "$IDEMLAB" audit --db "$v2"

# A version-6 ledger (before an attempt named its Galera node) keeps every attempt, its
# isolation and guard store columns included, and gains the node column, NULL.
v6=$work/v6.db
expect_exit 0 "$IDEMLAB" init --db "$v6"
expect_exit 0 "$IDEMLAB" dedup-table --db "$v6" --biz-seq d1 --from alice --to bob --amount 2
sqlite3 "$v6" "UPDATE attempt SET isolation = 'serializable', guard_store = 'redis://x:1'; ALTER TABLE attempt DROP COLUMN node; PRAGMA user_version = 6"
expect_exit 0 "$IDEMLAB" history --db "$v6" --json
expect_contains "$out" '"biz_seq":"d1","strategy":"dedup-table"'
expect_contains "$out" '"isolation":"serializable","node":null'
expect_equal "$(sqlite3 "$v6" 'PRAGMA user_version')" 8 "version 6 upgraded"
expect_equal "$(sqlite3 "$v6" "SELECT guard_store FROM attempt")" "redis://x:1" "guard store kept"
expect_equal "$(schema_of "$v6")" "$(schema_of "$work/fresh.db")" "upgraded v6 schema is the fresh one"
expect_exit 0 "$IDEMLAB" audit --db "$v6"

# A version-7 ledger (its flow status checked by an IN list) keeps every flow row, each with its
# id, status and answer, and gets the fresh definition: the status checked as a range.
v7=$work/v7.db
expect_exit 0 "$IDEMLAB" init --db "$v7"
expect_exit 0 "$IDEMLAB" state-machine --db "$v7" --biz-seq s1 --from alice --to bob --amount 2
expect_exit 3 "$IDEMLAB" state-machine --db "$v7" --biz-seq s2 --from alice --to bob --amount 5000
sqlite3 "$v7" "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, 'CHECK (status BETWEEN 0 AND 3)', 'CHECK (status IN (0, 1, 2, 3))') WHERE name = 'transfer_flow'; PRAGMA user_version = 7"
expect_contains "$(sqlite3 "$v7" .schema)" "CHECK (status IN (0, 1, 2, 3))"
flows="SELECT id, source, biz_seq, status, outcome, reason FROM transfer_flow ORDER BY id"
rows_before=$(sqlite3 "$v7" "$flows")
expect_exit 0 "$IDEMLAB" history --db "$v7"
expect_equal "$(sqlite3 "$v7" 'PRAGMA user_version')" 8 "version 7 upgraded"
expect_equal "$(sqlite3 "$v7" "$flows")" "$rows_before" "flow rows kept"
expect_equal "$(schema_of "$v7")" "$(schema_of "$work/fresh.db")" "upgraded v7 schema is the fresh one"
expect_exit 0 "$IDEMLAB" state-machine --db "$v7" --biz-seq s1 --from alice --to bob --amount 2
expect_contains "$out" "replayed"
expect_exit 0 "$IDEMLAB" audit --db "$v7"

# A read-only version-1 file cannot be upgraded: an error, and the file is unchanged.
ro=$work/ro.db
sqlite3 "$ro" < "$here/schema-v1.sql"
sqlite3 "$ro" "INSERT INTO account VALUES ('alice', 1, 1)"
chmod a-w "$ro"
before=$(digest "$ro")
expect_exit 8 "$IDEMLAB" audit --db "$ro"
expect_one_error_line
expect_contains "$err" "schema version 1 and is read-only"
expect_equal "$(digest "$ro")" "$before" "read-only v1 ledger unchanged"
finish
