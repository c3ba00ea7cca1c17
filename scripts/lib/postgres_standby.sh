# A PostgreSQL 15 primary and a streaming hot standby (pg_basebackup -R), from Debian's package,
# on unix sockets only, as the postgres user, each a direct child of the script that sources
# this (scripts/servers). Asynchronous, or synchronous with `sync` (every COMMIT waits for the
# standby to flush it). Facts and traps: ../shared/REPLICATION.md.
#
# start_postgres_standby DIR [sync]: starts both, appends their pids to `pids`, sets ps_dir and
#   ps_primary_pid. Ready once the standby streams from the primary.
# The moves, each returning once it has certainly happened:
#   postgres_pause_replay / postgres_resume_replay: the standby stops (starts) applying WAL;
#   postgres_cut: later commits never reach the standby (its primary_conninfo emptied);
#   postgres_failover: the primary stops at once (SIGQUIT), the standby is promoted; returns
#   once it accepts writes.
ps_psql() {  # primary|standby SQL: one value
  "$pg_bin/psql" -qAtX -h "$ps_dir/$1" -U postgres -d idemlab -c "$2"
}

ps_streaming() {
  [ "$(ps_psql primary "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")" = 1 ]
}

ps_start_node() {  # NAME: postgres on its own socket folder, its pid in pids
  setpriv --reuid=postgres --regid=postgres --init-groups -- "$pg_bin/postgres" \
    -D "$ps_dir/$1/data" -k "$ps_dir/$1" -c listen_addresses= \
    >>"$ps_dir/$1.log" 2>&1 &
  pids+=($!)
}

start_postgres_standby() {
  ps_dir=$1
  local sync=${2:-}
  mkdir -p "$ps_dir/primary" "$ps_dir/standby"
  chown -R postgres: "$ps_dir"
  as_user postgres "$pg_bin/initdb" -D "$ps_dir/primary/data" -U postgres -A trust -N \
    --locale=C -E UTF8 >"$ps_dir/primary.log" 2>&1
  # Settings in the file ALTER SYSTEM writes, never on the command line: those would win
  # over a later ALTER SYSTEM (the moves change primary_conninfo and synchronous_standby_names).
  printf '%s\n' "wal_keep_size = '64MB'" "wal_receiver_status_interval = '1s'" "fsync = off" \
    "full_page_writes = off" "deadlock_timeout = '100ms'" "max_connections = 200" \
    "dynamic_shared_memory_type = mmap" >>"$ps_dir/primary/data/postgresql.auto.conf"
  ps_start_node primary
  ps_primary_pid=$!
  wait_until 30 postgres-primary "$pg_bin/pg_isready" -q -h "$ps_dir/primary" -U postgres
  "$pg_bin/psql" -qX -h "$ps_dir/primary" -U postgres -d postgres -c "CREATE DATABASE idemlab" \
    >>"$ps_dir/primary.log"
  as_user postgres "$pg_bin/pg_basebackup" -h "$ps_dir/primary" -U postgres \
    -D "$ps_dir/standby/data" -X stream -c fast -R >>"$ps_dir/standby.log" 2>&1
  ps_start_node standby
  wait_until 30 postgres-standby "$pg_bin/pg_isready" -q -h "$ps_dir/standby" -U postgres
  wait_until 30 postgres-standby ps_streaming
  if [ "$sync" = sync ]; then
    ps_psql primary "ALTER SYSTEM SET synchronous_standby_names = '*'" >/dev/null
    ps_psql primary "SELECT pg_reload_conf()" >/dev/null
    wait_until 30 postgres-primary bash -c \
      "[ \"\$(\"$pg_bin/psql\" -qAtX -h '$ps_dir/primary' -U postgres -d idemlab -c \"SELECT sync_state FROM pg_stat_replication\")\" = sync ]"
  fi
}

postgres_pause_replay() {
  ps_psql standby "SELECT pg_wal_replay_pause()" >/dev/null
  wait_until 10 postgres-standby bash -c \
    "[ \"\$(\"$pg_bin/psql\" -qAtX -h '$ps_dir/standby' -U postgres -d idemlab -c 'SELECT pg_get_wal_replay_pause_state()')\" = paused ]"
}

postgres_resume_replay() {
  ps_psql standby "SELECT pg_wal_replay_resume()" >/dev/null
}

ps_no_link() {
  [ "$(ps_psql standby "SELECT count(*) FROM pg_stat_wal_receiver")" = 0 ] &&
    [ "$(ps_psql primary "SELECT count(*) FROM pg_stat_replication")" = 0 ]
}

postgres_cut() {
  ps_psql standby "ALTER SYSTEM SET primary_conninfo = ''" >/dev/null
  ps_psql standby "SELECT pg_reload_conf()" >/dev/null
  wait_until 30 postgres-standby ps_no_link
}

ps_writable() { [ "$(ps_psql standby "SELECT pg_is_in_recovery()")" = f ]; }

postgres_failover() {
  kill -QUIT "$ps_primary_pid" 2>/dev/null || true
  ps_psql standby "SELECT pg_promote(true, 60)" >/dev/null
  wait_until 60 postgres-standby ps_writable
}
