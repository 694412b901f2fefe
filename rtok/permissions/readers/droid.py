"""Droid's rule format: `commandBlocklist` and `commandDenylist` in strict-JSON settings.

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok._fast import oslite as os
from rtok.permissions.readers import project_root, strings, unique
from rtok.permissions.settings import read_settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from rtok.permissions.settings import Rules


def droid_settings_files(cwd: str, env: Mapping[str, str]) -> list[str]:
    """`${FACTORY_HOME_OVERRIDE:-$HOME}/.factory` then `<project>/.factory`
    `settings.json` and `settings.local.json`."""
    home = env.get("FACTORY_HOME_OVERRIDE", "") or env.get("HOME", "")
    user = os.path.join(home or os.path.expanduser("~"), ".factory")
    files = [os.path.join(user, "settings.json"), os.path.join(user, "settings.local.json")]
    root = project_root(cwd, ".factory")
    if root is not None:
        files += [
            os.path.join(root, ".factory", "settings.json"),
            os.path.join(root, ".factory", "settings.local.json"),
        ]
    return unique(files)


def droid_rules(cwd: str, env: Mapping[str, str]) -> Rules:
    """Droid's `commandBlocklist` (hard stop) and `commandDenylist` (Droid asks first).

    Both are deny for rtok: rewriting such a command would hide it from Droid's own
    check (its list says `rm -rf`, the rewrite says `rtok run rm -rf`), so rtok leaves it
    untouched and Droid decides. Droid's allow list never lets rtok approve anything:
    the hook reply carries no decision.
    """
    deny: list[str] = []
    for path in droid_settings_files(cwd, env):
        settings = read_settings(path)
        if settings is None:
            continue
        deny += strings(settings.get("commandBlocklist"))
        deny += strings(settings.get("commandDenylist"))
    return deny, [], []
