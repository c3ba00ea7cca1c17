# Client sessions held open by a test, for running statements by hand on the test servers: each
# reads its SQL from a FIFO, so the test decides when each statement goes, and sees from the
# server itself (never a timer) when one waits for a lock. Sourced after lib.sh; needs $maria
# (the MariaDB URL).
maria_socket=${maria##*socket=}
sql_session() {  # NAME URL: a client session fed through the FIFO $work/NAME.fifo
  rm -f "$work/$1.fifo"; mkfifo "$work/$1.fifo"
  case $2 in
    postgresql://*) psql -qAtX -v VERBOSITY=verbose "$2" <"$work/$1.fifo" >"$work/$1.out" 2>&1 & ;;
    *) mariadb --no-defaults --force -n -N -S "$maria_socket" -u idemlab -pidemlab "$(db_name "$2")" \
         <"$work/$1.fifo" >"$work/$1.out" 2>&1 & ;;
  esac
}
until_output() {  # NAME TEXT: wait until session NAME has printed TEXT
  local _
  for _ in $(seq 1 6000); do grep -q "$2" "$work/$1.out" 2>/dev/null && return 0; sleep 0.01; done
  fail "session $1 never printed $2: $(cat "$work/$1.out")"
}
waiting_sessions() {  # URL -> how many sessions of URL's database wait for a lock
  # Only this database's: the suite runs in parallel, and other tests' waits are on the same
  # servers.
  case $1 in
    postgresql://*) psql -qAtX "$1" -c "SELECT count(*) FROM pg_stat_activity
                                        WHERE wait_event_type = 'Lock' AND datname = current_database()" ;;
    # Not INNODB_TRX: InnoDB refreshes that copy only after 100 ms without a read, so a test
    # asking every few ms would read a stale one for ever. The status report is built when asked;
    # its TRANSACTIONS section (not LATEST DETECTED DEADLOCK, a past one) names each waiting
    # transaction's thread, and the process list says whose database it is.
    *) local threads
       threads=$(mariadb --no-defaults -N -r -S "$maria_socket" -u root -e "SHOW ENGINE INNODB STATUS" |
         awk '/^TRANSACTIONS$/ { now = 1 } /^FILE I\/O$/ { now = 0 }
              now && /^LOCK WAIT / { wait = 1; next }
              wait && match($0, /thread id [0-9]+/) { print substr($0, RSTART + 10, RLENGTH - 10) }
              { wait = 0 }' | paste -sd, -)
       [ -n "$threads" ] || { echo 0; return; }
       mariadb --no-defaults -N -S "$maria_socket" -u root -e "SELECT count(*) FROM
         information_schema.PROCESSLIST WHERE ID IN ($threads) AND DB = '$(db_name "$1")'" ;;
  esac
}
until_waiting_or_output() {  # URL NAME TEXT: until a session waits for a lock, or NAME printed TEXT
  local _
  for _ in $(seq 1 6000); do
    grep -q "$3" "$work/$2.out" 2>/dev/null && return 0
    [ "$(waiting_sessions "$1")" -ge 1 ] && return 0
    sleep 0.01
  done
  fail "neither a lock wait nor $3 from session $2: $(cat "$work/$2.out")"
}
