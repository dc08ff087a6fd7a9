//! `printplay tune`: the values of one or two `[params.*]` (or variants) nearest a target
//! (`balance`: the first seat wins its even share of the decided games; `length=T`: games
//! last T turns on average), found by successive halving on common seeds: every candidate
//! plays the same games, the better half goes on to twice as many, and so on until the
//! budget is spent. The report gives every candidate's games, its games stopped at the move
//! cap and its interval, and names a value only when its interval includes the target, is
//! narrow enough to tell values apart ([`resolution`]) and rests on games that finished: a
//! value with more than [`MAX_STOPPED`] of its games stopped at the cap is not eligible (the
//! games left out are the long ones, so its mean length, and its balance, would rest on a
//! biased sample).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::report::{BotNote, Rate};
use super::stats::Stats;
use super::sweep::{self, Sweep};
use super::{
    EngineRun, Progress, RunError, Shard, SimOptions, checked_config, run_engine, run_indices,
};
use crate::engine::Engine;
use crate::model::Game;

mod text;

/// The JSON format's name and version.
pub const FORMAT: &str = "printplay-tune/2";

/// The largest share of a value's games that may stop at the move cap for it to be named best.
pub const MAX_STOPPED: f64 = 0.05;

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
    /// Of those, games stopped at the move cap: no winner and no length, so the estimate
    /// leaves them out.
    pub stopped: u64,
    /// The games the estimate rests on: the decided games (balance) or the finished games
    /// (length).
    pub rests_on: u64,
    /// At most [`MAX_STOPPED`] of its games stopped at the cap: it may be named best.
    pub eligible: bool,
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
    /// Games played in all (every candidate's games): at least one per candidate, so more
    /// than a budget smaller than the candidates.
    pub played: u64,
    /// The move cap, at which a game is stopped.
    pub max_moves: u32,
    pub rounds: u32,
    /// The widest a best value's interval may be on either side of its estimate: narrower
    /// tells the values apart ([`resolution`]).
    pub resolution: f64,
    /// Every candidate, the best first (the finalists by distance from the goal).
    pub candidates: Vec<Candidate>,
    /// The best eligible finalist whose interval includes the goal and is no wider than the
    /// resolution, if any.
    pub best: Option<BTreeMap<String, String>>,
    /// When the finalists' intervals are too wide to name a best: the budget that would
    /// narrow them to the resolution (`None` when it cannot be estimated, or is not needed).
    pub budget_needed: Option<u64>,
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

impl EngineRun for Play<'_> {
    type Output = Stats;
    fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Stats, RunError> {
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
) -> Result<Stats, RunError> {
    let at: Vec<String> = point.iter().map(|(n, v)| format!("{n}={v}")).collect();
    bar.playing(&format!(
        "(round {} of {rounds}, at {})",
        round + 1,
        at.join(", ")
    ));
    run_engine(game, Play { opts, indices, bar })
}

/// The seat count and what the bots are, from the first candidate's engine.
struct Setup<'a>(&'a SimOptions);

impl EngineRun for Setup<'_> {
    type Output = (usize, Vec<BotNote>);
    fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Self::Output, RunError> {
        let config = checked_config(&engine, game, self.0)?;
        Ok((config.players, super::rests_on(&engine, game, self.0).bots))
    }
}

/// Each candidate's values, game and options.
type Candidates = Vec<(Vec<(String, String)>, Game, SimOptions)>;

fn candidates(game: &Game, t: &TuneOptions) -> Result<Candidates, RunError> {
    let points = sweep::grid(&t.params);
    if points.len() < 2 {
        return Err("--params gives one value; tuning needs at least two".into());
    }
    use super::design_params::{Swept, recheck, swept, with_field};
    let variant_names: Vec<String> = super::variants::variants(game)?
        .into_iter()
        .map(|v| v.name)
        .collect();
    let kinds = t
        .params
        .iter()
        .map(|p| swept(game, &variant_names, &p.name).map(|k| (p.name.clone(), k)))
        .collect::<Result<BTreeMap<String, Swept>, String>>()?;
    let mut cands = Vec::new();
    let mut fields = Vec::new();
    for point in points {
        let mut g = game.clone();
        let mut o = t.sim.clone();
        o.progress = false;
        o.shard = Shard::ALL;
        let mut set = Vec::new();
        for (name, value) in &point {
            match kinds[name] {
                Swept::Param => g = sweep::with_param(&g, name, value)?,
                Swept::Field => {
                    g = with_field(&g, name, value)?;
                    set.push((name.clone(), value.clone()));
                }
                Swept::Variant => {
                    o.variants.insert(name.clone(), value.clone());
                }
            }
        }
        fields.push(set);
        cands.push((point, g, o));
    }
    // Every candidate with a design's field set is checked again (in parallel) before any
    // game is played.
    use rayon::prelude::*;
    cands
        .par_iter()
        .zip(&fields)
        .map(|((_, g, _), set)| recheck(g, set))
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Result<Vec<()>, RunError>>()?;
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
    mut play: impl FnMut(usize, u32) -> Result<Stats, RunError>,
) -> Result<(Vec<Stats>, Vec<u32>), RunError> {
    let mut stats: Vec<Stats> = vec![Stats::default(); k];
    let mut left_in = vec![0u32; k];
    let mut alive: Vec<usize> = (0..k).collect();
    for round in 0..rounds {
        for &c in &alive {
            stats[c].merge(&play(c, round)?);
            left_in[c] = round + 1;
        }
        if round + 1 < rounds {
            // Values with too many games stopped at the cap rank after every other.
            alive.sort_by(|&a, &b| {
                (!eligible(&stats[a]))
                    .cmp(&!eligible(&stats[b]))
                    .then(
                        distance(target, &stats[a], players)
                            .total_cmp(&distance(target, &stats[b], players)),
                    )
                    .then(a.cmp(&b))
            });
            alive.truncate(alive.len().div_ceil(2));
            alive.sort_unstable();
        }
    }
    Ok((stats, left_in))
}

/// Runs the search.
pub fn tune(game: &Game, t: &TuneOptions) -> Result<TuneFile, RunError> {
    let cands = candidates(game, t)?;
    let (rounds, ends) = schedule(cands.len(), t.budget);
    let (players, notes) = run_engine(&cands[0].1, Setup(&cands[0].2))?;
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
        max_moves: t.sim.max_moves,
        rounds,
    };
    let points = cands.into_iter().map(|(p, _, _)| p).collect::<Vec<_>>();
    Ok(result(head, &points, stats, &left_in))
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
    max_moves: u32,
    rounds: u32,
}

fn result(
    head: Head,
    points: &[Vec<(String, String)>],
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
        max_moves,
        rounds,
    } = head;
    let goal = goal(&target, players);
    let resolution = resolution(&target, players);
    let mut candidates: Vec<Candidate> = points
        .iter()
        .enumerate()
        .map(|(i, point)| {
            let s = &stats[i];
            let (estimate, low, high) = measure(&target, s);
            Candidate {
                values: point.iter().cloned().collect(),
                games: s.games,
                stopped: s.timeouts,
                rests_on: rests_on(&target, s),
                eligible: eligible(s),
                estimate,
                low,
                high,
                supported: low <= goal && goal <= high,
                round: left_in[i],
            }
        })
        .collect();
    candidates.sort_by(|a, b| {
        b.round
            .cmp(&a.round)
            .then(b.eligible.cmp(&a.eligible))
            .then(
                (a.estimate - goal)
                    .abs()
                    .total_cmp(&(b.estimate - goal).abs()),
            )
    });
    let narrow = |c: &Candidate| (c.high - c.low) / 2.0 <= resolution;
    let best = candidates
        .iter()
        .find(|c| c.supported && c.round == rounds && c.eligible && narrow(c))
        .map(|c| c.values.clone());
    // Too wide to tell: the finalists' games were too few. What would narrow them.
    let finalists: Vec<usize> = (0..points.len())
        .filter(|&i| left_in[i] == rounds && eligible(&stats[i]))
        .collect();
    let too_wide = best.is_none()
        && candidates
            .iter()
            .any(|c| c.round == rounds && c.eligible && c.supported && !narrow(c));
    let budget_needed = too_wide
        .then(|| {
            let mut pooled = Stats::default();
            for &i in &finalists {
                pooled.merge(&stats[i]);
            }
            games_needed(&target, &pooled, players)
                .map(|n| budget_for(points.len(), n).max(budget.saturating_add(1)))
        })
        .flatten();
    let played = stats.iter().map(|s| s.games).sum();
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
        played,
        max_moves,
        rounds,
        resolution,
        candidates,
        best,
        budget_needed,
    }
}

/// Whether a candidate's games stopped at the cap are few enough ([`MAX_STOPPED`]) for its
/// estimate to stand for the value.
fn eligible(s: &Stats) -> bool {
    s.timeouts as f64 <= MAX_STOPPED * s.games as f64
}

/// The games the estimate rests on.
fn rests_on(target: &Target, s: &Stats) -> u64 {
    match target {
        Target::Balance => s.decided,
        Target::Length(_) if s.turns.games > 0 => s.turns.games,
        Target::Length(_) => s.moves.games,
    }
}

/// The widest a best value's interval may be on either side: 5 percentage points of the
/// first seat's share, or 5 % of the target length.
pub fn resolution(target: &Target, players: usize) -> f64 {
    0.05 * match target {
        Target::Balance => 1.0,
        Target::Length(_) => goal(target, players),
    }
}

/// The games a finalist needs for its interval to narrow to the resolution, from the
/// finalists' games so far (their share of decided or finished games, their spread).
fn games_needed(target: &Target, s: &Stats, players: usize) -> Option<u64> {
    const Z: f64 = 1.959_963_984_540_054;
    let r = resolution(target, players);
    let (samples, share) = match target {
        Target::Balance => {
            let g = goal(target, players);
            (
                Z * Z * g * (1.0 - g) / (r * r),
                s.decided as f64 / s.games as f64,
            )
        }
        Target::Length(_) => {
            let h = if s.turns.games > 0 {
                &s.turns
            } else {
                &s.moves
            };
            let sd = h.sd().max(1.0);
            ((Z * sd / r).powi(2), h.games as f64 / s.games as f64)
        }
    };
    (share > 0.0 && samples.is_finite()).then(|| (samples / share).ceil() as u64)
}

/// The smallest budget whose finalists play at least `games` games each, rounded up to two
/// significant figures.
fn budget_for(k: usize, games: u64) -> u64 {
    let finalists = |b: u64| schedule(k, b).1.last().copied().unwrap_or(0);
    let (mut low, mut high) = (1u64, 1u64);
    while finalists(high) < games && high < u64::MAX / 4 {
        high *= 2;
    }
    while low < high {
        let mid = low + (high - low) / 2;
        if finalists(mid) >= games {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    let digits = high.checked_ilog10().unwrap_or(0);
    let unit = 10u64.pow(digits.saturating_sub(1));
    high.div_ceil(unit) * unit
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
    /// The move cap.
    #[serde(default = "default_max_moves")]
    pub max_moves: u32,
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
) -> Result<TuneShard, RunError> {
    let cands = candidates(game, t)?;
    let (rounds, ends) = schedule(cands.len(), t.budget);
    let (players, bot_notes) = run_engine(&cands[0].1, Setup(&cands[0].2))?;
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
        Ok::<_, RunError>(candidates)
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
        max_moves: t.sim.max_moves,
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
    })
    .map_err(|e| e.message)?;
    let head = Head {
        game: first.game.clone(),
        seed: first.seed,
        players: first.players,
        bots: first.bots.clone(),
        bot_notes: first.bot_notes.clone(),
        target: first.target.clone(),
        budget: first.budget,
        max_moves: first.max_moves,
        rounds: first.rounds,
    };
    let points: Vec<Vec<(String, String)>> =
        first.candidates.iter().map(|c| c.values.clone()).collect();
    Ok((
        result(head, &points, stats, &left_in),
        first.command.clone(),
    ))
}

fn default_max_moves() -> u32 {
    super::DEFAULT_MAX_MOVES
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
