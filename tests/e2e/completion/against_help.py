"""Holds idemlab's man page and completions against --help: every subcommand (and nested one),
each of its options and positionals, and each exit code. Completions are asked for real (bash
by its function, fish by `complete -C`); zsh's file is read. Prints what it checked; exits 1
on the first list of misses."""
import re
import subprocess
import sys

idemlab, work = sys.argv[1], sys.argv[2]


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=False).stdout


def command_groups():
    """The headings `idemlab` alone prints over its groups of commands ("A ledger:", ...)."""
    text = subprocess.run([idemlab], capture_output=True, text=True, check=False).stdout
    return {line[:-1] for line in text.splitlines() if re.match(r"^\S.*:$", line)}


GROUPS = command_groups() | {"Subcommands"}


def help_of(command):
    """(options, positionals, subcommands) as `idemlab COMMAND --help` lists them."""
    text = run(idemlab, *command, "--help")
    options, positionals, subcommands, section = [], [], [], None
    for line in text.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
            continue
        head = re.match(r"^  (\S+)", line)
        if not head or section is None:
            continue
        if section == "Options":
            options += [re.sub(r"\[=.*", "", n) for n in head.group(1).split(",")
                        if n.startswith("-")]
        elif section == "Positionals":
            positionals.append(head.group(1))
        elif section in GROUPS:
            subcommands.append(head.group(1))
    return options, positionals, subcommands


def bash_offers(line):
    script = ('source "$1"; COMP_LINE=$2; COMP_POINT=${#2}; _idemlab; '
              'printf "%s\\n" "${COMPREPLY[@]}"')
    return set(run("bash", "-c", script, "_", f"{work}/idemlab.bash", line).split())


def fish_offers(lines):
    script = f"source {work}/idemlab.fish; " + "; ".join(
        f"echo '=== {i}'; complete -C '{line}'" for i, line in enumerate(lines))
    offers, current = {}, None
    for row in run("fish", "-c", script).splitlines():
        if row.startswith("=== "):
            current = int(row[4:])
            offers[current] = set()
        elif current is not None:
            offers[current].add(row.split("\t")[0])
    return offers


man = open(f"{work}/idemlab.1").read()
zsh = open(f"{work}/_idemlab").read()
misses = []
commands = [[name] for name in help_of([])[2]]
strategies = set(run(idemlab, "explain", "--json").split('"name":"')[i].split('"')[0]
                 for i in range(1, 10))
for command in list(commands):
    commands += [command + [sub] for sub in help_of(command)[2]]

fish_lines = [" ".join(["idemlab"] + c) + " --" for c in commands]
fish = fish_offers(fish_lines)
for index, command in enumerate(commands):
    options, positionals, _ = help_of(command)
    name = " ".join(command)
    heading = (f'.SS "idemlab {name}"' if command[0] not in strategies
               else '.SS "idemlab STRATEGY"' if len(command) == 1
               else f'.SS "idemlab {name}"')
    if heading not in man:
        misses.append(f"man: no section {heading}")
        continue
    section = man.split(heading, 1)[1].split(".SS ", 1)[0]
    listed = "\\fB" + name.replace("-", "\\-") + "\\fR"
    if command[0] in strategies and len(command) == 1 and listed not in section:
        misses.append(f"man: strategy {name} not listed")
    offered = bash_offers(f"idemlab {name} -")
    for option in options:
        roff = option.replace("-", "\\-")
        if roff not in section:
            misses.append(f"man: {name} {option}")
        if option not in offered:
            misses.append(f"bash: {name} {option}")
        if option.startswith("--") and option not in fish[index]:
            misses.append(f"fish: {name} {option}")
        if option not in zsh:
            misses.append(f"zsh: {option}")
    for positional in positionals:
        if f"\\fI{positional}\\fR" not in section:
            misses.append(f"man: {name} <{positional}>")
    zsh_case = f"    ({command[-1]})" if len(command) == 1 else f" == {command[-1]} ]]"
    if zsh_case not in zsh:
        misses.append(f"zsh: no case for {name}")

for code in re.findall(r"^  (\d+) ", run(idemlab, "--help"), re.M):
    if f".TP\n\\fB{code}\\fR" not in man:
        misses.append(f"man: exit code {code}")

# Names that complete as values, from the commands that list them.
names = {
    "--strategy": strategies,
    "--scenario": set(re.findall(r"^([a-z][a-z0-9-]*)$", run(idemlab, "scenarios"), re.M)),
    "--pitfall=": set(re.findall(r"--pitfall=([a-z-]+)", run(idemlab, "explain", "lock-table"))),
}
for option, words in names.items():
    sep = "" if option.endswith("=") else " "
    offered = bash_offers(f"idemlab simulate {option}{sep}")
    for word in words:
        if word not in offered:
            misses.append(f"bash: simulate {option}{sep}{word}")
lessons = set(re.findall(r"^\s*\d{1,2}\s+([a-z][-a-z]*)\s", run(idemlab, "lesson"), re.M))
if not lessons or not lessons <= bash_offers("idemlab lesson "):
    misses.append(f"bash: lesson names {sorted(lessons - bash_offers('idemlab lesson '))}")
faults = set(re.findall(r"^(\S+)", run(idemlab, "faults"), re.M))
offered = {word.rstrip(":") for word in bash_offers("idemlab simulate --fault ")}
if not faults & offered or not offered <= faults:
    misses.append(f"bash: fault names {sorted(offered)} against {sorted(faults)}")

print(f"{len(commands)} commands checked in the man page and three completions")
if misses:
    print("\n".join(misses))
    sys.exit(1)
