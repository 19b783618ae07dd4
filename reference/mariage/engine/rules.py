"""The compiled, immutable rules object that the interpreter runs.

A :class:`Rules` is made by :func:`mariage.spec.rulesload.load_rules` from a game
description and option values. Everything the hot path needs is precomputed
as integers, tuples and bit masks (a card is an ``int``; a hand is an ``int``
bit mask over cards), so play never looks anything up by name.

>>> from mariage import load_rules
>>> rules = load_rules("marianna")
>>> rules.ncards, rules.nseats, rules.card_code[0]
(40, 4, 'AH')
>>> rules.points[rules.card_index["3S"]]
10
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from ..errors import UnknownNameError
from ..lazyrecord import field, frozen_record
from .actions import Play

__all__ = ["Ask", "Combo", "Declaration", "Obligation", "RuleInfo", "Rules"]


class When(Enum):
    """When a play duty applies."""

    NEVER = "never"
    ALWAYS = "always"
    OPPONENT_WINNING = "opponent_winning"


@frozen_record
class RuleInfo:
    """One rule of a description: its ID, our text, its sources and options.

    ``options`` names the options that change this rule's own data (a value
    bound in it, or effects that leave it different), the one the rule names
    itself first.
    """

    id: str
    text: str
    source: tuple[str, ...]
    path: str
    decided: bool = False
    options: tuple[str, ...] = ()
    enabled: bool = True

    @property
    def option(self) -> str | None:
        """The first of :attr:`options`, or ``None``."""
        return self.options[0] if self.options else None


@frozen_record
class Obligation:
    """The play duties of one phase (``stock`` or ``no_stock``).

    ``void_duty`` is ``none``, ``trump`` (play any trump) or ``beat`` (play a
    card that takes the lead of the trick, if able).
    """

    free_rule: str | None
    follow: bool
    follow_rule: str | None
    head: When
    head_rule: str | None
    void_duty: str
    void_when: When
    void_rule: str | None
    head_beat: str = "winning"  # winning | suit_best: the card the head duty must beat
    head_suits: str = "all"  # all | trump: the suits led in which the head duty applies
    # void in the suit led while the partner is winning (void_when opponent_winning):
    # free (any card) | no_undertrump (no trump below the partner's winning trump unless
    # only trumps are held) | overtrump_if_only_trumps (holding only trumps: beat if able)
    void_partner: str = "free"
    void_partner_rule: str | None = None
    # void_when always, the last seat of the trick with the partner winning by a trump:
    # may play a plain card or a higher trump, never a lower one
    last_seat_free: bool = False
    # a void player owing a trump that wins (beat, overtrump, beat_or_discard) may play
    # any of his trumps where one of them can win (no duty to go over the best card)
    void_any_trump: bool = False


@frozen_record
class Declaration:
    """A declarable combination (marianna, accusa, mariannino...)."""

    index: int
    name: str
    rule: str
    same_suit: bool
    whole_hand: bool
    # same_suit: the mask of the pattern's cards in each suit.
    suit_masks: tuple[int, ...]
    # not same_suit: (rank mask, count) pairs, and the rank that gives the suit.
    rank_counts: tuple[tuple[int, int], ...]
    suit_rank: int
    size: int
    # rank indices of the pattern: bit-parallel test over all suits at once
    pattern_ranks: tuple[int, ...]
    once_scope: str  # suit | hand | suit_per_player
    once_rule: str
    schedule: tuple[int, ...]
    fixed: int
    if_trump_suit: int | None
    if_makes_trump: int | None
    ordered: bool
    units: str  # points | game_points
    wins_match: bool
    value_rule: str
    trump_effect: str  # set | first_fixes | none | choose
    trump_rule: str
    credit: str  # immediate | when_leading | with_trick | next_trick
    credit_rule: str | None
    # ---- the declared cards one of which must be led (per suit; empty: no such duty)
    lead_masks: tuple[int, ...] = ()
    lead_rule: str | None = None
    window: str = "stock"  # the declaration window of this declaration
    # value = what the next ordered declaration would score (order_schedule) + this
    next_in_order_plus: int | None = None
    order_schedule: tuple[int, ...] = ()
    window_rule: str = ""
    suit_values: tuple[int, ...] = ()  # per suit: the value (empty: fixed or a schedule)
    trump_next_trick: bool = False  # the new trump rules from the next trick on
    suit_by_lead: bool = False  # several cards of the suit_of rank: the led one names the suit


@frozen_record
class Combo:
    """A kind of announcement held in hand: a run in one suit, or a set of one rank.

    ``value`` is its points (for a set, per rank index: ``rank_values``); ``strength``
    orders kinds in the comparison between sides (higher first).
    """

    index: int
    name: str
    rule: str
    same_rank: bool  # a set of cards of one rank (carré), else a run in one suit
    length: int  # cards in it (a run of more counts as this kind where it is the longest)
    value: int
    rank_values: tuple[int, ...]  # sets: points per rank index (0: cannot be announced)
    rank_order: tuple[int, ...]  # sets: rank indices, best first, for the comparison


@frozen_record
class Ask:
    """A question to the partner that can complete a declaration."""

    index: int
    name: str
    rule: str
    kind: str  # any (partner names one of his) | half (partner holds the other half)
    declaration: int
    answer: str  # truthful | may_refuse
    answer_rule: str
    settle: str  # at_once | on_trick_win
    settle_rule: str
    value: int
    ordered: bool
    needs_no_trump: bool
    who: str
    window: str
    spoiled_by: str = "opponent"  # whose trump-setting declaration in the trick spoils a split
    uses_declaration: bool = True  # asking is the asker's declaration for the trick
    declaring_rule: str = ""  # the rule that says so (a declaration after it is refused)
    order_rule: str = ""  # whether a split that scores counts in the order of values
    spoiled_rule: str = ""  # whose trump-setting declaration spoils a split


@frozen_record  # a dataclass whose ~200-field methods are made on first use (start-up)
class Rules:
    """Everything the interpreter needs, compiled from a description and options.

    Made by :func:`~mariage.spec.rulesload.load_rules`. Cards are numbers (their
    place in :func:`~mariage.engine.deals.canonical_deck`), sets of cards bit masks:

    >>> from mariage import load_rules
    >>> rules = load_rules("schnapsen", {"match_target": 11})
    >>> rules.name, rules.seat_names, rules.suits, rules.option("match_target")
    ('Schnapsen', ('A', 'B'), ('H', 'D', 'C', 'S'), 11)
    >>> rules.card("KS"), rules.card_code[17], rules.points[17], rules.format_cards(1 << 17 | 1)
    (17, 'KS', 4, 'AH KS')
    >>> rules.info("schnapsen.deal").text
    'The first dealer is chosen by lot. The dealer gives three cards to his opponent ...'
    """

    ruleset: str
    name: str
    version: int
    parent: str | None
    options: tuple[tuple[str, Any], ...]
    defaults: tuple[tuple[str, Any], ...]
    infos: tuple[RuleInfo, ...]
    document: Any = field(repr=False, compare=False)
    # seats
    nseats: int = 4
    seat_names: tuple[str, ...] = ()
    teams: tuple[tuple[int, ...], ...] = ()
    team_of: tuple[int, ...] = ()
    team_names: tuple[str, ...] = ()
    direction: str = "anticlockwise"
    players_rule: str = ""
    open_hands: bool = False
    visibility_rule: str | None = None
    # pack
    suits: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()
    ncards: int = 0
    card_code: tuple[str, ...] = ()
    card_index: dict[str, int] = field(default_factory=dict, compare=False)
    suit_of: tuple[int, ...] = ()
    rank_of: tuple[int, ...] = ()
    strength: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    suit_mask: tuple[int, ...] = ()
    rank_mask: tuple[int, ...] = ()
    full_mask: int = 0
    higher: tuple[int, ...] = ()  # per card: the cards of its suit that beat it
    play_actions: tuple[Play, ...] = ()  # per card: the (shared) action playing it
    pack_points: int = 0
    pack_rule: str = ""
    # deal
    first_dealer: str = "lot"
    first_dealer_seat: int = 0  # first_dealer seat: the seat that deals first
    first_dealer_rule: str | None = None  # the rule on the first dealer, where one is written
    deal_gather_rule: str | None = None  # later decks gathered from the last hand, then cut
    deal_cut_min: int = 3  # ... each packet of the cut at least this many cards
    hand_size: int = 5
    packet: int = 5
    turn_up: str = "none"
    stock_size: int = 0
    rotation: str = "next_seat"
    deal_rule: str = ""
    rotation_rule: str = ""
    # a seat that sits each hand out (deal.sits_out): "dealer", "before_dealer",
    # "opposite_dealer", or "none"; it is the seat sits_out_after places after the dealer
    sits_out: str = "none"
    sits_out_after: int = 0
    sits_out_rule: str | None = None
    hand_seats: int = 4  # the seats dealt and playing each hand (nseats, less one sitting out)
    hand_sides: int = 2  # the sides playing each hand (sides, less one sitting out)
    sitter_score: str = "none"  # what the seat sitting out scores: "hand_winner", or "none"
    sitter_below_target: bool = False  # ... stopping one short of the match target
    sitter_score_rule: str | None = None
    places_rule: str | None = None  # match.places: after a win the others play on, he sits out
    # lead
    first_lead: str = "after_dealer"
    first_lead_rule: str = ""
    holder_card: int | None = None
    holder_rule: str | None = None
    first_card_prefs: tuple[int, ...] = ()
    first_card_rule: str | None = None
    # play
    obligation_stock: Obligation | None = None
    obligation_no_stock: Obligation | None = None
    trump_at: str = "end"
    trick_rule: str = ""
    draw_rule: str = ""
    # declarations
    decl_who: str = "on_turn"
    decl_who_rule: str = ""
    decl_window: str = "stock"
    decl_window_rule: str = ""
    decl_per_trick: int = 1
    decl_per_trick_rule: str = ""
    decl_window_any: str = "stock"  # the widest window of any declaration
    decl_windows_differ: bool = False  # some declaration has a narrower window
    decl_combo_window_rule: str | None = None  # whole-hand ones' cut-off, the window's own
    decl_window_seats: int = 0  # seats who speak in a trick_start window (0: every seat)
    failed_ask: str = "uses_turn"  # uses_turn | may_declare
    declarations: tuple[Declaration, ...] = ()
    #: the declarations switched off (enabled: false), compiled but never offered
    declarations_off: tuple[Declaration, ...] = ()
    asks: tuple[Ask, ...] = ()
    # exchange of the turned-up card
    exchange_rank: int | None = None
    exchange_window: str = "stock"
    exchange_rule: str | None = None
    exchange_reopens: bool = False  # an exchange lets the player declare again that turn
    # calling out
    call_out_rule: str | None = None
    call_out_penalty: str = "hand_zero"
    call_out_penalty_rule: str | None = None
    # ending a hand at a target during play
    hand_target: int | None = None
    hand_target_rule: str | None = None
    # scoring
    score_kind: str = "points"
    score_rule: str = ""
    trick_point: int = 0
    excess_threshold: int = 0
    table_threshold: int = 0
    table_threshold_points: int = 0
    table_threshold_rule: str | None = None
    table_last_trick: int = 0
    table_last_trick_rule: str | None = None
    table_majority: int = 0
    table_majority_mode: str = "separate"
    table_majority_rule: str | None = None
    segno_void_top: int | None = None
    segno_void_rule: str | None = None  # the rule of that top score (Mariazza's sixty)
    segno_unfinished: str = "higher"  # higher | nobody: a hand nobody took to the target
    segno_unfinished_rule: str | None = None
    turn_up_bonus: bool = False
    turn_up_bonus_rule: str | None = None
    # match
    match_measure: str = "points"
    match_target: int = 501
    match_rule: str = ""
    tie_rule: str = ""
    tie_mode: str = "play_on"
    # ---- talon games: packets, closing, claims, game points (see the mechanisms
    # closing, claims, heldcredit and gamepoints)
    deal_packets: tuple[int, ...] = ()  # packet size per round; empty: hand_size // packet rounds
    turn_up_round: int = 0  # rounds of packets dealt before the turn-up (0: after all of them)
    play_switch: str = "trick_number"  # | stock_closed_or_exhausted
    play_switch_rule: str | None = None
    exchange_who: str = "on_turn"  # | leader
    exchange_requires_trick: bool = False
    exchange_min_stock: int = 0
    close_rule: str | None = None
    close_before_draw: bool = False
    close_on_first_lead: bool = True
    close_min_stock: int = 0
    close_effect_rule: str | None = None
    close_snapshot_rule: str | None = None
    close_reply_rule: str | None = None
    claim_rule: str | None = None
    claim_target: int = 0
    claim_auto: bool = False
    claim_timing_rule: str | None = None
    claim_after_trick: bool = True
    claim_after_declaration: bool = True
    gp_scale: tuple[tuple[int, int, int], ...] = ()  # (min points, min tricks, game points)
    gp_scale_rule: str | None = None
    gp_claim_rule: str | None = None
    gp_closer_rule: str | None = None
    gp_closer_at_end: bool = False
    gp_beaten_rule: str | None = None
    gp_beaten_mode: str = "like_failed_close"
    gp_beaten_points: int = 2
    gp_failed_rule: str | None = None
    gp_failed_mode: str = "penalty"
    gp_failed_points: int = 2
    gp_failed_trickless: int = 3
    gp_false_rule: str | None = None
    gp_false_mode: str = "penalty"
    gp_false_points: int = 2
    gp_false_trickless: int = 3
    gp_false_closer: str = "false_claim_row"
    gp_played_rule: str | None = None
    gp_played_mode: str = "last_trick"
    gp_played_points: int = 1
    gp_claim_after_last: bool = True
    last_trick_bonus: int = 0
    last_trick_when_closed: bool = False
    last_trick_bonus_rule: str | None = None
    draw_bonus: int = 0
    draw_bonus_rule: str | None = None
    bummerl_rule: str | None = None
    #: a bonus to the side that wins a named card in a trick (mechanisms.capture)
    capture_bonus_rule: str | None = None  # None: no such bonus
    capture_bonus_rank: int = -1
    capture_bonus_suit: int = -1  # -1: the trump suit of the hand
    capture_bonus_value: int = 0
    #: which finished tricks a seat may look through: all | own (and the last) | last
    trick_review: str = "all"
    #: True where some declaration's points wait for a trick won (mechanisms.heldcredit)
    credit_on_win: bool = False
    #: True where claims or closing are in the rules (the talon mechanisms run)
    talon_game: bool = False
    # rule IDs of the core mechanics shared by every ruleset
    core_turn: str = "core.turn"
    core_hand: str = "core.hand"
    core_phase: str = "core.phase"
    core_over: str = "core.over"
    # ---- bidding games (auction, passing, contract, calls); unused where the spec has none
    auction_rule: str | None = None  # None: no auction
    bid_min: int = 0
    bid_step: int = 5
    bid_max: int = 0  # 0: no ceiling
    bid_rule: str | None = None
    auction_pass_rule: str | None = None
    auction_end: str = "at_once"  # at_once | holder_may_raise
    auction_end_rule: str | None = None
    auction_last_rule: str | None = None
    no_bid: str = "play_out"  # play_out | redeal
    no_bid_rule: str | None = None
    # (giver, receiver, count) per step; 0 the declarer, 1 his partner
    passing_steps: tuple[tuple[int, int, int], ...] = ()
    passing_rule: str | None = None
    raise_rule: str | None = None  # None: the winning bid is the game value
    contract_lead_rule: str | None = None
    contract_result_rule: str | None = None
    made_if: str = "at_least"  # at_least | more_than
    schwarz_rule: str | None = None
    kontra_rule: str | None = None  # None: no Kontra and Re
    first_trick_rank: int = -1  # in trick 1 the holder of this rank of the suit led must play it
    first_trick_rule: str | None = None
    calls_rule: str | None = None  # None: no trump calls
    calls_per_trick: int = 1
    calls_per_trick_rule: str | None = None
    call_pair_masks: tuple[int, ...] = ()  # per suit: the cards of its pair
    call_values: tuple[int, ...] = ()  # per suit: the value of its pair
    call_pair_rule: str | None = None
    call_announce_rule: str | None = None
    call_trump_latest: bool = True
    call_trump_rule: str | None = None
    call_once_per_player: bool = False
    call_once_rule: str | None = None
    ask_pair_rule: str | None = None
    ask_half_rule: str | None = None
    half_needs_own: bool = False
    half_credit_asker: bool = False
    recall_allowed: bool = True
    recall_rule: str | None = None
    levels_rule: str | None = None  # None: no asking levels
    answers_rule: str | None = None
    last_trick_points: int = 0  # card points for winning the last trick (scoring.last_trick)
    last_trick_rule: str | None = None
    sheet_mode: str = "wurzel"  # wurzel | contract_only
    schwarz_factor: int = 2
    rounding: int = 5
    sheet_rule: str | None = None
    match_bonus: int = 0
    match_max_hands: int = 0  # 0: no limit
    match_max_hands_count: str = "all"  # all | played: void hands do not count
    partnership: str = "fixed"  # draw | fixed: how partnerships are formed before a session
    # ---- trump ranks and points per suit role (pack.trump); a turned card taken in rounds
    # (taking); announcements compared between sides (announcements); the pair of trumps
    # said as it is played (trump_pair); a contract judged against the defence
    # (scoring.takers). Unused where the spec has none.
    role_strength: tuple[tuple[int, ...], ...] = ()  # per trump suit: strength per card
    role_points: tuple[tuple[int, ...], ...] = ()  # per trump suit: points per card
    role_higher: tuple[tuple[int, ...], ...] = ()  # per trump suit: higher cards per card
    role_rule: str | None = None
    # contracts other than a trump suit (pack.no_trump, pack.all_trump): index len(suits)+i
    # of the role tables, of a bid's or a take's suit; state.trump -1 and state.strain set
    strain_names: tuple[str, ...] = ()  # SA, TA
    strain_kinds: tuple[str, ...] = ()  # no_trump | all_trump
    strain_rules: tuple[str, ...] = ()
    sa_strains: bool = False  # the auction's bids may name them
    take_strains: bool = False  # the second round of taking may name them
    nt_set_values: tuple[int, ...] = ()  # no trump: points of a set by rank (announcements)
    nt_set_order: tuple[int, ...] = ()  # no trump: set ranks, best first
    all_trump_when: str = "always"  # all trump: the duty to beat the best card of the suit led
    all_trump_rule: str | None = None
    all_trump_scale: tuple[int, int] = (1, 1)  # all trump: card points times [0] / [1]
    all_trump_obligation: Obligation | None = None
    take_rule: str | None = None  # None: no turned card taken in rounds
    take_second_rule: str | None = None
    take_rounds: int = 2
    take_other_suits: bool = True  # the second round names a suit other than the turned one
    all_pass: str = "next_dealer"  # next_dealer | same_dealer
    all_pass_rule: str | None = None
    second_deal_rule: str | None = None
    second_deal_taker: int = 2  # cards the taker gets in the second deal (the turn-up aside)
    second_deal_others: int = 3
    second_deal_start: str = "eldest"  # eldest | taker
    combos: tuple[Combo, ...] = ()
    announce_rule: str | None = None
    announce_compare_rule: str | None = None
    announce_tie: str = "none_score"  # none_score | first_in_rotation
    announce_tie_rule: str | None = None
    announce_shared_cards: bool = False  # a card may count in two combinations
    announce_show: str = "none"  # none | counting | all: who shows his announced cards
    announce_show_rule: str | None = None
    run_order: tuple[int, ...] = ()  # rank indices in run order, high to low
    long_runs: str = "single"  # single: a run longer than every kind is one of the longest
    # kind | split: it is also cut into more announcements from its top
    pair_rule: str | None = None  # None: no pair of trumps said
    pair_word: str = "belote"
    pair_value: int = 20
    pair_ranks: tuple[int, ...] = ()  # rank indices of the pair, the first to be said first
    pair_masks: tuple[int, ...] = ()  # per suit: the cards of the pair in it (one mask)
    pair_order: str = "any"  # any | first_rank_first
    pair_declare: str = "explicit"  # explicit | automatic
    takers_rule: str | None = None  # None: no contract judged against the defence
    takers_counts_pair: bool = True
    takers_pair_on_failure: str = "holder_keeps"  # holder_keeps | goes_to_winner
    takers_pair_rule: str | None = None
    takers_tie: str = "litige"  # litige | tie_fails | tie_makes
    takers_tie_rule: str | None = None
    takers_failed_points: int = 162
    takers_failed_rule: str | None = None
    capot_mode: str = "last_trick"  # last_trick (the last trick counts capot_value) | flat
    capot_value: int = 100
    capot_rule: str | None = None
    round_mode: str = "none"  # none | nearest10_5up | nearest10_6up
    round_rule: str | None = None
    round_decides_game: bool = True  # False: the target is judged on unrounded totals
    round_game_rule: str | None = None
    pair_alone_cannot_win: bool = False
    pair_alone_rule: str | None = None
    # an auction of a value and a trump suit with doubling (suit_auction), and the contract
    # of a bid judged against the defence (scoring.takers.bid)
    sa_rule: str | None = None  # None: no such auction
    sa_bid_rule: str | None = None
    sa_min: int = 80
    sa_step: int = 10
    sa_max: int = 160
    sa_capot_value: int = 0  # 0: no capot bid
    sa_capot_rule: str | None = None
    sa_generale_value: int = 0  # 0: no générale (every trick by the bidder alone)
    sa_generale_rule: str | None = None
    sa_double_rule: str | None = None
    sa_double_words: tuple[str, ...] = ("coinche", "surcoinche")
    sa_capot_doublable: bool = True
    sa_double_freezes: bool = True  # after a double only the doubled side speaks
    sa_double_window_rule: str | None = None  # doubling right after each bid, not in turn
    sa_all_pass: str = "next_dealer"
    sa_all_pass_rule: str | None = None
    bid_result_rule: str | None = None
    bid_must_beat: bool = True
    bid_80_needs_82: bool = True
    bid_score_mode: str = "made_plus_bid"  # made_plus_bid | bid_only | made_only
    bid_multiplier_base: str = "whole_score"  # whole_score | bid_only | fixed_320_640
    bid_failed_base: int = 160
    bid_redouble_factor: int = 4
    bid_pair_multiplied: bool = True
    bid_capot_base: int = 250
    # defenders taking every trick against a failed bid count bid_capot_base (else failed)
    bid_defence_capot: bool = True
    bid_capot_cards: str = "cards"  # cards | flat: takers' capot counts capot_base in cards
    bid_doubled_rule: str | None = None
    # ---- talon auctions (mechanisms.talon) and running totals (mechanisms.runningtotals)
    talon_rule: str | None = None  # None: no talon for the auction's winner
    talon_shown: str = "always"  # always | not_at_minimum | never
    talon_shown_rule: str | None = None
    talon_packets: int = 1  # >1: the talon lies in packets, the declarer chooses one
    talon_packets_rule: str | None = None
    talon_out: int = 0  # cards of the talon out of play: packets not chosen, discards
    leftover_rule: str | None = None  # cards out of play count for the last trick's winner
    opening: str = "free"  # free | first_must_bid | first_holds_minimum | dealer_holds_minimum
    opening_rule: str | None = None
    bid_jumps: bool = True  # False: each bid exactly one step above the standing bid
    bid_cap: str = "none"  # none | pair_required | pair_sum
    bid_cap_free: int = 0  # the highest bid that needs no pair
    bid_cap_rule: str | None = None
    bid_pair_masks: tuple[int, ...] = ()  # per suit: the cards of the pair the cap counts
    bid_pair_values: tuple[int, ...] = ()  # per suit: its value
    silence_below: int | None = None  # a total below this may not bid
    silence_rule: str | None = None
    concede: str = "off"  # off | award_each | free_first | lose_bid
    concede_rule: str | None = None
    concede_window: str = "before_exchange"  # | before_first_lead
    concede_award: int = 0
    concede_costly_every: int = 3
    concede_half_bid: bool = False  # lose_bid: opponents score half the bid, not the award
    concede_limit: int = 0  # 0: no limit
    round_down: bool = False  # round opponents' points down, not to the nearest
    round_first: bool = False  # round the declarer's points before the check
    running_rule: str | None = None  # None: the match end's own target check
    barrel_at: int = 0  # where the barrel starts (barrel_rule None: no barrel)
    barrel_clamp: bool = True
    barrel_attempts: int = 0  # 0: no limit
    barrel_penalty: int = 0
    barrel_collision: str = "coexist"  # knock_off | coexist | all_fall
    barrel_fail_off: bool = True  # a failed contract is subtracted (False: only an attempt)
    barrel_third_fall_resets: bool = False
    barrel_rule: str | None = None
    bolt_condition: str = "off"  # off | no_tricks | zero_entry
    bolt_consecutive: bool = False
    bolt_limit: int = 3
    bolt_penalty: int = 0
    bolt_declarer: bool = False
    bolt_rule: str | None = None
    dump_value: int = 0  # the total reset to 0 (dump_rule None: no dump)
    dump_negative: bool = False
    dump_rule: str | None = None
    # golden hands (match.running.golden): the game's first hands, one per player in a hand
    golden_rule: str | None = None
    golden_mode: str = "fixed"  # fixed: forehand declares golden_bid unbid; min_bid: the floor
    golden_bid: int = 0
    golden_multiplier: int = 1  # every entry of a golden hand
    golden_raise: bool = False  # the contract of a golden hand may be raised
    golden_reset: bool = False  # no golden contract made: every total back to 0
    win_rule: str = "at_least"  # at_least | more_than | exactly
    win_rule_id: str | None = None
    redeal_same_dealer: bool = False
    redeal_rule: str | None = None
    give_face_up: bool = False  # the cards given after the auction are shown to everybody
    foreign_trump_rule: str | None = None  # no lead of another's declared trump while able
    decl_auto_rule: str | None = None  # leading a card of a declarable pair declares it
    throw_in_rule: str | None = None  # None: no claims that throw a hand in
    #: (mask of the four cards of a rank, moment, rule ID) per four-of-a-rank claim
    throw_four: tuple[tuple[int, str, str], ...] = ()
    throw_low_below: int = 0  # dealt hands worth fewer card points may be thrown in
    throw_low_rule: str | None = None
    throw_talon_below: int = 0  # a talon worth fewer card points may be thrown in
    throw_talon_rule: str | None = None
    throw_talon_rank: int = 0  # a talon holding this many cards of the mask below...
    throw_talon_rank_mask: int = 0
    throw_talon_rank_rule: str | None = None
    throw_talon_at_minimum: bool = True  # the talon claims only at the lowest bid unraised
    sitter_talon: str = "none"  # what a seat sitting out scores from the talon
    sitter_talon_rule: str | None = None
    sitter_ace_value: int = 0
    # a blind bid (auction.blind): forehand's first action, a fixed value unseen
    blind_rule: str | None = None
    blind_word: str = "blind"
    blind_value: int = 0
    blind_min_total: int = 0  # a total below this may not bid blind
    blind_talon_shown: bool = False
    blind_multiplier: int = 1  # the declarer's entry of a played blind contract
    sitter_pairs: bool = False  # card_points: a pair in the talon adds its value
    sitter_half_pairs: bool = False  # card_points: a lone card of a pair adds half

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        """A deep copy is the rules themselves: they never change once compiled
        (every state and game of a ruleset shares them)."""
        return self

    def option(self, name: str) -> Any:
        """The value in force of option ``name``."""
        for k, v in self.options:
            if k == name:
                return v
        raise UnknownNameError("option", name, self.ruleset, (k for k, _ in self.options))

    def sitter(self, dealer: int | None, placed: tuple[int, ...] = ()) -> int | None:
        """The seat that sits out a hand dealt by ``dealer`` (``deal.sits_out``), or None;
        the first ``placed`` side's where one has left the play (``match.places``).

        >>> from mariage import load_rules
        >>> load_rules("thousand-4").sitter(2), load_rules("thousand").sitter(2)
        (2, None)
        """
        if self.sits_out == "none" or dealer is None:
            return None
        return self.teams[placed[0]][0] if placed else (dealer + self.sits_out_after) % self.nseats

    def seats_dealt(self, dealer: int | None, placed: tuple[int, ...] = ()) -> list[int]:
        """The seats dealt to in a hand dealt by ``dealer``, in dealing order: from the
        seat after the dealer, passing over the one sitting out (:meth:`sitter`).

        >>> from mariage import load_rules
        >>> load_rules("thousand-4", {"sitter": "opposite"}).seats_dealt(0)
        [1, 3, 0]
        >>> load_rules("sixty-six-3", {"three_hand_play_for_loser": True}).seats_dealt(0, (2,))
        [1, 0]
        """
        n = self.nseats
        start = 0 if dealer is None else (dealer + 1) % n
        out = self.sitter(dealer, placed)
        return [s for s in ((start + i) % n for i in range(n)) if s != out]

    def info(self, rule_id: str) -> RuleInfo:
        """The :class:`RuleInfo` of ``rule_id``."""
        for r in self.infos:
            if r.id == rule_id:
                return r
        raise UnknownNameError("rule ID", rule_id, self.ruleset, self.rule_ids)

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """Every rule ID of this ruleset, in document order."""
        return tuple(r.id for r in self.infos)

    def card_index_of(self, suit: int, rank: int) -> int:
        """The card number of rank index ``rank`` in suit index ``suit``."""
        return suit * len(self.ranks) + rank

    def card(self, code: str) -> int:
        """The card number of a canonical code such as ``"KH"``."""
        if code in self.card_index:  # (an unknown code: which ruleset, which codes)
            return self.card_index[code]
        raise UnknownNameError("card code", code, self.ruleset, self.card_index)

    def cards_of(self, mask: int) -> list[int]:
        """The cards in a bit mask, in canonical order (a negative mask, which has no end
        of bits, is a ValueError: it looped for ever)."""
        if mask < 0:
            raise ValueError(f"a mask of cards is a whole number from 0, not {mask}")
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def format_cards(self, mask: int) -> str:
        """A bit mask of cards as canonical codes separated by spaces (ValueError for bits
        of no card of the pack).

        >>> from mariage import load_rules
        >>> load_rules("schnapsen").format_cards(0b101)
        'AH KH'
        """
        if isinstance(mask, int) and (mask < 0 or mask >> self.ncards):
            raise ValueError(f"mask {mask:#x} is no set of cards: the pack has "
                             f"{self.ncards} cards (bits 0 to {self.ncards - 1})")
        return " ".join(self.card_code[c] for c in self.cards_of(mask))
