"""Codex's rule format: execpolicy `prefix_rule(pattern=[…], decision=…)` calls in Starlark
`*.rules` files.

Hot path: stdlib only (`ast` only when a file changed).
"""

from __future__ import annotations

from rtok._fast import oslite as os
from rtok.permissions.readers import home, project_root, unique
from rtok.permissions.settings import problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    from collections.abc import Mapping

    from rtok.permissions.settings import Rules

# Alternatives in a pattern multiply; past this many prefixes a rule file is not read.
_MAX_PREFIXES = 512
# The decisions that make a rule a deny for rtok.
_DENYING = ("forbidden", "prompt")


def codex_rules(cwd: str, env: Mapping[str, str]) -> Rules:
    """Codex's execpolicy rules: `prefix_rule(pattern=[…], decision=…)` in the `*.rules`
    files of `${CODEX_HOME:-~/.codex}/rules/` and of the project's `.codex/rules/`.

    "forbidden" and "prompt" both become deny: Codex applies its rules to the command it
    runs, and `rtok run git push` no longer matches a rule for `git push`, so rtok leaves
    such commands untouched for Codex to judge. Each file is parsed only when it changes.
    """
    codex_home = env.get("CODEX_HOME", "") or os.path.join(home(env), ".codex")
    folders = [os.path.join(codex_home, "rules")]
    root = project_root(cwd, ".codex")
    if root is not None:
        folders.append(os.path.join(root, ".codex", "rules"))
    deny: list[str] = []
    for folder in unique(folders):
        for path in _rule_files(folder):
            deny += _denied_prefixes(path)
    return deny, [], []


def _rule_files(folder: str) -> list[str]:
    """The `*.rules` files of `folder`, by name (none when it cannot be listed)."""
    try:
        names = sorted(name for name in os.listdir(folder) if name.endswith(".rules"))
    except OSError:
        return []
    return [os.path.join(folder, name) for name in names]


def _denied_prefixes(path: str) -> list[str]:
    """The prefixes of the file's forbidden and prompt rules (none, and a problem
    recorded, when it is not Starlark rtok can read)."""
    try:
        from rtok._fast import cachefile

        parsed = cachefile.cached_parse(path, "codex-rules", _codex_prefix_rules)
    except Exception as error:  # not Starlark rtok can read: no rewrite for Codex
        problem(path, f"cannot read its prefix_rule() calls ({error})")
        return []
    if not isinstance(parsed, list):
        return []
    return [rule[0] for rule in parsed if _is_denying(rule)]


def _is_denying(rule: object) -> bool:
    return (
        isinstance(rule, list)
        and len(rule) == 2
        and rule[1] in _DENYING
        and isinstance(rule[0], str)
    )


def _codex_prefix_rules(data: bytes) -> list[list[str]]:
    """[prefix, decision] for each `prefix_rule(...)` call (Starlark read as Python)."""
    import ast

    tree = ast.parse(data.decode("utf-8"))
    rules: list[list[str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _names_prefix_rule(node):
            rules += _call_rules(node)
    return rules


def _names_prefix_rule(node: ast.Call) -> bool:
    import ast

    return isinstance(node.func, ast.Name) and node.func.id == "prefix_rule"


def _call_rules(node: ast.Call) -> list[list[str]]:
    """[prefix, decision] of every prefix one `prefix_rule(...)` call names."""
    import ast

    args = {kw.arg: kw.value for kw in node.keywords if kw.arg}
    if "pattern" not in args:
        return []
    pattern = ast.literal_eval(args["pattern"])
    decision = ast.literal_eval(args["decision"]) if "decision" in args else "allow"
    if not isinstance(pattern, list) or not isinstance(decision, str):
        raise ValueError("prefix_rule needs a list pattern and a string decision")
    return [[prefix, decision] for prefix in _prefixes(pattern) if prefix]


def _prefixes(pattern: list[object]) -> list[str]:
    """Every command prefix a pattern names: a list item is a choice of alternatives."""
    prefixes = [""]
    for token in pattern:
        choices = token if isinstance(token, list) else [token]
        if not all(isinstance(choice, str) for choice in choices):
            raise ValueError("pattern items are strings or lists of strings")
        prefixes = [f"{p} {c}".strip() for p in prefixes for c in choices]
        if len(prefixes) > _MAX_PREFIXES:
            raise ValueError("too many alternatives in a pattern")
    return prefixes
