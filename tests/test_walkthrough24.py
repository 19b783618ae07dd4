"""Newcomers following the documentation literally (twenty-fourth session's walk):
what they copy from the pages must hold."""

from __future__ import annotations

import re
from pathlib import Path

from mariage.cli import main
from mariage.notation import check_text

DOCS = Path(__file__).resolve().parent.parent / "docs"


def notation_example() -> list[str]:
    """The lines of the first text block of ``docs/notation.rst`` (*An example*)."""
    text = (DOCS / "notation.rst").read_text(encoding="utf-8")
    m = re.search(r"\.\. code-block:: text\n\n((?:   .*\n|\n)+)", text)
    assert m is not None
    return [line[3:] for line in m.group(1).splitlines() if line.strip()]


def filled_in(example: list[str], played: list[str]) -> list[str]:
    """The played record with the example's lines put in: its tags by name, its
    comment after the tags, its trick lines by hand and number."""
    tags = {line.split('"')[0] + line.split('"')[1]: line
            for line in example if line.startswith("[")}
    comment = [line for line in example if line.startswith("{")]
    tricks: dict[tuple[str, str], str] = {}
    hand = ""
    for line in example:
        if line.startswith("hand "):
            hand = line
        elif m := re.match(r"(\d+)\. ", line):
            tricks[hand, m.group(1)] = line
    out: list[str] = []
    hand = ""
    for line in played:
        if line.startswith("["):
            key = line.split('"')[0] + line.split('"')[1]
            out.append(tags.get(key, line))
            continue
        if line.startswith("hand "):
            if hand == "":
                out.extend(comment)
            hand = line
        m = re.match(r"(\d+)\. ", line)
        out.append(tricks.get((hand, m.group(1)), line) if m else line)
    return out


def test_the_notation_example_is_the_match_it_says_it_is(tmp_path: Path) -> None:
    """The example of notation.rst is the match of the seed it names, so a reader who
    writes out its lines left out gets a valid record (the example used to lead with
    a seat out of turn and play a trump its seat never held)."""
    text = (DOCS / "notation.rst").read_text(encoding="utf-8")
    command = re.search(r"This is the match of ``mariage (play [^`]*) --out FILE``", text)
    assert command is not None
    out = tmp_path / "played.mrg"
    assert main([*command.group(1).split(), "--quiet", "--out", str(out)]) == 0
    played = out.read_text(encoding="utf-8").splitlines()
    example = notation_example()
    record = filled_in(example, played)
    kept = iter(record)
    for line in example:  # every line of the example, in its order
        if line != "...":
            assert line in kept, line
    checked = check_text("\n".join(record) + "\n")
    assert checked.ok, checked.errors[:1]
    assert example[-1] == played[-1]  # the result
