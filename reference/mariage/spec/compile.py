"""Compile a game description plus option values into an immutable :class:`Rules`.

Options are typed patches on the description: an ``int`` option *binds* its
value to one or more paths; a ``bool`` or ``enum`` option has *effects*, a set
of path/value pairs per value. The compiler applies them, checks that the
result is consistent, and precomputes everything the interpreter needs. Rules are
loaded through :func:`~mariage.spec.rulesload.load_rules`, which calls :func:`build`
only when neither this process nor the disk cache holds them.

>>> from mariage.spec.rulesload import load_rules
>>> rules = load_rules("marianna", {"target": "301"})
>>> rules.match_target, rules.option("target")
(301, 301)
>>> try:
...     load_rules("marianna", {"colour": "red"})
... except OptionError as exc:
...     print(str(exc)[:37])
marianna has no option 'colour' (opti
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mariage.engine.actions import Play
from mariage.engine.rules import Ask, Declaration, RuleInfo, Rules
from mariage.errors import Location, OptionError, SpecError
from mariage.lazyrecord import replace
from mariage.resources import spec_dir

from . import diskcache
from .compile_core import CoreFields, _as_list
from .compile_games import BiddingFields, TalonFields
from .compile_running import TalonAuctionFields
from .compile_taking import TakingFields
from .doccheck import check_declarations
from .options import (
    check_invalid_rules,
    check_invalid_when,
    default_in_force,
    invalid_case,
    option_specs,
    parse_option_value,
    resolution_order,
    resolve_written,
    settled_values,
)
from .options import value_key as _key
from .specload import (
    Document,
    expect_document,
    read_yaml,
    validate_schema,
)

__all__ = ["OptionError", "build", "check_document", "core_rules", "option_specs",
           "parse_option_value"]


_CORE: list[RuleInfo] = []


def core_rules() -> list[RuleInfo]:
    """The core rules every ruleset shares (``spec/core/core.yaml``)."""
    if not _CORE:
        data, _ = read_yaml(spec_dir() / "core" / "core.yaml")
        for key, r in data["rules"].items():
            _CORE.append(RuleInfo(r["id"], r["text"], _as_list(r.get("source")), f"core.{key}"))
    return _CORE


def check_document(doc: Document) -> None:
    """Run every consistency check, for the defaults and for each option value alone.

    Raises :class:`SpecError` at the first problem, with file:line:column. A document
    that passed is remembered in the disk cache (by the files it was read from, each
    with its content's digest): checked again unchanged, it is not built again.
    """
    key = diskcache.make_key("document checked",
                             sorted(map(str, expect_document(doc, "check_document").paths)))
    if diskcache.load(key) is True:
        return
    try:
        _check_document(doc)
    except SpecError as exc:
        raise in_own_file(doc, exc) from None
    diskcache.store(key, True, doc.paths)


#: keys every description sets, which say nothing of a conflict
_HEADING = frozenset({"format", "ruleset", "parent", "name", "version", "summary", "aim",
                      "sources"})


def in_own_file(doc: Document, exc: SpecError) -> SpecError:
    """``exc``, or where it is located in a description that the file given extends (a
    bundled one, say), the same error naming that file too, with what it sets nearest
    the problem: the value at fault stands in the other file, but the change that made
    it wrong is the given file's (``hand_size: 21`` over Mariazza's packets of 5 was
    located in ``spec/mariazza.yaml`` alone, which the user never wrote).

    Each key the file sets under the problem's section is named with its place (at most
    three), else each it sets at all:

    >>> import pathlib, tempfile
    >>> from mariage.spec.rulesload import load_rules
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "house.yaml")
    ...     _ = path.write_text("extends: mariazza\\nruleset: house\\ndeal:\\n  hand_size: 21\\n")
    ...     try:
    ...         load_rules(path)
    ...     except SpecError as err:
    ...         print(err.location.file.endswith("mariazza.yaml"))
    ...         print(str(err).split(", which ")[1].replace(folder + "/", ""))
    True
    house.yaml extends: house.yaml:4:14 sets deal.hand_size) [S020]
    """
    own = doc.files[-1] if len(doc.files) > 1 else None
    where = exc.location
    if own is None or where is None or where.file == own or ", which " in exc.message:
        return exc
    keys: list[tuple[str, ...]] = []
    for key, loc in doc.marks.items():
        while key and key[-1].isdigit():  # an item of a list: the list
            key = key[:-1]
        if loc.file == own and key and key[0] not in _HEADING and key not in keys:
            keys.append(key)
    leaves = [k for k in keys if not any(o[:len(k)] == k and o != k for o in keys)]
    section = exc.path.split(".", 1)[0]
    near = [k for k in leaves if k[0] == section] or leaves
    sets = "; ".join(f"{doc.marks[k]} sets {'.'.join(k)}" for k in near[:3]) + (
        f" and {len(near) - 3} more" if len(near) > 3 else "")
    return SpecError(f"{exc.message} (a value of {where.file}, which {own} extends"
                     f"{': ' + sets if sets else ''})", location=where, path=exc.path,
                     code=exc.code)


def _check_document(doc: Document) -> None:
    specs = option_specs(doc)
    check_declarations(doc, specs)
    resolution_order(doc)
    check_invalid_when(doc)
    check_invalid_rules(doc, build(doc, {}).rule_ids)
    for name, spec in specs.items():
        choices: list[Any]
        if spec["type"] == "enum":
            choices = list(spec["values"])
        elif spec["type"] == "bool":
            choices = [True, False]
        else:
            choices = [v for v in (spec.get("min"), spec["default"], spec.get("max"),
                                   *(c["value"] for c in spec.get("default_when") or ()))
                       if v is not None]
        for value in choices:
            if invalid_case(specs, settled_values(doc, {name: value})) is None:
                build(doc, {name: value}, context=f"with {name}={_key(value)}: ")


def build(doc: Document, options: Mapping[str, Any], context: str = "") -> Rules:
    """Resolve options, validate, check consistency and compile ``doc``."""
    data, values, written = resolve_written(doc, options)
    if values:
        validate_schema(doc, data, context, written)
    try:
        return _Compiler(doc, data, values, context).compile()
    except SpecError as exc:
        raise in_own_file(doc, exc) from None


class _Compiler(CoreFields, BiddingFields, TalonFields, TakingFields, TalonAuctionFields):
    def __init__(self, doc: Document, data: dict[str, Any], values: dict[str, Any],
                 context: str) -> None:
        self.doc = doc
        self.d = data
        self.values = values
        self.context = context

    def fail(self, path: str, message: str) -> SpecError:
        return SpecError(self.context + message, location=self.doc.where(path), path=path,
                         code="S020")

    def on(self, node: Any) -> bool:
        return isinstance(node, dict) and bool(node) and node.get("enabled", True) is not False

    def compile(self) -> Rules:
        d = self.d
        infos = self.collect_rules()
        # ---- players
        pl = d["players"]
        n = pl["count"]
        if len(pl["seat_names"]) != n or len(set(pl["seat_names"])) != n:
            raise self.fail("players.seat_names", f"need {n} distinct seat names")
        teams = tuple(tuple(t) for t in pl["teams"])
        flat = sorted(s for t in teams for s in t)
        if flat != list(range(n)):
            raise self.fail("players.teams", f"teams must split seats 0..{n - 1}, each once")
        team_of = [0] * n
        for ti, t in enumerate(teams):
            for s in t:
                team_of[s] = ti
        if len(pl["team_names"]) != len(teams) or len(set(pl["team_names"])) != len(teams):
            raise self.fail("players.team_names", "one distinct name per team")
        # ---- pack
        pk = d["pack"]
        suits = list(pk["suits"])
        ranks = [str(x) for x in pk["ranks"]]
        for what, items in (("suits", suits), ("ranks", ranks)):
            dup = {x for x in items if items.count(x) > 1}
            if dup:
                raise self.fail(f"pack.{what}", f"{what[:-1]} listed twice: {sorted(dup)}")
        removed = [str(x) for x in pk.get("remove_ranks", [])]
        for x in removed:
            if x not in ranks:
                raise self.fail("pack.remove_ranks", f"cannot remove rank '{x}': not in ranks")
        points_map = {str(k): v for k, v in pk.get("points", {}).items()}
        for k in points_map:
            if k not in ranks:
                raise self.fail(f"pack.points.{k}", f"points for rank '{k}', not in ranks")
        ranks = [x for x in ranks if x not in removed]
        nr = len(ranks)
        codes, suit_of, rank_of, strength, points = [], [], [], [], []
        for si, s in enumerate(suits):
            for ri, rk in enumerate(ranks):
                codes.append(f"{rk}{s}")
                suit_of.append(si)
                rank_of.append(ri)
                strength.append(nr - ri)
                points.append(int(points_map.get(rk, 0)))
        cut = [str(x) for x in pk.get("remove_cards", [])]
        if cut:
            if sorted(cut) != sorted(codes[len(codes) - len(cut):]):
                raise self.fail("pack.remove_cards", "only the last cards in canonical order "
                                f"(here {' '.join(codes[len(codes) - len(cut):])}) can be "
                                "removed")
            keep = len(codes) - len(cut)
            del codes[keep:], suit_of[keep:], rank_of[keep:], strength[keep:], points[keep:]
        ncards = len(codes)
        higher = tuple(
            sum(1 << o for o in range(ncards)
                if suit_of[o] == suit_of[c] and strength[o] > strength[c])
            for c in range(ncards))
        full = (1 << ncards) - 1
        suit_mask = tuple(full & sum(1 << (si * nr + ri) for ri in range(nr))
                          for si in range(len(suits)))
        rank_mask = tuple(full & sum(1 << (si * nr + ri) for si in range(len(suits)))
                          for ri in range(nr))
        # ---- deal
        dl = d["deal"]
        hand_size, packet = dl["hand_size"], dl.get("packet", dl["hand_size"])
        if hand_size % packet:
            raise self.fail("deal.packet", f"hand size {hand_size} is not a whole number of "
                            f"packets of {packet}")
        sitting = self.sitting_out(n)
        dealt = sitting["hand_seats"]  # the seats dealt and playing a hand
        stock = ncards - dealt * hand_size
        if stock < 0:
            raise self.fail("deal.hand_size", f"{dealt} hands of {hand_size} need more than "
                            f"{ncards} cards")
        if stock % dealt:
            raise self.fail("deal.hand_size", f"the stock of {stock} cards cannot be drawn "
                            f"evenly by {dealt} players")
        turn_up = dl.get("turn_up", "none")
        packets = tuple(dl.get("packets") or ())  # packets of several sizes (talon games)
        if packets and sum(packets) != hand_size:
            raise self.fail("deal.packets", f"the packets {list(packets)} do not add up to the "
                            f"hand size {hand_size}")
        if turn_up == "under_stock" and stock == 0:
            raise self.fail("deal.turn_up", "a card under the stock needs a stock")
        rot = dl.get("rotation", {})
        # ---- lead
        ld = d["lead"]
        holder_card = None
        holder_rule = None
        if self.on(ld.get("holder")):
            code = ld["holder"]["card"]
            if code not in codes:
                raise self.fail("lead.holder.card", f"no card '{code}' in the pack")
            holder_card = codes.index(code)
            holder_rule = ld["holder"]["id"]
        prefs: list[int] = []
        first_card_rule = None
        if self.on(ld.get("first_card")):
            first_card_rule = ld["first_card"]["id"]
            for i, p in enumerate(ld["first_card"]["prefer"]):
                m = (1 << ncards) - 1
                if "rank" in p:
                    if str(p["rank"]) not in ranks:
                        raise self.fail(f"lead.first_card.prefer.{i}", f"no rank {p['rank']}")
                    m &= rank_mask[ranks.index(str(p["rank"]))]
                if "suit" in p:
                    if p["suit"] not in suits:
                        raise self.fail(f"lead.first_card.prefer.{i}", f"no suit {p['suit']}")
                    m &= suit_mask[suits.index(p["suit"])]
                prefs.append(m)
        # ---- play duties
        play = d["play"]
        if "always" in play:
            ob_stock = ob_no = self.obligation(play["always"], "play.always")
        else:
            if "stock" not in play or "no_stock" not in play:
                raise self.fail("play", "give 'always', or both 'stock' and 'no_stock'")
            ob_stock = self.obligation(play["stock"], "play.stock")
            ob_no = self.obligation(play["no_stock"], "play.no_stock")
        # ---- declarations
        dec = d.get("declaring", {})
        decls: list[Declaration] = []
        off: list[Declaration] = []  # switched off, compiled all the same
        names: list[str] = []
        window = dec.get("window", {}).get("until", "stock")
        window_rule = dec.get("window", {}).get("id", "")
        cw = dec.get("combination_window") or {}
        for name, spec in (d.get("declarations") or {}).items():
            if not self.on(spec):  # its values still count: an option may change them
                off.append(self.declaration(-1, name, spec, suits, ranks, nr, rank_mask,
                                            hand_size))
                continue
            dd = self.declaration(len(decls), name, spec, suits, ranks, nr, rank_mask,
                                  hand_size)
            if dd.whole_hand and self.on(cw) and cw["until"] != "declarations":
                dd = replace(dd, window=cw["until"], window_rule=cw["id"])
            else:
                dd = replace(dd, window=window, window_rule=window_rule)
            decls.append(dd)
            names.append(name)
        ordered = next((dx.schedule for dx in decls if dx.ordered and dx.schedule), ())
        for i, dx in enumerate(decls):
            if dx.next_in_order_plus is not None:
                if not ordered:
                    raise self.fail(f"declarations.{names[i]}.value.next_in_order_plus",
                                    "there is no ordered schedule to count from")
                decls[i] = replace(dx, order_schedule=ordered)
        widths = ("stock", "stock_plus_one", "hand")
        window_any = max([window, *(dx.window for dx in decls)], key=widths.index)
        who_mode = dec.get("who", {}).get("mode", "on_turn")
        who_rule = dec.get("who", {}).get("id", "")
        window_seats = 0
        if self.on(dec.get("leader_only")):
            if who_mode == "on_turn":
                who_mode, who_rule = "leader", dec["leader_only"]["id"]
            elif who_mode == "trick_start":
                window_seats = 1
            else:
                raise self.fail("declaring.leader_only", "leader_only goes with who.mode "
                                "on_turn or trick_start")
        asks: list[Ask] = []
        for name, spec in (d.get("asks") or {}).items():
            if not self.on(spec):
                continue
            target = spec["declaration"]
            if target not in names:
                raise self.fail(f"asks.{name}.declaration",
                                f"ask names declaration '{target}', which is not in force")
            dd = decls[names.index(target)]
            if spec["kind"] == "half" and not dd.same_suit:
                raise self.fail(f"asks.{name}.kind", "asking for the other half needs a "
                                "same-suit declaration")
            asks.append(Ask(
                index=len(asks), name=name, rule=spec["id"], kind=spec["kind"],
                declaration=dd.index, answer=spec["answer"]["mode"],
                answer_rule=spec["answer"]["id"], settle=spec["settle"]["mode"],
                settle_rule=spec["settle"]["id"], value=spec["settle"].get("value", 0),
                ordered=spec["settle"].get("ordered", False),
                needs_no_trump=spec.get("needs_no_trump", False),
                who=spec["who"], window=spec["window"],
                spoiled_by=spec["settle"].get("spoiled_by", "opponent"),
                uses_declaration=spec.get("uses_declaration", True),
                declaring_rule=(spec.get("declaring") or {}).get("id", ""),
                order_rule=(spec["settle"].get("order") or {}).get("id", ""),
                spoiled_rule=(spec["settle"].get("spoiling") or {}).get("id", "")))
        if asks and any(len(t) != 2 for t in teams):
            raise self.fail("asks", "asking a partner needs partnerships of two")
        # ---- exchange, call out, hand target
        ex = d.get("exchange") or {}
        exchange_rank = None
        if self.on(ex):
            if str(ex["rank"]) not in ranks:
                raise self.fail("exchange.rank", f"no rank {ex['rank']} in the pack")
            if turn_up == "none":
                raise self.fail("exchange", "an exchange needs a turned-up card")
            exchange_rank = ranks.index(str(ex["rank"]))
        co = d.get("call_out") or {}
        he = d.get("hand_end") or {}
        # ---- scoring
        sc = d["scoring"]
        hand = sc["hand"]
        kind = hand["kind"]
        table = sc.get("table", {})
        if kind == "table" and not table:
            raise self.fail("scoring", "table scoring needs a 'table' section")
        segno = sc.get("segno", {})
        if kind == "segno" and not segno:
            raise self.fail("scoring", "segno scoring needs a 'segno' section")
        match = d["match"]
        measure = match["end"]["measure"]
        if (kind == "segno") != (measure == "hands_won"):
            raise self.fail("match.end.measure", "matches counted in hands won go with "
                            "segno scoring, and only with it")
        bonus = sc.get("turn_up_bonus") or {}
        if self.on(bonus) and turn_up != "dealer_last":
            raise self.fail("scoring.turn_up_bonus", "a turn-up bonus needs the dealer's "
                            "turned-up card")
        for r in infos:
            for src in r.source:
                key = src.split()[0]
                if key not in (d.get("sources") or {}):
                    raise self.fail(r.path + ".source", f"source '{key}' is not listed under "
                                    "'sources'")
        return Rules(
            ruleset=d["ruleset"], name=d["name"], version=d["version"], parent=d.get("parent"),
            options=tuple(self.values.items()),
            defaults=tuple((k, default_in_force(v, self.values))
                           for k, v in option_specs(self.doc).items()),
            infos=tuple(core_rules()) + tuple(infos), document=d,
            nseats=n, seat_names=tuple(pl["seat_names"]), teams=teams, team_of=tuple(team_of),
            team_names=tuple(pl["team_names"]), direction=pl["direction"],
            players_rule=pl["id"],
            open_hands=bool(d.get("visibility", {}).get("open_hands", False)),
            visibility_rule=d.get("visibility", {}).get("id"),
            suits=tuple(suits), ranks=tuple(ranks), ncards=ncards, card_code=tuple(codes),
            card_index={c: i for i, c in enumerate(codes)}, suit_of=tuple(suit_of),
            rank_of=tuple(rank_of), strength=tuple(strength), points=tuple(points),
            suit_mask=suit_mask, rank_mask=rank_mask, full_mask=(1 << ncards) - 1,
            higher=higher, play_actions=tuple(Play(c, codes[c]) for c in range(ncards)),
            pack_points=sum(points), pack_rule=pk["id"],
            first_dealer=dl.get("first_dealer", "lot"), hand_size=hand_size, packet=packet,
            first_dealer_seat=self.first_dealer_seat(dl, n), **self.gather_fields(dl, ncards),
            first_dealer_rule=dl.get("first", {}).get("id"),
            turn_up=turn_up, stock_size=stock, rotation=rot.get("next", "next_seat"),
            deal_rule=dl["id"], rotation_rule=rot.get("id", dl["id"]),
            first_lead=ld["first"]["who"], first_lead_rule=ld["first"]["id"],
            holder_card=holder_card, holder_rule=holder_rule,
            first_card_prefs=tuple(prefs), first_card_rule=first_card_rule,
            obligation_stock=ob_stock, obligation_no_stock=ob_no,
            trump_at=d["trick"]["trump_at"], trick_rule=d["trick"]["id"],
            draw_rule=d.get("draw", {}).get("id", ""),
            decl_who=who_mode, decl_who_rule=who_rule,
            decl_window=window, decl_window_rule=window_rule,
            decl_per_trick=dec.get("per_trick", {}).get("max", 1),
            decl_per_trick_rule=dec.get("per_trick", {}).get("id", ""),
            decl_window_any=window_any, decl_window_seats=window_seats,
            decl_windows_differ=any(dx.window != window_any for dx in decls),
            decl_combo_window_rule=cw["id"] if self.on(cw) and cw["until"] == "declarations"
            else None,
            failed_ask=dec.get("per_trick", {}).get("failed_ask", "uses_turn"),
            declarations=tuple(decls), declarations_off=tuple(off), asks=tuple(asks),
            exchange_rank=exchange_rank,
            exchange_window=ex.get("window", "stock") if self.on(ex) else "stock",
            exchange_rule=ex["id"] if self.on(ex) else None,
            exchange_reopens=bool(ex.get("reopens", False)) if self.on(ex) else False,
            call_out_rule=co["id"] if self.on(co) else None,
            call_out_penalty=co["penalty"]["mode"] if self.on(co) else "hand_zero",
            call_out_penalty_rule=co["penalty"]["id"] if self.on(co) else None,
            hand_target=he["target"] if self.on(he) else None,
            hand_target_rule=he["id"] if self.on(he) else None,
            score_kind=kind, score_rule=hand["id"], trick_point=hand.get("trick_point", 0),
            excess_threshold=hand.get("threshold", 0),
            table_threshold=table.get("threshold", {}).get("min_points", 0),
            table_threshold_points=table.get("threshold", {}).get("game_points", 0),
            table_threshold_rule=table.get("threshold", {}).get("id"),
            table_last_trick=table.get("last_trick", {}).get("game_points", 0),
            table_last_trick_rule=table.get("last_trick", {}).get("id"),
            table_majority=table.get("majority", {}).get("game_points", 0),
            table_majority_mode=table.get("majority", {}).get("mode", "separate"),
            table_majority_rule=table.get("majority", {}).get("id"),
            segno_void_top=segno.get("void_top"),
            segno_void_rule=segno.get("id") if segno.get("void_top") is not None else None,
            segno_unfinished=sc.get("unfinished", {}).get("mode", "higher")
            if self.on(sc.get("unfinished")) else "higher",
            segno_unfinished_rule=sc["unfinished"]["id"] if self.on(sc.get("unfinished"))
            else None,
            turn_up_bonus=self.on(bonus), turn_up_bonus_rule=bonus["id"] if self.on(bonus)
            else None,
            match_measure=measure, match_target=match["end"]["target"],
            match_rule=match["end"]["id"], tie_rule=match["tie"]["id"],
            tie_mode=match["tie"]["rule"],
            **sitting, **self.talon_fields(ranks, suits, nr, packets, turn_up),
            **self.bidding(suits, ranks, nr, codes),
            **self.all_trump_duty(self.taking_fields(suits, ranks, nr, strength, points),
                                  ob_no),
            **self.talon_auction(suits, ranks, nr, decls, stock),
        )

    def declaration(self, index: int, name: str, spec: dict[str, Any], suits: list[str],
                    ranks: list[str], nr: int, rank_mask: tuple[int, ...],
                    hand_size: int) -> Declaration:
        base = f"declarations.{name}"
        pattern = {str(k): v for k, v in spec["pattern"].items()}
        for rk in pattern:
            if rk not in ranks:
                raise self.fail(f"{base}.pattern", f"pattern rank '{rk}' is not in the pack")
        size = sum(pattern.values())
        same_suit = spec.get("same_suit", False)
        whole = spec.get("whole_hand", False)
        if whole and size != hand_size:
            raise self.fail(f"{base}.pattern", f"a whole-hand pattern must have {hand_size} "
                            f"cards, this has {size}")
        if same_suit and any(v != 1 for v in pattern.values()):
            raise self.fail(f"{base}.pattern", "a same-suit pattern holds each rank once")
        suit_rank_name = str(spec.get("suit_of", next(iter(pattern))))
        lead_ranks = [str(x) for x in (spec.get("lead") or {}).get("ranks", ())]
        by_lead = not same_suit and pattern.get(suit_rank_name, 0) > 1 and \
            lead_ranks == [suit_rank_name] and self.on(spec.get("lead"))
        if not same_suit and pattern.get(suit_rank_name) != 1 and not by_lead:
            raise self.fail(f"{base}.suit_of", "the suit comes from a rank held once, or "
                            "from the card led (a lead duty naming that rank alone)")
        value = spec["value"]
        schedule = tuple(value.get("schedule", ()))
        once = spec["once"]
        if schedule and value.get("ordered", False) and once["scope"] == "suit" \
                and len(schedule) < len(suits):
            raise self.fail(f"{base}.value.schedule", f"the schedule has {len(schedule)} values "
                            f"but {len(suits)} suits can be declared")
        by_suit = value.get("by_suit") or {}
        if not schedule and "fixed" not in value and "next_in_order_plus" not in value \
                and not by_suit:
            raise self.fail(f"{base}.value", "give a 'schedule', a 'fixed' value or values "
                            "'by_suit'")
        for k in by_suit:
            if k not in suits:
                raise self.fail(f"{base}.value.by_suit", f"no suit {k} in the pack")
        suit_masks = tuple(
            sum(1 << (si * nr + ranks.index(rk)) for rk in pattern) for si in range(len(suits)))
        credit = spec.get("credit")
        return Declaration(
            index=index, name=spec.get("name", name), rule=spec["id"], same_suit=same_suit,
            whole_hand=whole, suit_masks=suit_masks if same_suit else (),
            rank_counts=tuple((rank_mask[ranks.index(rk)], c) for rk, c in pattern.items()),
            suit_rank=ranks.index(suit_rank_name), size=size,
            pattern_ranks=tuple(ranks.index(rk) for rk in pattern),
            once_scope=once["scope"], once_rule=once["id"], schedule=schedule,
            fixed=value.get("fixed", 0), if_trump_suit=value.get("if_trump_suit"),
            if_makes_trump=value.get("if_makes_trump"), ordered=value.get("ordered", False),
            units=value.get("units", "points"), wins_match=value.get("wins_match", False),
            value_rule=value["id"], trump_effect=spec["trump"]["effect"],
            trump_rule=spec["trump"]["id"],
            credit=credit["mode"] if credit else "immediate",
            credit_rule=credit["id"] if credit else None,
            next_in_order_plus=value.get("next_in_order_plus"),
            suit_values=tuple(int(by_suit.get(s, 0)) for s in suits) if by_suit else (),
            trump_next_trick=spec["trump"].get("timing", "immediate") == "next_trick",
            suit_by_lead=by_lead, **self.lead_duty(spec, base, pattern, ranks, nr, len(suits)))

def where(doc: Document, path: str) -> Location | None:
    """Position of a path in a description (for tools)."""
    return doc.where(path)
