//! Aether engine speed: full random games per second on one core, and the heuristic bot's rate.
//!
//! Run with `cargo bench --bench aether_engine`. Games are seeded, so every run plays the same
//! games; only the timing varies with the machine.

use std::path::Path;
use std::time::Instant;

use printplay::engine::{Bot, Config, Engine, State, Turn};
use printplay::games::aether::{AetherEngine, AetherState};
use printplay::model::load_game;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn chance<S: State>(s: &S, rng: &mut ChaCha8Rng) -> S::Action {
    let outcomes = s.chance_outcomes();
    let mut x: f64 = rng.random();
    for &(a, p) in &outcomes {
        if x < p {
            return a;
        }
        x -= p;
    }
    outcomes[outcomes.len() - 1].0
}

/// Plays one game; `bot` (if any) takes seat 0, uniform random moves elsewhere.
fn play(
    engine: &AetherEngine,
    config: &Config,
    seed: u64,
    mut bot: Option<&mut Box<dyn Bot<AetherState>>>,
) -> u32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = engine.new_game(config, &mut rng).expect("new game");
    loop {
        let action = match s.turn() {
            Turn::Terminal => return s.moves_played(),
            Turn::Chance => chance(&s, &mut rng),
            Turn::Player(0) if bot.is_some() => {
                let view = s.determinize(0, &mut rng);
                bot.as_mut().expect("bot").choose(&view, &mut rng)
            }
            Turn::Player(_) => {
                let legal = s.legal_actions();
                legal[rng.random_range(0..legal.len())]
            }
        };
        s.apply(action);
    }
}

fn measure(label: &str, games: u64, mut one: impl FnMut(u64) -> u32) {
    for seed in 0..games / 10 {
        std::hint::black_box(one(seed)); // warm-up
    }
    let mut moves = 0u64;
    let start = Instant::now();
    for seed in 0..games {
        moves += u64::from(one(seed));
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{label:<40} {games:>7} games in {secs:>6.2} s: {:>9.0} games/s, {:.1} moves/game",
        games as f64 / secs,
        moves as f64 / games as f64
    );
}

fn main() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let game = load_game(&data, "aether").unwrap_or_else(|p| panic!("{p:?}"));
    let engine = AetherEngine::from_model(&game).expect("engine");
    let config = |players: usize, setup: &str| Config {
        players,
        variants: [("setup".to_string(), setup.to_string())].into(),
    };
    for (players, setup, games) in [
        (2, "normal", 50_000),
        (2, "long", 30_000),
        (3, "normal", 30_000),
        (4, "normal", 30_000),
        (4, "long", 30_000),
    ] {
        let c = config(players, setup);
        measure(
            &format!("random, {players} players, {setup} setup"),
            games,
            |seed| play(&engine, &c, seed, None),
        );
    }
    let mut bot = engine.bot("heuristic").expect("heuristic bot");
    let c = config(2, "normal");
    measure("heuristic (seat 0) vs random, 2 players", 2_000, |seed| {
        play(&engine, &c, seed, Some(&mut bot))
    });
}
