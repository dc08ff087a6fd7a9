//! Full games per second on one core, for every game whose engine this build knows:
//! uniform random moves straight on the engine, then the simulator's loop (bots see a
//! determinized copy) with the random and heuristic bots and MCTS (heuristic and random playouts),
//! each game's result added to the run's statistics as `simulate` adds it.
//!
//! `cargo bench --bench engines` (set BENCH_SECONDS to change the time per figure).
//! `cargo bench --bench engines -- the-search random` limits it to the games and bot lists
//! named; with `BENCH_GAMES=N` each figure plays exactly N games instead (for callgrind).

use std::path::Path;
use std::time::{Duration, Instant};

use printplay::engine::registry::{EngineTask, with_engine};
use printplay::engine::{Config, Engine, State, Turn};
use printplay::model::{Game, game_slugs, load_game};
use printplay::simulate::{SimOptions, Tally, config_for, game_rng, play_game};

fn budget() -> Duration {
    let secs = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(2.0);
    Duration::from_secs_f64(secs)
}

/// CPU time of this thread, in seconds (Linux: `/proc/thread-self/stat`, in the fixed
/// 100 Hz ticks of `/proc`); `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Games per second of `play` (which plays game `i`) over about `budget` of wall time:
/// per CPU second of this thread where the system says (a busy machine shares its cores),
/// else per wall second; and the mean moves per game.
fn rate(budget: Duration, mut play: impl FnMut(u64) -> u32) -> (f64, f64) {
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let (mut games, mut moves) = (0u64, 0u64);
    let fixed = fixed_games();
    while fixed.map_or(start.elapsed() < budget || games == 0, |n| games < n) {
        moves += play(games) as u64;
        games += 1;
    }
    let secs = match (cpu_start, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => start.elapsed().as_secs_f64(),
    };
    (games as f64 / secs, moves as f64 / games as f64)
}

/// `BENCH_GAMES`: a fixed number of games per figure instead of a time budget.
fn fixed_games() -> Option<u64> {
    std::env::var("BENCH_GAMES").ok()?.parse().ok()
}

/// The words after `--` that are not cargo's own `--bench`: game slugs and bot lists to keep.
fn filters() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect()
}

/// Whether `name` is wanted: no filter of its kind given, or named.
fn wanted(name: &str, known: &[&str]) -> bool {
    let f = filters();
    let mine: Vec<&String> = f.iter().filter(|a| known.contains(&a.as_str())).collect();
    mine.is_empty() || mine.iter().any(|a| *a == name)
}

/// The bot lists the simulator figures use, with the share of the time budget each gets.
const BOT_LISTS: [(&str, f64); 4] = [
    ("random", 1.0),
    ("heuristic", 1.0),
    ("mcts:200", 1.0),
    ("mcts:200:random", 0.5),
];

/// One game of uniform random moves on the engine alone.
fn random_game<E: Engine>(engine: &E, config: &Config, index: u64) -> u32 {
    let mut rng = game_rng(1, index);
    let mut s = engine.new_game(config, &mut rng).expect("a game starts");
    loop {
        let action = match s.turn() {
            Turn::Terminal => return s.moves_played(),
            _ if s.moves_played() >= printplay::simulate::DEFAULT_MAX_MOVES => {
                return s.moves_played();
            }
            Turn::Chance => s.sample_chance(&mut rng),
            Turn::Player(_) => s.random_action(&mut rng),
        };
        s.apply(action);
    }
}

struct Bench;

impl EngineTask for Bench {
    type Output = ();
    fn run<E: Engine>(self, engine: E, game: &Game) -> Result<(), String> {
        let base = SimOptions::default();
        let config = config_for(&engine, &base)?;
        let (r, len) = rate(budget(), |i| random_game(&engine, &config, i));
        println!(
            "{:<26} {:<22} {:>10.0} games/s  ({len:.0} moves a game)",
            game.slug, "random, engine alone", r
        );
        let lists: Vec<&str> = BOT_LISTS.iter().map(|(b, _)| *b).collect();
        for (bots, share) in BOT_LISTS {
            if !wanted(bots, &lists) {
                continue;
            }
            let opts = SimOptions {
                bots: vec![bots.into()],
                ..base.clone()
            };
            let budget = budget().mul_f64(share);
            let mut tally = Tally::default();
            let (r, len) = rate(budget, |i| {
                let result =
                    play_game(&engine, &config, &opts, i, |_, _| {}).expect("a game plays");
                tally.add(&result);
                result.moves
            });
            std::hint::black_box(tally.into_stats());
            println!(
                "{:<26} {:<22} {:>10.1} games/s  ({len:.0} moves a game)",
                game.slug,
                format!("{bots} bots, simulator"),
                r
            );
        }
        Ok(())
    }
}

fn main() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let slugs = game_slugs(&data).expect("the data folder lists its games");
    let clock = if cpu_seconds().is_some() {
        "CPU"
    } else {
        "wall"
    };
    println!(
        "one thread; about {:.1} s per figure; games per {clock} second",
        budget().as_secs_f64()
    );
    let slug_refs: Vec<&str> = slugs.iter().map(String::as_str).collect();
    for slug in &slugs {
        let Ok(game) = load_game(&data, slug) else {
            continue;
        };
        if game.info.engine.is_none() || !wanted(slug, &slug_refs) {
            continue;
        }
        if let Err(e) = with_engine(&game, Bench) {
            println!("{slug:<26} skipped: {e}");
        }
    }
}
