# e2e: the isolation level is an explicit, visible choice on a server. Every answer, history
# and explain say which level ran (the server's own default unless --isolation chose one); a
# SQLite ledger refuses --isolation; a server ledger made before attempts recorded their level
# (schema version 3) is upgraded on open, its attempts kept.
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases isolation
pg=$IDEMLAB_TEST_POSTGRES maria=$IDEMLAB_TEST_MARIADB

for db in "$pg" "$maria"; do
  engine=${db%%:*}
  case $engine in postgresql) default=read-committed ;; *) default=repeatable-read ;; esac
  "$IDEMLAB" init --force --db "$db" >/dev/null
  expect_exit 0 "$IDEMLAB" naive --db "$db" --biz-seq d1 --from alice --to bob --amount 1
  expect_contains "$out" "[$engine, $default]"
  n=0
  for level in read-committed repeatable-read serializable; do
    n=$((n + 1))
    expect_exit 0 "$IDEMLAB" select-insert --db "$db" --biz-seq "l$n" --from alice --to bob \
      --amount 1 --isolation "$level" --json
    expect_contains "$out" "\"engine\":\"$engine\",\"isolation\":\"$level\""
  done
  expect_exit 0 "$IDEMLAB" history --db "$db"
  expect_equal "$(awk 'NR > 1 {print $3, $NF}' <<<"$out" | tr '\n' ' ')" \
    "d1 $default l1 read-committed l2 repeatable-read l3 serializable " "history on $engine"
  expect_exit 0 "$IDEMLAB" history --db "$db" --json --biz-seq l3
  expect_contains "$out" '"isolation":"serializable"'
  expect_exit 0 "$IDEMLAB" explain select-for-update --db "$db"
  expect_contains "$out" "as $engine runs it at $default (its default)"
  expect_exit 0 "$IDEMLAB" explain select-for-update --db "$db" --isolation serializable --json
  expect_contains "$out" "\"engine\":\"$engine\",\"isolation\":\"serializable\""
done

# SQLite has one writer at a time: --isolation is refused, and nothing is written.
"$IDEMLAB" init --db "$work/l.db" >/dev/null
expect_exit 2 "$IDEMLAB" naive --db "$work/l.db" --biz-seq s1 --from alice --to bob --amount 1 \
  --isolation serializable
expect_one_error_line
expect_exit 2 "$IDEMLAB" explain naive --isolation serializable
expect_one_error_line
expect_exit 0 "$IDEMLAB" history --db "$work/l.db"
case "$out" in *isolation*) fail "a SQLite history shows an isolation column: $out" ;; esac

# A version-3 ledger on each server: its attempts have no level and there is no delivery table;
# opening it adds the columns and the tables (version 8).
maria_socket=${maria##*socket=}
for db in "$pg" "$maria"; do
  "$IDEMLAB" init --force --db "$db" >/dev/null
  "$IDEMLAB" naive --db "$db" --biz-seq v1 --from alice --to bob --amount 1 >/dev/null
  sql="ALTER TABLE attempt DROP COLUMN isolation, DROP COLUMN guard_store, DROP COLUMN node; DROP TABLE delivery; DROP TABLE fence; UPDATE idemlab_schema SET version = 3"
  case $db in
    postgresql://*) psql -qAtX "$db" -c "$sql" ;;
    *) mariadb --no-defaults -S "$maria_socket" -u root "$(db_name "$db")" -e "$sql" ;;
  esac
  expect_exit 0 "$IDEMLAB" history --db "$db" --json
  expect_contains "$out" '"biz_seq":"v1"'
  expect_contains "$out" '"isolation":null'
  expect_contains "$out" '"node":null'
  expect_exit 0 "$IDEMLAB" naive --db "$db" --biz-seq v2 --from alice --to bob --amount 1
  expect_exit 0 "$IDEMLAB" audit --db "$db"
  expect_equal "$(sql_on "$db" "SELECT version FROM idemlab_schema")" 8 "$db: upgraded to version 8"
  expect_equal "$(sql_on "$db" "SELECT count(*) FROM delivery")" 0 "$db: the delivery table is there"
  expect_equal "$(sql_on "$db" "SELECT count(*) FROM fence")" 0 "$db: the fence table is there"
done
finish
