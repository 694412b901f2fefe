"""One item in a YAML list the user owns (Hermes: `plugins.enabled: [rtok]`), edited
through rtok.formats.yamltext so comments, anchors and the user's layout survive."""

from __future__ import annotations

from rtok.install.model import Action, FileEdit
from rtok.install.targets.base import PartTransforms, Target, settings_entry_edit


def _keys(target: Target) -> tuple[str, ...]:
    raw = target.option("keys", [])
    assert isinstance(raw, list)
    return tuple(str(k) for k in raw)


def yaml_list_item(target: Target, action: Action) -> FileEdit:
    from rtok.formats import yamltext  # ruamel.yaml is slow to import: only when needed

    keys = _keys(target)
    item = str(target.option("item"))

    def present(data: bytes | None) -> bool:
        items = yamltext.get(data, keys, None, label=target.path) if data else None
        return isinstance(items, list) and item in items

    def install(data: bytes | None) -> bytes | None:
        if present(data):
            return data
        return yamltext.append_to_list(data, keys, item, label=target.path)

    def remove(data: bytes) -> bytes:
        return yamltext.remove_from_list(
            data, keys, lambda value: value == item, prune=len(keys), label=target.path
        )

    def owned(data: bytes | None) -> bytes | None:
        return item.encode("utf-8") if present(data) else None

    transforms = PartTransforms.removing(target, install, remove, owned)
    return settings_entry_edit(target, action, transforms, f"{item!r} in {'.'.join(keys)}")
