"""Regenerate rtok/compiled/*.py from the TOML sources in rules/ and integrations/.

Each generator is a function in `rtok.build` named `compile_<name>()` returning the text of
`rtok/compiled/<name>.py`. `--check` exits 1 when any committed module is out of sync.
"""

from __future__ import annotations

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rtok import build  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report modules out of sync")
    args = parser.parse_args()
    stale = []
    for name, text in build.compile_all().items():
        target = os.path.join(ROOT, "rtok", "compiled", f"{name}.py")
        try:
            with open(target, encoding="utf-8") as handle:
                current = handle.read()
        except FileNotFoundError:
            current = None
        if current == text:
            continue
        stale.append(name)
        if not args.check:
            with open(target, "w", encoding="utf-8") as handle:
                handle.write(text)
    for name in stale:
        print(("out of sync: " if args.check else "regenerated: ") + f"rtok/compiled/{name}.py")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    raise SystemExit(main())
