"""Shared helpers of the reliability scripts in tools/: the release binary, counts, row checksums.

Not a script: imported by crash-test, concurrency-test and fuzz (Python 3, standard library).
"""
import json
import os
import struct
import subprocess
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def release_binary(team_store=False, product="rewind"):
    """Returns the path of the release `rewind` (or of another `product`), building it only
    when a source is newer; with `team_store`, the one built with the Servers trait (in
    .build-teamstore-release)."""
    scratch = ".build-teamstore-release" if team_store else ".build"
    binary = os.path.join(ROOT, scratch, "release", product)
    if not os.path.exists(binary) or _newest_source() > os.path.getmtime(binary):
        command = ["swift", "build", "-c", "release", "--product", product]
        if team_store:
            command += ["--traits", "Servers", "--scratch-path", scratch]
        print(f"building the release binary ({' '.join(command)})...", file=sys.stderr, flush=True)
        subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
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


# Row checksums ------------------------------------------------------------------------------
# The same hash over framed 64-bit words as Sources/RewindLog/Schema/RowChecksum.swift, so that
# a script can reseal rows it changed on purpose: a valid-but-wrong row, which only the
# readers' other checks (digests, bounds) can tell.

COLUMNS = {
    "session": ["id", "name", "flow", "started_at", "ended_at", "format_version", "schema_version",
                "initial_state", "initial_digest", "redacted_paths"],
    "event": ["session_id", "step", "time", "origin", "action_type", "action", "cause", "outputs", "digest",
              "keyframe", "patch"],
    "gap": ["session_id", "first_step", "last_step", "reason"],
    "event_block": ["session_id", "first_step", "last_step", "keyframe", "last_time", "size", "data"],
    "session_meta": ["session_id", "uuid", "app", "app_version", "app_build", "device", "os", "origin", "tags"],
}
# Tables without a rowid, keyed by these columns instead.
KEYS = {"event": ["session_id", "step"], "event_block": ["session_id", "first_step"]}
_MASK = (1 << 64) - 1


class RowChecksum:
    def __init__(self, table):
        self.hash = 0xCBF29CE484222325
        self.add("text", table.encode())

    def _mix(self, word):
        self.hash = ((self.hash ^ word) * 0x9E3779B97F4A7C15) & _MASK
        self.hash ^= self.hash >> 32

    def add(self, kind, value):
        """Adds a value by its SQLite type: null, integer, real, text (bytes) or blob."""
        if kind == "null":
            self._mix(0)
        elif kind == "integer":
            self._mix(1)
            self._mix(value & _MASK)
        elif kind == "real":
            self._mix(2)
            self._mix(struct.unpack("<Q", struct.pack("<d", value))[0])
        else:
            self._mix(3 if kind == "text" else 4)
            self._mix(len(value))
            for start in range(0, len(value), 8):
                self._mix(int.from_bytes(value[start:start + 8], "little"))

    @property
    def value(self):
        return self.hash - (1 << 64) if self.hash >= 1 << 63 else self.hash


def reseal(connection):
    """Recomputes the checksum of every row of a log (formats 2 to 4), as the writer would have."""
    connection.text_factory = bytes
    tables = {row[0].decode() if isinstance(row[0], bytes) else row[0]
              for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table, columns in COLUMNS.items():
        if table not in tables:
            continue
        keys = KEYS.get(table, ["rowid"])
        typed = ", ".join(f"typeof({column}), {column}" for column in columns)
        rows = connection.execute(f"SELECT {', '.join(keys)}, {typed} FROM {table}").fetchall()
        for row in rows:
            key, values = row[:len(keys)], row[len(keys):]
            checksum = RowChecksum(table)
            for index in range(0, len(values), 2):
                kind = values[index].decode() if isinstance(values[index], bytes) else values[index]
                checksum.add(kind, values[index + 1])
            where = " AND ".join(f"{column} = ?" for column in keys)
            connection.execute(f"UPDATE {table} SET checksum = ? WHERE {where}", (checksum.value, *key))


# Blocks (format 3) --------------------------------------------------------------------------
# A session's steps in blocks: each row of event_block holds a JSON array of one record per
# step, zlib-compressed, or as is when its length equals `size` (docs/log-format.md).

def block_records(data, size):
    """The records of a stored block, or None when it does not inflate or parse."""
    try:
        text = data if len(data) == size else zlib.decompress(data)
        return json.loads(text)
    except (zlib.error, ValueError, TypeError):
        return None


def block_data(records):
    """A block's (size, data) for its records, written as Rewind writes JSON: no white space."""
    text = json.dumps(records, separators=(",", ":"), ensure_ascii=False).encode()
    data = zlib.compress(text, 1)
    return len(text), (data if len(data) < len(text) else text)
