"""Regenerate shipped/manifest.json: the hashes of every shipped template and awareness file.

Entries of earlier rtok versions are kept; the current version's entries are replaced by
what templates/ and awareness/ hold now. `--check` exits 1 (writing nothing) when the
committed manifest is out of date.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rtok import __version__  # noqa: E402
from rtok.integrity import manifest  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report whether it is stale")
    parser.add_argument(
        "--version", default=__version__, help="the rtok version the current files belong to"
    )
    args = parser.parse_args(argv)
    target = manifest.manifest_path()
    try:
        with open(target, encoding="utf-8") as handle:
            current_text: str | None = handle.read()
    except FileNotFoundError:
        current_text = None
    existing = json.loads(current_text) if current_text else None
    fresh = manifest.render_manifest(
        manifest.build_manifest(existing, args.version, manifest.shipped_files())
    )
    if fresh == current_text:
        print(f"{os.path.relpath(target, ROOT)} is up to date")
        return 0
    if args.check:
        relpath = os.path.relpath(target, ROOT)
        print(f"{relpath} is out of date: run scripts/gen_shipped_manifest.py")
        return 1
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(fresh)
    print(f"wrote {os.path.relpath(target, ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
