"""The protocol and runner docs define everything the suite checks, and their example
exchanges are what the reference engine answers."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from mariage.conformance.engine import ReferenceEngine, serve
from mariage.conformance.protocol import ERROR_CODES, state_json
from mariage.conformance.suite import load_suite

DOCS = Path(__file__).resolve().parent.parent / "docs"
PROTOCOL = (DOCS / "protocol.rst").read_text(encoding="utf-8")
RUNNER = (DOCS / "conformance.rst").read_text(encoding="utf-8")


def exchanges(text: str) -> list[list[tuple[str, str]]]:
    """Literal blocks whose lines all start with '> ' or '< ': (direction, JSON text)."""
    blocks: list[list[tuple[str, str]]] = []
    current: list[tuple[str, str]] = []
    for line in text.splitlines():
        m = re.match(r"^\s+([<>]) (.*)$", line)
        if m:
            current.append((m.group(1), m.group(2)))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def matches(doc: Any, got: Any, path: str) -> list[str]:
    """Differences between a documented value and the engine's ('...' matches anything)."""
    if doc == "...":
        return []
    if isinstance(doc, dict) and isinstance(got, dict):
        out = []
        for k, v in doc.items():
            if k == "...":
                continue
            if k not in got:
                out.append(f"{path}.{k}: missing")
            elif k == "hands":
                if [sorted(h) for h in v] != [sorted(h) for h in got[k]]:
                    out.append(f"{path}.hands: {got[k]}")
            else:
                out.extend(matches(v, got[k], f"{path}.{k}"))
        return out
    return [] if doc == got else [f"{path}: doc says {doc!r}, engine says {got!r}"]


def test_every_example_exchange_is_what_the_reference_answers() -> None:
    blocks = [b for b in exchanges(PROTOCOL) if any(d == ">" for d, _ in b)]
    assert len(blocks) >= 7
    checked = 0
    for block in blocks:
        requests = [t for d, t in block if d == ">"]
        documented = [json.loads(t) for d, t in block if d == "<"]
        out = io.StringIO()
        serve(ReferenceEngine(), io.StringIO("".join(r + "\n" for r in requests)), out)
        replies = [json.loads(x) for x in out.getvalue().splitlines()]
        assert len(replies) == len(documented) == len(requests), block[0][1][:80]
        for req, doc, got in zip(requests, documented, replies, strict=True):
            assert matches(doc, got, "") == [], f"{req[:100]}"
            checked += 1
    assert checked >= 40


def _table_names(text: str, heading: str) -> set[str]:
    part = text.split(heading, 1)[1]
    return set(re.findall(r"^``([a-z_]+)``\s", part, flags=re.M))


def test_the_doc_defines_every_state_field_the_suite_checks() -> None:
    defined = _table_names(PROTOCOL.split("The state\n")[1].split("Errors\n")[0], "====")
    from mariage import GameState, load_rules

    emitted = set(state_json(GameState(load_rules("marianna"), first_dealer=0)))
    assert emitted <= defined, emitted - defined
    used: set[str] = set()
    for t in load_suite():
        for fields in [t.initial or {}] + [s.get("state") or {} for s in t.steps]:
            used |= set(fields)
    undefined = used - defined
    assert not undefined, f"the suite checks state fields the protocol doc does not define: " \
        f"{sorted(undefined)}"


def test_the_doc_defines_every_value_of_ended_reason_and_error_code() -> None:
    endings = PROTOCOL.split("Hand endings", 1)[1].split("Outside a hand", 1)[0]
    ended: set[str] = set()
    reasons: set[str] = set()
    codes: set[str] = set()
    for t in load_suite():
        for s in t.steps:
            st = s.get("state") or {}
            if st.get("last_hand"):
                ended.add(st["last_hand"]["ended"])
            if st.get("result"):
                reasons.add(st["result"]["reason"])
            if "error" in s:
                codes.add(s["error"]["code"])
    # and every value the reference can produce
    ended |= {"played_out", "target", "call_out", "call_out_failed", "match_won",
              "turn_up_bonus"}
    reasons |= {"target", "match_won", "turn_up_bonus", "call_out", "resign", "tie"}
    for value in ended | reasons:
        assert f"``{value}``" in endings, f"'{value}' is not described under Hand endings"
    errors = PROTOCOL.split("\nErrors\n", 1)[1]
    for code in codes | set(ERROR_CODES):
        assert f"``{code}``" in errors, code


def test_the_runner_doc_defines_every_front_matter_and_step_field() -> None:
    fields: set[str] = set()
    for t in load_suite():
        fields |= {"id", "description", "kind", "ruleset", "options", "rules", "features",
                   "start"}
        if t.initial is not None:
            fields.add("initial")
        if t.negative:
            fields.add("negative")
        if t.kind == "perft":
            fields |= {"depth", "counts"}
        for s in t.steps:
            fields |= set(s)
    for name in fields:
        assert f"``{name}``" in RUNNER, f"docs/conformance.rst does not define '{name}'"


def test_every_response_field_the_runner_reads_is_in_the_protocol_doc() -> None:
    import inspect

    from mariage.conformance import blame, client, configuration, runner

    # the runner, and what it reads through: the client, the hello's coverage, the blame
    source = "".join(inspect.getsource(m) for m in (runner, client, configuration, blame))
    read = set(re.findall(r'(?:reply|info|entry|spec)(?:\.get\(|\[)"([a-z_]+)"', source))
    assert {"type", "code", "rule", "actions", "protocol", "rulesets"} <= read
    for name in read:
        assert f"``{name}``" in PROTOCOL or f'"{name}"' in PROTOCOL, name


def test_a_ruleset_filter_leaves_the_protocol_tests_out_as_the_page_says() -> None:
    """conformance.rst: ``--ruleset R`` alone runs no protocol test; with ``--ruleset
    '*'`` it runs them too (an engine author's first run on one ruleset)."""
    assert "``--ruleset R --ruleset '*'`` runs both" in RUNNER
    alone = load_suite(rulesets=["mariglia"])
    both = load_suite(rulesets=["mariglia", "*"])
    protocol = load_suite(kinds=["protocol"])
    assert alone and protocol
    assert not {t.kind for t in alone} & {"protocol"}
    assert {t.id for t in both} == {t.id for t in alone} | {t.id for t in protocol}
