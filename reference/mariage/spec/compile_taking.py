"""Compiling trump roles, a turned card taken in rounds, announcements and the takers' score.

The sections read here are ``pack.trump`` (ranks and points of the trump suit,
which differ from those of the plain suits), ``taking`` (a turned card taken or
refused in rounds, then a second deal), ``announcements`` (runs and sets held in
hand, compared between the sides), ``trump_pair`` (the king and queen of trumps
said as the first of them is played) and ``scoring.takers`` (a contract judged
against the defenders' total, a tie held over, capot, rounding).

>>> from mariage import load_rules
>>> r = load_rules("belote")
>>> [r.card_code[c] for c in sorted(r.cards_of(r.suit_mask[0]),
...                                 key=lambda c: -r.role_strength[0][c])]
['JH', '9H', 'AH', 'TH', 'KH', 'QH', '8H', '7H']
>>> sum(r.role_points[0][c] for c in r.cards_of(r.suit_mask[0]))
62
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mariage.engine.rules import Combo, Obligation, When
from mariage.lazyrecord import replace

if TYPE_CHECKING:
    from mariage.errors import SpecError

__all__ = ["TakingFields"]


class _Needs:
    """What the mixin uses of the compiler (declared for the type checker only)."""

    if TYPE_CHECKING:
        d: dict[str, Any]

        def fail(self, path: str, message: str) -> SpecError: ...

        def on(self, node: Any) -> bool: ...


class TakingFields(_Needs):
    """Trump roles, taking the turned card, announcements, the trump pair, takers' score."""

    def rank_list(self, path: str, items: Any, ranks: list[str]) -> list[int]:
        """Rank indices of ``items`` (rank names), each a rank of the pack, each once."""
        out = []
        for x in items:
            if str(x) not in ranks:
                raise self.fail(path, f"rank '{x}' is not in the pack")
            out.append(ranks.index(str(x)))
        if len(set(out)) != len(out):
            raise self.fail(path, "a rank is listed twice")
        return out

    def trump_roles(self, suits: list[str], ranks: list[str], nr: int,
                    strength: list[int], points: list[int]) -> dict[str, Any]:
        """Per trump suit: the strength, points and higher cards of every card."""
        tr: dict[str, Any] = self.d["pack"].get("trump") or {}
        if not self.on(tr):
            return {}
        order = self.rank_list("pack.trump.ranks", tr["ranks"], ranks)
        if len(order) != nr:
            raise self.fail("pack.trump.ranks", f"list all {nr} ranks, high to low")
        tpoints = {str(k): int(v) for k, v in (tr.get("points") or {}).items()}
        for k in tpoints:
            if k not in ranks:
                raise self.fail(f"pack.trump.points.{k}", f"points for rank '{k}', not in ranks")
        ncards = len(strength)
        role_s, role_p, role_h = [], [], []
        for t in range(len(suits)):
            s, p = list(strength), list(points)
            for c in range(ncards):
                if c // nr == t:
                    ri = c % nr
                    s[c] = nr - order.index(ri)
                    p[c] = tpoints.get(ranks[ri], 0)
            role_s.append(tuple(s))
            role_p.append(tuple(p))
            role_h.append(tuple(sum(1 << o for o in range(ncards)
                                    if o // nr == c // nr and s[o] > s[c])
                                for c in range(ncards)))
        out: dict[str, Any] = {"role_rule": tr["id"]}
        out.update(self.strain_fields(suits, ranks, nr, strength, order, role_s, role_p,
                                      role_h))
        return out | {"role_strength": tuple(role_s), "role_points": tuple(role_p),
                      "role_higher": tuple(role_h)}

    def strain_fields(self, suits: list[str], ranks: list[str], nr: int,
                      strength: list[int], order: list[int], role_s: list[tuple[int, ...]],
                      role_p: list[tuple[int, ...]], role_h: list[tuple[int, ...]]
                      ) -> dict[str, Any]:
        """Contracts other than a trump suit (``pack.no_trump``, ``pack.all_trump``): their
        names, card order and points, appended to the per-suit role tables. They are
        compiled even where switched off (``enabled: false``): then no bid or take names
        them (``suit_auction.bids.strains``, ``taking.second_round.strains``)."""
        pk = self.d["pack"]
        names: list[str] = []
        kinds: list[str] = []
        rule_ids: list[str] = []
        out: dict[str, Any] = {}
        ncards = len(strength)
        for kind in ("no_trump", "all_trump"):
            node: dict[str, Any] = pk.get(kind) or {}
            if not node:
                continue
            name = str(node["name"])
            if name in suits or name in names:
                raise self.fail(f"pack.{kind}.name", f"'{name}' is already a suit or contract")
            pts = {str(k): int(v) for k, v in (node.get("points") or {}).items()}
            for k in pts:
                if k not in ranks:
                    raise self.fail(f"pack.{kind}.points.{k}", f"rank '{k}' is not in the pack")
            s = list(strength) if kind == "no_trump" else \
                [nr - order.index(c % nr) for c in range(ncards)]
            role_s.append(tuple(s))
            role_p.append(tuple(pts.get(ranks[c % nr], 0) for c in range(ncards)))
            role_h.append(tuple(sum(1 << o for o in range(ncards)
                                    if o // nr == c // nr and s[o] > s[c])
                                for c in range(ncards)))
            names.append(name)
            kinds.append(kind)
            rule_ids.append(node["id"])
            if kind == "no_trump":
                values = [0] * nr
                for k, v in (node.get("set_values") or {}).items():
                    if str(k) not in ranks:
                        raise self.fail(f"pack.no_trump.set_values.{k}",
                                        f"rank '{k}' is not in the pack")
                    values[ranks.index(str(k))] = int(v)
                out.update(nt_set_values=tuple(values), nt_set_order=tuple(self.rank_list(
                    "pack.no_trump.set_order", node.get("set_order") or [], ranks)))
            else:
                duty = node["duty"]
                scale = node.get("scale") or [1, 1]
                out.update(all_trump_when=duty["when"], all_trump_rule=duty["id"],
                           all_trump_scale=(int(scale[0]), int(scale[1])))
        if names:
            out.update(strain_names=tuple(names), strain_kinds=tuple(kinds),
                       strain_rules=tuple(rule_ids))
        return out

    def strains_on(self) -> bool:
        """True if a contract other than a trump suit is in play (switched on)."""
        pk = self.d["pack"]
        return self.on(pk.get("no_trump")) or self.on(pk.get("all_trump"))

    def all_trump_duty(self, fields: dict[str, Any], ob: Obligation) -> dict[str, Any]:
        """``fields`` with the play duties of an all-trump contract: those of ``ob`` (the
        play without a stock) with the duty to beat the best card of any suit led."""
        if fields.get("all_trump_rule") is None:
            return fields
        duty = replace(ob, head=When(fields["all_trump_when"]),
                                   head_rule=fields["all_trump_rule"], head_beat="winning",
                                   head_suits="all", void_duty="none")
        return fields | {"all_trump_obligation": duty}

    def taking_fields(self, suits: list[str], ranks: list[str], nr: int,
                      strength: list[int], points: list[int]) -> dict[str, Any]:
        """The compiled fields of the sections this mixin reads (empty where absent)."""
        d = self.d
        out = self.trump_roles(suits, ranks, nr, strength, points)
        tk: dict[str, Any] = d.get("taking") or {}
        if self.on(tk):
            if d["deal"].get("turn_up") != "to_taker":
                raise self.fail("taking", "taking the turned card needs deal.turn_up to_taker")
            sr, ap, sd = tk["second_round"], tk["all_pass"], tk["second_deal"]
            hand = d["deal"]["hand_size"]
            out.update(take_strains=bool(sr.get("strains", False)) and self.strains_on())
            out.update(take_rule=tk["id"], take_second_rule=sr["id"],
                       take_rounds=2 if self.on(sr) else 1,
                       take_other_suits=sr.get("suits", "other") == "other",
                       all_pass=ap["next"], all_pass_rule=ap["id"],
                       second_deal_rule=sd["id"], second_deal_taker=sd["taker"],
                       second_deal_others=sd["others"], second_deal_start=sd["start"])
            players = d["players"]["count"]
            if hand * players + 1 + sd["taker"] + sd["others"] * (players - 1) != \
                    len(suits) * nr - len(d["pack"].get("remove_cards", [])):
                raise self.fail("taking.second_deal", "the first deal, the turned card and "
                                "the second deal must use the whole pack")
            if hand + 1 + sd["taker"] != hand + sd["others"]:
                raise self.fail("taking.second_deal", "the taker (with the turned card) and "
                                "the others must end with hands of one size")
        out.update(self.announcement_fields(ranks))
        tp: dict[str, Any] = d.get("trump_pair") or {}
        if self.on(tp):
            pr = self.rank_list("trump_pair.ranks", tp["ranks"], ranks)
            out.update(pair_rule=tp["id"], pair_word=tp["word"], pair_value=tp["value"],
                       pair_ranks=tuple(pr), pair_order=tp["order"],
                       pair_declare=tp["declare"],
                       pair_masks=tuple(sum(1 << (s * nr + ri) for ri in pr)
                                        for s in range(len(suits))))
        out.update(self.suit_auction_fields())
        out.update(self.takers_fields())
        pa: dict[str, Any] = d["match"].get("pair_alone") or {}
        if self.on(pa):
            out.update(pair_alone_cannot_win=True, pair_alone_rule=pa["id"])
        return out

    def announcement_fields(self, ranks: list[str]) -> dict[str, Any]:
        """The kinds of announcement, their order and how a tie between sides is settled."""
        an: dict[str, Any] = self.d.get("announcements") or {}
        if not self.on(an):
            return {}
        run = self.rank_list("announcements.run_order", an["run_order"], ranks)
        combos: list[Combo] = []
        for name, spec in an["kinds"].items():
            if not self.on(spec):
                continue
            base = f"announcements.kinds.{name}"
            same = bool(spec.get("same_rank", False))
            values = [0] * len(ranks)
            order: list[int] = []
            if same:
                order = self.rank_list(f"{base}.order", spec["order"], ranks)
                for k, v in (spec.get("values") or {}).items():
                    if str(k) not in ranks:
                        raise self.fail(f"{base}.values", f"rank '{k}' is not in the pack")
                    values[ranks.index(str(k))] = int(v)
            combos.append(Combo(index=len(combos), name=name, rule=spec["id"],
                                same_rank=same, length=int(spec["length"]),
                                value=int(spec.get("value", 0)),
                                rank_values=tuple(values), rank_order=tuple(order)))
        runs = sorted(c.length for c in combos if not c.same_rank)
        if len(set(runs)) != len(runs):
            raise self.fail("announcements.kinds", "two kinds of run have the same length")
        cmp = an["compare"]
        show: dict[str, Any] = an.get("show") or {}
        if self.on(show):
            combo_fields: dict[str, Any] = {"announce_show": show["who"],
                                            "announce_show_rule": show["id"]}
        else:
            combo_fields = {}
        return combo_fields | {"combos": tuple(combos), "announce_rule": an["id"],
                "announce_compare_rule": cmp["id"], "announce_tie": cmp["tie"]["mode"],
                "announce_tie_rule": cmp["tie"]["id"],
                "announce_shared_cards": bool(an.get("shared_cards", False)),
                "run_order": tuple(run), "long_runs": an.get("long_runs", "single")}

    def suit_auction_fields(self) -> dict[str, Any]:
        """An auction of a value and a trump suit, capot, doubling, a void deal."""
        sa: dict[str, Any] = self.d.get("suit_auction") or {}
        if not self.on(sa):
            return {}
        b, dbl, ap = sa["bids"], sa["doubling"], sa["all_pass"]
        if b["min"] % b["step"] or b["max"] % b["step"] or b["max"] < b["min"]:
            raise self.fail("suit_auction.bids", "bids must be multiples of the step, and the "
                            "highest bid at least the lowest")
        cp: dict[str, Any] = sa.get("capot") or {}
        out: dict[str, Any] = {
            "sa_rule": sa["id"], "sa_bid_rule": b["id"], "sa_min": b["min"],
            "sa_strains": bool(b.get("strains", False)) and self.strains_on(),
            "sa_step": b["step"], "sa_max": b["max"], "sa_double_rule": dbl["id"],
            "sa_double_words": tuple(dbl["words"]), "sa_capot_doublable": dbl["capot"],
            "sa_double_freezes": bool(dbl.get("freezes", True)),
            "sa_double_window_rule": dbl["window"]["id"] if self.on(dbl.get("window")) else None,
            "sa_all_pass": ap["next"], "sa_all_pass_rule": ap["id"]}
        if self.on(cp):
            if cp["value"] <= b["max"]:
                raise self.fail("suit_auction.capot.value", "the capot bid must be above "
                                "every other bid")
            out.update(sa_capot_value=cp["value"], sa_capot_rule=cp["id"])
        gn: dict[str, Any] = sa.get("generale") or {}
        if self.on(gn):  # every trick by the bidder alone: above capot
            if gn["value"] <= max(b["max"], cp.get("value", 0) if self.on(cp) else 0):
                raise self.fail("suit_auction.generale.value", "the générale must be worth "
                                "more than every other bid, capot included")
            out.update(sa_generale_value=gn["value"], sa_generale_rule=gn["id"])
        return out

    def bid_result_fields(self, tk: dict[str, Any]) -> dict[str, Any]:
        """A bid contract judged against the defence, doubled or not (scoring.takers.bid)."""
        bd: dict[str, Any] = tk.get("bid") or {}
        if not self.on(bd):
            if self.on(self.d.get("suit_auction")):
                raise self.fail("scoring.takers", "an auction of bids needs 'bid' here")
            return {}
        dd = bd["doubled"]
        return {"bid_result_rule": bd["id"], "bid_must_beat": bd["must_beat_defence"],
                "bid_80_needs_82": bd["lowest_needs_82"], "bid_score_mode": bd["score"],
                "bid_failed_base": bd["failed_base"], "bid_capot_base": bd["capot_base"],
                "bid_capot_cards": bd.get("capot_cards", "cards"),
                "bid_defence_capot": bool(bd.get("defence_capot", True)),
                "bid_doubled_rule": dd["id"], "bid_multiplier_base": dd["base"],
                "bid_redouble_factor": dd["redouble_factor"],
                "bid_pair_multiplied": dd["pair_multiplied"]}

    def takers_fields(self) -> dict[str, Any]:
        """A contract judged against the defenders' total: failure, ties, capot, rounding."""
        sc = self.d["scoring"]
        tk: dict[str, Any] = sc.get("takers") or {}
        if sc["hand"]["kind"] != "takers":
            if tk or self.d["match"].get("rounded"):
                raise self.fail("scoring.takers", "scoring.takers and match.rounded go with "
                                "kind takers")
            return {}
        if not tk:
            raise self.fail("scoring", "kind takers needs a 'takers' section")
        if not self.on(self.d.get("taking")) and not self.on(self.d.get("suit_auction")):
            raise self.fail("scoring.takers", "the takers' score needs a 'taking' or "
                            "'suit_auction' section")
        pair = tk["pair"]
        out = self.bid_result_fields(tk)
        rd: dict[str, Any] = self.d["match"].get("rounded") or {}
        if self.on(rd):  # whether the rounded lines or the exact ones decide the match
            out.update(round_game_rule=rd["id"], round_decides_game=rd["totals"] == "written")
        return out | {"takers_rule": tk["id"], "takers_counts_pair": bool(pair["counts"]),
                "takers_pair_on_failure": pair["on_failure"], "takers_pair_rule": pair["id"],
                "takers_tie": tk["tie"]["mode"], "takers_tie_rule": tk["tie"]["id"],
                "takers_failed_points": int(tk["failed"]["points"]),
                "takers_failed_rule": tk["failed"]["id"],
                "capot_mode": tk["capot"]["mode"], "capot_value": int(tk["capot"]["value"]),
                "capot_rule": tk["capot"]["id"],
                "round_mode": tk["rounding"]["mode"], "round_rule": tk["rounding"]["id"]}
