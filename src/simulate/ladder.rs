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

const Z: f64 = 1.959_963_984_540_054;
use super::{EngineRun, Progress, RunError, SimOptions, checked_config, play_game, run_engine};
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
    /// The weaker bot's own share in the same seat among its likes, on the same seeds: what
    /// the stronger would win were it no stronger (1 / players when every game has one
    /// winner; less when games end in shared losses or at the cap).
    pub even: Share,
    /// Games stopped at the move cap among the weaker bot's own games.
    pub even_stopped: u64,
    /// `(w - b) / (1 - b)`, `w` the stronger's share and `b` the even one: 0 when it wins no
    /// more than the weaker would, 1 when it wins every game.
    pub skill: Share,
    /// Whether the skill's interval lies wholly above 0: the stronger bot wins more.
    pub stronger_wins_more: bool,
}

/// The figure of skill against luck: the skill of the strongest level against the weakest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    pub stronger: String,
    pub weaker: String,
    /// Games of each of the two runs it rests on (the pairing, and the weaker among its likes).
    pub games: u64,
    /// Games stopped at the cap: in the pairing, and in the weaker's own games.
    pub stopped: u64,
    pub even_stopped: u64,
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

/// One pairing's totals: the stronger bot's seat in cell 0, each game's points of that seat
/// (millionths, in game order), and the stopped games.
#[derive(Default)]
struct Tally {
    pairs: PairMap,
    points: Vec<u64>,
    stopped: u64,
}

impl Tally {
    fn games(&self) -> u64 {
        self.points.len() as u64
    }

    /// `o`'s games after this one's.
    fn merge(mut self, o: Tally) -> Tally {
        super::clustered::add_pairs(
            &mut self.pairs,
            &o.pairs.into_values().collect::<Vec<_>>(),
            |c| c,
        );
        self.points.extend(o.points);
        self.stopped += o.stopped;
        self
    }
}

/// The stronger bot's share of the wins over `t`'s games, its interval from the variance
/// over games: Wilson's interval on the sample size that variance is worth.
fn share(t: &Tally) -> Share {
    let all: Vec<PairSums> = t.pairs.values().cloned().collect();
    let cells = Cells::of(&all, &[], 1, t.games());
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

/// Plays one pairing's games in parallel (each game's stream fixed by its index): `stronger`
/// in one seat and `weaker` in the others, the stronger's seat moving on one a game. With
/// `stronger == weaker` it is the weaker bot's own result among its likes.
fn play_pairing<E: Engine>(
    engine: &E,
    game: &Game,
    opts: &SimOptions,
    stronger: &str,
    weaker: &str,
    bar: &Progress,
) -> Result<(usize, Tally), RunError> {
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
    let mut seats = vec![weaker.to_string(); players];
    seats[0] = stronger.to_string();
    let o = SimOptions {
        bots: seats,
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
                // Seats take the bot list turned by the game's index (`seat_bots`): the
                // list's first bot sits at the seat that brings it to 0.
                let seat = (players - (i % players as u64) as usize) % players;
                let y = (result.returns[seat].clamp(0.0, 1.0) * POINT).round() as u64;
                add_game(&mut t.pairs, &[(0, y)]);
                t.points.push(y);
                t.stopped += u64::from(result.timeout);
                bar.game_played();
            }
            Ok::<_, RunError>(t)
        })
        .collect::<Result<Vec<_>, RunError>>()?;
    Ok((
        players,
        tallies.into_iter().fold(Tally::default(), Tally::merge),
    ))
}

/// The skill figure `(w - b) / (1 - b)` from the strongest bot's points `top` and the
/// beginner's own `base`, game by game on the same seeds, with a 95 % interval from the
/// variance over games.
fn skill_of(top: &Tally, base: &Tally) -> Share {
    let n = top.points.len().min(base.points.len());
    let none = Share {
        rate: 0.0,
        low: -1.0,
        high: 1.0,
    };
    if n == 0 {
        return none;
    }
    let y = |v: &[u64], i: usize| v[i] as f64 / POINT;
    let w = (0..n).map(|i| y(&top.points, i)).sum::<f64>() / n as f64;
    let b = (0..n).map(|i| y(&base.points, i)).sum::<f64>() / n as f64;
    if 1.0 - b < 1e-9 {
        // The weaker bot wins every game among its likes: nothing is left to skill.
        return none;
    }
    let value = (w - b) / (1.0 - b);
    // The delta method: d/dw = 1 / (1 - b), d/db = (w - 1) / (1 - b)^2, each game's pair of
    // results one sample. A share of 0 or 1 has no spread of its own in the games, so each
    // share's variance is at least Wilson's (as the cards table keeps its rates honest).
    let (dw, db) = (1.0 / (1.0 - b), (w - 1.0) / (1.0 - b).powi(2));
    let g = n as f64;
    let small = if g > 1.0 { g / (g - 1.0) } else { 1.0 };
    let (mut vw, mut vb, mut cov) = (0.0, 0.0, 0.0);
    for i in 0..n {
        let (ew, eb) = (y(&top.points, i) - w, y(&base.points, i) - b);
        vw += ew * ew;
        vb += eb * eb;
        cov += ew * eb;
    }
    let (vw, vb, cov) = (
        vw / (g * g) * small,
        vb / (g * g) * small,
        cov / (g * g) * small,
    );
    let wilson_var = |p: f64| {
        let (lo, hi) = wilson(p * g, g);
        ((hi - lo) / (2.0 * Z)).powi(2)
    };
    let (fw, fb) = (vw.max(wilson_var(w)), vb.max(wilson_var(b)));
    // The covariance scaled as the variances were (the correlation kept).
    let cov = if vw > 0.0 && vb > 0.0 {
        cov * ((fw / vw) * (fb / vb)).sqrt()
    } else {
        0.0
    };
    let var = (dw * dw * fw + db * db * fb + 2.0 * dw * db * cov).max(0.0);
    let half = Z * var.sqrt();
    Share {
        rate: value,
        low: (value - half).max(-1.0),
        high: (value + half).min(1.0),
    }
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
pub fn ladder(game: &Game, o: &LadderOptions) -> Result<Ladder, RunError> {
    check_options(o)?;
    struct Task<'a>(&'a LadderOptions);
    impl EngineRun for Task<'_> {
        type Output = Ladder;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Ladder, RunError> {
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
            // Each weaker level also plays among its likes: what "no stronger" wins.
            let runs = pairs.len() + k - 1;
            let bar = Progress::new(o.sim.progress, o.sim.games * runs as u64);
            let played = (|| {
                let mut alone = Vec::new();
                for l in &levels[..k - 1] {
                    bar.playing(&format!("({l} among its likes)"));
                    alone.push(play_pairing(&engine, game, &o.sim, l, l, &bar)?.1);
                }
                let mut out = Vec::new();
                for &(s, w) in &pairs {
                    bar.playing(&format!("({} against {})", levels[s], levels[w]));
                    out.push(play_pairing(
                        &engine, game, &o.sim, &levels[s], &levels[w], &bar,
                    )?);
                }
                Ok::<_, RunError>((alone, out))
            })();
            bar.finish();
            let (alone, played) = played?;
            let players = played.first().map_or(2, |p| p.0);
            let pairings: Vec<Pairing> = pairs
                .iter()
                .zip(&played)
                .map(|(&(s, w), (_, t))| {
                    let skill = skill_of(t, &alone[w]);
                    Pairing {
                        stronger: levels[s].clone(),
                        weaker: levels[w].clone(),
                        games: t.games(),
                        stopped: t.stopped,
                        stronger_wins: share(t),
                        even: share(&alone[w]),
                        even_stopped: alone[w].stopped,
                        stronger_wins_more: skill.low > 0.0,
                        skill,
                    }
                })
                .collect();
            // The strongest level against the weakest.
            let top = pairings
                .iter()
                .find(|p| p.stronger == levels[k - 1] && p.weaker == levels[0])
                .expect("every pair is played");
            let skill = Skill {
                stronger: top.stronger.clone(),
                weaker: top.weaker.clone(),
                games: top.games,
                stopped: top.stopped,
                even_stopped: top.even_stopped,
                value: top.skill.rate,
                low: top.skill.low,
                high: top.skill.high,
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
    run_engine(game, Task(o))
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
            .max(23);
        let _ = writeln!(
            out,
            "\n{:<width$}  {:>5}  {:>7}  {:>21}  {:>21}  skill (95 % interval)",
            "stronger against weaker",
            "games",
            "stopped",
            "stronger wins",
            "weaker among its likes"
        );
        for p in &self.pairings {
            let label = format!("{} against {}", p.stronger, p.weaker);
            let pc = |s: &Share| {
                format!(
                    "{:.1} % ({:.1}-{:.1})",
                    percent(s.rate),
                    percent(s.low),
                    percent(s.high)
                )
            };
            let _ = writeln!(
                out,
                "{label:<width$}  {:>5}  {:>7}  {:>21}  {:>22}  {:+.2} ({:+.2} to {:+.2}){}",
                p.games,
                p.stopped + p.even_stopped,
                pc(&p.stronger_wins),
                pc(&p.even),
                p.skill.rate,
                p.skill.low,
                p.skill.high,
                if p.stronger_wins_more {
                    ""
                } else {
                    "  not shown stronger"
                }
            );
        }
        let s = &self.skill;
        let _ = writeln!(
            out,
            "\nskill against luck: {:.2} (95 % interval {:.2} to {:.2}): {} against {}, {} games \
             of each ({} of the pairing and {} of {} among its likes stopped at the cap, a win \
             for nobody)",
            s.value,
            s.low,
            s.high,
            s.stronger,
            s.weaker,
            s.games,
            s.stopped,
            s.even_stopped,
            s.weaker
        );
        let _ = writeln!(
            out,
            "\nhow to read this:\n  stronger wins  the stronger bot's share of the wins in its one seat (a tie's share\n                 counted), its interval taken over games, each game one sample.\n  weaker among its likes  the weaker bot's share in that seat when every seat is\n                 the weaker bot, on the same seeds: what the stronger would win were it no\n                 stronger (1 / {} when every game has one winner).\n  skill          (w - b) / (1 - b), w the stronger's share and b the weaker's among its\n                 likes: 0 when the stronger wins no more, luck decides; 1 when it wins\n                 every game, skill decides. The relative skill of Dreef, Borm and van der\n                 Genugten (2004), a lower bound of it: see the balance how-to.",
            self.players
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
            t.points.push(y);
        }
        let s = share(&t);
        assert!((s.rate - 0.65).abs() < 1e-12, "{s:?}");
        // One seat a game: the design effect is the spread of the points against a coin's.
        // One seat a game: the interval is Wilson's on the 100 games (less the small-sample
        // factor 100 / 99 of the variance over games).
        let (low, high) = wilson(65.0 * 0.99, 99.0);
        assert!(
            (s.low - low).abs() < 1e-9 && (s.high - high).abs() < 1e-9,
            "{s:?}"
        );
    }

    fn tally(points: &[u64]) -> Tally {
        let mut t = Tally::default();
        for &y in points {
            add_game(&mut t.pairs, &[(0, y)]);
            t.points.push(y);
        }
        t
    }

    #[test]
    fn skill_is_normalised_to_the_beginners_share_and_keeps_an_interval_at_the_edge() {
        let won = |k: usize, n: usize| -> Vec<u64> {
            (0..n).map(|i| if i < k { 1_000_000 } else { 0 }).collect()
        };
        // The stronger wins 75 of 100, the weaker among its likes 50: (0.75 - 0.5) / 0.5.
        let s = skill_of(&tally(&won(75, 100)), &tally(&won(50, 100)));
        assert!((s.rate - 0.5).abs() < 1e-12, "{s:?}");
        assert!(s.low > 0.2 && s.high < 0.8, "{s:?}");
        // Shared losses leave the beginners 10 %: winning 55 % is half the way to always.
        let s = skill_of(&tally(&won(55, 100)), &tally(&won(10, 100)));
        assert!((s.rate - 0.5).abs() < 1e-12, "{s:?}");
        // Every game won: the figure is 1, and 20 games do not make it certain.
        let s = skill_of(&tally(&won(20, 20)), &tally(&won(10, 20)));
        assert_eq!(s.rate, 1.0);
        assert!(s.low < 0.9 && s.high == 1.0, "{s:?}");
    }
}
