//! `printplay tune`: the values of one or two `[params.*]` (or variants) nearest a target
//! (`balance`: the first seat wins its even share of the decided games; `length=T`: games
//! last T turns on average), found by successive halving on common seeds: every candidate
//! plays the same games, the better half goes on to twice as many, and so on until the
//! budget is spent. The report gives every candidate's games and interval, and names a value
//! only when its interval includes the target.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::report::{BotNote, Rate, percent};
use super::stats::Stats;
use super::sweep::{self, Sweep};
use super::{EngineTask, SimOptions, checked_config, run_indices, with_engine};
use crate::engine::Engine;
use crate::model::Game;

/// The JSON format's name and version.
pub const FORMAT: &str = "printplay-tune/1";

/// What `tune` aims for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// The first seat wins 1 / players of the decided games.
    Balance,
    /// Games last this many turns (moves where the engine counts no turns) on average.
    Length(f64),
}

impl Target {
    pub fn parse(text: &str) -> Result<Target, String> {
        match text.split_once('=') {
            None if text == "balance" => Ok(Target::Balance),
            Some(("length", t)) => t
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|t| t.is_finite() && *t > 0.0)
                .map(Target::Length)
                .ok_or_else(|| format!("--target length=T takes a positive number, not `{t}`")),
            _ => Err(format!("--target takes balance or length=T, not `{text}`")),
        }
    }
}

/// Parses `--params NAME=A..B[:STEP][,NAME=...]`; a piece without `=` adds a value to the
/// name before it (`x=1,2,5`).
pub fn parse_params(text: &str) -> Result<Vec<Sweep>, String> {
    let mut specs: Vec<String> = Vec::new();
    for piece in text.split(',') {
        match (piece.contains('='), specs.last_mut()) {
            (true, _) => specs.push(piece.to_string()),
            (false, Some(last)) => {
                last.push(',');
                last.push_str(piece);
            }
            (false, None) => return Err(format!("--params takes NAME=A..B[:STEP], not `{text}`")),
        }
    }
    if specs.is_empty() || specs.len() > 2 {
        return Err("--params names one or two parameters".into());
    }
    specs.iter().map(|s| sweep::parse(s)).collect()
}

/// One candidate's standing when the search stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub values: BTreeMap<String, String>,
    /// Games it played (all on the seeds 0..games of the run's master seed).
    pub games: u64,
    /// The measure and its 95 % interval: the first seat's share of decided games, or the
    /// mean length.
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    /// Whether the interval includes the target.
    pub supported: bool,
    /// The round it left the race in (the last round for the finalists).
    pub round: u32,
}

/// What `tune --json` writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TuneFile {
    pub format: String,
    pub game: String,
    pub seed: u64,
    pub players: usize,
    pub bots: Vec<String>,
    pub bot_notes: Vec<BotNote>,
    pub target: Target,
    /// What the estimate measures, in words.
    pub measure: String,
    /// The target value of the measure.
    pub goal: f64,
    pub budget: u64,
    pub rounds: u32,
    /// Every candidate, the best first (the finalists by distance from the goal).
    pub candidates: Vec<Candidate>,
    /// The best candidate whose interval includes the goal, if any.
    pub best: Option<BTreeMap<String, String>>,
}

/// Options of one tuning run.
pub struct TuneOptions {
    pub sim: SimOptions,
    pub params: Vec<Sweep>,
    pub target: Target,
    /// Games in all, over every candidate and round.
    pub budget: u64,
}

struct Play<'a> {
    opts: &'a SimOptions,
    indices: std::ops::Range<u64>,
}

impl EngineTask for Play<'_> {
    type Output = (Stats, usize, Vec<BotNote>);
    fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Self::Output, String> {
        let config = checked_config(&engine, game, self.opts)?;
        let indices: Vec<u64> = self.indices.collect();
        let stats = run_indices(&engine, self.opts, &indices)?;
        let notes = super::rests_on(&engine, game, self.opts).bots;
        Ok((stats, config.players, notes))
    }
}

/// Runs the search.
pub fn tune(game: &Game, t: &TuneOptions) -> Result<TuneFile, String> {
    let points = sweep::grid(&t.params);
    let k = points.len() as u64;
    if k < 2 {
        return Err("--params gives one value; tuning needs at least two".into());
    }
    // Each candidate's game and options.
    let mut cands = Vec::new();
    for point in &points {
        let mut g = game.clone();
        let mut o = t.sim.clone();
        o.progress = false;
        for (name, value) in point {
            if game.params.contains_key(name) {
                g = sweep::with_param(&g, name, value)?;
            } else {
                o.variants.insert(name.clone(), value.clone());
            }
        }
        cands.push((point.clone(), g, o));
    }
    let rounds = (k as f64).log2().ceil().max(1.0) as u32;
    let per_round = t.budget / u64::from(rounds);
    let mut stats: Vec<Stats> = vec![Stats::default(); cands.len()];
    let mut played = vec![0u64; cands.len()];
    let mut left_in = vec![0u32; cands.len()];
    let mut alive: Vec<usize> = (0..cands.len()).collect();
    let mut players = 0;
    let mut notes = Vec::new();
    for round in 0..rounds {
        let n = (per_round / alive.len() as u64).max(1);
        for &c in &alive {
            let (_, g, o) = &cands[c];
            let (s, p, b) = with_engine(
                g,
                Play {
                    opts: o,
                    indices: played[c]..n,
                },
            )?;
            stats[c].merge(&s);
            played[c] = n.max(played[c]);
            left_in[c] = round + 1;
            players = p;
            notes = b;
        }
        if round + 1 < rounds {
            alive.sort_by(|&a, &b| {
                distance(&t.target, &stats[a], players)
                    .total_cmp(&distance(&t.target, &stats[b], players))
                    .then(a.cmp(&b))
            });
            alive.truncate(alive.len().div_ceil(2));
            alive.sort_unstable();
        }
    }
    let goal = goal(&t.target, players);
    let mut candidates: Vec<Candidate> = cands
        .iter()
        .enumerate()
        .map(|(i, (point, _, _))| {
            let (estimate, low, high) = measure(&t.target, &stats[i]);
            Candidate {
                values: point.iter().cloned().collect(),
                games: played[i],
                estimate,
                low,
                high,
                supported: low <= goal && goal <= high,
                round: left_in[i],
            }
        })
        .collect();
    candidates.sort_by(|a, b| {
        b.round.cmp(&a.round).then(
            (a.estimate - goal)
                .abs()
                .total_cmp(&(b.estimate - goal).abs()),
        )
    });
    let best = candidates
        .iter()
        .find(|c| c.supported && c.round == rounds)
        .map(|c| c.values.clone());
    Ok(TuneFile {
        format: FORMAT.into(),
        game: game.slug.clone(),
        seed: t.sim.seed,
        players,
        bots: t.sim.bots.clone(),
        bot_notes: notes,
        measure: match t.target {
            Target::Balance => "the first seat's share of the decided games".into(),
            Target::Length(_) => "the mean game length".into(),
        },
        target: t.target.clone(),
        goal,
        budget: t.budget,
        rounds,
        candidates,
        best,
    })
}

fn goal(target: &Target, players: usize) -> f64 {
    match target {
        Target::Balance => 1.0 / players.max(1) as f64,
        Target::Length(t) => *t,
    }
}

/// The measure and its 95 % interval.
fn measure(target: &Target, s: &Stats) -> (f64, f64, f64) {
    match target {
        Target::Balance => {
            let r = Rate::of(
                s.seat_wins.first().copied().unwrap_or(0) as f64,
                s.decided as f64,
            );
            (r.rate, r.low, r.high)
        }
        Target::Length(_) => {
            let h = if s.turns.games > 0 {
                &s.turns
            } else {
                &s.moves
            };
            let half = 1.959_963_984_540_054 * h.sd() / (h.games.max(1) as f64).sqrt();
            (h.mean(), h.mean() - half, h.mean() + half)
        }
    }
}

fn distance(target: &Target, s: &Stats, players: usize) -> f64 {
    (measure(target, s).0 - goal(target, players)).abs()
}

impl TuneFile {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("tuning reports serialise") + "\n"
    }

    /// Whether the estimate is a share (shown in per cent) or a length.
    fn is_share(&self) -> bool {
        self.target == Target::Balance
    }

    /// A figure of the measure in its unit.
    pub fn figure(&self, x: f64) -> String {
        if self.is_share() {
            format!("{:.1} %", percent(x))
        } else {
            format!("{x:.1}")
        }
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        let goal = self.figure(self.goal);
        let _ = writeln!(
            out,
            "{}: tuning {} towards {goal}, {} games in {} rounds of successive halving on common seeds (seed {}), bots {}",
            self.game,
            self.measure,
            self.budget,
            self.rounds,
            self.seed,
            self.bots.join(",")
        );
        let _ = writeln!(
            out,
            "\n  {:<30} {:>7}  {:<28} {:>5}  interval includes {goal}",
            "values", "games", "estimate (95 % interval)", "round"
        );
        for c in &self.candidates {
            let values = c
                .values
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            let _ = writeln!(
                out,
                "  {values:<30} {:>7}  {:<28} {:>5}  {}",
                c.games,
                format!(
                    "{} ({} to {})",
                    self.figure(c.estimate),
                    self.figure(c.low),
                    self.figure(c.high)
                ),
                c.round,
                if c.supported { "yes" } else { "no" }
            );
        }
        out.push('\n');
        out.push_str(&self.verdict());
        out.push('\n');
        for b in &self.bot_notes {
            let _ = writeln!(out, "bot {}: {}", b.bot, b.plays);
        }
        if let Some(w) = self.random_warning() {
            let _ = writeln!(out, "{w}");
        }
        out
    }

    /// The claim the figures support, in a sentence.
    pub fn verdict(&self) -> String {
        match &self.best {
            Some(values) => {
                let v = values
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ");
                format!(
                    "best: {v}, the finalist nearest {}; its 95 % interval includes it. Values whose interval also includes it are as good on these games.",
                    self.figure(self.goal)
                )
            }
            None => format!(
                "no finalist's 95 % interval includes {}: none is claimed; widen the ranges or raise --budget.",
                self.figure(self.goal)
            ),
        }
    }

    /// The warning printed when a bot plays at random.
    pub fn random_warning(&self) -> Option<String> {
        self.bots.iter().any(|b| b == "random").then(|| {
            "warning: the `random` bot moves at random; a value tuned for it balances the game for players who do not try, not for people who do.".to_string()
        })
    }
}
