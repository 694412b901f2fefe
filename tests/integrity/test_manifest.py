"""shipped/manifest.json: in sync with templates/ and awareness/, history kept, stock files
recognised whatever rtok path was substituted into them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rtok import __version__
from rtok.integrity import is_stock_artifact, known_versions_of, manifest
from rtok_testing import REPO_ROOT


def test_committed_manifest_matches_shipped_files() -> None:
    committed = Path(manifest.manifest_path()).read_text()
    fresh = manifest.render_manifest(
        manifest.build_manifest(json.loads(committed), __version__, manifest.shipped_files())
    )
    assert committed == fresh, "run scripts/gen_shipped_manifest.py"


def test_script_check_mode_agrees() -> None:
    result = subprocess.run(
        [sys.executable, "scripts/gen_shipped_manifest.py", "--check"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout


def test_every_shipped_file_is_in_the_manifest() -> None:
    files = manifest.shipped_files()
    assert any(k.startswith("templates/") for k in files)
    assert any(k.startswith("awareness/") for k in files)
    for relpath, data in files.items():
        assert __version__ in known_versions_of(relpath, data), relpath


def test_a_changed_template_makes_the_manifest_stale() -> None:
    files = manifest.shipped_files()
    committed = manifest.load_manifest()
    relpath = next(k for k in files if k.startswith("templates/"))
    changed = {**files, relpath: files[relpath] + b"\n"}
    rebuilt = manifest.build_manifest(committed, __version__, changed)
    assert manifest.render_manifest(rebuilt) != manifest.render_manifest(committed)


def test_earlier_versions_are_kept_and_current_replaced() -> None:
    old = manifest.build_manifest(None, "0.0.9", {"templates/x.ts": b"old bytes"})
    mid = manifest.build_manifest(old, "0.1.0", {"templates/x.ts": b"draft"})
    new = manifest.build_manifest(mid, "0.1.0", {"templates/x.ts": b"new bytes"})
    assert known_versions_of("templates/x.ts", b"old bytes", new) == ["0.0.9"]
    assert known_versions_of("x.ts", b"new bytes", new) == ["0.1.0"]
    assert not is_stock_artifact("templates/x.ts", b"draft", new)  # replaced, not kept
    same = manifest.build_manifest(new, "0.2.0", {"templates/x.ts": b"new bytes"})
    assert known_versions_of("templates/x.ts", b"new bytes", same) == ["0.1.0", "0.2.0"]


TEMPLATE = b'const RTOK_BIN = {{RTOK_BIN_JSON}};\nrun({{RTOK_BIN_JSON}}, "x");\n'


@pytest.mark.parametrize("value", ['"/usr/local/bin/rtok"', '"/h/v env/bin/rtok"', '""'])
def test_substituted_template_is_stock(value: str) -> None:
    doc = manifest.build_manifest(None, "0.1.0", {"templates/p.ts": TEMPLATE})
    written = TEMPLATE.replace(b"{{RTOK_BIN_JSON}}", value.encode())
    assert is_stock_artifact("templates/p.ts", written, doc)
    tampered = bytearray(written)
    tampered[-3] ^= 0x01
    assert not is_stock_artifact("templates/p.ts", bytes(tampered), doc)
    # Two different values in one file are not a substitution rtok makes.
    mixed = TEMPLATE.replace(b"{{RTOK_BIN_JSON}}", b'"/a"', 1).replace(
        b"{{RTOK_BIN_JSON}}", b'"/b"'
    )
    assert not is_stock_artifact("templates/p.ts", mixed, doc)


def test_two_distinct_placeholders() -> None:
    template = b"bin={{RTOK_BIN}} agent={{AGENT}} again={{RTOK_BIN}}\n"
    doc = manifest.build_manifest(None, "0.1.0", {"templates/t.sh": template})
    written = b"bin=/opt/rtok agent=codex again=/opt/rtok\n"
    assert is_stock_artifact("templates/t.sh", written, doc)
    assert not is_stock_artifact("templates/t.sh", written.replace(b"agent=", b"agant="), doc)


def test_real_templates_recognised_after_substitution() -> None:
    files = manifest.shipped_files()
    substituted = 0
    for relpath, data in files.items():
        if b"{{RTOK_BIN_JSON}}" not in data:
            continue
        written = data.replace(b"{{RTOK_BIN_JSON}}", json.dumps("/x y/bin/rtok").encode())
        assert is_stock_artifact(relpath, written), relpath
        assert not is_stock_artifact(relpath, written + b"// user edit\n"), relpath
        substituted += 1
    assert substituted > 0


def test_kind_lookup_covers_awareness() -> None:
    files = manifest.shipped_files()
    default = files["awareness/default.md"]
    assert is_stock_artifact("awareness_file", default)
    assert not is_stock_artifact("awareness_file", default + b"x")
    assert not is_stock_artifact("templates/nonexistent.ts", default)
