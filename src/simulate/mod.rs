//! The simulator: many games between bots, in parallel, with results that depend only on
//! the master seed and each game's index (never on the thread count).
//!
//! It is generic over [`Engine`]; [`with_engine`] picks the engine a game's `engine` id names.

pub mod bots;
mod report;
pub mod stats;
mod svg;

use std::collections::BTreeMap;
use std::io::IsTerminal;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::engine::lua::{self, LuaEngine};
use crate::engine::{Config, Engine, State, Turn};
use crate::games::aether::AetherEngine;
use crate::games::capek_golems::{self, CapekEngine};
use crate::games::settlers_aztecs::PrayEngine;
use crate::games::the_search::{self, SearchEngine};
use crate::model::Game;

pub use bots::make_bot;
pub use report::{RunReport, SimFile, merge_files};
pub use stats::{GameResult, Stats};
pub use svg::write_charts;

/// Moves after which a game is stopped and counted as a timeout.
pub const DEFAULT_MAX_MOVES: u32 = 2000;
/// Games played one after another by a worker before it takes more.
const BLOCK: u64 = 64;

/// Which slice of the games a run plays: games whose index is `index` modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N` with `0 <= I < N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard takes I/N with 0 <= I < N, not `{text}`");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The game indices of this shard among `games`.
    pub fn games(self, games: u64) -> impl Iterator<Item = u64> {
        (self.index..games).step_by(self.count as usize)
    }

    fn len(self, games: u64) -> u64 {
        games.saturating_sub(self.index).div_ceil(self.count)
    }
}

/// What to simulate.
#[derive(Debug, Clone)]
pub struct SimOptions {
    pub games: u64,
    pub seed: u64,
    /// Seat count; 0 means the game's smallest.
    pub players: usize,
    /// Bot specs, one per seat (or one for every seat).
    pub bots: Vec<String>,
    pub variants: BTreeMap<String, String>,
    pub shard: Shard,
    pub max_moves: u32,
    /// Show a progress bar when standard error is a terminal.
    pub progress: bool,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            games: 1000,
            seed: 0,
            players: 0,
            bots: vec!["random".into()],
            variants: BTreeMap::new(),
            shard: Shard::ALL,
            max_moves: DEFAULT_MAX_MOVES,
            progress: false,
        }
    }
}

/// Code that runs with whichever engine a game names.
pub trait EngineTask {
    type Output;
    fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Self::Output, String>;
}

/// Engine ids this build can play.
pub const ENGINES: &[&str] = &[
    capek_golems::ID,
    "aether",
    "imperial-settlers-aztecs",
    the_search::ENGINE_ID,
    lua::ENGINE_ID,
];

/// Builds the engine the game's `engine` id names and hands it to `task`.
pub fn with_engine<T: EngineTask>(game: &Game, task: T) -> Result<T::Output, String> {
    let id = game
        .info
        .engine
        .as_deref()
        .ok_or_else(|| format!("{} names no engine in game.toml", game.slug))?;
    match id {
        capek_golems::ID => task.run(CapekEngine::from_model(game)?, game),
        "aether" => task.run(AetherEngine::from_model(game)?, game),
        "imperial-settlers-aztecs" => task.run(PrayEngine::from_model(game)?, game),
        the_search::ENGINE_ID => task.run(SearchEngine::from_model(game)?, game),
        lua::ENGINE_ID => task.run(LuaEngine::from_model(game)?, game),
        other => Err(format!(
            "{}: no engine `{other}` in this build (known: {})",
            game.slug,
            ENGINES.join(", ")
        )),
    }
}

/// The random stream of one game: the master seed's ChaCha stream number `index`.
pub fn game_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// The bot spec playing each seat in game `index`: seats rotate through the bot list so that
/// every bot plays every seat equally often.
pub fn seat_bots(bots: &[String], players: usize, index: u64) -> Vec<String> {
    (0..players)
        .map(|seat| bots[(seat + index as usize) % bots.len()].clone())
        .collect()
}

/// The configuration and seating a run uses, checked before any game is played.
pub fn config_for<E: Engine>(engine: &E, opts: &SimOptions) -> Result<Config, String> {
    let players = if opts.players == 0 {
        *engine.player_counts().start()
    } else {
        opts.players
    };
    if !engine.player_counts().contains(&players) {
        return Err(format!(
            "the game takes {}-{} players, not {players}",
            engine.player_counts().start(),
            engine.player_counts().end()
        ));
    }
    if opts.bots.is_empty() || (opts.bots.len() != 1 && opts.bots.len() != players) {
        return Err(format!(
            "give one bot for every seat or {players} bots, not {}",
            opts.bots.len()
        ));
    }
    for spec in &opts.bots {
        make_bot(engine, spec)?;
    }
    let config = Config {
        players,
        variants: opts.variants.clone(),
    };
    engine.new_game(&config, &mut game_rng(opts.seed, 0))?;
    Ok(config)
}

/// Plays game `index` to its end (or the move cap), calling `watch` with the state before
/// each move or chance outcome. Bots only see a determinized copy for their seat.
pub fn play_game<E: Engine>(
    engine: &E,
    config: &Config,
    opts: &SimOptions,
    index: u64,
    mut watch: impl FnMut(&E::State, <E::State as State>::Action),
) -> Result<GameResult, String> {
    let mut rng = game_rng(opts.seed, index);
    let mut state = engine.new_game(config, &mut rng)?;
    let specs = if opts.bots.len() == 1 {
        vec![opts.bots[0].clone(); config.players]
    } else {
        opts.bots.clone()
    };
    let seats = seat_bots(&specs, config.players, index);
    let mut bots = seats
        .iter()
        .map(|spec| make_bot(engine, spec))
        .collect::<Result<Vec<_>, _>>()?;
    let mut actions: Vec<(&'static str, u64)> = Vec::new();
    let timeout = loop {
        let action = match state.turn() {
            Turn::Terminal => break false,
            _ if state.moves_played() >= opts.max_moves => break true,
            Turn::Chance => state.sample_chance(&mut rng),
            Turn::Player(p) => {
                let view = state.determinize(p, &mut rng);
                let action = bots[p].choose(&view, &mut rng);
                count(&mut actions, state.action_kind(action));
                action
            }
        };
        watch(&state, action);
        state.apply(action);
    };
    let returns = if timeout {
        vec![0.0; config.players]
    } else {
        state.returns()
    };
    let result = GameResult {
        returns,
        seat_bots: seats,
        moves: state.moves_played(),
        timeout,
        end_reason: state.end_reason(),
        end_stats: if timeout {
            Vec::new()
        } else {
            state.end_stats()
        },
        actions,
    };
    match state.failure() {
        Some(e) => Err(format!("game {index}: {e}")),
        None => Ok(result),
    }
}

fn count(counts: &mut Vec<(&'static str, u64)>, kind: &'static str) {
    match counts.iter_mut().find(|(k, _)| *k == kind) {
        Some((_, n)) => *n += 1,
        None => counts.push((kind, 1)),
    }
}

/// Plays this shard's games in parallel and adds up their statistics.
pub fn run_games<E: Engine>(engine: &E, opts: &SimOptions) -> Result<Stats, String> {
    let config = config_for(engine, opts)?;
    let total = opts.shard.len(opts.games);
    let bar = progress_bar(opts.progress, total);
    let indices: Vec<u64> = opts.shard.games(opts.games).collect::<Vec<_>>();
    let stats = indices
        .par_chunks(BLOCK as usize)
        .map(|block| {
            let mut stats = Stats::default();
            for &i in block {
                stats.add(&play_game(engine, &config, opts, i, |_, _| {})?);
            }
            if let Some(bar) = &bar {
                bar.inc(block.len() as u64);
            }
            Ok::<Stats, String>(stats)
        })
        .try_reduce(Stats::default, |a, b| Ok(a.merged(b)))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(stats)
}

fn progress_bar(wanted: bool, total: u64) -> Option<indicatif::ProgressBar> {
    (wanted && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games {eta}")
                .expect("a valid progress template"),
        );
        bar
    })
}

/// A whole `printplay simulate` run: one reading, or two with `compare = (variant, [a, b])`.
pub fn simulate(
    game: &Game,
    opts: &SimOptions,
    compare: Option<(String, Vec<String>)>,
) -> Result<SimFile, String> {
    struct Task<'a> {
        opts: &'a SimOptions,
        compare: Option<(String, Vec<String>)>,
    }
    impl EngineTask for Task<'_> {
        type Output = SimFile;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<SimFile, String> {
            let readings = match &self.compare {
                None => vec![self.opts.clone()],
                Some((name, values)) => values
                    .iter()
                    .map(|v| {
                        let mut o = self.opts.clone();
                        o.variants.insert(name.clone(), v.clone());
                        o
                    })
                    .collect(),
            };
            let mut runs = Vec::new();
            for opts in &readings {
                let stats = run_games(&engine, opts)?;
                let players = config_for(&engine, opts)?.players;
                runs.push(RunReport::new(game, opts, players, stats));
            }
            Ok(SimFile::new(self.compare.map(|c| c.0), runs))
        }
    }
    with_engine(game, Task { opts, compare })
}

/// `printplay replay`: game `index` move by move, in words (the same game the simulator
/// plays with these options).
pub fn replay(game: &Game, opts: &SimOptions, index: u64) -> Result<Vec<String>, String> {
    struct Task<'a> {
        opts: &'a SimOptions,
        index: u64,
    }
    impl EngineTask for Task<'_> {
        type Output = Vec<String>;
        fn run<E: Engine>(self, engine: E, _game: &Game) -> Result<Vec<String>, String> {
            let config = config_for(&engine, self.opts)?;
            let mut lines = Vec::new();
            let mut first = true;
            let mut last = None;
            let result = play_game(&engine, &config, self.opts, self.index, |s, a| {
                last = Some(s.clone());
                if first {
                    first = false;
                    for p in 0..s.num_players() {
                        lines.push(format!("-- setup as player {} sees it --", p + 1));
                        lines.extend(s.observation(p).lines().map(|l| format!("   {l}")));
                    }
                }
                let mark = if s.turn() == Turn::Chance { "  *" } else { "" };
                lines.push(format!(
                    "{:>4}{mark} {}",
                    s.moves_played() + 1,
                    s.action_name(a)
                ));
            })?;
            if let Some(s) = last {
                lines.push("-- before the last move, as player 1 sees it --".into());
                lines.extend(s.observation(0).lines().map(|l| format!("   {l}")));
            }
            lines.push(describe_end(&result));
            Ok(lines)
        }
    }
    with_engine(game, Task { opts, index })
}

fn describe_end(r: &GameResult) -> String {
    let seats: Vec<String> = r
        .returns
        .iter()
        .zip(&r.seat_bots)
        .enumerate()
        .map(|(i, (ret, bot))| format!("seat {} ({bot}) {ret}", i + 1))
        .collect();
    let how = if r.timeout {
        format!("stopped at the move cap after {} moves", r.moves)
    } else {
        format!(
            "ended after {} moves: {}",
            r.moves,
            r.end_reason.unwrap_or("game over")
        )
    };
    format!("{how}; results: {}", seats.join(", "))
}
