//! Random games per CPU second of a Lua engine against the Rust engine of the same game:
//! Aether (2 players, normal setup) played by the shipped Rust engine and by the Lua fixture
//! of the differential test (tests/fixtures/aether-lua/engine.lua), uniform random moves
//! on the engine alone; then the scaffold's tutorial Lua game through the simulator.
//!
//! `cargo bench --bench lua_engine` (BENCH_SECONDS sets the time per figure, default 3);
//! `cargo bench --bench lua_engine -- WORD` measures only the figures whose name holds WORD
//! (`Lua`, `Rust`, `tutorial`), to profile one of them.

use std::path::Path;
use std::time::{Duration, Instant};

use printplay::engine::lua::LuaEngine;
use printplay::engine::{Config, Engine, State, Turn};
use printplay::games::aether::AetherEngine;
use printplay::model::load_game;
use printplay::simulate::{SimOptions, config_for, game_rng, play_game};

fn budget() -> Duration {
    let secs = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(3.0);
    Duration::from_secs_f64(secs)
}

/// CPU time of this thread in seconds (Linux `/proc/thread-self/stat`, 100 Hz ticks).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Whether the figure `name` is wanted (every one when no word is given).
fn wanted(name: &str) -> bool {
    let words: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    words.is_empty() || words.iter().any(|w| name.contains(w.as_str()))
}

/// Games per CPU second (wall second where the system does not say) of `play`, and moves a game.
fn rate(mut play: impl FnMut(u64) -> u32) -> (f64, f64) {
    let start = Instant::now();
    let cpu = cpu_seconds();
    let (mut games, mut moves) = (0u64, 0u64);
    while start.elapsed() < budget() || games == 0 {
        moves += u64::from(play(games));
        games += 1;
    }
    let secs = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => start.elapsed().as_secs_f64(),
    };
    (games as f64 / secs, moves as f64 / games as f64)
}

fn random_game<E: Engine>(engine: &E, config: &Config, index: u64) -> u32 {
    let mut rng = game_rng(1, index);
    let mut s = engine.new_game(config, &mut rng).expect("a game starts");
    loop {
        let action = match s.turn() {
            Turn::Terminal => break,
            Turn::Chance => s.sample_chance(&mut rng),
            Turn::Player(_) => s.random_action(&mut rng),
        };
        s.apply(action);
    }
    assert!(s.failure().is_none(), "{:?}", s.failure());
    s.moves_played()
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let aether = load_game(&root.join("data"), "aether").expect("aether loads");
    let temp = tempfile::tempdir().expect("a temporary folder");
    let dir = temp.path().to_path_buf();
    let copy = dir.join("aether");
    std::fs::create_dir_all(&copy).unwrap();
    for name in ["components.toml", "game.toml"] {
        let text = std::fs::read_to_string(aether.dir.join(name)).unwrap();
        std::fs::write(
            copy.join(name),
            text.replace("engine = \"aether\"", "engine = \"lua\""),
        )
        .unwrap();
    }
    std::fs::copy(
        root.join("tests/fixtures/aether-lua/engine.lua"),
        copy.join("engine.lua"),
    )
    .unwrap();
    let lua_aether = load_game(&dir, "aether").expect("the Lua aether loads");
    let config = Config::with_variants(2, &[]);
    println!(
        "one thread; about {:.1} s per figure; games per CPU second",
        budget().as_secs_f64()
    );
    let mut rates = Vec::new();
    for name in ["aether, Rust engine, random", "aether, Lua engine, random"] {
        if !wanted(name) {
            continue;
        }
        let (r, len) = if name.contains("Rust") {
            let rust = AetherEngine::from_model(&aether).unwrap();
            rate(|i| random_game(&rust, &config, i))
        } else {
            let lua = LuaEngine::from_model(&lua_aether).unwrap();
            rate(|i| random_game(&lua, &config, i))
        };
        println!("{name:<34} {r:>10.0} games/s  ({len:.0} moves a game)");
        rates.push(r);
    }
    if let [rust, lua] = rates[..] {
        println!("Lua / Rust: {:.3} (goal: at least 0.1)", lua / rust);
    }

    printplay::scaffold::new_game_with_engine(&dir, "tutorial", "lua").unwrap();
    let tutorial = load_game(&dir, "tutorial").unwrap();
    let engine = LuaEngine::from_model(&tutorial).unwrap();
    for bots in ["random", "heuristic"] {
        let name = format!("tutorial (Lua), {bots} bots, simulator");
        if !wanted(&name) {
            continue;
        }
        let opts = SimOptions {
            bots: vec![bots.into()],
            ..SimOptions::default()
        };
        let config = config_for(&engine, &opts).unwrap();
        let (g, len) = rate(|i| {
            play_game(&engine, &config, &opts, i, |_, _| {})
                .unwrap()
                .moves
        });
        println!("{name:<34} {g:>10.0} games/s  ({len:.0} moves a game)");
    }
}
