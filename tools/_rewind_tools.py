"""Shared helpers of the reliability scripts in tools/: the release binary, temporary folders.

Not a script: imported by crash-test, concurrency-test and fuzz (Python 3, standard library).
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def release_binary():
    """Returns the path of the release `rewind`, building it only when a source is newer."""
    binary = os.path.join(ROOT, ".build", "release", "rewind")
    if not os.path.exists(binary) or _newest_source() > os.path.getmtime(binary):
        print("building the release binary (swift build -c release)...", file=sys.stderr, flush=True)
        subprocess.run(
            ["swift", "build", "-c", "release", "--product", "rewind"],
            cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
        )
    return binary


def _newest_source():
    newest = 0.0
    for name in ("Package.swift", "Package.resolved"):
        path = os.path.join(ROOT, name)
        if os.path.exists(path):
            newest = max(newest, os.path.getmtime(path))
    for folder, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in files:
            newest = max(newest, os.path.getmtime(os.path.join(folder, name)))
    return newest


def positive_int(text, name):
    """Parses a count from the command line, or exits with the usage error code 64."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        print(f"{name} must be a whole number above 0, not {text!r}", file=sys.stderr)
        sys.exit(64)
    return value
