//! A run's exit status is the cause its error was made with, never a reading of its words:
//! the game's script failing is exit 1, a mistake on the command line exit 2, whatever
//! either message quotes (a bot or seat named like a script's place, `engine.lua:3`, once
//! made a usage error exit 1).

mod common;

use std::path::Path;

use printplay::engine::registry::{EngineRun, run_engine};
use printplay::engine::{Cause, Engine, RunError};
use printplay::model::{Game, load_game};
use printplay::simulate::{SimOptions, config_for, play_game};

const SLUG: &str = "my-game";

fn scaffolded() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    printplay::scaffold::new_game_with_engine(dir.path(), SLUG, "lua").expect("scaffold");
    dir
}

fn run(data: &Path, args: &[&str]) -> common::Run {
    let mut all = vec!["--data", data.to_str().unwrap()];
    all.extend_from_slice(args);
    common::run_in(data, &all)
}

/// Replaces the first `from` in the game's engine.lua.
fn edit_engine(data: &Path, from: &str, to: &str) {
    let path = data.join(SLUG).join("engine.lua");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "`{from}` not in engine.lua");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// Mistakes on the command line whose message quotes words that look like a script's place
/// are still the command line's: exit 2, from every command that runs games.
#[test]
fn usage_errors_that_quote_a_scripts_name_exit_2() {
    let data = scaffolded();
    let cases: [&[&str]; 4] = [
        &[
            "simulate",
            SLUG,
            "--bots",
            "engine.lua:3",
            "--games",
            "2",
            "--no-charts",
        ],
        &["replay", SLUG, "--game", "1", "--observer", "rules.lua:2"],
        &[
            "ladder",
            SLUG,
            "--levels",
            "random,engine.lua:1",
            "--games",
            "2",
        ],
        &["play", SLUG, "--seed", "1", "--bots", "engine.lua:9"],
    ];
    for args in cases {
        let r = run(data.path(), args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(".lua:"),
            "{args:?} quotes the words: {}",
            r.stderr
        );
    }
}

/// The script failing once games are under way (a move, or a setup only a variant reaches,
/// both past `check`) is the data's error: exit 1, from every command that plays it.
#[test]
fn a_script_failing_in_a_game_exits_1() {
    let data = scaffolded();
    edit_engine(
        data.path(),
        "function game.apply(state, action)\n",
        "function game.apply(state, action)\n  error(\"a rule the script breaks\")\n",
    );
    let cases: [&[&str]; 3] = [
        &["simulate", SLUG, "--games", "2", "--no-charts"],
        &["replay", SLUG, "--game", "1"],
        &[
            "ladder",
            SLUG,
            "--levels",
            "random,heuristic",
            "--games",
            "2",
        ],
    ];
    for args in cases {
        let r = run(data.path(), args);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("a rule the script breaks"),
            "{args:?}: {}",
            r.stderr
        );
    }
    let data = scaffolded();
    edit_engine(
        data.path(),
        "function game.setup(config, rng)\n",
        "function game.setup(config, rng)\n  if config.variants[\"suit-bonus\"] == \"off\" then error(\"no deal without the bonus\") end\n",
    );
    let args = [
        "simulate",
        SLUG,
        "--variant",
        "suit-bonus=off",
        "--games",
        "2",
        "--no-charts",
    ];
    let r = run(data.path(), &args);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("no deal without the bonus"),
        "{}",
        r.stderr
    );
}

/// What the library gives back: the cause each error was made with.
struct Causes(SimOptions);

impl EngineRun for Causes {
    type Output = Result<(), RunError>;
    fn run<E: Engine>(self, engine: E, _game: &Game) -> Result<Self::Output, RunError> {
        let config = config_for(&engine, &self.0)?;
        Ok(play_game(&engine, &config, &self.0, 0, |_, _| {}).map(|_| ()))
    }
}

fn causes(data: &Path, opts: SimOptions) -> Result<Result<(), RunError>, RunError> {
    let game = load_game(data, SLUG).expect("the scaffold loads");
    run_engine(&game, Causes(opts))
}

#[test]
fn the_library_keeps_each_errors_cause() {
    let data = scaffolded();
    let opts = |bots: &[&str]| SimOptions {
        games: 1,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        ..SimOptions::default()
    };
    // An unknown bot named like a script's place: the command line's.
    let e = causes(data.path(), opts(&["engine.lua:3"])).unwrap_err();
    assert_eq!(e.cause, Cause::Usage, "{e}");
    // A variant value the script does not declare: the command line's.
    let mut o = opts(&["random"]);
    o.variants
        .insert("suit-bonus".into(), "engine.lua:1".into());
    assert_eq!(causes(data.path(), o).unwrap_err().cause, Cause::Usage);
    assert_eq!(causes(data.path(), opts(&["random"])), Ok(Ok(())));
    // The script failing at setup, then in a move: the data's.
    edit_engine(
        data.path(),
        "function game.setup(config, rng)\n",
        "function game.setup(config, rng)\n  if config.players == 3 then error(\"three\") end\n",
    );
    let three = SimOptions {
        players: 3,
        ..opts(&["random"])
    };
    let e = causes(data.path(), three).unwrap_err();
    assert_eq!(e.cause, Cause::Data, "{e}");
    edit_engine(
        data.path(),
        "function game.apply(state, action)\n",
        "function game.apply(state, action)\n  error(\"a rule the script breaks\")\n",
    );
    let e = causes(data.path(), opts(&["random"])).unwrap().unwrap_err();
    assert_eq!(e.cause, Cause::Data, "{e}");
    assert!(
        e.contains("game 1:") && e.contains("a rule the script breaks"),
        "{e}"
    );
    // A script that cannot be loaded at all: the data's.
    edit_engine(
        data.path(),
        "function game.setup(",
        "function game.setup(((",
    );
    let e = causes(data.path(), opts(&["random"])).unwrap_err();
    assert_eq!(e.cause, Cause::Data, "{e}");
}
