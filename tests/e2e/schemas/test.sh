# e2e: the three schema files define one ledger. schema.sql (made by idemlab init),
# schema.postgresql.sql and schema.mariadb.sql are each loaded into a fresh database on the test
# servers, and read back from the engine's own catalog: the same tables, the same columns in the
# same order with the same NOT NULL and defaults, primary keys, unique keys (partial or not),
# indexes, foreign keys and CHECK constraints per table. Types differ by dialect and are not
# compared; each server file's idemlab_schema table (SQLite's PRAGMA application_id and
# user_version) and MariaDB's generated key columns (its partial unique index) are set apart.
source "$(dirname "$0")/../lib.sh"
if [ -z "${IDEMLAB_TEST_POSTGRES:-}" ] || [ -z "${IDEMLAB_TEST_MARIADB:-}" ]; then
  [ "${CI:-}" = true ] && { echo "FAIL: no test servers under CI (run through scripts/test)" >&2; exit 1; }
  echo "skipped: no test servers (run through scripts/test)"
  exit 77
fi
"$IDEMLAB" init --db "$work/l.db" >/dev/null
database=schemas_$$
pg_admin=${IDEMLAB_TEST_POSTGRES/\/idemlab\?//postgres?}
psql -qX "$pg_admin" -c "CREATE DATABASE $database" || fail "cannot create a PostgreSQL database"
pg=${IDEMLAB_TEST_POSTGRES/\/idemlab\?//$database?}
psql -qX -v ON_ERROR_STOP=1 "$pg" -f "$ROOT/schema.postgresql.sql" >/dev/null ||
  fail "schema.postgresql.sql does not load"
socket=${IDEMLAB_TEST_MARIADB##*socket=}
maria=(mariadb --no-defaults -S "$socket" -u idemlab -pidemlab)
"${maria[@]}" -e "CREATE DATABASE $database" || fail "cannot create a MariaDB database"
"${maria[@]}" "$database" <"$ROOT/schema.mariadb.sql" || fail "schema.mariadb.sql does not load"
python3 "$(dirname "$0")/catalog.py" "$work/l.db" "$pg" "$socket" "$database" ||
  fail "the schemas differ"
psql -qX "$pg_admin" -c "DROP DATABASE $database"
"${maria[@]}" -e "DROP DATABASE $database"
checks=$((checks + 1))
finish
