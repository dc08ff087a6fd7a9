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
use super::{EngineTask, Progress, Shard, SimOptions, checked_config, run_indices, with_engine};
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
    indices: Vec<u64>,
    bar: &'a Progress,
}

impl EngineTask for Play<'_> {
    type Output = Stats;
    fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Stats, String> {
        checked_config(&engine, game, self.opts)?;
        run_indices(&engine, self.opts, &self.indices, self.bar)
    }
}

/// Plays one round's games (`indices`) of one candidate, saying on the bar which round and
/// candidate is being played.
fn play_round(
    bar: &Progress,
    (point, game, opts): &(Vec<(String, String)>, Game, SimOptions),
    round: u32,
    rounds: u32,
    indices: Vec<u64>,
) -> Result<Stats, String> {
    let at: Vec<String> = point.iter().map(|(n, v)| format!("{n}={v}")).collect();
    bar.playing(&format!(
        "(round {} of {rounds}, at {})",
        round + 1,
        at.join(", ")
    ));
    with_engine(game, Play { opts, indices, bar })
}

/// The seat count and what the bots are, from the first candidate's engine.
struct Setup<'a>(&'a SimOptions);

impl EngineTask for Setup<'_> {
    type Output = (usize, Vec<BotNote>);
    fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Self::Output, String> {
        let config = checked_config(&engine, game, self.0)?;
        Ok((config.players, super::rests_on(&engine, game, self.0).bots))
    }
}

/// Each candidate's values, game and options.
type Candidates = Vec<(Vec<(String, String)>, Game, SimOptions)>;

fn candidates(game: &Game, t: &TuneOptions) -> Result<Candidates, String> {
    let points = sweep::grid(&t.params);
    if points.len() < 2 {
        return Err("--params gives one value; tuning needs at least two".into());
    }
    let mut cands = Vec::new();
    for point in points {
        let mut g = game.clone();
        let mut o = t.sim.clone();
        o.progress = false;
        o.shard = Shard::ALL;
        for (name, value) in &point {
            if game.params.contains_key(name) {
                g = sweep::with_param(&g, name, value)?;
            } else if super::design_params::names_field(name) {
                g = super::design_params::with_field(&g, name, value)?;
            } else {
                o.variants.insert(name.clone(), value.clone());
            }
        }
        cands.push((point, g, o));
    }
    // Every candidate with a design's field set is checked again (in parallel) before any
    // game is played.
    use rayon::prelude::*;
    cands
        .par_iter()
        .map(|(point, g, _)| super::design_params::recheck(g, point))
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Result<Vec<()>, String>>()?;
    Ok(cands)
}

/// The race's schedule for `k` candidates: its rounds, and the games a candidate has played
/// by the end of each round if it is still in the race (round `r` plays games `ends[r - 1]`
/// to `ends[r]` of every candidate left, on the same seeds).
fn schedule(k: usize, budget: u64) -> (u32, Vec<u64>) {
    let rounds = (k as f64).log2().ceil().max(1.0) as u32;
    let per_round = budget / u64::from(rounds);
    let mut alive = k as u64;
    let mut ends: Vec<u64> = Vec::new();
    for _ in 0..rounds {
        let n = (per_round / alive)
            .max(1)
            .max(ends.last().copied().unwrap_or(0));
        ends.push(n);
        alive = alive.div_ceil(2);
    }
    (rounds, ends)
}

/// The games of one round's segment that `shard` plays.
fn segment(ends: &[u64], round: u32, shard: Shard) -> Vec<u64> {
    let r = round as usize;
    let from = if r == 0 { 0 } else { ends[r - 1] };
    (from..ends[r])
        .filter(|i| i % shard.count == shard.index)
        .collect()
}

/// Successive halving: every candidate left plays its games of the round (`play(c, r)`), the
/// better half by distance from the goal goes on. Gives each candidate's totals and the
/// round it left the race in.
fn race(
    target: &Target,
    k: usize,
    rounds: u32,
    players: usize,
    mut play: impl FnMut(usize, u32) -> Result<Stats, String>,
) -> Result<(Vec<Stats>, Vec<u32>), String> {
    let mut stats: Vec<Stats> = vec![Stats::default(); k];
    let mut left_in = vec![0u32; k];
    let mut alive: Vec<usize> = (0..k).collect();
    for round in 0..rounds {
        for &c in &alive {
            stats[c].merge(&play(c, round)?);
            left_in[c] = round + 1;
        }
        if round + 1 < rounds {
            alive.sort_by(|&a, &b| {
                distance(target, &stats[a], players)
                    .total_cmp(&distance(target, &stats[b], players))
                    .then(a.cmp(&b))
            });
            alive.truncate(alive.len().div_ceil(2));
            alive.sort_unstable();
        }
    }
    Ok((stats, left_in))
}

/// Runs the search.
pub fn tune(game: &Game, t: &TuneOptions) -> Result<TuneFile, String> {
    let cands = candidates(game, t)?;
    let (rounds, ends) = schedule(cands.len(), t.budget);
    let (players, notes) = with_engine(&cands[0].1, Setup(&cands[0].2))?;
    let mut alive = cands.len() as u64;
    let mut games = 0;
    for r in 0..rounds {
        games += alive * segment(&ends, r, Shard::ALL).len() as u64;
        alive = alive.div_ceil(2);
    }
    let bar = Progress::new(t.sim.progress, games);
    let raced = race(&t.target, cands.len(), rounds, players, |c, r| {
        play_round(&bar, &cands[c], r, rounds, segment(&ends, r, Shard::ALL))
    });
    bar.finish();
    let (stats, left_in) = raced?;
    let head = Head {
        game: game.slug.clone(),
        seed: t.sim.seed,
        players,
        bots: t.sim.bots.clone(),
        bot_notes: notes,
        target: t.target.clone(),
        budget: t.budget,
        rounds,
    };
    let points = cands.into_iter().map(|(p, _, _)| p).collect::<Vec<_>>();
    Ok(result(head, &points, &ends, stats, &left_in))
}

/// What identifies a tuning run, as its files give it.
struct Head {
    game: String,
    seed: u64,
    players: usize,
    bots: Vec<String>,
    bot_notes: Vec<BotNote>,
    target: Target,
    budget: u64,
    rounds: u32,
}

fn result(
    head: Head,
    points: &[Vec<(String, String)>],
    ends: &[u64],
    stats: Vec<Stats>,
    left_in: &[u32],
) -> TuneFile {
    let Head {
        game,
        seed,
        players,
        bots,
        bot_notes,
        target,
        budget,
        rounds,
    } = head;
    let goal = goal(&target, players);
    let mut candidates: Vec<Candidate> = points
        .iter()
        .enumerate()
        .map(|(i, point)| {
            let (estimate, low, high) = measure(&target, &stats[i]);
            Candidate {
                values: point.iter().cloned().collect(),
                games: ends[left_in[i] as usize - 1],
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
    TuneFile {
        format: FORMAT.into(),
        game,
        seed,
        players,
        bots,
        bot_notes,
        measure: match target {
            Target::Balance => "the first seat's share of the decided games".into(),
            Target::Length(_) => "the mean game length".into(),
        },
        target,
        goal,
        budget,
        rounds,
        candidates,
        best,
    }
}

/// The JSON format of one shard of a tuning run.
pub const SHARD_FORMAT: &str = "printplay-tune-shard/1";

/// One shard of a tuning run (`tune --shard I/N --json`). Which candidates go on after a
/// round depends on every shard's games, so a shard plays its share of every round for every
/// candidate, as if each stayed in the race to the end; `merge` adds the shards up and runs
/// the halving on the totals, which gives the single machine's result exactly. The cluster
/// plays more games than one machine would (every candidate to the last round's count).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TuneShard {
    pub format: String,
    /// The command one machine runs for the whole search (it identifies the run).
    pub command: String,
    /// This shard's number, counted from 1, and the shard count.
    pub shard: u64,
    pub shards: u64,
    pub game: String,
    pub seed: u64,
    pub players: usize,
    pub bots: Vec<String>,
    pub bot_notes: Vec<BotNote>,
    pub target: Target,
    pub budget: u64,
    pub rounds: u32,
    /// Games per candidate by the end of each round.
    pub ends: Vec<u64>,
    /// Each candidate's values, and its totals of this shard's games of each round.
    pub candidates: Vec<ShardCandidate>,
}

/// One candidate's share of the games in a tuning shard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardCandidate {
    pub values: Vec<(String, String)>,
    /// One entry per round.
    pub rounds: Vec<Stats>,
}

impl TuneShard {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("tuning shards serialise") + "\n"
    }

    pub fn from_json(text: &str, name: &str) -> Result<TuneShard, String> {
        let file: TuneShard =
            serde_json::from_str(text).map_err(|e| format!("{name}: not a tuning shard: {e}"))?;
        if file.format != SHARD_FORMAT {
            return Err(format!(
                "{name}: format `{}`, expected `{SHARD_FORMAT}`",
                file.format
            ));
        }
        Ok(file)
    }

    /// What the shard did, in a line.
    pub fn text(&self) -> String {
        let games: usize = self
            .candidates
            .iter()
            .flat_map(|c| &c.rounds)
            .map(|s| s.games as usize)
            .sum();
        format!(
            "{}: shard {} of {} of a tuning run: {games} games ({} candidates, each to {} games over {} rounds, this shard's share); `printplay merge` adds the shards up and runs the halving\n",
            self.game,
            self.shard,
            self.shards,
            self.candidates.len(),
            self.ends.last().copied().unwrap_or(0),
            self.rounds
        )
    }
}

/// Plays one shard of a tuning run: its share of every round for every candidate.
pub fn tune_shard(
    game: &Game,
    t: &TuneOptions,
    shard: Shard,
    command: &str,
) -> Result<TuneShard, String> {
    let cands = candidates(game, t)?;
    let (rounds, ends) = schedule(cands.len(), t.budget);
    let (players, bot_notes) = with_engine(&cands[0].1, Setup(&cands[0].2))?;
    let games: u64 = (0..rounds)
        .map(|r| segment(&ends, r, shard).len() as u64)
        .sum();
    let bar = Progress::new(t.sim.progress, games * cands.len() as u64);
    let played = (|| {
        let mut candidates = Vec::new();
        for cand in &cands {
            let rounds = (0..rounds)
                .map(|r| play_round(&bar, cand, r, rounds, segment(&ends, r, shard)))
                .collect::<Result<Vec<_>, _>>()?;
            candidates.push(ShardCandidate {
                values: cand.0.clone(),
                rounds,
            });
        }
        Ok::<_, String>(candidates)
    })();
    bar.finish();
    let candidates = played?;
    Ok(TuneShard {
        format: SHARD_FORMAT.into(),
        command: command.to_string(),
        shard: shard.number(),
        shards: shard.count,
        game: game.slug.clone(),
        seed: t.sim.seed,
        players,
        bots: t.sim.bots.clone(),
        bot_notes,
        target: t.target.clone(),
        budget: t.budget,
        rounds,
        ends,
        candidates,
    })
}

/// Adds up the shards of one tuning run (every shard 1..N exactly once) and runs the halving
/// on the totals: the result and the command of the run.
pub fn merge_shards(files: &[(String, TuneShard)]) -> Result<(TuneFile, String), String> {
    let ((first_name, first), _) = files.split_first().ok_or("merge needs at least one file")?;
    let mut seen = vec![None::<&str>; first.shards as usize];
    for (name, f) in files {
        let same = f.command == first.command
            && f.shards == first.shards
            && f.game == first.game
            && f.ends == first.ends
            && f.candidates.len() == first.candidates.len()
            && f.candidates
                .iter()
                .zip(&first.candidates)
                .all(|(a, b)| a.values == b.values && a.rounds.len() == b.rounds.len());
        if !same {
            return Err(format!(
                "{name} is not a shard of the tuning run in {first_name} (`{}` in {} shards against `{}` in {})",
                f.command, f.shards, first.command, first.shards
            ));
        }
        let slot = f
            .shard
            .checked_sub(1)
            .and_then(|i| seen.get_mut(i as usize))
            .ok_or_else(|| format!("{name}: shard {} of {}", f.shard, f.shards))?;
        if let Some(other) = slot {
            return Err(format!(
                "{name} and {other} are both shard {} of {}",
                f.shard, f.shards
            ));
        }
        *slot = Some(name.as_str());
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "shards {} of {} are missing",
            missing.join(", "),
            first.shards
        ));
    }
    let k = first.candidates.len();
    let mut totals: Vec<Vec<Stats>> = vec![vec![Stats::default(); first.rounds as usize]; k];
    for (_, f) in files {
        for (c, cand) in f.candidates.iter().enumerate() {
            for (r, s) in cand.rounds.iter().enumerate() {
                totals[c][r].merge(s);
            }
        }
    }
    let (stats, left_in) = race(&first.target, k, first.rounds, first.players, |c, r| {
        Ok(totals[c][r as usize].clone())
    })?;
    let head = Head {
        game: first.game.clone(),
        seed: first.seed,
        players: first.players,
        bots: first.bots.clone(),
        bot_notes: first.bot_notes.clone(),
        target: first.target.clone(),
        budget: first.budget,
        rounds: first.rounds,
    };
    let points: Vec<Vec<(String, String)>> =
        first.candidates.iter().map(|c| c.values.clone()).collect();
    Ok((
        result(head, &points, &first.ends, stats, &left_in),
        first.command.clone(),
    ))
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
