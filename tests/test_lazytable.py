"""rtok._fast.lazytable: the registry's large tables, each entry unmarshalled at first lookup."""

from __future__ import annotations

import marshal
from typing import Any

import pytest

from rtok._fast.lazytable import LazyTable, with_lazy_sections
from rtok.compiled.registry import REGISTRY
from rtok.rewrite.registry_source import LAZY_SECTIONS, compiled_registry

ENTRIES: dict[str, dict[str, Any]] = {
    "git": {"commands": ("git",), "bare": True},
    "ls": {"commands": ("ls",)},
}


def _table() -> LazyTable:
    return LazyTable({name: marshal.dumps(entry, 0) for name, entry in ENTRIES.items()})


def test_names_are_read_without_unmarshalling_any_entry() -> None:
    table = _table()
    assert "git" in table and "nope" not in table and len(table) == 2
    assert list(table) == ["git", "ls"] and list(table.keys()) == ["git", "ls"]
    assert table._entries == {}


def test_an_entry_is_made_once_at_its_first_lookup() -> None:
    table = _table()
    first = table["git"]
    assert first == ENTRIES["git"] and table["git"] is first
    assert table.get("ls") == ENTRIES["ls"]
    assert table.get("nope") is None and table.get("nope", 7) == 7
    with pytest.raises(KeyError):
        table["nope"]


def test_a_table_equals_the_dict_it_was_made_from() -> None:
    table = _table()
    assert table == ENTRIES and table == ENTRIES and table == _table()
    assert table != {"git": ENTRIES["git"]}
    assert dict(table.items()) == ENTRIES and list(table.values()) == list(ENTRIES.values())
    with pytest.raises(TypeError):
        hash(table)


def test_with_lazy_sections_wraps_only_the_named_sections() -> None:
    data = with_lazy_sections(
        {"groups": {"git": marshal.dumps({"bare": True}, 0)}, "never": ("rm",)}, ("groups",)
    )
    assert isinstance(data["groups"], LazyTable) and data["never"] == ("rm",)


def test_the_compiled_registry_keeps_its_large_tables_lazy_and_equal_to_the_source() -> None:
    for section in LAZY_SECTIONS:
        assert isinstance(REGISTRY[section], LazyTable)  # type: ignore[literal-required]
    assert compiled_registry() == REGISTRY
