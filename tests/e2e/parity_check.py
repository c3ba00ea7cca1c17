"""The parity table's check: every row of one topology, run in the model and held against what
the topology's test recorded on the servers (parity_live) and what the table says.

usage: parity_check.py TABLE TOPOLOGY LIVE IDEMLAB
Prints one line per row: "ok CASE ..." or what disagreed."""
import json
import subprocess
import sys


def rows(table, topology):
    for line in open(table, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) != 7:
            sys.exit(f"parity.table: 7 cells wanted, {len(cells)} in: {line.strip()}")
        if cells[0] == topology:
            yield cells[1], int(cells[3]), cells[4], cells[5].split()


def answer_of_exit(code):
    """The client's last exit: 0 applied; 5 (in_progress) and 75 (unknown) unknown."""
    return {0: "applied", 5: "unknown", 75: "unknown"}.get(code, "refused")


def model(idemlab, words):
    """The model's moves and its client's last answer for the row's one request."""
    verb, args = words[0], words[1:]
    extra = ["--requests", "1"] if verb == "simulate" else []
    run = subprocess.run([idemlab, verb, *args, *extra, "--json"], capture_output=True,
                         text=True, check=True)
    d = json.loads(run.stdout)
    if verb == "explore":  # some interleaving moved money twice, or none did
        return (2 if "moved_twice_or_more" in d["by_invariant"] else 1), "-"
    moved = d["moved_once"] + 2 * d["moved_twice_or_more"]
    if moved:
        return moved, "unknown" if d["unknown_to_client"] else "applied"
    if d["never_moved"]:
        return 0, "applied"
    return 0, "refused" if d["refused"] else "unknown"


def said(result):
    return f"moved {result[0]}, {result[1]}"


def main(table, topology, live_file, idemlab):
    live = {}
    for line in open(live_file, encoding="utf-8"):
        case, moved, code = line.split()
        live[case] = (int(moved), answer_of_exit(int(code)))
    seen = set()
    for case, moved, answer, words in rows(table, topology):
        seen.add(case)
        if case not in live:
            print(f"{case}: a row the servers did not run")
            continue
        server = live[case]
        if answer == "-":
            server = (server[0], "-")
        modelled = model(idemlab, words)
        want = (moved, answer)
        if server == want == modelled:
            print(f"ok {case}: moved {moved}, {answer}, on the servers and in the model")
        else:
            print(f"{case}: the table says {said(want)}, the servers gave {said(server)}, "
                  f"the model gave {said(modelled)} (idemlab {' '.join(words)})")
    for case in sorted(set(live) - seen):
        print(f"{case}: run on the servers, but no row of {topology} in the table")


if __name__ == "__main__":
    main(*sys.argv[1:])
