//! What the program prints says each thing once and truly: a seat's label once, counts with
//! the noun in the number's form, and bot errors that name the bots a game really has.

mod common;

use common::run_in;

/// A temp data folder with `printplay new my-game` (no rules engine) and `new lua-game
/// --engine lua` (the tutorial engine).
fn scaffolds() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    for args in [
        &["--data", data, "new", "my-game"][..],
        &["--data", data, "new", "lua-game", "--engine", "lua"][..],
    ] {
        let run = run_in(dir.path(), args);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    dir
}

#[test]
fn a_bot_a_game_lacks_is_refused_with_the_bots_it_has() {
    let dir = scaffolds();
    let data = dir.path().to_str().unwrap();
    let run = run_in(
        dir.path(),
        &["--data", data, "table", "my-game", "--seats", "2=heuristic"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("no bots of its own") && !run.stderr.contains("try random, heuristic"),
        "{}",
        run.stderr
    );
    let run = run_in(
        dir.path(),
        &["--data", data, "table", "my-game", "--seats", "2=mcts"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no bots of its own"), "{}", run.stderr);
    let run = run_in(
        dir.path(),
        &["--data", data, "simulate", "lua-game", "--bots", "cautious"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("this game's bots are `random`, `heuristic`"),
        "{}",
        run.stderr
    );
}
