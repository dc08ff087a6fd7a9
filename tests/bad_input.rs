//! Broken data files get a clear error naming file, line and column, and a non-zero exit.

mod common;

use common::Fixture;

const GAME: &str = "capek-golems";

fn broken(file: &str, from: &str, to: &str) -> (common::Run, usize) {
    let f = Fixture::with_games(&[GAME]);
    let line = f.edit(GAME, file, from, to);
    (f.run(&["check"]), line)
}

/// Asserts exit 1 and a problem located at `file:line:` whose report mentions `words`.
fn assert_reported(run: &common::Run, file: &str, line: usize, words: &str) {
    assert_eq!(run.code, 1, "exit status; stderr:\n{}", run.stderr);
    let place = format!("{file}:{line}:");
    assert!(
        run.stderr.contains(&place),
        "no `{place}` in:\n{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(words),
        "no `{words}` in:\n{}",
        run.stderr
    );
}

#[test]
fn malformed_toml_is_reported_at_its_line() {
    let (run, line) = broken(
        "components.toml",
        "name = \"Game cards\"",
        "name = \"Game cards",
    );
    assert_reported(&run, "components.toml", line, "string");
}

#[test]
fn wrong_type_is_reported_at_the_value() {
    let (run, line) = broken("components.toml", "size_mm = 8", "size_mm = \"eight\"");
    assert_reported(
        &run,
        "components.toml",
        line,
        "expected a number, found text \"eight\"",
    );
    assert!(!run.stderr.contains("invalid type"), "{}", run.stderr);
    assert!(!run.stderr.contains("f64"), "{}", run.stderr);
}

/// serde's words (`unknown variant`, `expected u32`) never reach a designer: the message
/// names the key and lists what it takes.
#[test]
fn a_misspelt_name_lists_what_the_key_takes() {
    let (run, line) = broken("components.toml", "type = \"int\"", "type = \"intt\"");
    assert_reported(
        &run,
        "components.toml",
        line,
        "`intt` is not a known `type`; use one of: int, text, bool",
    );
    assert!(!run.stderr.contains("unknown variant"), "{}", run.stderr);
    let (run, line) = broken("game.toml", "min = 2", "min = -2");
    assert_reported(
        &run,
        "game.toml",
        line,
        "the number -2 is not allowed here: expected a whole number, 0 or more",
    );
    assert!(!run.stderr.contains("u32"), "{}", run.stderr);
}

#[test]
fn unknown_key_is_rejected() {
    let (run, line) = broken(
        "components.toml",
        "name = \"Game cards\"",
        "name = \"Game cards\"\ncolur = \"red\"",
    );
    assert_reported(
        &run,
        "components.toml",
        line + 1,
        "`colur` is not a key of this table; its keys are:",
    );
}

#[test]
fn unknown_card_field_is_rejected() {
    let (run, line) = broken(
        "components.toml",
        "kind = \"inquiry\", colour",
        "kind = \"inquiry\", flavour = 1, colour",
    );
    assert_reported(&run, "components.toml", line, "does not declare");
}

#[test]
fn missing_file_is_an_io_error() {
    let f = Fixture::with_games(&[GAME]);
    std::fs::remove_file(f.file(GAME, "components.toml")).unwrap();
    let run = f.run(&["check"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot read") && run.stderr.contains("components.toml"),
        "{}",
        run.stderr
    );
}

#[test]
fn missing_game_is_an_io_error() {
    let f = Fixture::with_games(&[GAME]);
    let run = f.run(&["check", "no-such-game"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no such game folder"), "{}", run.stderr);
}

#[test]
fn a_missing_data_folder_is_an_io_error_that_says_where_games_are_read() {
    let empty = tempfile::tempdir().unwrap();
    let run = common::run_in(empty.path(), &["build"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot read data") && run.stderr.contains("--data"),
        "{}",
        run.stderr
    );
    assert!(!empty.path().join("output").exists(), "nothing is written");
}

#[test]
fn non_utf8_file_is_reported_where_the_byte_stands() {
    let f = Fixture::with_games(&[GAME]);
    let path = f.file(GAME, "game.toml");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.windows(8).position(|w| w == b"designer").unwrap();
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    bytes.splice(at..at, [0xff, 0xfe]);
    std::fs::write(&path, bytes).unwrap();
    let run = f.run(&["check"]);
    assert_reported(&run, "game.toml", line, "not valid UTF-8");
    assert!(
        run.stderr.contains(&format!("game.toml:{line}:1")),
        "{}",
        run.stderr
    );
}

#[test]
fn negative_count_is_rejected() {
    let (run, line) = broken(
        "components.toml",
        "name = \"The Engineer\"",
        "name = \"The Engineer\"\ncount = -1",
    );
    assert_reported(
        &run,
        "components.toml",
        line + 1,
        "a count must be between 0 and 999, not -1",
    );
}

#[test]
fn absurd_count_is_rejected_not_allocated() {
    let (run, line) = broken("components.toml", "count = 40", "count = 1000000000");
    assert_reported(&run, "components.toml", line, "not 1000000000");
}

#[test]
fn duplicate_id_names_both_places() {
    let f = Fixture::with_games(&[GAME]);
    let first = f.edit(
        GAME,
        "components.toml",
        "id = \"parts-machining-1\"",
        "id = \"parts-machining-1\"",
    );
    let second = f.edit(
        GAME,
        "components.toml",
        "id = \"parts-machining-2\"",
        "id = \"parts-machining-1\"",
    );
    let run = f.run(&["check"]);
    assert_reported(
        &run,
        "components.toml",
        second,
        "duplicate id `parts-machining-1`",
    );
    assert!(
        run.stderr.contains(&format!("first used on line {first}")),
        "{}",
        run.stderr
    );
}

#[test]
fn dangling_reference_is_reported_with_known_ids() {
    let (run, line) = broken(
        "components.toml",
        "colour = \"brain-surgery\", value",
        "colour = \"brain-sugery\", value",
    );
    assert_reported(
        &run,
        "components.toml",
        line,
        "`brain-sugery` does not name a symbol of group `inquiry`",
    );
    assert!(
        run.stderr.contains("known: aetheric-sublimation"),
        "{}",
        run.stderr
    );
}

#[test]
fn value_outside_declared_range_is_reported() {
    let (run, line) = broken("components.toml", "gold = 3,", "gold = 7,");
    assert_reported(
        &run,
        "components.toml",
        line,
        "is 7, outside its declared range 1..=3",
    );
}

#[test]
fn dangling_invariant_deck_is_reported() {
    let (run, line) = broken("game.toml", "decks = [\"house\"]", "decks = [\"hose\"]");
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("counts deck `hose`, which does not exist"),
        "{}",
        run.stderr
    );
    let _ = line;
}

#[test]
fn empty_game_file_is_reported() {
    let f = Fixture::with_games(&[GAME]);
    std::fs::write(f.file(GAME, "game.toml"), "").unwrap();
    let run = f.run(&["check"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("game.toml") && run.stderr.contains("`game` is missing here; add it"),
        "{}",
        run.stderr
    );
}

#[test]
fn empty_components_file_is_reported() {
    let f = Fixture::with_games(&[GAME]);
    std::fs::write(f.file(GAME, "components.toml"), "").unwrap();
    let run = f.run(&["check"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("declares no decks, pieces or boards"),
        "{}",
        run.stderr
    );
}

#[test]
fn all_errors_of_a_run_are_reported_together() {
    let f = Fixture::with_games(&[GAME]);
    let g = f.edit(
        GAME,
        "game.toml",
        "designer = \"Todd Sanders\"",
        "designer = ",
    );
    let c = f.edit(GAME, "components.toml", "mark = \"gear\"", "mark = \"gear");
    let run = f.run(&["check"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains(&format!("game.toml:{g}:")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(&format!("components.toml:{c}:")),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("2 problems found"), "{}", run.stderr);
}

#[test]
fn unexplained_reconstruction_is_reported() {
    let (run, line) = broken(
        "game.toml",
        "source = { inferred = \"the 6d6",
        "source = { inferred = \" \" }\n#",
    );
    assert_reported(
        &run,
        "game.toml",
        line - 1,
        "is inferred but gives no reason",
    );
}

#[test]
fn clap_usage_error_exits_2() {
    let f = Fixture::with_games(&[GAME]);
    let run = f.run(&["frobnicate"]);
    assert_eq!(run.code, 2);
}
