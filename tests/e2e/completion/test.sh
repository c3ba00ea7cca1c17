# e2e: the man page and the bash, zsh and fish completions are made from the command
# definitions; this holds them against --help, command by command: every subcommand, option and
# exit code is in the man page, every option in each completion, and the values of strategies,
# pitfalls, scenarios, faults and lessons complete. Each shell is asked for real completions,
# as it asks at <TAB> (zsh on a pseudo-terminal).
source "$(dirname "$0")/../lib.sh"
"$IDEMLAB" manual >"$work/idemlab.1" || fail "idemlab manual"
"$IDEMLAB" completion bash >"$work/idemlab.bash" || fail "completion bash"
"$IDEMLAB" completion zsh >"$work/_idemlab" || fail "completion zsh"
"$IDEMLAB" completion fish >"$work/idemlab.fish" || fail "completion fish"

# What a shell offers at <TAB> after LINE: one word per line.
bash_offers() {
  bash -c 'source "$1"; COMP_LINE=$2; COMP_POINT=${#2}; _idemlab; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$work/idemlab.bash" "$1"
}
expect_equal "$(bash_offers "idemlab sel")" "$(printf 'select-insert\nselect-for-update')" \
  "bash: idemlab sel<TAB>"
expect_equal "$(bash_offers "idemlab simulate --pitfall=ab")" "aba" "bash: --pitfall=NAME"
expect_equal "$(bash_offers "idemlab --width 90 lesson queue-")" "queue-redelivers" \
  "bash: a lesson's name, after a global option and its value"
expect_equal "$(bash_offers "idemlab consume --ack o")" "on-receipt" "bash: an option's values"
expect_equal "$(bash_offers "idemlab token iss")" "issue" "bash: a nested command"

expect_exit 0 zsh -n "$work/_idemlab"
# What zsh offers at <TAB> after LINE, asked through a pseudo-terminal.
zsh_offers() {
  mkdir -p "$work/fpath" && cp "$work/_idemlab" "$work/fpath/" && rm -f "$work/hits"
  PATH=$(dirname "$IDEMLAB"):$PATH timeout 60 zsh -f "$(dirname "$0")/zsh_offers.zsh" \
    "$work/fpath" "$work/hits" "$1" >/dev/null 2>&1
  sort -u "$work/hits" 2>/dev/null
}
expect_equal "$(zsh_offers "idemlab sel")" "$(printf 'select-for-update\nselect-insert')" \
  "zsh: idemlab sel<TAB>"
expect_equal "$(zsh_offers "idemlab simulate --pitfall=ab")" "aba" "zsh: --pitfall=NAME"
expect_equal "$(zsh_offers "idemlab token is")" "issue" "zsh: a nested command"
expect_equal "$(zsh_offers "idemlab --width 90 lesson queue-")" "queue-redelivers" \
  "zsh: a lesson's name, after a global option and its value"
expect_exit 0 fish -n "$work/idemlab.fish"
expect_equal "$(fish -c "source $work/idemlab.fish; complete -C 'idemlab sel'" | cut -f1)" \
  "$(printf 'select-for-update\nselect-insert')" "fish: idemlab sel<TAB>"

# Every command of --help, against each file.
expect_exit 0 python3 "$(dirname "$0")/against_help.py" "$IDEMLAB" "$work"
[ -n "$out" ] && echo "$out"

# The page renders.
expect_exit 0 env MANWIDTH=80 man -l "$work/idemlab.1"
expect_contains "$out" "EXIT STATUS"
expect_contains "$out" "idemlab consume"
expect_contains "$out" "REFERENCES"
expect_contains "$out" "https://www.cnblogs.com/jajian/p/10926681.html"
# ... at 80 columns without a line troff could not fit ("cannot adjust line").
warnings=$(MANWIDTH=80 man --warnings -l "$work/idemlab.1" 2>&1 >/dev/null)
[ -z "$warnings" ] || fail "man at 80 columns warns: $warnings"
finish
