"""Compiling a talon won in an auction, the bid cap, conceding, and running-total rules.

:class:`~mariage.spec.compile._Compiler` takes :meth:`TalonAuctionFields.talon_auction`
from here. It reads the ``talon`` section, the auction's ``opening``, ``cap`` and
``silence``, the contract's ``concede``, the score sheet's rounding mode and the
match's ``running`` rules (barrel, bolts, dump, win, redeal), and returns the fields
of :class:`~mariage.engine.rules.Rules` they set (empty where the ruleset lacks them).

>>> from mariage import load_rules
>>> r = load_rules("thousand")
>>> r.talon_rule, r.bid_cap, r.bid_pair_values, r.barrel_at
('thousand.talon', 'pair_required', (100, 80, 60, 40), 880)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .compile_games import _Needs

if TYPE_CHECKING:
    from mariage.engine.rules import Declaration

__all__ = ["TalonAuctionFields"]


class TalonAuctionFields(_Needs):
    """The talon of the auction's winner, bid caps, concessions and running totals."""

    def talon_auction(self, suits: list[str], ranks: list[str], nr: int,
                      decls: list[Declaration], stock: int = 0) -> dict[str, Any]:
        """The compiled fields (empty where the ruleset has none of these sections)."""
        d = self.d
        out: dict[str, Any] = {}
        au = d.get("auction") or {}
        ta: Any = d.get("talon")
        if self.on(ta):
            if not au:
                raise self.fail("talon", "a talon for the declarer needs an auction")
            if d["deal"].get("turn_up", "none") != "none":
                raise self.fail("talon", "a talon for the declarer goes without a turned-up "
                                "card")
            shown = ta.get("shown") or {}
            out.update(talon_rule=ta["id"], talon_shown=shown.get("mode", "always"),
                       talon_shown_rule=shown.get("id"))
            ss = ta.get("sitter_score") or {}
            if ss:  # the values are compiled even while the rule is off
                out.update(sitter_talon=ss["mode"] if self.on(ss) else "none",
                           sitter_talon_rule=ss["id"] if self.on(ss) else None,
                           sitter_ace_value=int(ss.get("ace_value", 0)),
                           sitter_pairs=bool(ss.get("pairs", False)),
                           sitter_half_pairs=bool(ss.get("half_pairs", False)))
            # (without a seat sitting out, nobody scores it)
            out.update(self._packets(ta, stock))
        out.update(self._auction_extras(au, decls))
        ct = d.get("contract") or {}
        cd: Any = ct.get("concede")
        if self.on(cd):
            if not self.on(ta):
                raise self.fail("contract.concede", "conceding after the talon needs a "
                                "'talon'")
            out.update(concede=cd["mode"], concede_rule=cd["id"], concede_window=cd["window"],
                       concede_award=int(cd["award"]),
                       concede_costly_every=int(cd.get("costly_every", 3)),
                       concede_half_bid=cd.get("defenders_get", "award") == "half_bid",
                       concede_limit=int(cd.get("limit") or 0))
        res = ct.get("result") or {}
        out["round_first"] = bool(res.get("round_first", False))
        sh = d["scoring"].get("sheet") or {}
        out["round_down"] = sh.get("round_mode", "nearest") == "down"
        out.update(self._running(d["match"].get("running")))
        pa = d.get("passing") or {}
        out["give_face_up"] = bool(pa.get("face_up", False))
        ft: Any = d["lead"].get("foreign_trump")
        if self.on(ft):
            out["foreign_trump_rule"] = ft["id"]
        auto: Any = (d.get("declaring") or {}).get("auto")
        if self.on(auto):
            if not any(x.lead_masks for x in decls):
                raise self.fail("declaring.auto", "declaring by leading needs a declaration "
                                "with a lead duty")
            out["decl_auto_rule"] = auto["id"]
        out.update(self._throw_in(d.get("throw_in"), ranks, nr, len(suits)))
        return out

    def _packets(self, ta: Any, stock: int) -> dict[str, Any]:
        """A talon in packets of which the declarer chooses one; the cards it leaves out of
        play (packets not chosen, cards discarded) and who scores them."""
        d = self.d
        discards = sum(int(s["count"]) for s in ((d.get("passing") or {}).get("steps") or ())
                       if s["to"] == "discard")
        out: dict[str, Any] = {"talon_out": discards}
        pk: Any = ta.get("packets")
        if self.on(pk):
            count = int(pk["count"])
            if count < 2 or stock % count:
                raise self.fail("talon.packets.count", f"{stock} talon cards do not lie in "
                                f"{count} equal packets")
            out.update(talon_packets=count, talon_packets_rule=pk["id"],
                       talon_out=discards + stock - stock // count)
        lo: Any = (d["scoring"].get("leftover"))
        if self.on(lo):
            out["leftover_rule"] = lo["id"]
        return out

    def _throw_in(self, ti: Any, ranks: list[str], nr: int, nsuits: int) -> dict[str, Any]:
        """Claims that throw a hand in: four of a rank, a low hand, a weak talon."""
        if not self.on(ti):
            return {}
        if not self.on(self.d.get("talon")):
            raise self.fail("throw_in", "throwing a hand in needs a 'talon' and an auction")

        def rank_mask(path: str, rank: Any) -> int:
            if str(rank) not in ranks:
                raise self.fail(path, f"no rank {rank} in the pack")
            return sum(1 << (si * nr + ranks.index(str(rank))) for si in range(nsuits))

        out: dict[str, Any] = {"throw_in_rule": ti["id"]}
        fours = []
        for key in ("four_of_rank", "four_of_rank_2"):
            node = ti.get(key)
            if self.on(node):
                fours.append((rank_mask(f"throw_in.{key}.rank", node["rank"]), node["moment"],
                              node["id"]))
        out["throw_four"] = tuple(fours)
        low = ti.get("low_hand")
        if self.on(low):
            out.update(throw_low_below=int(low["below"]), throw_low_rule=low["id"])
        weak = ti.get("weak_talon")
        if self.on(weak):
            out.update(throw_talon_below=int(weak["below"]), throw_talon_rule=weak["id"],
                       throw_talon_at_minimum=bool(weak["only_at_minimum"]))
        tr = ti.get("talon_rank")
        if self.on(tr):
            out.update(throw_talon_rank=int(tr["count"]), throw_talon_rank_rule=tr["id"],
                       throw_talon_rank_mask=rank_mask("throw_in.talon_rank.rank", tr["rank"]),
                       throw_talon_at_minimum=bool(tr["only_at_minimum"]))
        return out

    def _auction_extras(self, au: dict[str, Any], decls: list[Declaration]) -> dict[str, Any]:
        """The compulsory opening, single-step bids, the bid cap, silenced players and a
        blind bid."""
        out: dict[str, Any] = {}
        if not au:
            return out
        op: Any = au.get("opening")
        if self.on(op):
            out.update(opening=op["mode"], opening_rule=op["id"])
        out["bid_jumps"] = bool(au["bids"].get("jumps", True))
        cap: Any = au.get("cap")
        if self.on(cap):
            name = cap["declaration"]
            found = [x for x in decls if x.name == name and x.same_suit]
            if not found:
                raise self.fail("auction.cap.declaration", f"no same-suit declaration "
                                f"'{name}' in force")
            dx = found[0]
            values = dx.suit_values or tuple(dx.fixed for _ in dx.suit_masks)
            out.update(bid_cap=cap["mode"], bid_cap_free=int(cap["free_up_to"]),
                       bid_cap_rule=cap["id"], bid_pair_masks=dx.suit_masks,
                       bid_pair_values=values)
        si: Any = au.get("silence")
        if self.on(si):
            out.update(silence_below=int(si["below"]), silence_rule=si["id"])
        bl: Any = au.get("blind")
        if bl:  # the values are compiled even while the rule is off
            value = int(bl["value"])
            bids = au["bids"]
            if self.on(bl) and (value % int(bids["step"]) or not
                                int(bids["min"]) <= value <= int(bids.get("max") or value)):
                raise self.fail("auction.blind.value", f"a blind bid of {value} is not a bid "
                                "of the auction's range and step")
            out.update(blind_rule=bl["id"] if self.on(bl) else None, blind_word=bl["word"],
                       blind_value=value, blind_min_total=int(bl.get("min_total", -10000)),
                       blind_talon_shown=bool(bl.get("talon_shown", False)),
                       blind_multiplier=int(bl["multiplier"]))
        return out

    def _running(self, rn: Any) -> dict[str, Any]:
        """The running-total rules: barrel, bolts, dump, golden hands, win and redeal."""
        if not self.on(rn):
            return {}
        if self.d["match"]["end"]["measure"] != "points":
            raise self.fail("match.running", "running totals need a match counted in points")
        out: dict[str, Any] = {"running_rule": rn["id"]}
        # the values of a part switched off are compiled too (its rule ID is not): an
        # option changing them changes the rules, though not the play until it is on
        ba: Any = rn.get("barrel") or {}
        target = self.d["match"]["end"]["target"]
        if self.on(ba) and ba["clamp"] and ba["at"] < target and \
                target - ba["at"] > (self.d.get("auction") or {}).get("bids", {}).get("max", 0):
            raise self.fail("match.running.barrel.at", f"from a barrel at {ba['at']} no "
                            f"contract reaches the target {target}: nobody could win")
        if ba:
            out.update(barrel_at=int(ba["at"]), barrel_clamp=bool(ba["clamp"]),
                       barrel_attempts=int(ba["attempts"] or 0),
                       barrel_penalty=int(ba["penalty"]), barrel_collision=ba["collision"],
                       barrel_fail_off=ba["failed_contract"] == "subtract_and_off",
                       barrel_third_fall_resets=bool(ba.get("third_fall_resets", False)),
                       barrel_rule=ba["id"] if self.on(ba) else None)
        bo: Any = rn.get("bolts") or {}
        if bo:
            out.update(bolt_condition=bo["condition"] if self.on(bo) else "off",
                       bolt_consecutive=bo["count"] == "consecutive",
                       bolt_limit=int(bo["limit"]), bolt_penalty=int(bo["penalty"]),
                       bolt_declarer=bool(bo["declarer"]),
                       bolt_rule=bo["id"] if self.on(bo) else None)
        du: Any = rn.get("dump") or {}
        if du:
            out.update(dump_value=int(du["value"]), dump_negative=bool(du["negative"]),
                       dump_rule=du["id"] if self.on(du) else None)
        go: Any = rn.get("golden") or {}
        if go:
            au = self.d.get("auction") or {}
            if self.on(go) and not self.on(self.d.get("talon")):
                raise self.fail("match.running.golden", "golden hands need an auction for a "
                                "talon")
            if self.on(go) and int(go["bid"]) % int(au["bids"]["step"]):
                raise self.fail("match.running.golden.bid", f"{go['bid']} is not a multiple "
                                "of the bid step")
            out.update(golden_rule=go["id"] if self.on(go) else None, golden_mode=go["mode"],
                       golden_bid=int(go["bid"]), golden_multiplier=int(go["multiplier"]),
                       golden_raise=bool(go["raise"]),
                       golden_reset=bool(go["reset_if_none"]))
        wi: Any = rn.get("win")
        if self.on(wi):
            out.update(win_rule=wi["rule"], win_rule_id=wi["id"])
        rd: Any = rn.get("redeal")
        if self.on(rd):
            out.update(redeal_same_dealer=rd["dealer"] == "same", redeal_rule=rd["id"])
        return out
