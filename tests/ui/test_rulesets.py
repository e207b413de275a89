from companion import rules
from companion.ui.rulesets import cards


def test_every_ruleset_is_listed_with_its_players_and_goal():
    listed = {c.id: c for c in cards()}
    assert list(listed) == list(rules.IDS)
    assert listed["klaverjassen"].players == "4 players"
    assert listed["clubs"].players == "2 to 6 players"
    assert listed["beverbende"].goal == "Lowest total wins"
    assert listed["clubs"].goal == "Highest total wins"


def test_every_option_shows_its_default_choices_and_description():
    for card, ruleset in zip(cards(), rules.all()):
        assert [o.description for o in card.options] == [o.description for o in ruleset.options]
    klaver = {o.label: o for o in cards()[1].options}
    assert klaver["Ending"].default == "501"
    assert klaver["Ending"].choices == "501, 1000, 1500, boompje"
    assert klaver["Runs by colour"].choices == "yes or no"
    bever = {o.label: o for o in cards()[3].options}
    assert bever["Rounds"].choices == "1 to 200"
