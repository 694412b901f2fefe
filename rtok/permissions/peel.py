"""The forms of one command segment that deny and ask rules are checked against.

A deny rule for `git push` must also catch `FOO=1 git push`, `timeout 5 git push`,
`env -i git push`, `nice -n 5 git push`, `{ git push; }` and `find . -exec git push {} +`.
`command_forms` returns the segment itself plus every form left after peeling leading
grammar words, environment assignments and process wrappers one word at a time, and the
commands of a `find -exec`. Peeling is generous on purpose: it only ever adds matches for
deny and ask rules, never for allow rules (an env prefix can change what an allowed
command does, so allow rules see the segment as written).

Hot path: stdlib only.
"""

from __future__ import annotations

# Reserved words and grammar that may open a segment without being the command.
_GRAMMAR = frozenset({"{", "}", "(", ")", "!", "if", "then", "elif", "else", "do", "while",
                      "until", "time", "exec", "coproc"})

# wrapper -> options that take a separate argument. Other words starting with `-` are
# skipped as flags. `timeout` also takes one positional duration before the command.
_WRAPPERS: dict[str, frozenset[str]] = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "nohup": frozenset(),
    "time": frozenset({"-f", "--format", "-o", "--output"}),
    "command": frozenset(),
    "builtin": frozenset(),
    "exec": frozenset({"-a"}),
    "stdbuf": frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "ionice": frozenset({"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"}),
    "chrt": frozenset(),
    "taskset": frozenset(),
    "setsid": frozenset(),
    "unbuffer": frozenset(),
    "caffeinate": frozenset(),
    "sudo": frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-R", "-T", "-U", "--user",
                       "--group", "--host", "--prompt"}),
    "doas": frozenset({"-u", "-C"}),
    "xargs": frozenset({"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file",
                        "--delimiter", "--max-args", "--max-procs", "--max-chars"}),
}
_POSITIONAL = {"timeout": 1, "chrt": 1, "taskset": 1}

_QUOTES = "'\""


# Prefix words peeled at most: enough for any real wrapper chain, and it keeps the scan of
# a huge command (a long heredoc, a generated script) short.
MAX_PREFIX_WORDS = 64


def word_spans(segment: str, limit: int = -1) -> list[tuple[int, int]]:
    """(start, end) of each shell word (the first `limit` ones when limit >= 0),
    quote- and backslash-aware; never fails."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(segment)
    while i < n and len(spans) != limit:
        while i < n and segment[i] in " \t\n":
            i += 1
        if i >= n:
            break
        start = i
        quote = ""
        while i < n:
            char = segment[i]
            if quote:
                if char == quote:
                    quote = ""
                elif char == "\\" and quote == '"':
                    i += 1
            elif char in _QUOTES:
                quote = char
            elif char == "\\":
                i += 1
            elif char in " \t\n":
                break
            i += 1
        spans.append((start, min(i, n)))
    return spans


def unquote(word: str) -> str:
    """The word with simple quoting removed (enough to recognise a wrapper's name)."""
    out = []
    quote = ""
    i = 0
    while i < len(word):
        char = word[i]
        if quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"' and i + 1 < len(word):
                i += 1
                out.append(word[i])
            else:
                out.append(char)
        elif char in _QUOTES:
            quote = char
        elif char == "\\" and i + 1 < len(word):
            i += 1
            out.append(word[i])
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _is_assignment(word: str) -> bool:
    name, sep, _ = word.partition("=")
    return bool(sep) and bool(name) and (name[0].isalpha() or name[0] == "_") and all(
        c.isalnum() or c == "_" for c in name
    )


def command_forms(segment: str) -> list[str]:
    """The trimmed segment, then each form left after peeling one more prefix word."""
    text = segment.strip()
    spans = word_spans(text, MAX_PREFIX_WORDS)
    forms, ran_out = _forms(text, spans)
    if ran_out and len(spans) == MAX_PREFIX_WORDS:
        # Still peeling when the scanned words ran out (padding with many assignments):
        # scan everything rather than let the padding hide the command from deny rules.
        forms, _ = _forms(text, word_spans(text))
    if forms:
        forms += _find_exec_forms(forms[-1])
    return forms


_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _find_exec_forms(command: str) -> list[str]:
    """The commands `find … -exec CMD … ;` runs, each from its first word on."""
    spans = word_spans(command)
    if not spans or unquote(command[spans[0][0] : spans[0][1]]).rsplit("/", 1)[-1] != "find":
        return []
    return [command[spans[i + 1][0] :].strip() for i in range(len(spans) - 1)
            if command[spans[i][0] : spans[i][1]] in _FIND_EXEC]


def _forms(text: str, spans: list[tuple[int, int]]) -> tuple[list[str], bool]:
    """(forms, whether peeling ran past the last scanned word)."""
    forms = [text] if text else []
    words = [unquote(text[a:b]) for a, b in spans]
    index = _next_command(words, 0)
    seen = {text}
    while index < len(words):
        form = text[spans[index][0] :].strip()
        if form not in seen:
            seen.add(form)
            forms.append(form)
        following = _next_command(words, index)
        if following == index:
            return forms, False
        index = following
    return forms, True


def _next_command(words: list[str], index: int) -> int:
    """Index of the word that runs a command once the word at `index` is peeled.

    At the start (`index` pointing at grammar or an assignment) this skips those; at a
    wrapper it skips the wrapper with its options and positional arguments.
    """
    i = index
    moved = False
    while i < len(words) and (words[i] in _GRAMMAR or _is_assignment(words[i])):
        if words[i] in _WRAPPERS:  # `time`/`exec` are grammar words and wrappers
            break
        i += 1
        moved = True
    if moved or i >= len(words):
        return i
    name = words[i].rsplit("/", 1)[-1]
    takes_value = _WRAPPERS.get(name)
    if takes_value is None:
        return i
    i += 1
    positional = _POSITIONAL.get(name, 0)
    while i < len(words):
        word = words[i]
        if word == "--":
            i += 1
            break
        if name == "env" and _is_assignment(word):
            i += 1
        elif word.startswith("-") and len(word) > 1:
            option = word.split("=", 1)[0]
            i += 2 if option in takes_value and "=" not in word and option == word else 1
        elif positional:
            positional -= 1
            i += 1
        else:
            break
    while i < len(words) and _is_assignment(words[i]):
        i += 1
    return i
