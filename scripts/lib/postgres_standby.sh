# A PostgreSQL 15 primary and a streaming hot standby (pg_basebackup -R), from Debian's package,
# on unix sockets only, as the postgres user, each a direct child of the script that started
# it. Two nodes, node1 and node2, whose roles a failover swaps; asynchronous, or synchronous
# (postgres-standby-sync: every COMMIT waits for the standby to flush it). The facts behind the
# moves: docs/replication.md.
#
# ps_start DIR [sync]: starts both (node1 the primary), appends their pids to `pids`. Ready once
#   the standby streams from the primary. pss_start DIR: the same, synchronous.
# The moves (ps_move), each returning once it has certainly happened:
#   pause-replay / resume-replay: the standby stops (starts) applying WAL;
#   cut: later commits never reach the standby (its primary_conninfo emptied);
#   failover: the primary stops at once (SIGQUIT), the standby is promoted; returns once it
#     accepts writes. The stopped node is down until `rejoin`.
#   rejoin: the stopped node comes back as the new primary's standby (a fresh base backup);
#     returns once it streams. A failover after it goes the other way.
# The URLs: IDEMLAB_TEST_PG_PRIMARY and _STANDBY name whichever node has that role now (the
# standby's is the stopped node's until it rejoins); IDEMLAB_TEST_PG_CANDIDATES names both, as
# an HA manager's clients do (target_session_attrs=read-write): idemlab follows the failover.
ps_dir="" ps_primary=node1 ps_standby=node2 ps_down="" ps_sync="" ps_pid1="" ps_pid2=""

ps_psql() {  # NODE SQL: one value
  "$pg_bin/psql" -qAtX -h "$ps_dir/$1" -U postgres -d idemlab -c "$2"
}
ps_url() { echo "postgresql://postgres@/idemlab?host=$ps_dir/$1"; }

ps_streaming() {
  [ "$(ps_psql "$ps_primary" "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")" = 1 ]
}

ps_start_node() {  # NODE: postgres on its own socket folder, its pid in pids and ps_pidN
  setpriv --reuid=postgres --regid=postgres --init-groups -- "$pg_bin/postgres" \
    -D "$ps_dir/$1/data" -k "$ps_dir/$1" -c listen_addresses= \
    >>"$ps_dir/$1.log" 2>&1 &
  pids+=($!)
  printf -v "ps_pid${1#node}" '%s' "$!"
}

ps_base_backup() {  # NODE: its data folder made afresh from the primary's, set to follow it
  rm -rf "${ps_dir:?}/$1/data"
  as_user postgres "$pg_bin/pg_basebackup" -h "$ps_dir/$ps_primary" -U postgres \
    -D "$ps_dir/$1/data" -X stream -c fast -R >>"$ps_dir/$1.log" 2>&1
}

ps_make_synchronous() {  # the primary's COMMIT waits for its standby's flush
  ps_psql "$ps_primary" "ALTER SYSTEM SET synchronous_standby_names = '*'" >/dev/null
  ps_psql "$ps_primary" "SELECT pg_reload_conf()" >/dev/null
  wait_until 30 postgres-standby bash -c \
    "[ \"\$(\"$pg_bin/psql\" -qAtX -h '$ps_dir/$ps_primary' -U postgres -d idemlab -c \"SELECT sync_state FROM pg_stat_replication\")\" = sync ]"
}

ps_start() {  # DIR [sync]
  ps_dir=$1 ps_sync=${2:-} ps_primary=node1 ps_standby=node2 ps_down=""
  mkdir -p "$ps_dir/node1" "$ps_dir/node2"
  chown -R postgres: "$ps_dir"
  as_user postgres "$pg_bin/initdb" -D "$ps_dir/node1/data" -U postgres -A trust -N \
    --locale=C -E UTF8 >"$ps_dir/node1.log" 2>&1
  # Settings in the file ALTER SYSTEM writes, never on the command line: those would win
  # over a later ALTER SYSTEM (the moves change primary_conninfo and synchronous_standby_names).
  printf '%s\n' "wal_keep_size = '64MB'" "wal_receiver_status_interval = '1s'" "fsync = off" \
    "full_page_writes = off" "deadlock_timeout = '100ms'" "max_connections = 200" \
    "dynamic_shared_memory_type = mmap" >>"$ps_dir/node1/data/postgresql.auto.conf"
  ps_start_node node1
  wait_until 30 postgres-standby "$pg_bin/pg_isready" -q -h "$ps_dir/node1" -U postgres
  "$pg_bin/psql" -qX -h "$ps_dir/node1" -U postgres -d postgres -c "CREATE DATABASE idemlab" \
    >>"$ps_dir/node1.log"
  ps_base_backup node2
  ps_start_node node2
  wait_until 30 postgres-standby "$pg_bin/pg_isready" -q -h "$ps_dir/node2" -U postgres
  wait_until 30 postgres-standby ps_streaming
  [ "$ps_sync" != sync ] || ps_make_synchronous
}
pss_start() { ps_start "$1" sync; }

ps_urls() {
  echo "export IDEMLAB_TEST_PG_PRIMARY='$(ps_url "$ps_primary")'"
  echo "export IDEMLAB_TEST_PG_STANDBY='$(ps_url "${ps_standby:-$ps_down}")'"
  echo "export IDEMLAB_TEST_PG_CANDIDATES='postgresql://postgres@/idemlab?host=$ps_dir/node1,$ps_dir/node2&target_session_attrs=read-write'"
}
# The standby's reads are a flag to give, not a variable: IDEMLAB_READ_DB would send every
# command's reads there, a lesson's and a test's too.
ps_env() {
  echo "export IDEMLAB_DB='postgresql://postgres@/idemlab?host=$ps_dir/node1,$ps_dir/node2&target_session_attrs=read-write'"
  echo "# reads from the standby: --read-db \"\$IDEMLAB_TEST_PG_STANDBY\" (or export IDEMLAB_READ_DB=\"\$IDEMLAB_TEST_PG_STANDBY\" for every command)"
}
ps_state() { declare -p ps_dir ps_primary ps_standby ps_down ps_sync ps_pid1 ps_pid2; }
pss_urls() { ps_urls; }
pss_env() { ps_env; }
pss_state() { ps_state; }

ps_paused() { [ "$(ps_psql "$ps_standby" 'SELECT pg_get_wal_replay_pause_state()')" = paused ]; }
ps_no_link() {
  [ "$(ps_psql "$ps_standby" "SELECT count(*) FROM pg_stat_wal_receiver")" = 0 ] &&
    [ "$(ps_psql "$ps_primary" "SELECT count(*) FROM pg_stat_replication")" = 0 ]
}
# Whether every standby streaming from the primary has replayed all it has written (true at
# once when none streams: a cut link).
ps_caught_up() {
  [ "$(ps_psql "$ps_primary" "SELECT count(*) FROM pg_stat_replication WHERE replay_lsn IS NULL OR replay_lsn < pg_current_wal_lsn()")" = 0 ]
}
ps_writable() { [ "$(ps_psql "$ps_standby" "SELECT pg_is_in_recovery()")" = f ]; }

ps_need_standby() {
  [ -n "$ps_standby" ] ||
    { echo "error: $ps_down is down and there is no standby: scripts/servers postgres rejoin" >&2; exit 2; }
}

ps_failover() {
  ps_need_standby
  kill -QUIT "$(ps_pid_of "$ps_primary")" 2>/dev/null || true
  ps_psql "$ps_standby" "SELECT pg_promote(true, 60)" >/dev/null
  wait_until 60 postgres-standby ps_writable
  ps_down=$ps_primary ps_primary=$ps_standby ps_standby=""
}

ps_rejoin() {
  [ -n "$ps_down" ] || { echo "error: no node is down: scripts/servers postgres failover first" >&2; exit 2; }
  local node=$ps_down
  wait_until 30 postgres-standby bash -c "! kill -0 $(ps_pid_of "$node") 2>/dev/null"
  ps_base_backup "$node"
  ps_start_node "$node"
  ps_standby=$node ps_down=""
  wait_until 30 postgres-standby ps_streaming
  [ "$ps_sync" != sync ] || ps_make_synchronous
}

ps_pid_of() { local var="ps_pid${1#node}"; echo "${!var}"; }

ps_moves() { echo "pause-replay|resume-replay|cut|failover|rejoin"; }
pss_moves() { ps_moves; }
ps_move() {  # MOVE
  case ${1:-} in
    pause-replay)  # at a known point: once the standby replayed what the primary has written
      ps_need_standby
      wait_until 30 postgres-standby ps_caught_up
      ps_psql "$ps_standby" "SELECT pg_wal_replay_pause()" >/dev/null
      wait_until 10 postgres-standby ps_paused ;;
    resume-replay) ps_need_standby; ps_psql "$ps_standby" "SELECT pg_wal_replay_resume()" >/dev/null ;;
    cut)
      ps_need_standby
      ps_psql "$ps_standby" "ALTER SYSTEM SET primary_conninfo = ''" >/dev/null
      ps_psql "$ps_standby" "SELECT pg_reload_conf()" >/dev/null
      wait_until 30 postgres-standby ps_no_link ;;
    failover) ps_failover ;;
    rejoin) ps_rejoin ;;
    *) return 2 ;;
  esac
}
pss_move() { ps_move "$@"; }
