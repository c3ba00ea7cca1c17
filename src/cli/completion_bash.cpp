// The bash completion: tables of commands, options and values, read by one function that
// splits the line itself, so that "--pitfall=NAME" and "crash:after=..." complete whole.
#include <fmt/format.h>

#include "cli/completions.h"

namespace idemlab {

namespace {

std::string bash_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string entry(const std::string& key, const std::string& value) {
  return fmt::format("  [{}]={}\n", bash_quoted(key), bash_quoted(value));
}

// Per command ("idemlab", "idemlab simulate", "idemlab token issue"): its options, and per option
// that takes a value, the words it takes ("" when any: then files).
void add_options(const std::string& command, const std::vector<OptionDoc>& options,
                 std::string* names, std::string* takes, std::string* positional) {
  std::vector<std::string> words;
  for (const OptionDoc& option : options) {
    if (option.positional) {
      *positional += entry(command, joined(option.values));
      continue;
    }
    for (const std::string& name : option.names) {
      words.push_back(name);
      if (option.takes_value) *takes += entry(command + " " + name, joined(option.values));
    }
  }
  *names += entry(command, joined(words));
}

constexpr std::string_view kFunction = R"bash(
_idemlab_reply() {  # compgen's arguments: the words it offers, one per line, into COMPREPLY
  local words
  words=$(compgen "$@")
  if [[ -n $words ]]; then mapfile -t COMPREPLY <<<"$words"; else COMPREPLY=(); fi
}
_idemlab() {
  local line=${COMP_LINE:0:COMP_POINT} cmd=idemlab i word
  local -a words
  read -ra words <<<"$line"
  [[ -z $line || $line =~ [[:space:]]$ ]] && words+=("")
  local cur=${words[${#words[@]} - 1]} prev=""
  ((${#words[@]} > 2)) && prev=${words[${#words[@]} - 2]}
  for ((i = 1; i < ${#words[@]} - 1; i++)); do
    word=${words[i]}
    if [[ $word == -* ]]; then
      [[ $word != *=* && -n ${_idemlab_takes["$cmd $word"]+set} ]] && ((i++))
    elif [[ " ${_idemlab_commands[$cmd]} " == *" $word "* ]]; then
      cmd="$cmd $word"
    fi
  done
  if [[ $prev == -* && $prev != *=* && -n ${_idemlab_takes["$cmd $prev"]+set} ]]; then
    local values=${_idemlab_takes["$cmd $prev"]}
    if [[ -n $values ]]; then
      _idemlab_reply -W "$values" -- "$cur"
    else
      _idemlab_reply -f -- "$cur"
    fi
  elif [[ $cur == --*=* ]]; then
    _idemlab_reply -W "${_idemlab_takes["$cmd ${cur%%=*}"]}" \
      -P "${cur%%=*}=" -- "${cur#*=}"
  elif [[ $cur == -* ]]; then
    _idemlab_reply -W "${_idemlab_options[$cmd]}" -- "$cur"
  else
    _idemlab_reply -W \
      "${_idemlab_commands[$cmd]} ${_idemlab_positional[$cmd]}" -- "$cur"
  fi
  # bash completes the part after the last ':' or '=': hand it only that part.
  if [[ $cur == *[:=]* ]]; then
    local prefix=${cur%"${cur##*[:=]}"}
    COMPREPLY=("${COMPREPLY[@]#"$prefix"}")
  fi
  [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *: ]] && compopt -o nospace 2>/dev/null
  return 0
}
complete -F _idemlab idemlab
)bash";

}  // namespace

std::string bash_completion(const CliDoc& cli) {
  std::string commands, options, takes, positional;
  std::vector<std::string> top;
  for (const CommandDoc& command : cli.commands) top.push_back(command.name);
  commands += entry("idemlab", joined(top));
  add_options("idemlab", cli.options, &options, &takes, &positional);
  each_command(cli, [&](const CommandDoc& command) {
    const std::string key = "idemlab " + command.name;
    add_options(key, command.options, &options, &takes, &positional);
    std::vector<std::string> nested;
    for (const CommandDoc& sub : command.commands)
      nested.push_back(sub.name.substr(sub.name.rfind(' ') + 1));
    if (!nested.empty()) commands += entry(key, joined(nested));
  });
  return fmt::format(
      "# bash completion for idemlab {}, generated from its command definitions by\n"
      "# `idemlab completion bash`.\n"
      "declare -gA _idemlab_commands=(\n{})\ndeclare -gA _idemlab_options=(\n{})\n"
      "declare -gA _idemlab_takes=(\n{})\ndeclare -gA _idemlab_positional=(\n{})\n{}",
      cli.version, commands, options, takes, positional, kFunction.substr(1));
}

}  // namespace idemlab
