# The Patroni topology's moves (scripts/lib/patroni.sh says what each does) and its stop.

pt_postmaster() {  # N: node N's postmaster pid, if it runs
  local file=$pt_dir/node$1/data/postmaster.pid
  [ -f "$file" ] && head -1 "$file"
}
pt_processes() {  # N: node N's Patroni, its postmaster and every child of the postmaster
  local pm; pm=$(pt_postmaster "$1" || true)
  echo "${pt_pid[$1]:-}"
  [ -n "$pm" ] && kill -0 "$pm" 2>/dev/null && { echo "$pm"; ps -o pid= --ppid "$pm"; }
  return 0
}
pt_signal() {  # SIGNAL N: one kill, so that no process of the node sees another go first
  # shellcheck disable=SC2046
  kill -"$1" $(pt_processes "$2") 2>/dev/null || true
}

# Patroni's view and PostgreSQL's agree on the synchronous replica (none when asynchronous): the
# replica the leader's COMMITs wait for is the one the DCS names, the one Patroni would
# promote. A leader lost while they differ (a replica that rejoined being made synchronous) may
# leave no node Patroni will promote.
pt_settled() {
  local n; n=$(pt_leader) || return 1
  local names; names=$(pt_sql "$n" "SHOW synchronous_standby_names") || return 1
  [ -z "$names" ] && return 0
  local replicating; replicating=$(pt_sql "$n" "SELECT application_name FROM pg_stat_replication WHERE sync_state = 'sync'")
  local named; named=$(curl -s --max-time 1 "http://127.0.0.1:${pt_api[$((n - 1))]}/cluster" |
    /usr/bin/python3 -c 'import json, sys; print(" ".join(m["name"] for m in json.load(sys.stdin)["members"] if m["role"] == "sync_standby"))')
  [ -n "$replicating" ] && [ "$replicating" = "$named" ]
}

# The leader, waiting up to 30 s for one to answer: each probe is a REST call with a 1 s limit,
# which a machine busy with other servers can miss (a move once found no leader in one pass,
# right after a request the leader had answered).
pt_need_leader() {
  local n deadline=$((SECONDS + 30))
  until n=$(pt_leader); do
    [ "$SECONDS" -lt "$deadline" ] ||
      { echo "error: no node leads the Patroni cluster now; scripts/servers patroni rejoin or resume" >&2; exit 2; }
    sleep 0.2
  done
  echo "$n"
}

# The leader gets SIGNAL; returns once Patroni has promoted another node that takes writes.
# VARIABLE (pt_down or pt_paused) keeps which node it was, until the move named undoes it.
pt_lose_leader() {  # SIGNAL VARIABLE STATE UNDO
  local held=${!2}
  [ -z "$held" ] || { echo "error: node $held is $3 already: scripts/servers patroni $4" >&2; exit 2; }
  local old; old=$(pt_need_leader)
  wait_until 30 patroni pt_settled
  pt_signal "$1" "$old"
  printf -v "$2" '%s' "$old"
  wait_until 60 patroni pt_new_leader "$old"
}
pt_failover() { pt_lose_leader KILL pt_down down rejoin; }
pt_pause_leader() { pt_lose_leader STOP pt_paused paused resume; }

pt_rejoin() {
  [ -n "$pt_down" ] || { echo "error: no node is down: scripts/servers patroni failover first" >&2; exit 2; }
  wait_until 30 patroni bash -c "! kill -0 ${pt_pid[$pt_down]} 2>/dev/null"
  pt_start_node "$pt_down"
  pt_down=""
  wait_until 90 patroni pt_streaming 2
  wait_until 30 patroni pt_settled
}

pt_switchover() {
  local old; old=$(pt_need_leader)
  patronictl -c "$pt_dir/node$old.yml" switchover --force >>"$pt_dir/moves.log" 2>&1
  wait_until 60 patroni pt_new_leader "$old"
  wait_until 90 patroni pt_streaming 2
}

pt_resume() {
  [ -n "$pt_paused" ] || { echo "error: no node is paused: scripts/servers patroni pause-leader first" >&2; exit 2; }
  pt_signal CONT "$pt_paused"
  pt_paused=""
  wait_until 90 patroni pt_streaming 2
  wait_until 30 patroni pt_settled
}

# The paused node's PostgreSQL goes on while its Patroni stays stopped: a primary that its HA
# manager no longer names leader, answering its clients as one, as a resumed old primary does
# until its Patroni next looks. Returns once it takes writes; `resume` then lets Patroni go on.
pt_resume_postgres() {
  [ -n "$pt_paused" ] || { echo "error: no node is paused: scripts/servers patroni pause-leader first" >&2; exit 2; }
  local pm; pm=$(pt_postmaster "$pt_paused")
  # shellcheck disable=SC2046
  kill -CONT "$pm" $(ps -o pid= --ppid "$pm") 2>/dev/null || true
  wait_until 10 patroni pt_writable "$pt_paused"
}

pt_sync_state() {  # on|off: the leader's replication is synchronous, or not at all
  local n; n=$(pt_leader) || return 1
  local names; names=$(pt_sql "$n" "SHOW synchronous_standby_names") || return 1
  if [ "$1" = off ]; then
    [ -z "$names" ]
  else
    [ "$(pt_sql "$n" "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" -ge 1 ]
  fi
}

pt_sync() {  # off|on|strict
  local mode strict
  case ${1:-} in
    off) mode=false strict=false ;;
    on) mode=true strict=false ;;
    strict) mode=true strict=true ;;
    *) echo "usage: scripts/servers patroni sync off|on|strict" >&2; exit 2 ;;
  esac
  local n; n=$(pt_need_leader)
  curl -s --max-time 10 -XPATCH -o /dev/null \
    -d "{\"synchronous_mode\": $mode, \"synchronous_mode_strict\": $strict}" \
    "http://127.0.0.1:${pt_api[$((n - 1))]}/config"
  wait_until 30 patroni pt_sync_state "$([ "$mode" = true ] && echo on || echo off)"
}

pt_walsenders() {  # N: the pids of node N's walsenders
  local pm; pm=$(pt_postmaster "$1") || return 0
  ps -o pid=,args= --ppid "$pm" | awk '/walsender/ {print $1}'
}
pt_stopped() {  # PID...: each is stopped (state T)
  local pid
  for pid in "$@"; do grep -q '^State:.T' "/proc/$pid/status" || return 1; done
}

pt_cut() {
  local n; n=$(pt_need_leader)
  local senders; senders=$(pt_walsenders "$n")
  [ "$(wc -w <<<"$senders")" -ge 2 ] ||
    { echo "error: node $n has fewer than two walsenders: the replicas are not streaming" >&2; exit 2; }
  # shellcheck disable=SC2086
  kill -STOP $senders
  # shellcheck disable=SC2086
  wait_until 10 patroni pt_stopped $senders
}

pt_moves() { echo "switchover|failover|rejoin|pause-leader|resume|sync|cut"; }
pt_move() {  # MOVE [ARG]
  case ${1:-} in
    switchover) pt_switchover ;;
    failover) pt_failover ;;
    rejoin) pt_rejoin ;;
    pause-leader) pt_pause_leader ;;
    resume)
      case ${2:-} in
        "") pt_resume ;;
        postgres) pt_resume_postgres ;;
        *) echo "usage: scripts/servers patroni resume [postgres]" >&2; exit 2 ;;
      esac ;;
    sync) pt_sync "${2:-}" ;;
    cut) pt_cut ;;
    *) return 2 ;;
  esac
}

# Before the pids are stopped: every node goes on (SIGCONT); the replicas' Patroni stop before
# the leader's (a leader stopped first hands its key to a replica about to stop too), while etcd
# still runs; then any PostgreSQL process left is killed.
pt_stop() {
  [ -n "$pt_dir" ] || return 0
  local n leader replicas=()
  leader=$(pt_leader || true)
  for n in 1 2 3; do
    pt_signal CONT "$n"
    [ "$n" = "$leader" ] || replicas+=("$n")
  done
  pt_term_wait "${replicas[@]}"
  [ -z "$leader" ] || pt_term_wait "$leader"
  for n in 1 2 3; do pt_signal KILL "$n"; done
}
pt_term_wait() {  # N...: their Patroni stopped (SIGTERM), each waited for (SIGKILL after 20 s)
  local n pid deadline=$((SECONDS + 20))
  for n in "$@"; do kill -TERM "${pt_pid[$n]:-0}" 2>/dev/null || true; done
  for n in "$@"; do
    pid=${pt_pid[$n]:-0}
    while [ -d "/proc/$pid" ] && ! grep -q '^State:.Z' "/proc/$pid/status" 2>/dev/null; do
      [ "$SECONDS" -ge "$deadline" ] && { kill -KILL "$pid" 2>/dev/null || true; break; }
      sleep 0.1
    done
  done
}
