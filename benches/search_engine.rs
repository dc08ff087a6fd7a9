//! Full random games of The Search per second on one core (`cargo bench --bench search_engine`).
//! Also reports the heuristic bots' rate and how the games ended.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use printplay::engine::{Config, Engine, Player, State, Turn};
use printplay::games::the_search::SearchEngine;
use printplay::model::load_game;
use printplay::simulate::DEFAULT_MAX_MOVES;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let game = load_game(&data, "the-search").expect("the-search loads");
    let engine = SearchEngine::from_model(&game).expect("engine");
    let config = Config {
        players: 2,
        ..Config::default()
    };
    let (_, setup) = timed(|| {
        for seed in 0..10_000u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            std::hint::black_box(engine.new_game(&config, &mut rng).expect("new game"));
        }
    });
    println!(
        "the-search setup alone: {:.0} new games/s of CPU time",
        10_000.0 / setup
    );
    // A number on the command line sets the count of random games (default 200 000).
    let games = std::env::args()
        .find_map(|a| a.parse().ok())
        .unwrap_or(200_000);
    random_games(&engine, &config, games);
    // `cargo bench --bench search_engine -- random` skips the bot games (for profiling).
    if !std::env::args().any(|a| a == "random") {
        heuristic_games(&engine, &config, 5_000);
    }
}

/// Nanoseconds this thread has spent on a CPU (Linux), so that a busy shared machine does not
/// count other processes' time; falls back to wall time elsewhere.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Runs `f` and returns (wall seconds, CPU seconds).
fn timed(f: impl FnOnce()) -> (f64, f64) {
    let (start, cpu) = (Instant::now(), cpu_ns());
    f();
    let wall = start.elapsed().as_secs_f64();
    let cpu = match (cpu, cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e9,
        _ => wall,
    };
    (wall, cpu)
}

fn report(what: &str, games: u64, moves: u64, (wall, cpu): (f64, f64)) {
    println!(
        "the-search {what}: {games} games, {:.1} moves per game; {:.0} games/s of CPU time on one core ({:.0} games/s wall clock)",
        moves as f64 / games as f64,
        games as f64 / cpu,
        games as f64 / wall
    );
}

fn random_games(engine: &SearchEngine, config: &Config, games: u64) {
    play_games(engine, config, games, "random play", |s, _, rng| {
        s.random_action(rng)
    });
}

fn heuristic_games(engine: &SearchEngine, config: &Config, games: u64) {
    let mut bots = [
        engine.bot("heuristic").expect("bot"),
        engine.bot("heuristic").expect("bot"),
    ];
    play_games(
        engine,
        config,
        games,
        "heuristic vs heuristic",
        |s, p, rng| {
            let view = s.determinize(p, rng);
            bots[p].choose(&view, rng)
        },
    );
}

/// Plays `games` seeded games, each move chosen by `choose(state, seat, rng)`, stopping at the
/// simulator's move cap; prints the rate and how the games ended.
fn play_games<S: State>(
    engine: &impl Engine<State = S>,
    config: &Config,
    games: u64,
    what: &str,
    mut choose: impl FnMut(&S, Player, &mut ChaCha8Rng) -> S::Action,
) {
    let mut reasons: BTreeMap<&str, u64> = BTreeMap::new();
    let mut moves = 0u64;
    let time = timed(|| {
        for seed in 0..games {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut s = engine.new_game(config, &mut rng).expect("new game");
            while let Turn::Player(p) = s.turn() {
                if s.moves_played() > DEFAULT_MAX_MOVES {
                    break;
                }
                let a = choose(&s, p, &mut rng);
                s.apply(a);
            }
            moves += u64::from(s.moves_played());
            *reasons
                .entry(s.end_reason().unwrap_or("move cap"))
                .or_default() += 1;
        }
    });
    report(what, games, moves, time);
    println!("  end reasons: {reasons:?}");
}
