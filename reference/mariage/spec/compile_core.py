"""Compiling the parts every ruleset has: the rules' texts, the play duties, the deal.

:class:`~mariage.spec.compile._Compiler` takes these methods from :class:`CoreFields`, as
it takes the game families' parts from :mod:`.compile_games`, :mod:`.compile_taking` and
:mod:`.compile_running`: the rules of the description collected with their texts (option
values put in), the duties of a trick (follow, head, trump, the partner's exceptions),
the first dealer's seat and later decks gathered rather than shuffled.

>>> from mariage import load_rules
>>> rules = load_rules("marianna", {"target": "301"})
>>> [r.id for r in rules.infos if "301 or more" in r.text]
['marianna.match.end']
>>> schnapsen = load_rules("schnapsen")
>>> schnapsen.obligation_stock.follow, schnapsen.obligation_no_stock.follow
(False, True)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mariage.engine.optionnote import PLACEHOLDER, counted, show_value
from mariage.engine.rules import Obligation, RuleInfo, When

from .options import options_of_rules

if TYPE_CHECKING:
    from mariage.errors import SpecError

    from .specload import Document

__all__ = ["CoreFields"]


def _rules_in(node: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every rule in ``node`` (a mapping with an ``id`` and a ``text``, outside the
    options) with its dotted path, in document order (depth first, as written)."""
    found: list[tuple[str, dict[str, Any]]] = []
    stack: list[tuple[str, Any]] = [("", node)]
    while stack:
        path, here = stack.pop()
        if isinstance(here, dict):
            if "id" in here and "text" in here and path and not (
                    path == "options" or path.startswith("options.")):
                found.append((path, here))
            prefix = path + "." if path else ""
            stack.extend((prefix + str(k), v) for k, v in reversed(here.items()))
        elif isinstance(here, list):
            prefix = path + "." if path else ""
            stack.extend((prefix + str(i), v) for i, v in reversed(list(enumerate(here))))
    return found


def _as_list(x: Any) -> tuple[str, ...]:
    if x is None:
        return ()
    if isinstance(x, list):
        return tuple(str(i) for i in x)
    return (str(x),)


class _Needs:
    """What the mixin uses of the compiler (declared for the type checker only)."""

    if TYPE_CHECKING:
        doc: Document
        d: dict[str, Any]
        values: dict[str, Any]

        def fail(self, path: str, message: str) -> SpecError: ...

        def on(self, node: Any) -> bool: ...


class CoreFields(_Needs):
    """The rules with their texts, the play duties, the first dealer, gathered decks."""

    def collect_rules(self) -> list[RuleInfo]:
        infos: list[RuleInfo] = []
        seen: dict[str, str] = {}
        found = _rules_in(self.d)
        option_of = options_of_rules(self.doc, [dotted for dotted, _ in found])
        for dotted, node in found:
            rid = node["id"]
            if rid in seen:
                raise self.fail(dotted + ".id", f"rule ID '{rid}' is used twice (also at "
                                f"'{seen[rid]}')")
            seen[rid] = dotted
            named = (str(node["option"]),) if node.get("option") else ()
            opts = tuple(dict.fromkeys((*named, *option_of.get(dotted, ()))))
            infos.append(RuleInfo(rid, self.fill(" ".join(str(node["text"]).split()), dotted),
                                  _as_list(node.get("source")), dotted,
                                  bool(node.get("decided", False)), opts,
                                  node.get("enabled", True) is not False))
        return infos

    def fill(self, text: str, path: str) -> str:
        """Put option values in force into a rule text: ``{target}`` becomes ``501``, and
        a count of one takes its noun in the singular (``1 point``, :func:`counted`).

        A name in braces must be an option of the ruleset.
        """
        def value(m: re.Match[str]) -> str:
            name = m.group(1)
            if name not in self.values:
                raise self.fail(f"{path}.text", f"the text cites '{{{name}}}', which is not "
                                "an option of this ruleset")
            return show_value(self.values[name])

        return counted(PLACEHOLDER.sub(value, text))

    def gather_fields(self, dl: dict[str, Any], ncards: int) -> dict[str, Any]:
        """Later decks gathered from the last hand and cut, not shuffled (``deal.gather``)."""
        ga: dict[str, Any] = dl.get("gather") or {}
        if not self.on(ga):
            return {}
        if 2 * ga["cut_min"] > ncards:
            raise self.fail("deal.gather.cut_min", f"a cut of a pack of {ncards} cannot leave "
                            f"{ga['cut_min']} cards in each packet")
        return {"deal_gather_rule": ga["id"], "deal_cut_min": ga["cut_min"]}

    def first_dealer_seat(self, dl: dict[str, Any], seats: int) -> int:
        """The seat that deals first where the rules fix it (``deal.first_dealer: seat``)."""
        seat = int(dl.get("first_dealer_seat", 0))
        if dl.get("first_dealer") == "seat" and not 0 <= seat < seats:
            raise self.fail("deal.first_dealer_seat", f"there are {seats} seats, 0 to "
                            f"{seats - 1}")
        return seat

    def obligation(self, ob: dict[str, Any], path: str) -> Obligation:
        free = ob.get("free") if self.on(ob.get("free")) else None
        follow = ob.get("follow") if self.on(ob.get("follow")) else None
        head = ob.get("head") if self.on(ob.get("head")) else None
        void = ob.get("void") if self.on(ob.get("void")) else None
        if free and (follow or head or void):
            raise self.fail(path, "'free' play cannot be combined with duties")
        if (head or void) and not follow:
            raise self.fail(path, "heading or trumping duties need the duty to follow suit")
        if not free and not follow:
            raise self.fail(path, "give 'free' or a 'follow' duty")
        return Obligation(
            free_rule=free["id"] if free else None,
            follow=follow is not None, follow_rule=follow["id"] if follow else None,
            head=When(head["when"]) if head else When.NEVER,
            head_rule=head["id"] if head else None,
            void_duty=void["duty"] if void else "none",
            void_when=When(void["when"]) if void else When.NEVER,
            void_rule=void["id"] if void else None,
            head_beat=head.get("beat", "winning") if head else "winning",
            **self.partner_duties(head, void, path))

    def partner_duties(self, head: dict[str, Any] | None, void: dict[str, Any] | None,
                       path: str) -> dict[str, Any]:
        """The duties that depend on the suit led being trump or on the partner winning."""
        out: dict[str, Any] = {}
        if head and head.get("suits", "all") != "all":
            out["head_suits"] = head["suits"]
        partner: dict[str, Any] = (void or {}).get("partner") or {}
        if self.on(partner):
            assert void is not None
            if void["when"] != "opponent_winning":
                raise self.fail(f"{path}.void.partner", "a duty while the partner wins goes "
                                "with void.when opponent_winning")
            out.update(void_partner=partner["mode"], void_partner_rule=partner["id"])
        if void and void.get("last_seat_free"):
            out["last_seat_free"] = True
        if void and void.get("any_trump"):
            out["void_any_trump"] = True
        return out
