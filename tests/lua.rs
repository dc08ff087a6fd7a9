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
    // The script's end reasons reach the report.
    assert!(
        one.contains("goal reached") || one.contains("hands empty"),
        "{one}"
    );
    let other = SimOptions { seed: 6, ..o };
    assert_ne!(one, json_with_threads(data.path(), 2, &other));
}

/// Replaces the first `from` in the game's engine.lua with `to`; returns the line edited.
fn edit_engine(data: &Path, from: &str, to: &str) -> usize {
    let path = data.join(SLUG).join("engine.lua");
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("`{from}` not in engine.lua"));
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    text[..at].matches('\n').count() + 1
}

/// Edits the scaffold's engine.lua (first `from` becomes `to`), runs `simulate` and returns
/// the line edited, the run, and how long it took.
fn run_edited(from: &str, to: &str, bots: &str) -> (usize, common::Run, Duration, Vec<String>) {
    run_edited_in(from, to, bots, |_| {})
}

/// [`run_edited`] after `prepare` has changed the data folder.
fn run_edited_in(
    from: &str,
    to: &str,
    bots: &str,
    prepare: impl Fn(&Path),
) -> (usize, common::Run, Duration, Vec<String>) {
    let data = scaffolded();
    let line = edit_engine(data.path(), from, to);
    prepare(data.path());
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
    assert_stopped_in(case, from, to, bots, says, |_| {});
}

/// [`assert_stopped`] after `prepare` has changed the data folder. The message names no
/// chunk of the sandbox's own (limits.lua, host.lua, prelude.lua) and no memory address.
fn assert_stopped_in(
    case: &str,
    from: &str,
    to: &str,
    bots: &str,
    says: &str,
    prepare: impl Fn(&Path),
) {
    let (line, run, took, files) = run_edited_in(from, to, bots, prepare);
    for inner in ["limits.lua", "host.lua", "prelude.lua", "engine.lua:0:"] {
        assert!(
            !run.stderr.contains(inner),
            "{case}: names `{inner}` in {}",
            run.stderr
        );
    }
    // A memory address is `0x` and hex digits; a temporary folder's random name (`.tmpHd10xN`)
    // may hold `0x` too.
    let address = run.stderr.match_indices("0x").any(|(at, _)| {
        run.stderr[at + 2..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .count()
            >= 4
    });
    assert!(!address, "{case}: names a memory address in {}", run.stderr);
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

/// A move list built by iterating a table keyed by strings with `next` (and one with
/// `pairs`), so that the order of iteration decides which move the random bot draws.
const NEXT_OVER_STRINGS: &str = "local keyed = {}
  for i, n in ipairs(state.hands[state.current]) do
    if n > 0 then
      keyed[\"card \" .. i] = i
    end
  end
  local moves = {}
  local k, v = next(keyed)
  while k ~= nil do
    moves[#moves + 1] = v
    k, v = next(keyed, k)
  end
  local seen = {}
  for name, i in pairs(keyed) do
    seen[#seen + 1] = name
  end
  if #seen ~= #moves then
    error(\"pairs and next disagree\")
  end
  if true then
    return moves
  end";

/// Iteration follows only the keys a script put in a table (not Lua's per-VM hash seed, nor
/// memory addresses): five runs, and one and two threads, give byte-identical reports.
#[test]
fn next_and_pairs_give_identical_games_on_every_run_and_thread_count() {
    let data = scaffolded();
    edit_engine(data.path(), LEGAL, NEXT_OVER_STRINGS);
    let o = SimOptions {
        games: 40,
        seed: 11,
        players: 3,
        bots: vec!["random".into(), "mcts:10".into(), "random".into()],
        ..Default::default()
    };
    let first = json_with_threads(data.path(), 1, &o);
    for _ in 0..4 {
        assert_eq!(first, json_with_threads(data.path(), 1, &o));
    }
    assert_eq!(first, json_with_threads(data.path(), 2, &o));
}

/// A table keyed by tables hashes by address: iterating it has no order that repeats, so it
/// is an error at the line that iterates.
#[test]
fn iterating_a_table_keyed_by_tables_is_an_error_at_that_line() {
    assert_stopped(
        "next over table keys",
        LEGAL,
        "local moves = {} local t = { [{}] = 1, a = 2 } local k = next(t)",
        "heuristic",
        "no fixed order",
    );
    assert_stopped(
        "pairs over function keys",
        LEGAL,
        "local moves = {} for k in pairs({ [print] = 1 }) do end",
        "heuristic",
        "no fixed order",
    );
    assert_stopped(
        "tostring of a table",
        LEGAL,
        "local moves = {} local id = tostring({})",
        "heuristic",
        "memory address",
    );
    assert_stopped(
        "%p",
        LEGAL,
        "local moves = {} local id = (\"%p\"):format(\"x\")",
        "heuristic",
        "memory address",
    );
}

/// pcall and xpcall cannot catch a spent budget, and finalizers, which run where no budget
/// reaches, cannot be set.
#[test]
fn the_budget_cannot_be_caught_or_escaped() {
    assert_stopped(
        "an endless loop of pcalls of endless loops",
        LEGAL,
        "local moves = {} while true do pcall(function() while true do end end) end",
        "heuristic",
        "budget",
    );
    assert_stopped(
        "an overrun swallowed by pcall",
        LEGAL,
        "local moves = {} pcall(function() while true do end end)",
        "heuristic",
        "budget",
    );
    assert_stopped(
        "xpcall whose handler loops",
        LEGAL,
        "local moves = {} xpcall(function() error(\"x\") end, function() while true do end end)",
        "heuristic",
        "budget",
    );
    assert_stopped(
        "a refused charge caught by pcall, again and again",
        LEGAL,
        "local moves = {} while true do pcall(string.rep, \"x\", 1e10) end",
        "heuristic",
        "string.rep",
    );
    assert_stopped(
        "a to-be-closed variable whose __close loops",
        LEGAL,
        "local moves = {} do local x <close> = setmetatable({}, { __close = function() while true do end end }) end",
        "heuristic",
        "budget",
    );
    assert_stopped(
        "a finalizer",
        LEGAL,
        "local moves = {} setmetatable({}, { __gc = function() while true do end end })",
        "heuristic",
        "__gc",
    );
    assert_stopped(
        "a finalizer added to the metatable afterwards",
        LEGAL,
        "local moves = {} local mt = {} setmetatable({}, mt) mt.__gc = function() while true do end end",
        "heuristic",
        "__gc",
    );
    assert_stopped(
        "a weak table",
        LEGAL,
        "local moves = {} setmetatable({}, { __mode = \"k\" })",
        "heuristic",
        "__mode",
    );
}

/// `play` loads the script too: a finalizer set at load time stops it at once (it would run
/// at exit, outside every budget), exit 1.
#[test]
fn play_refuses_a_finalizer_instead_of_hanging_at_exit() {
    let data = scaffolded();
    let line = edit_engine(
        data.path(),
        LOAD,
        "local game = {} KEEP = setmetatable({}, { __gc = function() while true do end end })",
    );
    let run = common::run_in(
        data.path(),
        &[
            "--data",
            data.path().to_str().unwrap(),
            "play",
            SLUG,
            "--seed",
            "1",
            "--seat",
            "all",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("engine.lua:{line}:")) && run.stderr.contains("__gc"),
        "{}",
        run.stderr
    );
}

/// Each error names the line of engine.lua where it happened, or that called the sandbox's
/// wrapper or library function that raised it; exit 1.
#[test]
fn errors_name_the_scripts_line_never_the_sandboxs_own() {
    assert_stopped(
        "error with a table",
        LEGAL,
        "local moves = {} error({})",
        "heuristic",
        "error was given a table",
    );
    assert_stopped(
        "a bad argument to a charged library function (limits.lua)",
        LEGAL,
        "local moves = {} string.byte(\"abc\", \"x\", 3)",
        "heuristic",
        "bad argument #2 to 'byte'",
    );
    assert_stopped(
        "a bad argument to a library function",
        LEGAL,
        "local moves = {} table.insert(nil, 1)",
        "heuristic",
        "bad argument #1 to 'insert'",
    );
    assert_stopped(
        "chance outcomes that are not a list (host.lua walks them)",
        // The list is read where the tutorial's `sample_chance` is not there to stand in.
        "function game.sample_chance(state, x)",
        "function game.chance_outcomes(state) return nil end function game.unused_sample_chance(state, x)",
        "random",
        "`chance_outcomes` must list",
    );
    assert_stopped(
        "returns printplay cannot read, placed at `returns`, not at a line of `setup`",
        "function game.returns(state)",
        "function game.returns(state) if true then return { 1, \"x\" } end",
        "random",
        "`returns` returned what printplay cannot read",
    );
    assert_stopped(
        "a bot's move that is not a number",
        "heuristic = function(state, seat, rng)",
        "heuristic = function(state, seat, rng) if true then return \"x\" end",
        "heuristic",
        "`bots.heuristic` returned what printplay cannot read",
    );
}

/// A number that is not finite is a broken contract naming the function, never a figure in
/// a report; MCTS stops with it instead of panicking.
#[test]
fn nan_and_infinity_break_the_contract() {
    assert_stopped(
        "NaN returns",
        "function game.returns(state)",
        "function game.returns(state) if true then return { 0/0, 1 } end",
        "random",
        "`returns` gave NaN",
    );
    assert_stopped(
        "a NaN probability",
        // The list is read where the tutorial's `sample_chance` is not there to stand in.
        "function game.sample_chance(state, x)",
        "function game.chance_outcomes(state) return { { 1, 0/0 } } end function game.unused_sample_chance(state, x)",
        "random",
        "`chance_outcomes` must list",
    );
    assert_stopped(
        "an infinite probability",
        // The list is read where the tutorial's `sample_chance` is not there to stand in.
        "function game.sample_chance(state, x)",
        "function game.chance_outcomes(state) return { { 1, 1/0 }, { 2, -1/0 } } end function game.unused_sample_chance(state, x)",
        "random",
        "`chance_outcomes` must list",
    );
    assert_stopped(
        "an infinite statistic",
        "function game.end_stats(state)",
        "function game.end_stats(state) if true then return { x = 1/0 } end",
        "random",
        "`end_stats` gave `x` = inf",
    );
    assert_stopped(
        "NaN estimates under MCTS",
        "function game.end_reason(state)",
        "function game.estimate(state) return { 0/0, 0/0 } end function game.end_reason(state)",
        "mcts:20:random:depth=1",
        "`estimate` gave [NaN, NaN]",
    );
    assert_stopped(
        "determinize raises an error under MCTS",
        "function game.determinize(state, seat, rng)",
        "function game.determinize(state, seat, rng) if true then error(\"no world\") end",
        "mcts:20",
        "no world",
    );
    let (_, run, _, _) = run_edited("game.returns_sum = 1", "game.returns_sum = 0/0", "random");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("`returns_sum` is a number"),
        "{}",
        run.stderr
    );
}

/// A player count outside the game's range (game.toml) is refused before any game starts,
/// by every command, exit 2; `--players 0` is not the smallest count in disguise.
#[test]
fn player_counts_outside_the_games_range_are_refused() {
    let data = scaffolded();
    let dir = data.path().to_str().unwrap();
    for (command, players, says) in [
        ("play", "7", "2-4 players"),
        ("play", "1", "2-4 players"),
        ("play", "0", "--players takes"),
        ("simulate", "7", "2-4 players"),
        ("simulate", "0", "--players takes"),
        ("replay", "5", "2-4 players"),
    ] {
        let mut args = vec!["--data", dir, command, SLUG, "--players", players];
        match command {
            "play" => args.extend(["--seat", "all", "--seed", "1"]),
            "replay" => args.extend(["--game", "1"]),
            _ => args.extend(["--games", "2", "--no-charts"]),
        }
        let run = common::run_in(data.path(), &args);
        assert_eq!(run.code, 2, "{command} {players}: {}", run.stderr);
        assert!(
            run.stderr.contains(says),
            "{command} {players}: {}",
            run.stderr
        );
    }
}

/// `require` and engine.lua itself are read only inside the game folder, links included.
#[cfg(unix)]
#[test]
fn nothing_is_read_through_a_link_out_of_the_game_folder() {
    assert_stopped_in(
        "a module linked from outside",
        LOAD,
        "local game = {} local helper = require(\"helper\")",
        "random",
        "outside the game's folder",
        |data| {
            std::fs::write(data.join("secret.lua"), "return {}").unwrap();
            std::os::unix::fs::symlink(data.join("secret.lua"), data.join(SLUG).join("helper.lua"))
                .unwrap();
        },
    );
    let data = scaffolded();
    let engine = data.path().join(SLUG).join("engine.lua");
    std::fs::rename(&engine, data.path().join("elsewhere.lua")).unwrap();
    std::os::unix::fs::symlink(data.path().join("elsewhere.lua"), &engine).unwrap();
    let run = common::run_in(
        data.path(),
        &[
            "--data",
            data.path().to_str().unwrap(),
            "simulate",
            SLUG,
            "--games",
            "2",
            "--no-charts",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("engine.lua") && run.stderr.contains("outside the game's folder"),
        "{}",
        run.stderr
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
        moves > 300 * 5 && draws > 300,
        "{moves} moves, {draws} draws"
    );
}

/// The optional `targets(state, action)`: the tutorial engine names the card in hand each move
/// plays, every legal move has its own targets, and a key of no known form breaks the contract
/// with the script's line.
#[test]
fn targets_say_where_a_move_acts_and_a_bad_key_breaks_the_contract() {
    let dir = scaffolded();
    let game = load_game(dir.path(), SLUG).expect("the scaffold loads");
    let engine = LuaEngine::from_model(&game).expect("the engine loads");
    let config = printplay::engine::Config::with_variants(2, &[]);
    let seen = printplay::engine::testing::check_targets(&engine, &config, 3, 1, &[])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(seen.moves > 20, "{seen:?}");
    assert_eq!(seen.kinds.iter().collect::<Vec<_>>(), ["card"]);

    edit_engine(
        dir.path(),
        "return { \"card:\" .. designs[action].id }",
        "return { \"somewhere\" }",
    );
    let game = load_game(dir.path(), SLUG).expect("the edited scaffold loads");
    let engine = LuaEngine::from_model(&game).expect("the engine loads");
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    let mut s = engine.new_game(&config, &mut rng).unwrap();
    while !matches!(s.turn(), printplay::engine::Turn::Player(_)) {
        let a = s.sample_chance(&mut rng);
        s.apply(a);
    }
    let a = s.legal_actions()[0];
    assert!(s.targets(a).is_empty());
    let failure = s.failure().expect("a broken contract");
    assert!(failure.contains("`targets`"), "{failure}");
    assert!(failure.contains("somewhere"), "{failure}");
    assert!(failure.contains("engine.lua:"), "{failure}");
}
