"""The strategy registry: one record per strategy, and the facts the validator and the
integrations read from it agree with each other."""

from __future__ import annotations

from rtok.formats.dialects import DIALECTS
from rtok.install import integrations
from rtok.install.strategies import STRATEGIES


def test_every_descriptor_entry_names_a_registered_strategy() -> None:
    used = {
        spec.strategy
        for descriptor in integrations.load_descriptors().values()
        for specs in descriptor.files.values()
        for spec in specs
    }
    assert used <= set(STRATEGIES)


def test_the_records_are_consistent() -> None:
    for name, record in STRATEGIES.items():
        assert record.name == name
        assert not set(record.required) & set(record.optional), name
        assert record.keys == set(record.required) | set(record.optional), name
        assert record.dialect == "" or record.dialect in DIALECTS, name
        # A file another entry points at is one kind of thing only.
        assert not (record.awareness_file and record.hook_file), name
        assert record.awareness or not record.awareness_file, name
        key, message = record.refers
        assert (key == "") == (message == ""), name
        assert key == "" or key in record.required, name


def test_is_awareness_of_an_entry_comes_from_its_strategy() -> None:
    for descriptor in integrations.load_descriptors().values():
        for specs in descriptor.files.values():
            for spec in specs:
                assert spec.is_awareness == STRATEGIES[spec.strategy].awareness
