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

#[test]
fn analyze_reports_pray_yield_as_an_analysis_not_a_game() {
    let f = Fixture::with_games(&["imperial-settlers-aztecs", "aether"]);
    let run = f.run(&[
        "analyze",
        "imperial-settlers-aztecs",
        "--pray",
        "2",
        "--blessings",
        "brown,tricolor",
        "--stored",
        "grey",
        "--colours",
        "grey,red",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for part in [
        "not a game",
        "Common deck: `common-base`",
        "Blessing tokens held: brown, tricolor",
        "Pray 2 (exact",
        "choose after drawing",
        "several: Grey (stone) + Red (food)",
        "no colour (coloured cards)",
    ] {
        assert!(
            run.stdout.contains(part),
            "missing {part:?}:\n{}",
            run.stdout
        );
    }
    assert!(
        !run.stdout.contains("win rate") && !run.stdout.contains("target"),
        "{}",
        run.stdout
    );
    let bad = f.run(&[
        "analyze",
        "imperial-settlers-aztecs",
        "--blessings",
        "plaid",
    ]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("`plaid`"), "{}", bad.stderr);
    let other = f.run(&["analyze", "aether"]);
    assert_eq!(other.code, 2);
    assert!(
        other.stderr.contains("no Pray analysis"),
        "{}",
        other.stderr
    );
}

#[test]
fn simulating_settlers_says_why_not_and_points_to_the_analysis() {
    let f = Fixture::with_games(&["imperial-settlers-aztecs"]);
    let run = f.run(&["simulate", "imperial-settlers-aztecs", "--games", "1"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("nothing to simulate"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("printplay analyze imperial-settlers-aztecs"),
        "{}",
        run.stderr
    );
}
