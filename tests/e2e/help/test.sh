# e2e: --help groups the commands in the tool's own words and names no single engine; each
# command's help lists the exit codes it can give and no other (walked command by command);
# bad command lines are one error line with the usage where it helps.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 "$IDEMLAB" --help
first=$(printf '%s\n' "$out" | head -1)
case $first in *SQLite*|*PostgreSQL*|*MariaDB*) fail "--help's first line names one engine: $first" ;; esac
for heading in "A ledger:" "One attempt of a strategy, per process:" \
  "Transfers over HTTP and a queue:" "The simulator:" "The classroom:" "The shell:" "Exit codes:"; do
  expect_contains "$out" "$heading"
done
for noise in "INT:" "TEXT:" "UINT" "(Env:" "Subcommands:" "SUBCOMMAND"; do
  case $out in *"$noise"*) fail "--help shows CLI11's '$noise'" ;; esac
done

# `idemlab` alone: the usage and the groups, then one error line.
expect_exit 2 "$IDEMLAB"
expect_one_error_line
expect_contains "$out" "usage: idemlab COMMAND"
expect_contains "$out" "The simulator:"
expect_exit 2 "$IDEMLAB" no-such-command
expect_one_error_line
expect_contains "$err" "unknown command 'no-such-command'"
expect_exit 2 "$IDEMLAB" accounts --no-such-flag
expect_one_error_line
case $err in *[A-Z]*rror*|*"The following"*) fail "CLI11's own words: $err" ;; esac
expect_exit 2 "$IDEMLAB" simulate --retry
expect_one_error_line
expect_contains "$err" "--retry needs a value"
expect_exit 0 "$IDEMLAB" --version

# Every command's exit codes: those it can give, from this table written apart from the code.
# 0 1 2 always; what each adds.
declare -A adds=(
  [init]="8 75" [accounts]="8 75" [audit]="7 8 75" [history]="8 75" [query]="3 5 8 9 75"
  [limit]="3 8 75" [http]="3 4 5 6 8 9 75" [serve]="8 75" [publish]="8 75"
  [consume]="8 10 75 130/143" [simulate]="7 8 75 130/143" [compare]="7 8 75 130/143"
  [explore]="7 8 75 130/143" [faults]="" [scenarios]="" [explain]="" [lesson]="11 130/143"
  [report]="7 8 75 130/143" [completion]="" [manual]="" [topology]=""
)
strategy_adds="3 4 5 6 8 75"
codes_of() {  # the codes an Exit codes: section lists, one line
  printf '%s\n' "$1" | sed -n '/^Exit codes:/,$p' | grep -oE '^  ([0-9]+|130/143)' | tr -d ' ' |
    tr '\n' ' ' | sed 's/ $//'
}
commands=$("$IDEMLAB" | sed -n '/:$/,$p' | grep '^  ' | tr ',' '\n' | tr -d ' ')
walked=0
for command in $commands; do
  expect_exit 0 "$IDEMLAB" "$command" --help
  if [ "${adds[$command]+set}" = set ]; then want="0 1 2 ${adds[$command]}"; else want="0 1 2 $strategy_adds"; fi
  want=$(printf '%s' "$want" | sed 's/ $//')
  expect_equal "$(codes_of "$out")" "$want" "exit codes in '$command --help'"
  walked=$((walked + 1))
done
expect_equal "$walked" 30 "commands walked"
expect_exit 0 "$IDEMLAB" token issue --help
expect_equal "$(codes_of "$out")" "0 1 2 8 75" "exit codes in 'token issue --help'"
expect_exit 0 "$IDEMLAB" token --help  # the token strategy's attempt
expect_equal "$(codes_of "$out")" "0 1 2 $strategy_adds" "exit codes in 'token --help'"
# What 0 means where it is not "applied": a run finishes whatever its rows show.
expect_exit 0 "$IDEMLAB" compare --help
expect_contains "$out" "0   the run finished, whatever its rows show"
finish
