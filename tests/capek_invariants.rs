//! Every Capek Golems invariant: the shipped data passes, and breaking the data trips the rule.

mod common;

use common::Fixture;

const GAME: &str = "capek-golems";

#[test]
fn shipped_data_passes() {
    let f = Fixture::with_games(&[GAME]);
    let run = f.run(&["check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("capek-golems: ok (11 invariants hold)"),
        "{}",
        run.stdout
    );
}

/// Applies edits to the data and asserts the check fails naming each invariant with `found`.
fn trips(edits: &[(&str, &str, &str)], expected: &[(&str, &str)]) {
    let f = Fixture::with_games(&[GAME]);
    for (file, from, to) in edits {
        f.edit(GAME, file, from, to);
    }
    let run = f.run(&["check"]);
    assert_eq!(
        run.code, 1,
        "stdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    for (id, found) in expected {
        let head = format!("invariant `{id}` fails:");
        let hit = run
            .stderr
            .lines()
            .any(|l| l.contains(&head) && l.contains(found));
        assert!(hit, "no `{head}` with `{found}` in:\n{}", run.stderr);
    }
}

#[test]
fn an_extra_game_card_breaks_54_39_and_six_per_colour() {
    trips(
        &[(
            "components.toml",
            "name = \"Parts Machining 1\"",
            "name = \"Parts Machining 1\"\ncount = 2",
        )],
        &[
            ("cards-54", "expected 54, found 55"),
            ("game-cards-39", "expected 39, found 40"),
            (
                "six-per-colour",
                "colour = parts-machining: expected 6, found 7",
            ),
        ],
    );
}

#[test]
fn rule_and_section_are_named() {
    let f = Fixture::with_games(&[GAME]);
    f.edit(
        GAME,
        "components.toml",
        "name = \"The Engineer\"",
        "name = \"The Engineer\"\ncount = 0",
    );
    let run = f.run(&["check"]);
    assert!(
        run.stderr
            .contains("rule: 39 game cards (rulebook: Requirements)"),
        "{}",
        run.stderr
    );
}

#[test]
fn golem_cards_must_be_six_per_player() {
    trips(
        &[(
            "components.toml",
            "id = \"golem-1-right-ambulator\"\nname = \"Right Ambulator\"\nfields = { player = 1",
            "id = \"golem-1-right-ambulator\"\nname = \"Right Ambulator\"\nfields = { player = 2",
        )],
        &[
            (
                "golem-cards-6-per-player",
                "player = 2: expected 6, found 7",
            ),
            (
                "research-14-per-player",
                "player = 1: expected 14, found 13",
            ),
        ],
    );
}

#[test]
fn golem_figures_cover_the_six_parts() {
    trips(
        &[("components.toml", "figure = 6", "figure = 5")],
        &[("golem-parts", "figure = 5: expected 2, found 3")],
    );
}

#[test]
fn house_holds_three_cards() {
    trips(
        &[(
            "components.toml",
            "name = \"Public Outrage Track\"",
            "name = \"Public Outrage Track\"\ncount = 2",
        )],
        &[
            ("auction-cards-3", "expected 3, found 4"),
            ("cards-54", "found 55"),
        ],
    );
}

#[test]
fn each_colour_has_six_cards() {
    trips(
        &[(
            "components.toml",
            "colour = \"brain-surgery\", value = 1, gold = 3",
            "colour = \"parts-machining\", value = 1, gold = 3",
        )],
        &[(
            "six-per-colour",
            "colour = brain-surgery: expected 6, found 5",
        )],
    );
}

#[test]
fn there_are_three_wilds() {
    trips(
        &[(
            "components.toml",
            "kind = \"wild\", colour = \"wild\", value = 2",
            "kind = \"inquiry\", colour = \"wild\", value = 2",
        )],
        &[
            ("three-wilds", "expected 3, found 2"),
            (
                "six-per-colour",
                "expected 6 distinct values of `colour`, found 7",
            ),
        ],
    );
}

#[test]
fn each_player_needs_fourteen_research() {
    trips(
        &[(
            "components.toml",
            "fields = { player = 1, figure = 1, research = 4",
            "fields = { player = 1, figure = 1, research = 5",
        )],
        &[
            (
                "research-14-per-player",
                "player = 1: expected 14, found 15",
            ),
            ("markers-40", "expected 40, found 41"),
        ],
    );
}

#[test]
fn no_card_needs_more_markers_than_a_die_shows() {
    trips(
        &[(
            "game.toml",
            "value = 6\nsource = { inferred = \"the 6d6",
            "value = 3\nsource = { inferred = \"the 6d6",
        )],
        &[("markers-per-card", "expected at most 3, found 4")],
    );
}

#[test]
fn coloured_cards_count_one_in_a_set() {
    trips(
        &[(
            "components.toml",
            "colour = \"brain-surgery\", value = 1, gold = 3",
            "colour = \"brain-surgery\", value = 2, gold = 3",
        )],
        &[(
            "coloured-cards-count-one",
            "id = brain-surgery-1: expected 1, found 2",
        )],
    );
}

#[test]
fn golem_cards_need_different_numbers_of_resources() {
    // To Win: "Each Capek Golem card has a different number of resources needed".
    let f = Fixture::with_games(&[GAME]);
    let line = f.edit(
        GAME,
        "components.toml",
        "fields = { player = 2, figure = 5, research = 1, colour_a = \"steam-engine-dynamics\", set_a = 2",
        "fields = { player = 2, figure = 5, research = 2, colour_a = \"steam-engine-dynamics\", set_a = 2",
    );
    let run = f.run(&["check"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("golem card `golem-2-left-ambulator` needs")
            && run.stderr.contains("golem-2-right-manipulator")
            && run.stderr.contains("rulebook: To Win"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains(&format!("components.toml:{}:", line - 2)),
        "placed at the card's id (line {}): {}",
        line - 2,
        run.stderr
    );
}
