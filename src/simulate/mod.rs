//! The simulator: many games between bots, in parallel, with results that depend only on
//! the master seed and each game's index (never on the thread count).
//!
//! It is generic over [`Engine`]; [`crate::engine::registry::with_engine`] picks the engine a
//! game's `engine` id names.

pub mod bots;
pub mod cards;
mod clustered;
pub mod design_params;
pub mod html;
pub mod ladder;
mod pages;
pub mod persons;
mod replay;
mod report;
mod rows;
pub mod shard;
pub mod stats;
mod svg;
pub mod sweep;
mod tally;
pub mod tune;
mod variants;

use std::collections::BTreeMap;
use std::io::IsTerminal;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::engine::registry::{EngineRun, run_engine, seat_names};
pub use crate::engine::{Cause, RunError};
use crate::engine::{Config, Engine, State, Turn};
use crate::model::Game;

pub use bots::{make_bot, spec_iterations};
pub use replay::{Observer, Replay, replay, variants_in_effect, variants_line};
pub use report::{
    BotNote, EXPLANATION, Reading, RestsOn, RunReport, SimFile, Summary, merge_files,
};
pub use shard::{SHARDS_VAR, Shard, shard_files};
pub use stats::{GameResult, Stats};
pub use svg::{charts, win_rates};
pub use tally::Tally;
pub use variants::{VariantInfo, check_choices, variants, variants_text};

/// Moves after which a game is stopped and counted as a timeout.
pub const DEFAULT_MAX_MOVES: u32 = 2000;
/// Games played one after another by a worker before it takes more.
const BLOCK: u64 = 64;

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
    /// Count the card designs each seat plays or acquires (`--cards`).
    pub cards: bool,
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
            cards: false,
        }
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

/// The bot spec of each seat in game `index` of the run `opts` describes.
pub fn seat_specs(opts: &SimOptions, players: usize, index: u64) -> Vec<String> {
    match opts.bots.as_slice() {
        [bot] => vec![bot.clone(); players],
        bots => seat_bots(bots, players, index),
    }
}

/// The configuration and seating a run uses, checked before any game is played.
pub fn config_for<E: Engine>(engine: &E, opts: &SimOptions) -> Result<Config, RunError> {
    let players = if opts.players == 0 {
        *engine.player_counts().start()
    } else {
        opts.players
    };
    if !engine.player_counts().contains(&players) {
        return Err(RunError::usage(format!(
            "the game takes {}, not {players}",
            crate::engine::players_text(&engine.player_counts())
        )));
    }
    if opts.bots.is_empty() || (opts.bots.len() != 1 && opts.bots.len() != players) {
        return Err(RunError::usage(format!(
            "give one bot for every seat or {players} bots, not {}",
            opts.bots.len()
        )));
    }
    for spec in &opts.bots {
        make_bot(engine, spec)?;
    }
    let config = Config {
        players,
        variants: opts.variants.clone(),
    };
    engine.start(&config, &mut game_rng(opts.seed, 0))?;
    Ok(config)
}

/// [`config_for`], after checking the variants chosen against the engine's: an unknown one is
/// an error that lists them all, with their values and the ambiguity each settles.
pub fn checked_config<E: Engine>(
    engine: &E,
    game: &Game,
    opts: &SimOptions,
) -> Result<Config, RunError> {
    variants::check_choices(game, engine.variants(), &opts.variants)?;
    config_for(engine, opts)
}

/// Plays game `index` to its end (or the move cap), calling `watch` with the state before
/// each move or chance outcome. Bots only see a determinized copy for their seat.
pub fn play_game<E: Engine>(
    engine: &E,
    config: &Config,
    opts: &SimOptions,
    index: u64,
    mut watch: impl FnMut(&E::State, <E::State as State>::Action),
) -> Result<GameResult, RunError> {
    play_steps(engine, config, opts, index, |step| {
        if let Step::Move(state, action) = step {
            watch(state, action);
        }
    })
}

/// What [`play_watched`] shows its watcher.
pub enum Step<'a, S: State> {
    /// The state before a move or chance outcome, and that action.
    Move(&'a S, S::Action),
    /// The state the game ended in (or stopped at the move cap).
    End(&'a S),
}

/// [`play_game`], showing `watch` every move and the final state; the error in words alone
/// (for a harness that keeps no cause: [`play_steps`] keeps it).
pub fn play_watched<E: Engine>(
    engine: &E,
    config: &Config,
    opts: &SimOptions,
    index: u64,
    watch: impl FnMut(Step<'_, E::State>),
) -> Result<GameResult, String> {
    play_steps(engine, config, opts, index, watch).map_err(String::from)
}

/// [`play_watched`], the error with its cause.
pub fn play_steps<E: Engine>(
    engine: &E,
    config: &Config,
    opts: &SimOptions,
    index: u64,
    mut watch: impl FnMut(Step<'_, E::State>),
) -> Result<GameResult, RunError> {
    let mut rng = game_rng(opts.seed, index);
    let mut state = engine.start(config, &mut rng)?;
    let seats = seat_specs(opts, config.players, index);
    let mut bots = seats
        .iter()
        .map(|spec| make_bot(engine, spec))
        .collect::<Result<Vec<_>, _>>()?;
    let needs_view: Vec<bool> = bots.iter().map(|bot| bot.needs_view()).collect();
    let mut actions = KindCounts::new();
    let mut cards = opts.cards.then(cards::GameCards::default);
    let timeout = loop {
        let action = match state.turn() {
            Turn::Terminal => break false,
            _ if state.moves_played() >= opts.max_moves => break true,
            Turn::Chance => state.sample_chance(&mut rng),
            Turn::Player(p) if needs_view[p] => {
                let view = state.determinize(p, &mut rng);
                let action = bots[p].choose(&view, &mut rng);
                actions.add(state.action_kind(action));
                if let Some(cards) = &mut cards {
                    cards.add_move(p, |out| state.cards_of(action, out));
                }
                action
            }
            Turn::Player(p) => {
                state.skip_determinize(p, &mut rng);
                let action = bots[p].choose(&state, &mut rng);
                actions.add(state.action_kind(action));
                if let Some(cards) = &mut cards {
                    cards.add_move(p, |out| state.cards_of(action, out));
                }
                action
            }
        };
        watch(Step::Move(&state, action));
        state.apply(action);
    };
    watch(Step::End(&state));
    let returns = if timeout {
        vec![0.0; config.players]
    } else {
        state.returns()
    };
    let result = GameResult {
        returns,
        seat_bots: seats,
        moves: state.moves_played(),
        turns: state.turns_played(),
        timeout,
        end_reason: state.end_reason(),
        end_stats: if timeout {
            Vec::new()
        } else {
            state.end_stats()
        },
        actions: actions.counts(),
        cards,
    };
    // The script's failure and a `cards_of` that broke its contract are the game's own.
    let broken = result.cards.as_ref().and_then(|c| c.error.clone());
    match state.failure().or(broken) {
        Some(e) => Err(RunError::data(format!("game {}: {e}", index + 1))),
        None => Ok(result),
    }
}

/// Moves counted by kind during a game. Kinds are the engine's string constants, so a kind
/// is found by its address in a small open-addressed table; the same text at another address
/// only makes a second entry, which [`Stats::add`] adds up by text.
struct KindCounts {
    /// Each kind met with its count, at the slot its address hashes to (or the next free
    /// one); a count of 0 marks a free slot.
    slots: [(&'static str, u64); KIND_SLOTS],
    /// Slots taken.
    used: usize,
    /// Kinds met once the table is full.
    overflow: Vec<(&'static str, u64)>,
}

const KIND_SLOTS: usize = 32;

impl KindCounts {
    fn new() -> Self {
        KindCounts {
            slots: [("", 0); KIND_SLOTS],
            used: 0,
            overflow: Vec::new(),
        }
    }

    #[inline]
    fn add(&mut self, kind: &'static str) {
        let hash = (kind.as_ptr() as usize).wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as usize);
        let mut slot = hash >> (usize::BITS - KIND_SLOTS.trailing_zeros());
        for _ in 0..KIND_SLOTS {
            let (k, n) = &mut self.slots[slot];
            if *n == 0 {
                *k = kind;
                *n = 1;
                self.used += 1;
                return;
            }
            if std::ptr::eq(*k, kind) {
                *n += 1;
                return;
            }
            slot = (slot + 1) % KIND_SLOTS;
        }
        match self
            .overflow
            .iter_mut()
            .find(|(k, _)| std::ptr::eq(*k, kind))
        {
            Some((_, n)) => *n += 1,
            None => self.overflow.push((kind, 1)),
        }
    }

    /// Every kind met, with its count.
    fn counts(self) -> Vec<(&'static str, u64)> {
        let mut counts = Vec::with_capacity(self.used + self.overflow.len());
        counts.extend(self.slots.iter().filter(|(_, n)| *n > 0));
        counts.extend(self.overflow);
        counts
    }
}

/// Plays this shard's games in parallel and adds up their statistics.
pub fn run_games<E: Engine>(engine: &E, opts: &SimOptions) -> Result<Stats, RunError> {
    let bar = Progress::new(opts.progress, opts.shard.len(opts.games));
    let stats = run_games_kept(engine, opts, false, &bar)?.0;
    bar.finish();
    Ok(stats)
}

/// [`run_games`], also keeping every game's result (for `--csv`) when `keep` is set, in game
/// order; each game played moves `bar` on.
pub fn run_games_kept<E: Engine>(
    engine: &E,
    opts: &SimOptions,
    keep: bool,
    bar: &Progress,
) -> Result<(Stats, Vec<(u64, GameResult)>), RunError> {
    let config = config_for(engine, opts)?;
    let indices: Vec<u64> = opts.shard.games(opts.games).collect::<Vec<_>>();
    let blocks = indices
        .par_chunks(BLOCK as usize)
        .map(|block| {
            let mut tally = Tally::default();
            let mut kept = Vec::new();
            for &i in block {
                let result = play_game(engine, &config, opts, i, |_, _| {})?;
                tally.add(&result);
                if keep {
                    kept.push((i, result));
                }
                bar.game_played();
            }
            Ok::<_, RunError>((tally.into_stats(), kept))
        })
        .collect::<Result<Vec<_>, RunError>>()?;
    let mut stats = Stats::default();
    let mut kept = Vec::new();
    for (s, k) in blocks {
        stats.merge(&s);
        kept.extend(k);
    }
    Ok((stats, kept))
}

/// Plays the games of the given indices in parallel and adds up their statistics (the same
/// totals on any thread count); each game played moves `bar` on.
pub fn run_indices<E: Engine>(
    engine: &E,
    opts: &SimOptions,
    indices: &[u64],
    bar: &Progress,
) -> Result<Stats, RunError> {
    let config = config_for(engine, opts)?;
    let blocks = indices
        .par_chunks(BLOCK as usize)
        .map(|block| {
            let mut tally = Tally::default();
            for &i in block {
                tally.add(&play_game(engine, &config, opts, i, |_, _| {})?);
                bar.game_played();
            }
            Ok::<_, RunError>(tally.into_stats())
        })
        .collect::<Result<Vec<_>, RunError>>()?;
    Ok(blocks.into_iter().fold(Stats::default(), Stats::merged))
}

/// The progress bar of a whole command: one bar for every game it will play (both readings
/// of a `--compare`, every value of a sweep, every round of `tune`), with what is being played
/// in its message. Shown on standard error when it is a terminal, from the command's second
/// second (short runs finish without a bar flashing by); otherwise nothing.
#[derive(Debug, Clone, Default)]
pub struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    /// A bar for `total` games when `wanted` and standard error is a terminal.
    pub fn new(wanted: bool, total: u64) -> Progress {
        Progress((wanted && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(total),
                indicatif::ProgressDrawTarget::hidden(),
            );
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games{msg}, {elapsed} so far, about {eta} left",
                )
                .expect("a valid progress template"),
            );
            bar
        }))
    }

    /// Says what the games being played now are (`at` is shown after the count: "at x=3").
    pub fn playing(&self, at: &str) {
        if let Some(bar) = &self.0 {
            bar.set_message(format!(" {at}"));
        }
    }

    fn game_played(&self) {
        if let Some(bar) = &self.0 {
            if bar.is_hidden() && bar.elapsed() > std::time::Duration::from_secs(1) {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            bar.inc(1);
        }
    }

    /// Takes the bar off the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// A whole `printplay simulate` run: one reading, or two with `compare = (variant, [a, b])`.
pub fn simulate(
    game: &Game,
    opts: &SimOptions,
    compare: Option<(String, Vec<String>)>,
) -> Result<SimFile, RunError> {
    Ok(simulate_with_rows(game, opts, compare, false)?.0)
}

/// [`simulate`], also giving one CSV row per game when `rows` is set.
pub fn simulate_with_rows(
    game: &Game,
    opts: &SimOptions,
    compare: Option<(String, Vec<String>)>,
    rows: bool,
) -> Result<(SimFile, Option<Vec<u8>>), RunError> {
    struct Task<'a> {
        opts: &'a SimOptions,
        compare: Option<(String, Vec<String>)>,
        rows: bool,
    }
    impl EngineRun for Task<'_> {
        type Output = (SimFile, Option<Vec<u8>>);
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Self::Output, RunError> {
            let readings = match &self.compare {
                None => vec![(None, self.opts.clone())],
                Some((name, values)) => values
                    .iter()
                    .map(|v| {
                        let mut o = self.opts.clone();
                        o.variants.insert(name.clone(), v.clone());
                        (Some(v.as_str()), o)
                    })
                    .collect(),
            };
            let games_each = self.opts.shard.len(self.opts.games);
            let bar = Progress::new(self.opts.progress, games_each * readings.len() as u64);
            let played = (|| {
                let mut played = Vec::new();
                for (reading, opts) in &readings {
                    let config = checked_config(&engine, game, opts)?;
                    if let (Some((name, _)), Some(value)) = (&self.compare, reading) {
                        bar.playing(&format!("at {name}={value}"));
                    }
                    played.push((config, run_games_kept(&engine, opts, self.rows, &bar)?));
                }
                Ok::<_, RunError>(played)
            })();
            bar.finish();
            let mut runs = Vec::new();
            let mut kept = Vec::new();
            for ((_, opts), (config, (stats, games))) in readings.iter().zip(played?) {
                cards::check_ids(&stats, game)?;
                let names = seat_names(&engine, game, config.players);
                let rests_on = rests_on(&engine, game, opts);
                runs.push(RunReport::new(game, opts, names, rests_on, stats));
                kept.push(games);
            }
            let csv = if self.rows {
                let rows: Vec<rows::ReadingRows<'_>> = readings
                    .iter()
                    .zip(&kept)
                    .map(|((reading, _), games)| rows::ReadingRows {
                        reading: *reading,
                        games,
                    })
                    .collect();
                Some(rows::csv(&runs[0].seat_names, &rows)?)
            } else {
                None
            };
            Ok((SimFile::new(self.compare.map(|c| c.0), runs), csv))
        }
    }
    let task = Task {
        opts,
        compare,
        rows,
    };
    run_engine(game, task)
}

/// `simulate --sweep`: the same games (the same seeds) at every value of one or two swept
/// names, each a `[params.*]` value of the data or a rule variant (a grid for two).
pub fn simulate_sweep(
    game: &Game,
    opts: &SimOptions,
    sweeps: &[sweep::Sweep],
) -> Result<SimFile, RunError> {
    struct Task<'a> {
        opts: &'a SimOptions,
        params: BTreeMap<String, String>,
        bar: &'a Progress,
    }
    impl EngineRun for Task<'_> {
        type Output = RunReport;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<RunReport, RunError> {
            let config = checked_config(&engine, game, self.opts)?;
            let stats = run_games_kept(&engine, self.opts, false, self.bar)?.0;
            cards::check_ids(&stats, game)?;
            let names = seat_names(&engine, game, config.players);
            let rests_on = rests_on(&engine, game, self.opts);
            let mut run = RunReport::new(game, self.opts, names, rests_on, stats);
            run.params = self.params;
            Ok(run)
        }
    }
    let mut names: Vec<String> = Vec::new();
    for s in sweeps {
        if names.contains(&s.name) {
            return Err(format!("--sweep {} is given twice", s.name).into());
        }
        if opts.variants.contains_key(&s.name) {
            return Err(RunError::usage(format!(
                "--sweep {0} and --variant {0} both set it; leave one out",
                s.name
            )));
        }
        names.push(s.name.clone());
    }
    // Every point's game is made (and, with a design's field set, checked again) before any
    // game is played: a value the check refuses stops the sweep before it starts.
    let variant_names: Vec<String> = variants::variants(game)?
        .into_iter()
        .map(|v| v.name)
        .collect();
    let kinds = names
        .iter()
        .map(|n| design_params::swept(game, &variant_names, n).map(|k| (n.clone(), k)))
        .collect::<Result<BTreeMap<String, design_params::Swept>, String>>()?;
    let mut prepared = Vec::new();
    for point in sweep::grid(sweeps) {
        let mut g = game.clone();
        let mut o = opts.clone();
        let mut params = BTreeMap::new();
        let mut fields = Vec::new();
        for (name, value) in &point {
            match kinds[name] {
                design_params::Swept::Param => {
                    g = sweep::with_param(&g, name, value)?;
                    params.insert(name.clone(), value.clone());
                }
                design_params::Swept::Field => {
                    g = design_params::with_field(&g, name, value)?;
                    params.insert(name.clone(), value.clone());
                    fields.push((name.clone(), value.clone()));
                }
                design_params::Swept::Variant => {
                    o.variants.insert(name.clone(), value.clone());
                }
            }
        }
        prepared.push((fields, g, o, params, point));
    }
    prepared
        .par_iter()
        .map(|(fields, g, _, _, _)| design_params::recheck(g, fields))
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Result<Vec<()>, RunError>>()?;
    let bar = Progress::new(
        opts.progress,
        opts.shard.len(opts.games) * prepared.len() as u64,
    );
    let runs = (|| {
        let mut runs = Vec::new();
        for (_, g, o, params, point) in prepared {
            let at: Vec<String> = point.iter().map(|(n, v)| format!("{n}={v}")).collect();
            bar.playing(&format!("at {}", at.join(", ")));
            runs.push(run_engine(
                &g,
                Task {
                    opts: &o,
                    params,
                    bar: &bar,
                },
            )?);
        }
        Ok::<_, RunError>(runs)
    })();
    bar.finish();
    Ok(SimFile::swept(names, runs?))
}

/// What a run's figures rest on: the data's unprinted values, the reading of every variant
/// and what each bot is.
fn rests_on<E: Engine>(engine: &E, game: &Game, opts: &SimOptions) -> RestsOn {
    let provenance = game.unprinted();
    let reconstructed = provenance
        .iter()
        .filter(|p| p.source.is_reconstructed())
        .count();
    let config = Config {
        players: 0,
        variants: opts.variants.clone(),
    };
    let readings = engine
        .variants()
        .iter()
        .map(|v| {
            let value = config.variant(v).to_string();
            Reading {
                variant: v.name.to_string(),
                default: value == v.values[0],
                value,
            }
        })
        .collect();
    let mut specs: Vec<String> = Vec::new();
    for bot in &opts.bots {
        if !specs.contains(bot) {
            specs.push(bot.clone());
        }
    }
    let bots = specs
        .into_iter()
        .map(|bot| BotNote {
            plays: bots::describe(&bot),
            bot,
        })
        .collect();
    RestsOn {
        reconstructed_values: reconstructed,
        inferred_values: provenance.len() - reconstructed,
        original: game.is_original(),
        readings,
        bots,
    }
}
