"""Club evening invariants (issue 17), checked with hypothesis over evenings of 4 to 40 players."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import rules
from companion.rules.club import (
    Draw,
    RoundScores,
    SitOutScore,
    draw_round,
    fixed_pairs_schedule,
    is_joker,
    ranking,
)

KLAVERJASSEN = rules.get("klaverjassen")


def names(count: int) -> list[str]:
    return [f"Player {number}" for number in range(1, count + 1)]


def partner_pairs(draws: list[Draw]) -> Counter[frozenset[str]]:
    return Counter(frozenset(pair) for draw in draws for table in draw.tables for pair in table.pairs)


def pairings(players: list[str]):
    """Every way to split an even number of players into partner pairs (for small tables)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for other in rest:
        left = [p for p in rest if p != other]
        for more in pairings(left):
            yield [frozenset((first, other)), *more]


@settings(max_examples=60)
@given(
    st.integers(min_value=4, max_value=40),
    st.integers(min_value=1, max_value=4),
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(["sit_out", "joker"]),
    st.data(),
)
def test_every_present_player_is_seated_or_sitting_out_exactly_once_per_round(count, rounds, seed, odd, data):
    everyone = names(count)
    draws: list[Draw] = []
    for _ in range(rounds):
        # late arrivals and early leavers: any four or more of the players are present
        present = data.draw(st.lists(st.sampled_from(everyone), min_size=4, unique=True))
        if odd == "joker" and len(present) % 4 and (-len(present)) % 4 > (len(present) + (-len(present)) % 4) // 4:
            odd_here = "sit_out"  # too few tables for one joker each: the club lets players sit out
        else:
            odd_here = odd
        draw = draw_round(present, draws, seed, odd_here)
        real_seats = [player for player in draw.seated if not is_joker(player)]
        assert Counter(real_seats + list(draw.sitting_out)) == Counter(present)
        assert all(len(table.seats) == 4 for table in draw.tables)
        assert [table.number for table in draw.tables] == list(range(1, len(draw.tables) + 1))
        assert len(draw.sitting_out) == (len(present) % 4 if odd_here == "sit_out" else 0)
        assert all(sum(map(is_joker, table.seats)) <= 1 for table in draw.tables)
        draws.append(draw)


@settings(max_examples=60)
@given(st.integers(min_value=8, max_value=40), st.integers(min_value=0, max_value=2**32))
def test_nobody_partners_anyone_twice_in_an_evening_of_four_rounds(count, seed):
    """From 8 players on a repeat-free partnering always exists for four rounds: after three,
    each seated player has at most three excluded partners among at least seven others, so
    every player may partner at least half the seated players (Dirac: a perfect pairing exists)."""
    draws: list[Draw] = []
    for _ in range(4):
        draws.append(draw_round(names(count), draws, seed))
    assert max(partner_pairs(draws).values()) == 1


@settings(max_examples=60)
@given(st.integers(min_value=4, max_value=7), st.integers(min_value=1, max_value=5), st.integers(min_value=0, max_value=2**32))
def test_small_evenings_repeat_a_partner_only_when_every_partnering_would(count, rounds, seed):
    draws: list[Draw] = []
    for _ in range(rounds):
        earlier = partner_pairs(draws)
        draw = draw_round(names(count), draws, seed)
        chosen = [frozenset(pair) for table in draw.tables for pair in table.pairs]
        if any(earlier[pair] for pair in chosen):
            seated = sorted(draw.seated)
            assert all(any(earlier[pair] for pair in option) for option in pairings(seated))
        draws.append(draw)


@settings(max_examples=60)
@given(st.integers(min_value=4, max_value=40), st.integers(min_value=1, max_value=6), st.integers(min_value=0, max_value=2**32))
def test_sitting_out_goes_round_before_anyone_sits_out_twice(count, rounds, seed):
    draws: list[Draw] = []
    for _ in range(rounds):
        draws.append(draw_round(names(count), draws, seed))
    sat_out = Counter({name: 0 for name in names(count)})
    sat_out.update(player for draw in draws for player in draw.sitting_out)
    assert max(sat_out.values()) - min(sat_out.values()) <= 1


@settings(max_examples=40)
@given(st.integers(min_value=2, max_value=12), st.data())
def test_fixed_pairs_stay_together_and_meet_each_other_pair_at_most_once(pair_count, data):
    pairs = [(f"A{i}", f"B{i}") for i in range(pair_count)]
    most = pair_count - 1 if pair_count % 2 == 0 else pair_count
    rounds = data.draw(st.integers(min_value=1, max_value=most))
    draws = fixed_pairs_schedule(pairs, rounds)
    met: Counter[frozenset[tuple[str, str]]] = Counter()
    for draw in draws:
        for table in draw.tables:
            first, second = table.pairs
            assert first in pairs and second in pairs
            met[frozenset((first, second))] += 1
        assert sorted(draw.seated + draw.sitting_out) == sorted(p for pair in pairs for p in pair)
    assert max(met.values()) == 1


@settings(max_examples=40)
@given(
    st.integers(min_value=4, max_value=13),
    st.integers(min_value=1, max_value=3),
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(["lowest", "average", "fixed"]),
    st.data(),
)
def test_the_ranking_is_the_sum_of_the_stored_games_a_stopped_tables_players_scoring_as_sitting_out(count, rounds, seed, kind, data):
    sit_out = SitOutScore(kind, 500)
    draws: list[Draw] = []
    evening: list[RoundScores] = []
    for _ in range(rounds):
        draw = draw_round(names(count), draws, seed)
        draws.append(draw)
        games = {}
        for table in draw.tables:
            game = KLAVERJASSEN.new_game(list(table.seats), {"ending": "boompje"})
            first, second = game.sides
            for _ in range(data.draw(st.integers(min_value=0, max_value=4))):
                if data.draw(st.booleans()):
                    game = game.add_round({"verzaakt": data.draw(st.sampled_from([first, second]))})
                else:
                    points = data.draw(st.sampled_from([0, 10, 52, 81, 100, 152, 162]))
                    game = game.add_round({"card_points": {first: points, second: 162 - points}, "roem": {first: 0, second: 0}})
            games[table.number] = game
        stopped = data.draw(st.frozensets(st.sampled_from([table.number for table in draw.tables])))
        evening.append(RoundScores(draw, games, stopped))
    expected: Counter[str] = Counter()
    for draw, one in zip(draws, evening):
        seated_scores, left_out = {}, list(draw.sitting_out)
        for table in draw.tables:
            game = one.games[table.number]
            if table.number in one.stopped:
                left_out += table.seats
                continue
            for player in table.seats:
                seated_scores[player] = game.totals[game.setup.team_of(player)]
        expected.update(seated_scores)
        values = list(seated_scores.values()) or [0]
        given_out = {"lowest": min(values), "fixed": 500, "average": round(sum(values) / len(values) + 1e-9)}[kind]
        expected.update({player: given_out for player in left_out})
    standings = ranking(evening, sit_out)
    assert {s.player: s.total for s in standings} == {p: expected[p] for p in names(count)}
    assert [s.total for s in standings] == sorted((s.total for s in standings), reverse=True)
