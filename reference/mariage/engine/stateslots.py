"""The slots of a :class:`~mariage.engine.state.GameState`: every field of a match's state.

One name per field, in the order the generated copying code (:mod:`.copies`), the
new hand's code (:mod:`.freshhand`) and pickling (:mod:`.statepickle`) read them from
the class; what each field holds is said where it is first set
(:meth:`GameState.__init__ <mariage.engine.state.GameState>`, ``_new_hand``,
``reset_bidding``). Kept apart so that the state's module holds its behaviour.

>>> from mariage import GameState
>>> GameState.__slots__ is STATE_SLOTS, "hands" in STATE_SLOTS
(True, True)
>>> len(set(STATE_SLOTS)) == len(STATE_SLOTS)
True
"""

from __future__ import annotations

__all__ = ["STATE_SLOTS"]

#: The slots of :class:`~mariage.engine.state.GameState`, in alphabetical order (those
#: with a leading underscore first).
STATE_SLOTS: tuple[str, ...] = (
    "_appliers",
    "_deals",
    "_decl_open",
    "_free_play",
    "_fresh",
    "_higher",
    "_history",
    "_lays",
    "_marks",
    "_ob_no_stock",
    "_ob_stock",
    "_points",
    "_result",
    "_strength",
    "_tricks_per_hand",
    "_undo",
    "actions",
    "announced",
    "aside",  # some slots are the talon games' (closing, claims...)
    "ask_level",
    "ask_spent",
    "auction_passed",
    "barrel",  # running totals (match level): per side, hands on the barrel, -1 off
    "bid_suit",
    "blind",
    "bolts",
    "call_credit",
    "called",
    "captured",
    "carry_bonus",
    "claim_by",
    "claim_ok",
    "close_from_lead",
    "close_opp_points",
    "close_opp_tricks",
    "closed_by",
    "concessions",
    "contract",
    "deal_outcome",  # takers' contracts: the outcome of the deal once scored (or "")
    "deal_source",
    "dealer",
    "decl_count",
    "decl_points",
    "decl_this_trick",
    "declared",
    "declarer",
    "double_window",
    "draw_tricks",
    "falls",
    "first_dealer",
    "forced",
    "game_points",
    "golden_done",
    "golden_made",
    "hand_no",
    "hand_over_reason",
    "hands",
    "held",
    "high_bid",
    "high_bidder",
    "holder_turn",
    "hooks",
    "known",
    "kontras",
    "last_winner",
    "lead_mask",
    "leader",
    "match_scores",
    "mech",
    "next_dealer",
    "no_win",
    "out",
    "pair_by",
    "pairs_said",
    "pass_step",
    "placed",
    "pending_ask",
    "phase",
    "pot",
    "question",
    "round_residue",
    "rules",
    "segni",
    "split",
    "stock",
    "strain",
    "talon",
    "to_act",
    "trick_cards",
    "trick_no",
    "trick_seats",
    "tricks",
    "tricks_won",
    "trump",
    "trump_next",
    "trump_set_in_trick",
    "turn_up",
    "used_hand",
    "used_suit",
    "window_left",
)
