//! Lua rule engines: the scaffold's tutorial engine simulates reproducibly on any thread
//! count, and a script that breaks out of its sandbox, loops forever or breaks the contract
//! stops with a diagnostic naming `engine.lua:LINE`, exit 1, in bounded time, writing nothing.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use printplay::engine::lua::LuaEngine;
use printplay::engine::{Engine, State};
use printplay::model::load_game;
use printplay::scaffold::new_game_with_engine;
use printplay::simulate::{SimOptions, config_for, play_game, simulate};

const SLUG: &str = "my-game";

/// A data folder holding one scaffolded game with the tutorial Lua engine.
fn scaffolded() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    new_game_with_engine(dir.path(), SLUG, "lua").expect("scaffold");
    dir
}

fn json_with_threads(data: &Path, threads: usize, o: &SimOptions) -> String {
    let game = load_game(data, SLUG).expect("the scaffold loads");
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| simulate(&game, o, None).unwrap().to_json())
}

#[test]
fn scaffolded_lua_game_gives_the_same_json_on_one_and_two_threads() {
    let data = scaffolded();
    let o = SimOptions {
        games: 90,
        seed: 5,
        players: 3,
        bots: vec!["heuristic".into(), "random".into(), "mcts:20".into()],
        ..Default::default()
    };
    let one = json_with_threads(data.path(), 1, &o);
    assert_eq!(one, json_with_threads(data.path(), 2, &o));
    assert!(one.contains("hands empty"), "{one}");
    let other = SimOptions { seed: 6, ..o };
    assert_ne!(one, json_with_threads(data.path(), 2, &other));
}

/// Edits the scaffold's engine.lua (first `from` becomes `to`), runs `simulate` and returns
/// the line edited, the run, and how long it took.
fn run_edited(from: &str, to: &str, bots: &str) -> (usize, common::Run, Duration, Vec<String>) {
    let data = scaffolded();
    let path = data.path().join(SLUG).join("engine.lua");
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("`{from}` not in engine.lua"));
    let line = text[..at].matches('\n').count() + 1;
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let before = {
        let mut f = walk(data.path());
        f.sort();
        f
    };
    let out = data.path().join("out");
    let start = Instant::now();
    let run = common::run_in(
        data.path(),
        &[
            "--data",
            data.path().to_str().unwrap(),
            "simulate",
            SLUG,
            "--games",
            "20",
            "--bots",
            bots,
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let took = start.elapsed();
    let mut files: Vec<String> = walk(data.path());
    files.sort();
    assert_eq!(files, before, "files left behind");
    (line, run, took, files)
}

fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            out.extend(walk(&entry.path()));
        } else {
            out.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    out
}

fn assert_stopped(case: &str, from: &str, to: &str, bots: &str, says: &str) {
    let (line, run, took, files) = run_edited(from, to, bots);
    let place = format!("engine.lua:{line}:");
    assert_eq!(run.code, 1, "{case}: {}", run.stderr);
    assert!(
        run.stderr.contains(&place),
        "{case}: wants {place} in {}",
        run.stderr
    );
    assert!(
        run.stderr.contains(says),
        "{case}: wants `{says}` in {}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{case}: {}", run.stderr);
    // A bound, not a speed figure: the budget stops an endless loop well within it.
    assert!(took < Duration::from_secs(60), "{case}: took {took:?}");
    assert!(
        files.contains(&"engine.lua".to_string()),
        "{case}: {files:?}"
    );
}

const LOAD: &str = "local game = {}";
/// In `legal_actions`, which the heuristic bot calls (the random bot draws with the tutorial's
/// `random_action`, without the list).
const LEGAL: &str = "local moves = {}";

#[test]
fn io_and_os_are_not_there() {
    assert_stopped(
        "io.open at load time",
        LOAD,
        "local game = {} io.open(\"pwned.txt\", \"w\")",
        "random",
        "global 'io'",
    );
    assert_stopped(
        "os.execute in legal_actions",
        LEGAL,
        "local moves = {} os.execute(\"touch pwned.txt\")",
        "heuristic",
        "global 'os'",
    );
    assert_stopped(
        "require outside the game folder",
        LOAD,
        "local game = {} require(\"..\")",
        "random",
        "lives in the game folder",
    );
    assert_stopped(
        "load of a chunk",
        LOAD,
        "local game = {} load(\"return 1\")",
        "random",
        "global 'load'",
    );
}

#[test]
fn endless_loops_run_out_of_budget() {
    assert_stopped(
        "a loop at load time",
        LOAD,
        "local game = {} while true do end",
        "random",
        "budget",
    );
    assert_stopped(
        "a loop in legal_actions",
        LEGAL,
        "local moves = {} while true do end",
        "heuristic",
        "budget",
    );
}

#[test]
fn broken_contracts_are_diagnosed() {
    assert_stopped(
        "no legal move while the game goes on",
        "function game.legal_actions(state)",
        "function game.legal_actions(state) if true then return {} end",
        "heuristic",
        "returned no move",
    );
    assert_stopped(
        "returns that do not sum as declared",
        "function game.returns(state)",
        "function game.returns(state) if true then return { 1, 1 } end",
        "random",
        "returns_sum = 1",
    );
    assert_stopped(
        "a bot's illegal move",
        "heuristic = function(state, seat, rng)",
        "heuristic = function(state, seat, rng) if true then return 99 end",
        "heuristic",
        "not among the legal actions",
    );
    assert_stopped(
        "a write to the model",
        LEGAL,
        "local moves = {} model.params.hand_size.value = 1",
        "heuristic",
        "read-only",
    );
}

/// The C functions of the string and table libraries run without the budget's hook; their
/// worst-case work is charged against the budget before they start, so a catastrophic
/// pattern or a move over a trillion indices stops at once instead of running for hours.
#[test]
fn costly_library_calls_are_charged_to_the_budget() {
    assert_stopped(
        "a catastrophic pattern in string.find",
        LEGAL,
        "local moves = {} string.find(string.rep(\"a\", 4000), string.rep(\"a*\", 12) .. \"b\")",
        "heuristic",
        "string.find: this pattern on a subject of 4000 characters may take",
    );
    assert_stopped(
        "a catastrophic pattern in gmatch",
        LEGAL,
        "local moves = {} for _ in (string.rep(\"a\", 4000)):gmatch(string.rep(\"a-\", 12) .. \"b\") do end",
        "heuristic",
        "string.gmatch",
    );
    assert_stopped(
        "table.move over a trillion indices",
        LEGAL,
        "local moves = {} table.move({}, 1, 1e12, 2)",
        "heuristic",
        "table.move: moving that many values may take 1e+12 steps",
    );
    assert_stopped(
        "string.rep of ten gigabytes",
        LOAD,
        "local game = {} local s = string.rep(\"x\", 1e10)",
        "random",
        "budget",
    );
}

/// Every move and chance outcome of game `g` by name, as `simulate` plays it.
fn transcript(engine: &LuaEngine, opts: &SimOptions, g: u64) -> Vec<String> {
    let config = config_for(engine, opts).unwrap();
    let mut lines = Vec::new();
    play_game(engine, &config, opts, g, |s, a| {
        lines.push(s.action_name(a))
    })
    .unwrap();
    lines
}

/// The tutorial teaches `random_action` and `sample_chance`, which pick the random bot's move
/// and a chance outcome without building the lists: they must pick exactly what the lists
/// would, so the scaffold's game plays the same games with them and without them.
#[test]
fn the_tutorials_samplers_draw_what_the_lists_would() {
    let data = scaffolded();
    let path = data.path().join(SLUG).join("engine.lua");
    let text = std::fs::read_to_string(&path).unwrap();
    for name in ["random_action", "sample_chance"] {
        let defined = format!("function game.{name}(");
        let at = text
            .find(&defined)
            .unwrap_or_else(|| panic!("no {defined}"));
        // Taught early: beside the function it stands in for, not in a closing note.
        assert!(at < text.find("function game.apply(").unwrap(), "{name}");
    }
    let with = LuaEngine::from_model(&load_game(data.path(), SLUG).unwrap()).unwrap();
    let without = text
        .replace(
            "function game.random_action(",
            "local function unused_random_action(",
        )
        .replace(
            "function game.sample_chance(",
            "local function unused_sample_chance(",
        );
    std::fs::write(&path, without).unwrap();
    let lists = LuaEngine::from_model(&load_game(data.path(), SLUG).unwrap()).unwrap();
    let o = SimOptions {
        games: 300,
        seed: 9,
        players: 2,
        bots: vec!["random".into(), "heuristic".into()],
        ..Default::default()
    };
    let (mut moves, mut draws) = (0, 0);
    for g in 0..o.games {
        let t = transcript(&with, &o, g);
        assert_eq!(t, transcript(&lists, &o, g), "game {g}");
        moves += t.len();
        draws += t.iter().filter(|m| m.contains(" draws ")).count();
    }
    // Real games, with chance draws among their moves.
    assert!(
        moves > 300 * 10 && draws > 300,
        "{moves} moves, {draws} draws"
    );
}
