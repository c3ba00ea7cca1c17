# e2e: --help lists the commands and the exit codes; bad command lines are usage errors.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 "$IDEMLAB" --help
for word in init accounts select-insert naive token audit history explain "Exit codes" "75"; do
  expect_contains "$out" "$word"
done
expect_exit 2 "$IDEMLAB"
expect_one_error_line
expect_exit 2 "$IDEMLAB" no-such-command
expect_one_error_line
expect_exit 2 "$IDEMLAB" accounts --no-such-flag
expect_one_error_line
expect_exit 0 "$IDEMLAB" --version
finish
