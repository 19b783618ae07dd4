"""Compiling the sections of the newer game families: talon games and bidding games.

:class:`~mariage.spec.compile._Compiler` takes these methods from the two mixins
here, so ``compile.py`` keeps the parts every ruleset has. Each method reads
one family's sections of the resolved description and returns the fields of
:class:`~mariage.engine.rules.Rules` they set (empty where the ruleset lacks them).

>>> from mariage import load_rules
>>> load_rules("schnapsen").close_rule, load_rules("marjapussi-de").bid_min
('schnapsen.close', 120)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mariage.errors import SpecError

__all__ = ["BiddingFields", "TalonFields"]


class _Needs:
    """What the mixins use of the compiler (declared for the type checker only)."""

    if TYPE_CHECKING:
        d: dict[str, Any]

        def fail(self, path: str, message: str) -> SpecError: ...

        def on(self, node: Any) -> bool: ...


class TalonFields(_Needs):
    """Packets, the lead duty of a declaration, closing, claims and game points."""

    def lead_duty(self, spec: dict[str, Any], base: str, pattern: dict[str, int],
                  ranks: list[str], nr: int, nsuits: int) -> dict[str, Any]:
        """The duty to lead one of the declared cards: a mask per suit."""
        lead = spec.get("lead") or {}
        if not self.on(lead):
            return {}
        want = [str(x) for x in lead["ranks"]]
        for rk in want:
            if rk not in pattern:
                raise self.fail(f"{base}.lead.ranks", f"rank '{rk}' is not in the pattern")
        if not spec.get("same_suit", False) and (
                len(want) != 1 or want[0] != str(spec.get("suit_of", next(iter(pattern))))):
            raise self.fail(f"{base}.lead", "a lead duty needs a same-suit declaration, or "
                            "names the one rank that gives the suit")
        masks = tuple(sum(1 << (si * nr + ranks.index(rk)) for rk in want)
                      for si in range(nsuits))
        return {"lead_masks": masks, "lead_rule": lead["id"]}

    def talon_fields(self, ranks: list[str], suits: list[str], nr: int,
                     packets: tuple[int, ...], turn_up: str) -> dict[str, Any]:
        """The compiled fields of packets, closing, claims and game-point scoring."""
        d = self.d
        dl = d["deal"]
        out: dict[str, Any] = {}
        if packets:
            out["deal_packets"] = packets
            after = dl.get("turn_up_after", "all_cards")
            out["turn_up_round"] = 1 if after == "first_round" else 0
            if turn_up != "under_stock" and "turn_up_after" in dl:
                raise self.fail("deal.turn_up_after", "turn_up_after needs turn_up under_stock")
        elif "turn_up_after" in dl:
            raise self.fail("deal.turn_up_after", "turn_up_after needs 'packets'")
        sw = d["play"].get("switch")
        if self.on(sw):
            out["play_switch"] = sw["when"]
            out["play_switch_rule"] = sw["id"]
        ex = d.get("exchange") or {}
        if self.on(ex):
            out["exchange_who"] = ex.get("who", "on_turn")
            out["exchange_requires_trick"] = bool(ex.get("requires_trick", False))
            out["exchange_min_stock"] = int(ex.get("min_stock", 0))
        cl = d.get("closing") or {}
        if self.on(cl):
            if turn_up != "under_stock":
                raise self.fail("closing", "closing the stock needs a turned-up card under it")
            out.update(close_rule=cl["id"], close_before_draw=bool(cl.get("before_draw", False)),
                       close_on_first_lead=bool(cl.get("on_first_lead", True)),
                       close_min_stock=int(cl.get("min_stock", 0)),
                       close_effect_rule=cl["effect"]["id"],
                       close_snapshot_rule=cl["snapshot"]["id"])
            if self.on(cl.get("reply_exchange")):
                if not self.on(ex):
                    raise self.fail("closing.reply_exchange", "an exchange on a close needs "
                                    "an 'exchange' rule")
                out["close_reply_rule"] = cl["reply_exchange"]["id"]
        cm = d.get("claim") or {}
        if self.on(cm):
            out.update(claim_rule=cm["id"], claim_target=int(cm["target"]),
                       claim_auto=cm["mode"] == "auto", claim_timing_rule=cm["timing"]["id"],
                       claim_after_trick=bool(cm["timing"].get("after_trick", True)),
                       claim_after_declaration=bool(cm["timing"].get("after_declaration", True)))
        kind = d["scoring"]["hand"]["kind"]
        gp = d["scoring"].get("game_points")
        if (kind == "game_points") != bool(gp):
            raise self.fail("scoring", "game_points scoring goes with a 'game_points' section, "
                            "and only with it")
        if gp:
            rows = tuple((int(r.get("min_points", 0)), int(r.get("min_tricks", 0)),
                          int(r["game_points"])) for r in gp["scale"]["rows"])
            if rows[-1][:2] != (0, 0):
                raise self.fail("scoring.game_points.scale.rows", "the last row must have no "
                                "condition")
            po = gp["played_out"]
            out.update(gp_scale=rows, gp_scale_rule=gp["scale"]["id"],
                       gp_played_rule=po["id"], gp_played_mode=po["mode"],
                       gp_played_points=int(po.get("game_points", 1)),
                       gp_claim_after_last=bool(po.get("claim_after_last", True)))
            out.update(self.game_point_rows(gp, claims=self.on(cm), closing=self.on(cl),
                                            false_claims=self.on(cm) and cm["mode"] != "auto"))
            lt = gp.get("last_trick")
            if self.on(lt):
                out.update(last_trick_bonus=int(lt["bonus"]),
                           last_trick_when_closed=bool(lt.get("when_closed", False)),
                           last_trick_bonus_rule=lt["id"])
            db = gp.get("draw_bonus")
            if self.on(db):
                out.update(draw_bonus=int(db["game_points"]), draw_bonus_rule=db["id"])
        cb = d["scoring"].get("capture_bonus")
        if self.on(cb):
            out.update(self.capture_bonus(cb, ranks, suits))
        bm = d["match"].get("bummerl")
        if self.on(bm):
            out["bummerl_rule"] = bm["id"]
        out["trick_review"] = (d.get("visibility") or {}).get("review_tricks", "all")
        out["credit_on_win"] = any(
            self.on(spec) and self.on(spec.get("credit"))
            and spec["credit"]["mode"] in ("with_trick", "next_trick")
            for spec in (d.get("declarations") or {}).values())
        if out.get("close_rule") and "always" not in d["play"] \
                and out.get("play_switch") != "stock_closed_or_exhausted":
            raise self.fail("play", "closing the stock needs play.switch "
                            "stock_closed_or_exhausted (or the same duties always)")
        out["talon_game"] = bool(out.get("claim_rule") or out.get("close_rule"))
        return out


    def game_point_rows(self, gp: dict[str, Any], claims: bool, closing: bool,
                        false_claims: bool) -> dict[str, Any]:
        """The rows of claims and closing: needed where the rules have them, else unused
        (the row of a false claim is not needed where claims are made by themselves)."""
        out: dict[str, Any] = {}
        for name, needed, what in (("claim", claims, "claims"),
                                   ("false_claim", false_claims, "claims made by a player"),
                                   ("closer_claim", closing, "closing"),
                                   ("beaten_closer", closing, "closing"),
                                   ("failed_close", closing, "closing")):
            if needed and not self.on(gp.get(name)):
                raise self.fail(f"scoring.game_points.{name}", f"rules with {what} need the "
                                f"game-point row '{name}'")
        if claims:
            fa = gp.get("false_claim") or {}  # may be left out where no claim is false
            out.update(gp_claim_rule=gp["claim"]["id"], gp_false_rule=fa.get("id"),
                       gp_false_mode=fa.get("mode", "penalty"),
                       gp_false_points=int(fa.get("game_points", 2)),
                       gp_false_trickless=int(fa.get("if_trickless", fa.get("game_points", 2))),
                       gp_false_closer=fa.get("closer", "false_claim_row"))
        if closing:
            bc, fc = gp["beaten_closer"], gp["failed_close"]
            out.update(
                gp_closer_rule=gp["closer_claim"]["id"],
                gp_closer_at_end=gp["closer_claim"]["judged"] == "at_end",
                gp_beaten_rule=bc["id"], gp_beaten_mode=bc["mode"],
                gp_beaten_points=int(bc.get("game_points", 2)),
                gp_failed_rule=fc["id"], gp_failed_mode=fc["mode"],
                gp_failed_points=int(fc.get("game_points", 2)),
                gp_failed_trickless=int(fc.get("if_trickless", fc.get("game_points", 2))))
        return out

    def sitting_out(self, nseats: int) -> dict[str, Any]:
        """The compiled fields of a seat sitting each hand out (``deal.sits_out``) and of
        what he scores for it (``scoring.sitting_out``)."""
        d = self.d
        so = d["deal"].get("sits_out")
        score = d["scoring"].get("sitting_out")
        places = self.places(d["match"].get("places"), self.on(so), nseats)
        # the seat sitting out, counted from the dealer (compiled while switched off too)
        who = so["who"] if so else "dealer"
        after = {"dealer": 0, "before_dealer": nseats - 1, "opposite_dealer": nseats // 2}[who]
        if not self.on(so):
            if self.on(score):
                raise self.fail("scoring.sitting_out", "a score for sitting out needs "
                                "'deal.sits_out'")
            return {"hand_seats": nseats, "hand_sides": len(d["players"]["teams"]),
                    "sits_out_after": after, **places}
        if d["deal"].get("first_dealer") == "none":
            raise self.fail("deal.sits_out", "the dealer cannot sit out in a game without one")
        if nseats < 3:
            raise self.fail("deal.sits_out", "a hand needs two seats besides the one sitting out")
        if len(d["players"]["teams"]) != nseats:
            raise self.fail("deal.sits_out", "with a seat sitting out, each player plays for "
                            "himself (one seat a side)")
        if nseats != 3 and d["scoring"]["hand"]["kind"] == "game_points":
            raise self.fail("deal.sits_out", "game points are scored between two sides: with "
                            "a seat sitting out and one seat a side, three players")
        if who == "opposite_dealer" and nseats % 2:
            raise self.fail("deal.sits_out.who", f"no seat sits opposite the dealer among "
                            f"{nseats}")
        out: dict[str, Any] = {"sits_out": who, "sits_out_after": after,
                               "sits_out_rule": so["id"],
                               "hand_seats": nseats - 1, "hand_sides": nseats - 1, **places}
        if self.on(score):
            if d["scoring"]["hand"]["kind"] != "game_points":
                raise self.fail("scoring.sitting_out", "a score for sitting out needs "
                                "game-point scoring")
            out.update(sitter_score=score["scores"], sitter_score_rule=score["id"],
                       sitter_below_target=bool(score.get("below_target", False)))
        return out

    def places(self, pl: dict[str, Any] | None, sitting: bool, nseats: int) -> dict[str, Any]:
        """The compiled field of playing on for the places (``match.places``): after the
        first player wins, the two seats left fill a hand (one fewer than the table, as
        when a seat sits each hand out), so the winner takes the sitter's place for good;
        the next to win is second, the last one left loses."""
        if not self.on(pl):
            return {}
        assert pl is not None
        end = self.d["match"]["end"]
        if not sitting:
            raise self.fail("match.places", "playing on for the places needs a seat sitting "
                            "each hand out ('deal.sits_out'), whose place the winner takes")
        if nseats != 3:
            raise self.fail("match.places", "playing on for the places needs three players: "
                            "the two left after the winner play the hands, one of them loses")
        if self.d["match"]["tie"]["rule"] != "play_on":
            raise self.fail("match.places", "playing on for the places needs ties played on "
                            "('match.tie.rule: play_on')")
        if end["measure"] != "points" or end.get("max_hands") or end.get("bonus") or \
                self.d["match"].get("running"):
            raise self.fail("match.places", "playing on for the places needs a match won on "
                            "a target of points, without a match bonus, a limit of hands or "
                            "running totals")
        return {"places_rule": pl["id"]}

    def capture_bonus(self, cb: dict[str, Any], ranks: list[str],
                      suits: list[str]) -> dict[str, Any]:
        """The bonus for winning a named card in a trick (a rank of a suit, or of trumps)."""
        rank, suit = str(cb["rank"]), str(cb["suit"])
        if rank not in ranks:
            raise self.fail("scoring.capture_bonus.rank", f"no rank {rank} in the pack")
        if suit != "trump" and suit not in suits:
            raise self.fail("scoring.capture_bonus.suit", f"no suit {suit} in the pack "
                            "(or 'trump')")
        return {"capture_bonus_rank": ranks.index(rank),
                "capture_bonus_suit": -1 if suit == "trump" else suits.index(suit),
                "capture_bonus_value": int(cb["value"]), "capture_bonus_rule": cb["id"]}


class BiddingFields(_Needs):
    """The first-trick duty, last-trick points, auction, passing, contract and calls."""

    def bidding(self, suits: list[str], ranks: list[str], nr: int,
                codes: list[str]) -> dict[str, Any]:
        """The fields of an auction, passing, contract and calls (empty where absent)."""
        d = self.d
        out: dict[str, Any] = {}
        ft: dict[str, Any] = (d.get("play") or {}).get("first_trick") or {}
        if self.on(ft):
            if str(ft["rank"]) not in ranks:
                raise self.fail("play.first_trick.rank", f"no rank {ft['rank']} in the pack")
            out.update(first_trick_rank=ranks.index(str(ft["rank"])), first_trick_rule=ft["id"])
        sc = d["scoring"]
        lt = sc.get("last_trick")
        if self.on(lt):
            out.update(last_trick_points=lt["points"], last_trick_rule=lt["id"])
        me = d["match"]["end"]
        out["match_bonus"] = me.get("bonus", 0)
        out["match_max_hands"] = me.get("max_hands", 0)
        out["match_max_hands_count"] = me.get("max_hands_count", "all")
        pt = d["deal"].get("partnership")
        if self.on(pt):
            out["partnership"] = pt["mode"]
        au = d.get("auction")
        if au:
            b = au["bids"]
            if b["min"] % b["step"] or (b["max"] and (b["max"] % b["step"] or b["max"] < b["min"])):
                raise self.fail("auction.bids", "bids must be multiples of the step, and the "
                                "highest bid at least the lowest")
            out.update(auction_rule=au["id"], bid_min=b["min"], bid_step=b["step"],
                       bid_max=b["max"], bid_rule=b["id"], auction_pass_rule=au["pass"]["id"],
                       auction_end=au["end"]["mode"], auction_end_rule=au["end"]["id"],
                       auction_last_rule=(au.get("last") or {}).get("id"),
                       no_bid=au["no_bid"]["mode"],
                       no_bid_rule=au["no_bid"]["id"])
            sizes = {len(t) for t in d["players"]["teams"]}
            if sizes != {2} and sizes != {1}:
                raise self.fail("auction", "a contract is played by partnerships of two, or "
                                "by each player for himself")
        pa: dict[str, Any] = d.get("passing") or {}
        if self.on(pa):
            if not au:
                raise self.fail("passing", "passing cards needs an auction (a declarer)")
            roles = {"declarer": 0, "partner": 1, "first_defender": 2, "second_defender": 3,
                     "discard": 4}
            alone = all(len(t) == 1 for t in d["players"]["teams"])
            steps = []
            for i, st in enumerate(pa["steps"]):
                if st["from"] == st["to"]:
                    raise self.fail(f"passing.steps.{i}", "a player cannot pass cards to himself")
                if alone and "partner" in (st["from"], st["to"]):
                    raise self.fail(f"passing.steps.{i}", "nobody has a partner here")
                steps.append((roles[st["from"]], roles[st["to"]], st["count"]))
            out.update(passing_steps=tuple(steps), passing_rule=pa["id"])
        ct = d.get("contract")
        if ct:
            if not au:
                raise self.fail("contract", "a contract needs an auction")
            if self.on(ct.get("raise")):
                out["raise_rule"] = ct["raise"]["id"]
            if self.on(ct.get("kontra")):
                out["kontra_rule"] = ct["kontra"]["id"]
            out.update(contract_lead_rule=ct["lead"]["id"],
                       contract_result_rule=ct["result"]["id"],
                       made_if=ct["result"]["made_if"],
                       schwarz_rule=(ct.get("schwarz") or {}).get("id"))
        if sc["hand"]["kind"] == "contract":
            if not ct:
                raise self.fail("scoring.hand.kind", "contract scoring needs a 'contract'")
            sh = sc.get("sheet")
            if not sh:
                raise self.fail("scoring", "contract scoring needs a 'sheet' section")
            out.update(sheet_mode=sh["mode"], schwarz_factor=sh.get("schwarz_factor", 2),
                       rounding=sh["rounding"], sheet_rule=sh["id"])
        ca = d.get("calls")
        if ca:
            pr = ca["pair"]
            pranks = [str(x) for x in pr["ranks"]]
            for x in pranks:
                if x not in ranks:
                    raise self.fail("calls.pair.ranks", f"no rank {x} in the pack")
            masks = tuple(sum(1 << (si * nr + ranks.index(x)) for x in pranks)
                          for si in range(len(suits)))
            vals = pr["values"]
            for k in vals:
                if k not in suits:
                    raise self.fail("calls.pair.values", f"no suit {k} in the pack")
            if any(len(t) != 2 for t in d["players"]["teams"]):
                raise self.fail("calls", "questions to the partner need partnerships of two")
            lv = ca.get("levels")
            out.update(
                calls_rule=ca["who"]["id"], calls_per_trick=ca["per_trick"]["max"],
                calls_per_trick_rule=ca["per_trick"]["id"], call_pair_masks=masks,
                call_values=tuple(int(vals.get(x, 0)) for x in suits),
                call_pair_rule=pr["id"], call_announce_rule=ca["announce"]["id"],
                call_trump_latest=ca["trump"]["effect"] == "latest",
                call_trump_rule=ca["trump"]["id"],
                call_once_per_player=ca["once"]["credit"] == "once_per_player",
                call_once_rule=ca["once"]["id"], ask_pair_rule=ca["ask_pair"]["id"],
                ask_half_rule=ca["ask_half"]["id"],
                half_needs_own=bool(ca["ask_half"]["needs_own_half"]),
                half_credit_asker=ca["ask_half"]["credit"] == "asker",
                recall_allowed=ca["recall"]["mode"] == "allowed", recall_rule=ca["recall"]["id"],
                levels_rule=lv["id"] if self.on(lv) else None,
                answers_rule=ca["answers"]["id"])
        return out
