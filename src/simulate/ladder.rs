//! `printplay ladder`: how much skill decides a game. The same game is played by bots of
//! rising strength (by default `random`, the game's `heuristic`, and MCTS at 50, 200 and 800
//! iterations), every stronger bot against every weaker one on the same seeds, the stronger
//! in one seat and the weaker in all the others, the seats taking turns game by game. Each
//! pairing gives how often the stronger bot wins, and the strongest against the weakest gives
//! one figure of skill against luck:
//!
//! `skill = (w - c) / (1 - c)`
//!
//! where `w` is the strongest bot's share of the wins (ties shared) against the weakest and
//! `c = 1 / players` the share a seat would win were the winner drawn by lot. 0: the strongest
//! bot does no better than chance (luck decides); 1: it wins every game (skill decides). It is
//! the relative skill of Dreef, Borm and van der Genugten ("Measuring skill in games: several
//! approaches discussed", Mathematical Methods of Operations Research 59 (2004) 375-391;
//! Borm and van der Genugten, TOP 9 (2001) 91-114), `learning effect / (learning effect +
//! random effect)`, with the weakest bot as their beginner (who wins the chance share), the
//! strongest as their optimal player, and their fictive player (the optimal player who knows
//! every chance outcome in advance) taken to win every game: a fictive player who wins less
//! only makes the true figure larger, so this one is a lower bound.
//!
//! The game is the unit: every interval takes its variance over games (`clustered.rs`), a
//! game stopped at the move cap counts as a win for nobody (and is counted), and every figure
//! says how many games it rests on. Games are seeded by the master seed and their index, as in
//! `simulate`, so the ladder is the same on any thread count.

use std::fmt::Write;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::clustered::{Cells, PairMap, PairSums, add_game};
use super::report::{BotNote, percent};
use super::stats::{POINT, wilson};
use super::{
    EngineTask, Progress, SimOptions, checked_config, play_game, seat_bots, with_engine,
};
use crate::engine::Engine;
use crate::model::Game;

/// The JSON format's name and version.
pub const FORMAT: &str = "printplay-ladder/1";

/// The bots of a ladder unless `--levels` names others, weakest first.
pub const DEFAULT_LEVELS: &[&str] = &["random", "heuristic", "mcts:50", "mcts:200", "mcts:800"];

/// The most levels one ladder climbs (every pair of them plays its games).
pub const MAX_LEVELS: usize = 8;

/// The most games one pairing plays.
pub const MAX_GAMES: u64 = 1_000_000;

/// What to play.
#[derive(Debug, Clone)]
pub struct LadderOptions {
    /// Seed, seats, variants and move cap; `games` is the games of each pairing, `bots` is
    /// not read.
    pub sim: SimOptions,
    /// The bot specs, weakest first.
    pub levels: Vec<String>,
}

/// A share of the wins with its 95 % interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Share {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// One pairing: the stronger bot in one seat, the weaker in every other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pairing {
    pub stronger: String,
    pub weaker: String,
    /// Games played.
    pub games: u64,
    /// Games stopped at the move cap (a win for nobody), among `games`.
    pub stopped: u64,
    /// The stronger bot's share of the wins (a tie's share counted), with its interval.
    pub stronger_wins: Share,
    /// The share a seat would win by lot: 1 / players.
    pub chance: f64,
    /// Whether the interval lies wholly above chance.
    pub beats_chance: bool,
}

/// The figure of skill against luck.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// The pairing it comes from (the strongest level against the weakest).
    pub stronger: String,
    pub weaker: String,
    pub games: u64,
    pub stopped: u64,
    /// `(w - c) / (1 - c)`, with the interval of `w` carried over.
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// What `printplay ladder` reports (and writes with `--json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    pub format: String,
    pub game: String,
    pub seed: u64,
    pub players: usize,
    /// Games of each pairing.
    pub games: u64,
    pub max_moves: u32,
    pub variants: std::collections::BTreeMap<String, String>,
    /// The levels, weakest first, and what each is.
    pub levels: Vec<BotNote>,
    /// Every stronger level against every weaker one, the strongest first.
    pub pairings: Vec<Pairing>,
    pub skill: Skill,
}

/// One pairing's totals: the stronger bot's seats in cell 0, and the stopped games.
#[derive(Default)]
struct Tally {
    pairs: PairMap,
    games: u64,
    stopped: u64,
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        super::clustered::add_pairs(
            &mut self.pairs,
            &o.pairs.into_values().collect::<Vec<_>>(),
            |c| c,
        );
        self.games += o.games;
        self.stopped += o.stopped;
        self
    }
}

/// The stronger bot's share of the wins over `t`'s games, its interval from the variance
/// over games: Wilson's interval on the sample size that variance is worth.
fn share(t: &Tally) -> Share {
    let all: Vec<PairSums> = t.pairs.values().cloned().collect();
    let cells = Cells::of(&all, &[], 1, t.games);
    let (n, points) = (cells.n[0], cells.points[0]);
    if n <= 0.0 {
        return Share {
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let rate = points / n;
    let alpha = [1.0 / n, 0.0];
    let centre = [rate, 0.0];
    let clustered = cells.variance(&alpha, &centre);
    let independent = cells.independent_variance(&alpha, &centre);
    // The design effect: how many seats' worth of information a game's seats hold.
    let effect = if independent > 0.0 {
        (clustered / independent).max(1.0 / n)
    } else {
        1.0
    };
    let n_eff = n / effect;
    let (low, high) = wilson(rate * n_eff, n_eff);
    Share { rate, low, high }
}

/// Plays one pairing's games in parallel (each game's stream fixed by its index).
fn play_pairing<E: Engine>(
    engine: &E,
    game: &Game,
    opts: &SimOptions,
    stronger: &str,
    weaker: &str,
    bar: &Progress,
) -> Result<(usize, Tally), String> {
    let players = checked_config(
        engine,
        game,
        &SimOptions {
            bots: vec![stronger.to_string()],
            ..opts.clone()
        },
    )?
    .players;
    if players < 2 {
        return Err("a ladder needs two seats or more: give --players 2 or more".into());
    }
    // The stronger bot in one seat, the weaker in the others, rotating with the game.
    let mut seats = vec![weaker.to_string(); players];
    seats[0] = stronger.to_string();
    let o = SimOptions {
        bots: seats.clone(),
        ..opts.clone()
    };
    let config = checked_config(engine, game, &o)?;
    let indices: Vec<u64> = (0..opts.games).collect();
    let tallies = indices
        .par_chunks(64)
        .map(|block| {
            let mut t = Tally::default();
            for &i in block {
                let result = play_game(engine, &config, &o, i, |_, _| {})?;
                let placed = seat_bots(&seats, players, i);
                let strong: Vec<(u32, u64)> = placed
                    .iter()
                    .zip(&result.returns)
                    .filter(|(bot, _)| bot.as_str() == stronger)
                    .map(|(_, r)| (0, (r.clamp(0.0, 1.0) * POINT).round() as u64))
                    .collect();
                add_game(&mut t.pairs, &strong);
                t.games += 1;
                t.stopped += u64::from(result.timeout);
                bar.game_played();
            }
            Ok::<_, String>(t)
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok((
        players,
        tallies.into_iter().fold(Tally::default(), Tally::merge),
    ))
}

/// Checks the options: two to [`MAX_LEVELS`] distinct levels, 1 to [`MAX_GAMES`] games.
fn check_options(o: &LadderOptions) -> Result<(), String> {
    if o.levels.len() < 2 || o.levels.len() > MAX_LEVELS {
        return Err(format!(
            "--levels names 2 to {MAX_LEVELS} bots, weakest first, not {}",
            o.levels.len()
        ));
    }
    for (i, l) in o.levels.iter().enumerate() {
        if o.levels[..i].contains(l) {
            return Err(format!("--levels names `{l}` twice"));
        }
    }
    if o.sim.games == 0 || o.sim.games > MAX_GAMES {
        return Err(format!(
            "--games takes 1 to {MAX_GAMES} games a pairing, not {}",
            o.sim.games
        ));
    }
    Ok(())
}

/// Plays the ladder.
pub fn ladder(game: &Game, o: &LadderOptions) -> Result<Ladder, String> {
    check_options(o)?;
    struct Task<'a>(&'a LadderOptions);
    impl EngineTask for Task<'_> {
        type Output = Ladder;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Ladder, String> {
            let o = self.0;
            let levels = &o.levels;
            // Every level must be a bot this game has, before any game is played.
            for l in levels {
                super::make_bot(&engine, l)?;
            }
            let k = levels.len();
            let mut pairs: Vec<(usize, usize)> = Vec::new();
            for s in (1..k).rev() {
                for w in (0..s).rev() {
                    pairs.push((s, w));
                }
            }
            let bar = Progress::new(o.sim.progress, o.sim.games * pairs.len() as u64);
            let played = (|| {
                let mut out = Vec::new();
                for &(s, w) in &pairs {
                    bar.playing(&format!("({} against {})", levels[s], levels[w]));
                    out.push(play_pairing(
                        &engine, game, &o.sim, &levels[s], &levels[w], &bar,
                    )?);
                }
                Ok::<_, String>(out)
            })();
            bar.finish();
            let played = played?;
            let players = played.first().map_or(2, |p| p.0);
            let chance = 1.0 / players as f64;
            let pairings: Vec<Pairing> = pairs
                .iter()
                .zip(&played)
                .map(|(&(s, w), (_, t))| {
                    let sh = share(t);
                    Pairing {
                        stronger: levels[s].clone(),
                        weaker: levels[w].clone(),
                        games: t.games,
                        stopped: t.stopped,
                        beats_chance: sh.low > chance,
                        stronger_wins: sh,
                        chance,
                    }
                })
                .collect();
            // The strongest against the weakest: the first pairing of the strongest level
            // that meets level 0.
            let top = pairings
                .iter()
                .find(|p| p.stronger == levels[k - 1] && p.weaker == levels[0])
                .expect("every pair is played");
            let norm = |x: f64| (x - chance) / (1.0 - chance);
            let skill = Skill {
                stronger: top.stronger.clone(),
                weaker: top.weaker.clone(),
                games: top.games,
                stopped: top.stopped,
                value: norm(top.stronger_wins.rate),
                low: norm(top.stronger_wins.low),
                high: norm(top.stronger_wins.high),
            };
            Ok(Ladder {
                format: FORMAT.to_string(),
                game: game.slug.clone(),
                seed: o.sim.seed,
                players,
                games: o.sim.games,
                max_moves: o.sim.max_moves,
                variants: o.sim.variants.clone(),
                levels: levels
                    .iter()
                    .map(|l| BotNote {
                        bot: l.clone(),
                        plays: super::bots::describe(l),
                    })
                    .collect(),
                pairings,
                skill,
            })
        }
    }
    with_engine(game, Task(o))
}

impl Ladder {
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a ladder serializes");
        s.push('\n');
        s
    }

    /// The ladder in words.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: skill ladder, {} players, seed {}, {} games a pairing (the stronger bot in one \
             seat, the weaker in the others, the seats taking turns), move cap {}",
            self.game, self.players, self.seed, self.games, self.max_moves
        );
        for (name, value) in &self.variants {
            let _ = writeln!(out, "  variant {name}={value}");
        }
        let width = self
            .pairings
            .iter()
            .map(|p| p.stronger.len() + p.weaker.len() + 9)
            .max()
            .unwrap_or(0)
            .max(20);
        let _ = writeln!(
            out,
            "\n{:<width$}  {:>7}  {:>7}  {:>13}  95 % interval (by game)",
            "stronger against weaker", "games", "stopped", "stronger wins"
        );
        for p in &self.pairings {
            let label = format!("{} against {}", p.stronger, p.weaker);
            let _ = writeln!(
                out,
                "{label:<width$}  {:>7}  {:>7}  {:>11.1} %  {:.1} - {:.1} %{}",
                p.games,
                p.stopped,
                percent(p.stronger_wins.rate),
                percent(p.stronger_wins.low),
                percent(p.stronger_wins.high),
                if p.beats_chance { "" } else { "  (not above chance)" }
            );
        }
        let s = &self.skill;
        let _ = writeln!(
            out,
            "\nchance: {:.1} % (one seat of {}, the winner drawn by lot)",
            percent(1.0 / self.players as f64),
            self.players
        );
        let _ = writeln!(
            out,
            "skill against luck: {:.2} (95 % interval {:.2} to {:.2}), from {} against {} over \
             {} games ({} stopped at the cap, a win for nobody)",
            s.value, s.low, s.high, s.stronger, s.weaker, s.games, s.stopped
        );
        let _ = writeln!(
            out,
            "\nhow to read this:\n  stronger wins  the stronger bot's share of the wins (a tie's share counted), its\n                 interval taken over games, each game one sample.\n  skill          (w - c) / (1 - c): w the strongest bot's share against the weakest, c the\n                 chance share. 0: it wins no more than chance, luck decides; 1: it wins\n                 every game, skill decides. Dreef, Borm and van der Genugten's relative\n                 skill (2004), a lower bound of it: see the balance how-to."
        );
        let _ = writeln!(out, "\nlevels, weakest first:");
        for l in &self.levels {
            let _ = writeln!(out, "  {}: {}", l.bot, l.plays);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_is_the_mean_of_the_games_with_wilsons_interval() {
        // 60 wins, 30 losses and 10 ties in 100 games of one stronger seat.
        let mut t = Tally::default();
        for i in 0..100 {
            let y = match i % 10 {
                0..6 => 1_000_000,
                6..9 => 0,
                _ => 500_000,
            };
            add_game(&mut t.pairs, &[(0, y)]);
            t.games += 1;
        }
        let s = share(&t);
        assert!((s.rate - 0.65).abs() < 1e-12, "{s:?}");
        // One seat a game: the design effect is the spread of the points against a coin's.
        // One seat a game: the interval is Wilson's on the 100 games.
        let (low, high) = wilson(65.0, 100.0);
        assert!((s.low - low).abs() < 1e-9 && (s.high - high).abs() < 1e-9, "{s:?}");
    }
}
