"""checkfiles.py: what atom.py and jsonfeed.py share: check(data), made
from a checker class, and the command line."""
import os
import sys


def checker(cls):
    """check(data): the faults (strings) that cls().feed(data) finds in
    one document (bytes), in cls().faults."""
    def check(data):
        c = cls()
        c.feed(data)
        return c.faults
    return check


def main(argv, check):
    """Runs check(bytes) -> [fault] on each file named in argv[1:] and
    prints "FILE: error: FAULT" for each fault; returns 1 if any, 2 with
    no file."""
    if len(argv) < 2:
        print(f"usage: {os.path.basename(argv[0])} FILE...", file=sys.stderr)
        return 2
    bad = 0
    for path in argv[1:]:
        with open(path, "rb") as f:
            for fault in check(f.read()):
                print(f"{path}: error: {fault}")
                bad += 1
    return 1 if bad else 0
