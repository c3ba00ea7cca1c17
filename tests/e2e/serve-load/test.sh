# e2e: wrk sends every key twice at 32 connections to idemlab serve on a SQLite file: every safe
# strategy moves each key's money once (the audit is clean), naive moves it twice. Then serve is
# killed (SIGKILL) under load and restarted, and every request retried with curl until it has a
# definitive answer moves money exactly once.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../serve_lib.sh"
source "$(dirname "$0")/checks.sh"
duplicates_checks "$work/load.db" 100
killed_under_load_checks "$work/killed.db"
finish
