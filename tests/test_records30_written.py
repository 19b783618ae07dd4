"""Records of house rules written by hand from the docs alone (non-default options of nine
rulesets: full hands, partial records, a seat's view, a record that starts mid-match, a
mariannino, a hand thrown in), and single mistakes made in them: each must be named at
its first illegal move, with where and why; validated without its option tag, a record
must fail where the default rules differ, and say which option decides."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from mariage.notation import validate_stream

DATA = Path(__file__).parent / "data" / "records30"
OLDER = Path(__file__).parent / "data" / "records29"


def problems(text: str) -> list:
    return validate_stream(io.BytesIO(text.encode()), "r.mrg").errors


def changed(name: str, old: str, new: str) -> str:
    text = (DATA / f"{name}.mrg").read_text()
    assert text.count(old) == 1, (name, old)
    return text.replace(old, new)


@pytest.mark.parametrize("name", sorted(p.stem for p in DATA.glob("*.mrg")))
def test_hand_written_record_is_valid(name: str) -> None:
    assert problems((DATA / f"{name}.mrg").read_text()) == []


def _without(tag: str) -> tuple[str, str]:
    return tag + "\n", ""


# (record, text replaced, its replacement, code, line, column, hand, trick, seat, rule ID,
#  words of the message)
MISTAKES = [
    # duty_reading=always: E must trump over his partner W's winning card
    ("mariglia", "E:AS N:KC", "E:3C N:KC", "N141", 25, 14, 1, 6, "E",
     "mariglia.play.overtrump",
     "must trump high enough to win (legal with option duty_reading = opponent_winning; "
     "here always)"),
    ("mariglia", '"duty_reading" "always"', '"duty_reading" "Always"', "N123", 5, 2, 0, 0,
     None, None, "takes one of opponent_winning, always; got 'Always'"),
    ("mariglia", '"duty_reading" "always"', '"duty" "always"', "N123", 5, 2, 0, 0, None,
     None, "mariglia has no option 'duty'"),
    # a seat's view: S holds 3D (every card of S is known) and must follow the 5D led
    ("mariglia-view-S", "S:3D E:AS", "S:7S E:AS", "N135", 22, 9, 1, 6, "S", None,
     "(in a deal that fits the actions before it: must follow suit (D), rule "
     "mariglia.play.follow)"),
    # accusa_when=on_turn: A declares following B's lead; by default only the leader may
    ("mariaggia-later", *_without('[Option "accusa_when" "on_turn"]'), "N141", 18, 20, 2, 1,
     "A", "mariaggia.decl.who", "(legal with option accusa_when = on_turn; here leader)"),
    ("mariaggia-later", *_without('[Option "accusa_trump_40" "true"]'), "N152", 18, 44, 2,
     1, None, "mariaggia.score.hand", "the hand score is 20 20"),
    ("mariaggia-later", "A:accusa:D A:4H", "A:accusa:H A:4H", "N141", 19, 20, 2, 1, "A",
     "mariaggia.decl.accusa", "the hand does not hold that accusa"),
    ("mariaggia-later", '[StartScore "78" "42"]', '[StartScore "101" "42"]', "N162", 9, 2,
     0, 0, None, None, "a score of 101 already ends the match (target 101)"),
    # hand 1 thrown in (redeal_low_hand=20): C deals hand 2 again
    ("thousand-redeal", "deal dealer: C\nA: 9H TD", "deal dealer: A\nA: 9H TD", "N125", 21,
     6, 2, 0, None, None,
     "the dealer of this hand is C: C deals again after hand 1, which was thrown in "
     "(ended redeal)"),
    ("thousand-redeal", "deal dealer: C\nA: 9H 9D", "deal dealer: B\nA: 9H 9D", "N125", 13,
     6, 1, 0, None, None, "the dealer of this hand is C, as the [Dealer] tag says"),
    # without the house's threshold A's six points throw nothing in (his four nines would,
    # before the bidding, under another option)
    ("thousand-redeal", *_without('[Option "redeal_low_hand" "20"]'), "N141", 17, 1, 1, 0,
     "A", "thousand.throw-in",
     "(legal with option four_nines_redeal = before_bidding; here after_exchange)"),
    ("thousand-redeal", "A:redeal", "B:redeal", "N141", 18, 1, 1, 0, "B",
     "thousand.throw-in", "no rule entitles this player to throw the hand in now"),
    ("thousand-redeal", "C:bid:110", "C:bid:120", "N141", 26, 18, 2, 0, "C",
     "thousand.auction.bids",
     "exactly one step (10) above the standing bid (legal with option jump_bids = true; "
     "here false); C may now only pass, bid:110"),
    ("thousand-redeal", '"barrel_at" "900"', '"barrel_at" "800"', "N123", 7, 2, 0, 0, None,
     None, "must be between 880 and 1200, got 800"),
    ("thousand-redeal", '"redeal_low_hand" "20"', '"redeal_low_hand" "twenty"', "N123", 6,
     2, 0, 0, None, None, "takes a whole number, got 'twenty'"),
    # barrel=false: A, at 880, adds his 30 (with the barrel he would mount it at 880)
    # (880 off the barrel cannot be carried in where there is a barrel: refused at once)
    ("thousand-later-no-barrel", *_without('[Option "barrel" "false"]'), "N126", 6, 2,
     0, 0, None, "thousand.running.barrel",
     "A's total 880 is impossible off the barrel: from 880 a team is on it"),
    ("thousand-later-no-barrel", '[StartScore "880" "540" "-215"]',
     '[StartScore "880" "540" "-215"]\n[StartState "bolts" "0" "1" "2"]', "N126", 8, 2, 0,
     0, None, None,
     "thousand keeps no 'bolts' between hands under these options; it does with option "
     "bolt_condition = no_tricks (here off) (it keeps: conceded)"),
    # the mariannino is Cinquecento's only with its option
    ("cinquecento-mariannino", *_without('[Option "mariannino" "true"]'), "N140", 13, 14, 1,
     1, "N", None,
     "'mariannino:H' is not an action of cinquecento; it is one with option mariannino = "
     "true (default false)"),
    # the reverse: declare_who=leader refuses N's mariannino as a follower
    ("cinquecento-mariannino", '[Option "mariannino" "true"]',
     '[Option "mariannino" "true"]\n[Option "declare_who" "leader"]', "N141", 15, 14, 1, 1,
     "N", "marianna.decl.leader-only",
     "only the player leading to the trick may declare, before leading (legal with option "
     "declare_who = anyone; here leader)"),
    ("cinquecento-mariannino", '"mariannino" "true"', '"mariannino_value" "next_plus_200"',
     "N123", 3, 2, 0, 0, None, None, "cinquecento has no option 'mariannino_value'"),
    # mariannino_value=next_plus_200: the first declaration of the hand scores 20 + 200
    ("marianna-mariannino", *_without('[Option "mariannino_value" "next_plus_200"]'),
     "N152", 15, 57, 1, 1, None, "marianna.score.hand", "the hand score is 264 0"),
    ("marianna-mariannino", "N:mariannino:D", "N:mariannino:H", "N141", 16, 14, 1, 1, "N",
     "marianna.decl.mariannino", "the hand does not hold that mariannino"),
    ("marianna-mariannino", "E:7S N:mariannino:D N:QS", "E:7S N:QS N:mariannino:D", "N142",
     16, 19, 1, 1, "N", "core.turn", "out of turn: seat W is to act"),
    # declare_when=trick_start: each player declares or passes before the lead, passes
    # written (notation.rst); a lead written before them
    ("cinquecento-trick-start", "2. S:pass E:pass N:pass W:pass S:KD", "2. S:KD", "N141",
     16, 4, 1, 2, "S", "core.phase",
     "the declaration window is open: declare or pass; S may now only pass"),
    # B's own view of the thrown-in hand: his cards are known, and rich
    ("thousand-redeal-view-B", "A:redeal", "B:redeal", "N135", 19, 1, 1, 0, "B", None,
     "(in a deal that fits the actions before it: no rule entitles this player to throw "
     "the hand in now, rule thousand.throw-in)"),
    # close_before_draw=true: the winner writes his draw
    ("schnapsen", *_without('[Option "close_before_draw" "true"]'), "N141", 16, 1, 1, 2, "B",
     "core.phase", "the players draw by themselves after each trick (no draw is written) "
     "(legal with option close_before_draw = true; here false)"),
    ("schnapsen", *_without('[Option "marriage_values" "20/20"]'), "N152", 15, 35, 1, 1,
     None, "schnapsen.score.hand", "the hand score is 0 46"),
    # a step left out: B's draw after trick 1 (the next trick number is where it shows)
    ("schnapsen", "(points 0 26)\nB:draw\n", "(points 0 26)\n", "N145", 17, 1, 1, 1, None,
     None, "this is still trick 1; B may now only claim, close, draw"),
    ("schnapsen", "(won B)\nB:draw\n3.", "(won B)\nA:draw\n3.", "N142", 19, 1, 1, 2, "A",
     "core.turn", "out of turn: seat B is to act"),
    ("schnapsen", "(scored 0 3)", "(scored 0 2)", "N154", 22, 58, 1, 4, None,
     "schnapsen.score.hand", "the hand's addition to the match score is 0 3"),
    # must_beat=true
    ("marjapussi", "S:7H W:7S", "S:9S W:7S", "N141", 17, 9, 1, 2, "W",
     "marjapussi.play.beat",
     "must beat the card winning the trick (legal with option must_beat = false; here "
     "true)"),
    ("marjapussi", "S:KD W:9D", "S:8D W:9D", "N141", 20, 14, 1, 4, "S", "core.hand",
     "that card is not in the player's hand"),
    # trump_choice=true: N declares his marriage and keeps it from trumps
    ("marjapussi-notrump", *_without('[Option "trump_choice" "true"]'), "N141", 17, 4, 1, 3,
     "N", "marjapussi.decl.trump",
     "this declaration cannot decline trump (legal with option trump_choice = true; here "
     "false)"),
    ("marjapussi", '"pack_size" "32"', '"pack_size" "30"', "N123", 4, 2, 0, 0, None, None,
     "takes one of 36, 32, 28; got '30'"),
    # rounding=nearest10_5up
    ("belote", *_without('[Option "rounding" "nearest10_5up"]'), "N154", 25, 67, 1, 8, None,
     "belote.score.hand", "the hand's addition to the match score is 119 43"),
    # sa_ta=true: a sans-atout contract, written SA in the bid and its annotation (its
    # (bid ...) used to read 'S', spades: the contract's trump -1 taken as the last suit)
    ("belote-coinche-sa", *_without('[Option "sa_ta" "true"]'), "N141", 13, 1, 1, 0, "E",
     "belote-coinche.auction.bids", "(legal with option sa_ta = true; here false)"),
    ("belote-coinche-sa", "(bid 80 SA -)", "(bid 80 S -)", "N156", 22, 83, 1, 8, None,
     "belote.score.hand", "the bid of the deal is 80 SA -"),
    ("mariazza-partial", *_without('[Option "trump_mariazza_40" "false"]'), "N152", 28, 37,
     1, 12, None, "mariazza.score.hand", "the hand score is 59 69"),
    ("mariazza-partial", *_without('[Option "target" "71"]'), "N143", 27, 18, 1, 11, "B",
     "core.phase", "hand 1 is over (ended target, with points 34 49): no action may follow"),
    ("sixty-six", *_without('[Option "last_trick_rule" "one_point"]'), "N152", 32, 30, 1, 12,
     None, "schnapsen.score.hand", "the hand score is 58 72"),
    ("marianna-siciliana", *_without('[Option "marianna_values" "20-40-60-80"]'), "N152", 19,
     55, 1, 5, None, "marianna.score.hand", "the hand score is 81 13"),
    ("marianna-siciliana", '"target" "301"', '"target" "-5"', "N123", 3, 2, 0, 0, None, None,
     "must be between 1 and 10000, got -5"),
    # a tag out of order: [Mariage] comes first
    ("marianna-siciliana", '[Mariage "1"]\n[Ruleset "marianna-siciliana"]',
     '[Ruleset "marianna-siciliana"]\n[Mariage "1"]', "N103", 1, 1, 0, 0, None, None,
     "text before the first record (a record starts with a [Mariage \"1\"] line; [Mariage] "
     "is the first tag, the others follow it)"),
]


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: f"{m[0]}-{m[2][:24]}")
def test_a_single_mistake_is_named_where_it_stands(mistake: tuple) -> None:
    name, old, new, code, line, column, hand, trick, seat, rule, words = mistake
    first = problems(changed(name, old, new))[0]
    assert (first.code, first.line, first.column, first.hand, first.trick, first.seat,
            first.rule_id) == (code, line, column, hand, trick, seat, rule)
    assert words in first.message


def test_the_notation_says_how_passes_at_the_start_of_a_trick_are_written() -> None:
    doc = " ".join((Path(__file__).parent.parent / "docs" / "notation.rst").read_text()
                   .split())
    example = "1. S:pass E:pass N:mariannino:H W:pass S:AD E:7S N:QS W:5S"
    assert f"(``{example}``)" in doc
    assert example in (DATA / "cinquecento-trick-start.mrg").read_text()


def test_a_refusal_no_option_changes_names_none() -> None:
    # the hint is no blanket: a card not held, or a rule no option changes, says nothing
    # of options; nor does a refusal that the rule's other values refuse too
    for name, old, new in (("marjapussi", "S:KD W:9D", "S:8D W:9D"),
                           ("thousand-redeal", "A:redeal", "B:redeal"),
                           ("marianna-mariannino", "N:mariannino:D", "N:mariannino:H")):
        first = problems(changed(name, old, new))[0]
        assert "option" not in first.message, first.message


def test_an_only_answer_is_said_as_an_answer() -> None:
    # was "S may now only no"
    text = (OLDER / "marjapussi-de.mrg").read_text().replace("N:ask:pair S:no",
                                                             "N:ask:pair S:yes")
    [err] = problems(text)
    assert err.message.endswith("; S may now only answer no")


def test_list_long_shows_the_bounds_of_whole_number_options(
        capsys: pytest.CaptureFixture[str]) -> None:
    from mariage.cli import main

    # thousand's barrel_at is described "880; 800 in Poland": 800 is refused (N123 above)
    assert main(["list", "--long"]) == 0
    out = capsys.readouterr().out
    assert "    barrel_at=880  [int 880..1200]  " in out
    assert "    barrel_at=800  [int 800..1200]  " in out  # thousand-pl
