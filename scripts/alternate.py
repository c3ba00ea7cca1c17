#!/usr/bin/env python3
"""Times two commands run by run in alternation (A, B, A, B, ...), each after a reset command,
and prints: median of A in ms, median of B in ms, and A / B. Used by scripts/bench-cli.

usage: alternate.py --runs N --reset SCRIPT -- A ARGS... -- B ARGS...
"""
import statistics
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    runs = int(args[args.index("--runs") + 1])
    reset = args[args.index("--reset") + 1]
    first = args.index("--")
    second = args.index("--", first + 1)
    commands = [args[first + 1:second], args[second + 1:]]
    times = [[], []]
    for run in range(runs + 3):  # three warm-up rounds
        for which, command in enumerate(commands):
            subprocess.run(["bash", reset], check=True)
            start = time.perf_counter()
            done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            elapsed = time.perf_counter() - start
            if done.returncode != 0:
                sys.exit(f"error: {' '.join(command)} exited {done.returncode}: "
                         f"{done.stderr.decode().strip()}")
            if run >= 3:
                times[which].append(elapsed * 1000)
    ours, theirs = (statistics.median(t) for t in times)
    print(f"{ours:.2f} {theirs:.2f} {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
