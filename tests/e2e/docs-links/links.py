"""Prints each link in the README and docs/ that does not resolve in the clone, and each line
that cites a file outside the repository (../ past the root, or the steering notes' shared/)."""
import glob
import os
import re
import sys

root = sys.argv[1]
link = re.compile(r"\]\(([^)\s]+)\)")
outside = re.compile(r"\.\./shared|(?<![\w/])shared/[A-Z][A-Z-]*\.md")
files = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
for path in files:
    shown = os.path.relpath(path, root)
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        for target in link.findall(line):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            full = os.path.normpath(os.path.join(os.path.dirname(path), target.split("#")[0]))
            if not full.startswith(root + os.sep) or not os.path.exists(full):
                print(f"{shown}:{number}: {target} does not resolve in the clone")
        if outside.search(line):
            print(f"{shown}:{number}: cites a file outside the repository")
