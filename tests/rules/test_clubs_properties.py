"""CLUBS invariants over random rounds that the table can produce (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import rules
from companion.rules.base import Game

CLUBS = rules.get("clubs")
RULEBOOK_BONUS_CARDS = {2: (5,), 3: (5, 2, 0), 4: (8, 5, 2, 0), 5: (10, 8, 5, 2, 0), 6: (12, 10, 8, 5, 2, 0)}
"""The bonus cards by player count, highest first, as the rulebook lists them."""
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
TEAM_SHAPES = [(4, 2), (6, 2), (6, 3)]  # (players, players per team)


@st.composite
def solo_rounds(draw, players):
    order = draw(st.permutations(players))
    return {
        "out_order": list(order[:-1]),
        "club_points": {p: draw(st.integers(0, 30)) for p in draw(st.lists(st.sampled_from(players), unique=True))},
        "double": draw(st.lists(st.sampled_from(players), unique=True, max_size=3)),
    }


@st.composite
def solo_games(draw):
    players = NAMES[: draw(st.integers(2, 6))]
    target = draw(st.sampled_from([0, 30, 80]))
    g = CLUBS.new_game(players, {"target": target, "break_ties": draw(st.booleans())})
    for _ in range(draw(st.integers(0, 10))):
        if g.over:
            break
        g = g.add_round(draw(solo_rounds(players)))
    return g


@st.composite
def team_games(draw):
    count, size = draw(st.sampled_from(TEAM_SHAPES))
    players = NAMES[:count]
    seats = draw(st.permutations(players))
    teams = {f"T{i}": list(seats[i * size : (i + 1) * size]) for i in range(count // size)}
    g = CLUBS.new_game(players, {}, teams)
    team_of = {p: t for t, members in teams.items() for p in members}
    for _ in range(draw(st.integers(1, 8))):
        if g.over:
            break
        # Players go out in a random order until only one team's players hold cards.
        order, out = draw(st.permutations(players)), []
        for player in order:
            if len({team_of[p] for p in order if p not in out}) == 1:
                break
            out.append(player)
        clubs = {p: draw(st.integers(0, 30)) for p in players}
        double = draw(st.lists(st.sampled_from(players), unique=True, max_size=2))
        g = g.add_round({"out_order": out, "club_points": clubs, "double": double})
    return g, team_of


@settings(max_examples=150, deadline=None)
@given(solo_games())
def test_a_round_scores_the_same_whatever_came_before_it(g):
    """Nothing carries over from one round to the next: the totals are the rounds' scores
    as each would score as the first round of a game of its own."""
    alone = [Game.replay(CLUBS, g.setup, [entry]).totals for entry in g.rounds]
    assert g.totals == {p: sum(scores[p] for scores in alone) for p in g.players}


@settings(max_examples=150, deadline=None)
@given(solo_games())
def test_each_round_scores_by_the_rules(g):
    players = g.players
    for number in range(1, len(g.rounds) + 1):
        prefix = Game.replay(CLUBS, g.setup, g.rounds[:number])
        raw, result, detail = prefix.rounds[-1], prefix.round_scores[-1], prefix.detail["last_round"]
        out = raw["out_order"]
        (holder,) = [p for p in players if p not in out]
        # The first out takes the highest bonus card, the next the next highest, and so on.
        bonus = dict(zip(out, RULEBOOK_BONUS_CARDS[len(players)]))
        assert {p: detail["bonus_cards"][p] for p in out} == bonus
        clubs = raw["club_points"]
        callers = set(raw["double"])
        for p in players:
            if p in callers and p != out[0]:
                expected = 0
            elif p == holder:
                expected = 0 if len(players) > 2 else clubs.get(p, 0)
            else:
                expected = clubs.get(p, 0) + bonus[p]
                if p in callers:
                    expected *= 2
            assert result[p] == expected
        assert len(players) == 2 or result[holder] == 0


@settings(max_examples=150, deadline=None)
@given(solo_games())
def test_the_game_ends_exactly_when_a_side_reaches_the_target_with_a_clear_or_shared_lead(g):
    target = g.detail["target"]
    best = max(g.totals.values())
    leaders = [p for p in g.players if g.totals[p] == best]
    if not g.rounds or best < target:
        assert not g.over
    elif len(leaders) > 1 and g.options["break_ties"]:
        assert not g.over
    else:
        assert g.over and g.winners == leaders


@settings(max_examples=100, deadline=None)
@given(team_games())
def test_team_score_is_the_members_sum_and_the_team_holding_cards_scores_nothing(game_and_teams):
    g, team_of = game_and_teams
    while g.rounds:
        last = g.detail["last_round"]
        held_teams = {team_of[p] for p in last["held_cards"]}
        assert len(held_teams) == 1 and last["held_cards"]
        for team in g.sides:
            members = [p for p in g.players if team_of[p] == team]
            assert g.round_scores[-1][team] == sum(last["player_scores"][p] for p in members)
        assert g.round_scores[-1][held_teams.pop()] == 0
        assert all(score >= 0 for score in g.round_scores[-1].values())
        g = g.undo()
