//! `printplay play` driven through stdin: bad input gets the prompt again, `undo` takes the
//! person's move back, the game reaches its end, and the saved transcript replays to the very
//! same moves and result; for a Lua engine and a Rust engine alike.

mod common;

use std::path::Path;

use printplay::scaffold::new_game_with_engine;

/// Runs `printplay --data DATA play ARGS` with `input` on stdin; returns stdout and the exit code.
fn play(data: &Path, args: &[&str], input: &str) -> (String, i32) {
    let all: Vec<&str> = std::iter::once("play")
        .chain(args.iter().copied())
        .collect();
    let run = common::run_with_input(data, &all, input);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    (run.stdout, run.code)
}

/// The move lines (`  12 name`, `   3  * name`) and the result line of a game's text.
fn moves_and_result(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| match l.rfind("move> ") {
            Some(at) => &l[at + "move> ".len()..],
            None => l,
        })
        .filter(|l| is_move_line(l) || l.starts_with("ended after"))
        .map(str::to_string)
        .collect()
}

/// `{:>4}{mark} {name}`: a right-aligned move number in four columns, then a space.
fn is_move_line(line: &str) -> bool {
    let number = line.get(..4).map(str::trim_start).unwrap_or("");
    !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) && line[4..].starts_with(' ')
}

fn plays_to_the_end_and_replays(data: &Path, game: &str, extra: &[&str]) {
    let save = data.join("saved.toml");
    let mut args = vec![game, "--seed", "9", "--save", save.to_str().unwrap()];
    args.extend_from_slice(extra);
    // Bad input first, then a move, an undo, and the first move at every turn after that.
    let input = format!("banana\n0\n999\n\nundo\n1\nundo\n{}", "1\n".repeat(3000));
    let (out, code) = play(data, &args, &input);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("`banana` is not a move number"), "{out}");
    assert!(out.contains("there is no move 999"), "{out}");
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("took back"), "{out}");
    assert!(
        out.contains("ended after"),
        "the game did not finish: {out}"
    );
    let played = moves_and_result(&out);
    let replay = common::run_in(
        data,
        &[
            "--data",
            data.to_str().unwrap(),
            "replay",
            game,
            "--moves",
            save.to_str().unwrap(),
        ],
    );
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    let replayed = moves_and_result(&replay.stdout);
    // Play printed the moves taken back by the undo before the game as it stands; the
    // transcript replays to exactly the rest.
    assert!(played.len() > replayed.len(), "{played:?}");
    assert!(
        played.ends_with(&replayed),
        "played {played:?}\nreplayed {replayed:?}"
    );
    assert!(replayed.last().unwrap().starts_with("ended after"));
}

#[test]
fn a_lua_game_played_through_stdin_replays_identically() {
    let dir = tempfile::tempdir().unwrap();
    new_game_with_engine(dir.path(), "my-game", "lua").unwrap();
    plays_to_the_end_and_replays(dir.path(), "my-game", &["--players", "3"]);
}

#[test]
fn a_rust_game_played_through_stdin_replays_identically() {
    let fixture = common::Fixture::with_games(&["aether"]);
    plays_to_the_end_and_replays(fixture.data(), "aether", &["--bots", "random"]);
}

#[test]
fn a_resumed_game_goes_on_from_its_last_move() {
    let dir = tempfile::tempdir().unwrap();
    new_game_with_engine(dir.path(), "my-game", "lua").unwrap();
    let save = dir.path().join("g.toml");
    let save = save.to_str().unwrap();
    let whole = dir.path().join("whole.toml");
    let (_, code) = play(
        dir.path(),
        &["my-game", "--seed", "4", "--save", whole.to_str().unwrap()],
        &"1\n".repeat(50),
    );
    assert_eq!(code, 0);
    // The same game, quit after two decisions and resumed.
    let (out, code) = play(
        dir.path(),
        &["my-game", "--seed", "4", "--save", save],
        "1\n1\nquit\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("not finished"), "{out}");
    let (out, code) = play(
        dir.path(),
        &["my-game", "--resume", save],
        &"1\n".repeat(50),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ended after"), "{out}");
    assert_eq!(
        std::fs::read_to_string(save).unwrap(),
        std::fs::read_to_string(whole).unwrap()
    );
}

/// `save FILE` and `--save FILE` in a folder that is not there make no folder: `save` says it
/// could not save and the game goes on; `--save` is refused before the game starts (exit 2).
#[test]
fn saving_into_a_missing_folder_makes_no_folder() {
    let fixture = common::Fixture::with_games(&["aether"]);
    let missing = fixture.data().join("missing");
    let file = missing.join("dir").join("x.toml");
    let file = file.to_str().unwrap();
    let (out, code) = play(
        fixture.data(),
        &["aether", "--bots", "random", "--seed", "1"],
        &format!("save {file}\nquit\n"),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("could not save"), "{out}");
    assert!(!missing.exists(), "save made {}", missing.display());
    let run = common::run_with_input(
        fixture.data(),
        &["play", "aether", "--bots", "random", "--save", file],
        "quit\n",
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
    assert!(!missing.exists(), "--save made {}", missing.display());
}

/// A game of one player count says it once: `2 players`, never `2-2 players`.
#[test]
fn a_game_for_one_count_of_players_says_it_once() {
    let fixture = common::Fixture::with_games(&["capek-golems"]);
    let run = fixture.run(&["simulate", "capek-golems", "--players", "3", "--games", "1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("takes 2 players, not 3") && !run.stderr.contains("2-2"),
        "{}",
        run.stderr
    );
}
