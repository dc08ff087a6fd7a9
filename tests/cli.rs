//! The command line's documented behaviour: list, schema, new, check --provenance.

mod common;

use common::Fixture;

#[test]
fn list_prints_one_line_per_game() {
    let f = Fixture::with_games(&["capek-golems"]);
    let run = f.run(&["list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("capek-golems"))
        .expect("capek listed");
    assert!(
        line.contains("Aether Captains: Capek Golems (2 players)"),
        "{line}"
    );
}

#[test]
fn schema_is_json_describing_both_files() {
    let f = Fixture::with_games(&[]);
    let run = f.run(&["schema"]);
    assert_eq!(run.code, 0);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("valid JSON");
    let game = &v["$defs"]["game.toml"];
    assert!(game["properties"]["game"].is_object(), "{game}");
    let comps = &v["$defs"]["components.toml"];
    assert!(comps["properties"]["deck"].is_object(), "{comps}");
    assert_eq!(
        comps["additionalProperties"],
        serde_json::Value::Bool(false),
        "unknown keys are rejected"
    );
}

#[test]
fn new_game_checks_as_it_is_and_is_never_overwritten() {
    let f = Fixture::with_games(&[]);
    let run = f.run(&["new", "my-game"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let check = f.run(&["check", "my-game"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(check.stdout.contains("my-game: ok"), "{}", check.stdout);
    std::fs::write(f.file("my-game", "game.toml"), "# mine").unwrap();
    let again = f.run(&["new", "my-game"]);
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("already exists"), "{}", again.stderr);
    assert_eq!(
        std::fs::read_to_string(f.file("my-game", "game.toml")).unwrap(),
        "# mine"
    );
}

#[test]
fn new_game_invariants_are_live() {
    let f = Fixture::with_games(&[]);
    f.run(&["new", "my-game"]);
    f.edit(
        "my-game",
        "components.toml",
        "fields = { suit = \"sun\", value = 1 }",
        "fields = { suit = \"moon\", value = 1 }",
    );
    let run = f.run(&["check", "my-game"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("invariant `each-suit` fails: suit = moon: expected 4, found 6"),
        "{}",
        run.stderr
    );
}

#[test]
fn new_rejects_a_bad_slug() {
    let f = Fixture::with_games(&[]);
    let run = f.run(&["new", "My Game"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("lower-case letters, digits and dashes"),
        "{}",
        run.stderr
    );
}

#[test]
fn provenance_lists_reconstructed_values_with_reasons() {
    let f = Fixture::with_games(&["capek-golems"]);
    let run = f.run(&["check", "--provenance"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "reconstructed deck.game.fields.gold: the rulebook prints the range 1 to 3 only"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("inferred      params.max_markers_per_card"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("params.initial_hand"),
        "printed values are not listed"
    );
}
