"""The deal generator: SplitMix64, the rejection-sampled below(), the shuffle, seeded deals.

The expected values come from the published SplitMix64 vector and from a
plain re-implementation of the documented algorithm written here, kept
deliberately different in shape from :mod:`mariage.engine.prng`.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mariage import SeededDeals, canonical_deck, list_rulesets, load_rules
from mariage.engine.prng import SplitMix64

TWO64 = 2**64
GOLDEN = 0x9E3779B97F4A7C15
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB


def mix(z: int) -> int:
    """The SplitMix64 output function of an (already advanced) state."""
    z = (z ^ (z >> 30)) * MUL1 % TWO64
    z = (z ^ (z >> 27)) * MUL2 % TWO64
    return z ^ (z >> 31)


def stream(seed: int) -> Iterator[int]:
    """The outputs of SplitMix64 from ``seed``: the k-th is mix(seed + k * golden)."""
    k = 1
    while True:
        yield mix((seed + k * GOLDEN) % TWO64)
        k += 1


def _unshift(y: int, shift: int) -> int:
    """Invert y = x ^ (x >> shift) on 64 bits."""
    x = y
    for _ in range(64 // shift + 1):
        x = y ^ (x >> shift)
    return x


def unmix(out: int) -> int:
    """The state whose mix is ``out`` (the output function is a bijection)."""
    z = _unshift(out, 31)
    z = z * pow(MUL2, -1, TWO64) % TWO64
    z = _unshift(z, 27)
    z = z * pow(MUL1, -1, TWO64) % TWO64
    return _unshift(z, 30)


def generator_about_to_output(*outputs: int) -> SplitMix64:
    """A generator whose next output is ``outputs[0]`` (only the first can be chosen)."""
    rng = SplitMix64(0)
    rng.state = (unmix(outputs[0]) - GOLDEN) % TWO64
    return rng


def test_published_vector_for_seed_0() -> None:
    assert SplitMix64(0).next_u64() == 0xE220A8397B1DCDAF


def test_first_outputs_of_seed_0_and_1() -> None:
    ours = stream(0)
    assert [next(ours) for _ in range(4)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC]
    rng = SplitMix64(1)
    expected = stream(1)
    assert [rng.next_u64() for _ in range(5)] == [next(expected) for _ in range(5)]


@given(seed=st.integers(0, 2**70))
def test_outputs_match_the_documented_algorithm(seed: int) -> None:
    rng = SplitMix64(seed)
    expected = stream(seed % TWO64)
    for _ in range(8):
        assert rng.next_u64() == next(expected)


def test_seed_is_taken_modulo_2_64() -> None:
    assert SplitMix64(TWO64 + 5).next_u64() == SplitMix64(5).next_u64()


@given(out=st.integers(0, TWO64 - 1))
def test_unmix_inverts_the_output_function(out: int) -> None:
    assert mix(unmix(out)) == out
    assert generator_about_to_output(out).next_u64() == out


@pytest.mark.parametrize("n", [3, 10, 40, 2**63 + 1, 2**64 - 1, 3 * 2**62])
def test_below_rejects_exactly_the_incomplete_last_block(n: int) -> None:
    limit = TWO64 - TWO64 % n
    assert limit % n == 0 and TWO64 - limit < n
    # the largest accepted draw is used as it is
    rng = generator_about_to_output(limit - 1)
    assert rng.below(n) == (limit - 1) % n
    # the smallest rejected draw is thrown away; the next accepted one decides
    rng = generator_about_to_output(limit)
    follow = SplitMix64(0)
    follow.state = rng.state
    assert follow.next_u64() == limit
    x = follow.next_u64()
    while x >= limit:
        x = follow.next_u64()
    assert rng.below(n) == x % n
    assert rng.state == follow.state


def test_rejection_is_frequent_for_a_bound_just_above_2_63() -> None:
    n = 2**63 + 1
    limit = TWO64 - TWO64 % n
    rejected = 0
    for seed in range(200):
        rng = SplitMix64(seed)
        draws = stream(seed)
        x = next(draws)
        used = 1
        while x >= limit:
            x = next(draws)
            used += 1
        assert rng.below(n) == x % n
        check = SplitMix64(seed)
        for _ in range(used):
            check.next_u64()
        assert rng.state == check.state, "below() used a different number of draws"
        rejected += used > 1
    assert 60 < rejected < 140  # about half of the first draws fall above the limit


def test_power_of_two_bounds_never_reject() -> None:
    for seed in range(50):
        rng, plain = SplitMix64(seed), SplitMix64(seed)
        assert rng.below(2**20) == plain.next_u64() % 2**20
        assert rng.state == plain.state


@pytest.mark.parametrize("n", [0, -1, -(2**64)])
def test_below_needs_a_positive_bound(n: int) -> None:
    with pytest.raises(ValueError, match="positive"):
        SplitMix64(1).below(n)


@given(seed=st.integers(0, TWO64 - 1), n=st.integers(1, 2**64))
def test_below_stays_in_range(seed: int, n: int) -> None:
    rng = SplitMix64(seed)
    for _ in range(5):
        assert 0 <= rng.below(n) < n


def reference_shuffle(seed: int, items: list[int]) -> list[int]:
    """Fisher-Yates from the top index down, with below() written out here."""
    out = list(items)
    draws = stream(seed % TWO64)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = TWO64 - TWO64 % n
        x = next(draws)
        while x >= limit:
            x = next(draws)
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def test_shuffle_known_vector() -> None:
    deck = list(range(6))
    SplitMix64(42).shuffle(deck)
    assert deck == reference_shuffle(42, list(range(6))) == [4, 3, 0, 2, 5, 1]


@given(seed=st.integers(0, TWO64 - 1), size=st.integers(0, 60))
def test_shuffle_is_a_deterministic_permutation(seed: int, size: int) -> None:
    deck = list(range(size))
    SplitMix64(seed).shuffle(deck)
    assert sorted(deck) == list(range(size))
    again = list(range(size))
    SplitMix64(seed).shuffle(again)
    assert deck == again == reference_shuffle(seed, list(range(size)))


def test_shuffle_uses_one_draw_per_position_for_small_decks() -> None:
    rng, plain = SplitMix64(9), SplitMix64(9)
    rng.shuffle(list(range(40)))
    for _ in range(39):
        plain.next_u64()
    assert rng.state == plain.state


@pytest.mark.parametrize("size", [3, 40, 127, 129, 200])
def test_shuffle_rejects_a_draw_above_the_limit_as_below_does(size: int) -> None:
    """The shuffle's first draw (bound ``size``) is the smallest rejected one: it is
    thrown away and the next decides, as in the documented ``below()``."""
    limit = TWO64 - TWO64 % size
    rng = generator_about_to_output(limit)
    _shuffles_as_documented(rng, size)


def _shuffles_as_documented(rng: SplitMix64, size: int) -> None:
    """``rng`` shuffles ``size`` items as the plain re-implementation does, with one draw
    more than the positions (one is refused)."""
    seed = rng.state  # stream(seed) starts with the next draw
    deck = list(range(size))
    rng.shuffle(deck)
    assert deck == reference_shuffle(seed, list(range(size)))
    check = SplitMix64(seed)
    for _ in range(size):  # a draw per position and the rejected one
        check.next_u64()
    assert rng.state == check.state


@pytest.mark.parametrize(("size", "at"), [(5, 3), (24, 12), (40, 2), (40, 20), (40, 36),
                                          (52, 50), (128, 64)])
def test_a_draw_refused_within_the_shuffle_is_thrown_away(size: int, at: int) -> None:
    """The ``at``-th draw of a shuffle (bound ``size - at + 1``, not a power of two) is the
    largest output, refused by ``below()``: the next draw decides, and every later
    position moves on by one, as one draw at a time gives them (the draws made at once,
    :func:`mariage.engine.prng._batch`, are then not used as they are)."""
    bound = size - at + 1
    assert bound & (bound - 1)
    rng = SplitMix64(0)
    rng.state = (unmix(TWO64 - 1) - at * GOLDEN) % TWO64
    assert list(islice(stream(rng.state), at))[-1] == TWO64 - 1
    _shuffles_as_documented(rng, size)


@given(seed=st.integers(0, TWO64 - 1), count=st.integers(1, 128))
def test_the_draws_made_at_once_are_the_stream(seed: int, count: int) -> None:
    from mariage.engine.prng import _batch

    draws = _batch(seed, count)
    assert draws is not None and list(draws) == list(islice(stream(seed), count))


@pytest.mark.parametrize("at", [1, 2, 20, 39])
@pytest.mark.parametrize("offset", [-1, 0, 1])
def test_the_draws_made_at_once_are_refused_from_the_sure_bound_on(at: int, offset: int) -> None:
    """A batch of 39 draws (a deal of 40 cards) whose ``at``-th draw is just below, at or
    just above :data:`~mariage.engine.prng._SURE` is given (below) or refused as a whole
    (at or above: one draw at a time then decides), the other lanes whatever they are."""
    from mariage.engine.prng import _SURE, _batch

    draw = _SURE + offset
    state = (unmix(draw) - at * GOLDEN) % TWO64
    assert list(islice(stream(state), at))[-1] == draw
    draws = _batch(state, 39)
    if offset < 0:
        assert draws is not None and draws[at - 1] == draw
    else:
        assert draws is None


def test_different_seeds_give_different_decks() -> None:
    decks = set()
    for seed in range(100):
        deck = list(range(40))
        SplitMix64(seed).shuffle(deck)
        decks.add(tuple(deck))
    assert len(decks) == 100


@pytest.mark.parametrize("name", list_rulesets())
def test_seeded_deals_follow_the_documented_draw_order(name: str) -> None:
    rules = load_rules(name)
    for seed in (0, 1, 2**64 - 1):
        deals = SeededDeals(rules, seed)
        draws = SplitMix64(seed)
        first_dealer = draws.below(rules.nseats) if rules.first_dealer == "lot" else None
        assert deals.first_dealer == first_dealer
        for _ in range(3):
            first = draws.below(rules.nseats) if rules.first_lead == "lot" else None
            deck = canonical_deck(rules)
            draws.shuffle(deck)
            assert deals.next_deal() == (deck, first)
