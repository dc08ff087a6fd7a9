//! What a run reports: the raw totals (which `printplay merge` adds up) and the figures
//! derived from them, as JSON and as a text table.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::SimOptions;
use super::stats::{POINT, Stats, difference, wilson};
use crate::model::Game;

/// The JSON format's name and version.
pub const FORMAT: &str = "printplay-sim/1";

/// One reading of the rules, simulated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub game: String,
    pub engine: String,
    pub seed: u64,
    /// Games in the whole run (all shards).
    pub games: u64,
    pub shard_count: u64,
    /// Shards these totals cover.
    pub shards: Vec<u64>,
    pub players: usize,
    pub bots: Vec<String>,
    pub variants: BTreeMap<String, String>,
    pub max_moves: u32,
    pub stats: Stats,
    /// Derived from `stats`; recomputed on merge.
    pub summary: Summary,
}

/// A rate with its 95 % Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    fn of(successes: f64, n: f64) -> Rate {
        let (low, high) = wilson(successes, n);
        Rate {
            rate: if n > 0.0 { successes / n } else { 0.0 },
            low,
            high,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Points per game of each seat (wins, with shares for ties).
    pub seat_win_rates: Vec<Rate>,
    pub bot_win_rates: BTreeMap<String, Rate>,
    /// Share of decided games that the first seat won.
    pub first_player_wins: Rate,
    /// First seat's share of decided games minus an even share.
    pub first_player_advantage: f64,
    pub shared_loss_rate: Rate,
    pub timeout_rate: Rate,
    pub length_mean: f64,
    pub length_median: u32,
    pub length_p90: u32,
    pub length_max: u32,
    /// Ludii-style: 1 minus the spread between the best and worst seat's win rate.
    pub balance: f64,
    /// Ludii-style: share of games with a sole winner.
    pub decisiveness: f64,
    /// Ludii-style: mean moves per game.
    pub duration: f64,
    /// Mean, standard deviation, min and max of each end statistic.
    pub end_stats: BTreeMap<String, [f64; 4]>,
}

impl Summary {
    pub fn of(s: &Stats, players: usize) -> Summary {
        let n = s.games as f64;
        let seat_win_rates: Vec<Rate> = (0..players)
            .map(|i| Rate::of(s.seat_points.get(i).copied().unwrap_or(0) as f64 / POINT, n))
            .collect();
        let bot_win_rates = s
            .bots
            .iter()
            .map(|(k, b)| (k.clone(), Rate::of(b.points as f64 / POINT, b.seats as f64)))
            .collect();
        let first = s.seat_wins.first().copied().unwrap_or(0) as f64;
        let first_player_wins = Rate::of(first, s.decided as f64);
        let rates: Vec<f64> = seat_win_rates.iter().map(|r| r.rate).collect();
        let spread = rates.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
            - rates.iter().cloned().fold(f64::INFINITY, f64::min);
        Summary {
            first_player_advantage: if s.decided > 0 {
                first_player_wins.rate - 1.0 / players as f64
            } else {
                0.0
            },
            seat_win_rates,
            bot_win_rates,
            first_player_wins,
            shared_loss_rate: Rate::of(s.shared_losses as f64, n),
            timeout_rate: Rate::of(s.timeouts as f64, n),
            length_mean: s.length_mean(),
            length_median: s.length_quantile(0.5),
            length_p90: s.length_quantile(0.9),
            length_max: s.length_max(),
            balance: if rates.is_empty() { 1.0 } else { 1.0 - spread },
            decisiveness: s.decided as f64 / n.max(1.0),
            duration: s.length_mean(),
            end_stats: s
                .end_stats
                .iter()
                .map(|(k, a)| {
                    let scale = super::stats::STAT;
                    (
                        k.clone(),
                        [a.mean(), a.sd(), a.min as f64 / scale, a.max as f64 / scale],
                    )
                })
                .collect(),
        }
    }
}

impl RunReport {
    pub fn new(game: &Game, opts: &SimOptions, players: usize, stats: Stats) -> RunReport {
        let summary = Summary::of(&stats, players);
        RunReport {
            game: game.slug.clone(),
            engine: game.info.engine.clone().unwrap_or_default(),
            seed: opts.seed,
            games: opts.games,
            shard_count: opts.shard.count,
            shards: vec![opts.shard.index],
            players,
            bots: opts.bots.clone(),
            variants: opts.variants.clone(),
            max_moves: opts.max_moves,
            stats,
            summary,
        }
        .normalised()
    }

    /// A run covering every shard is the same as one unsharded run.
    fn normalised(mut self) -> RunReport {
        if self.shards.len() as u64 == self.shard_count {
            self.shard_count = 1;
            self.shards = vec![0];
        }
        self
    }

    fn same_run(&self, o: &RunReport) -> bool {
        (
            &self.game,
            &self.engine,
            self.seed,
            self.games,
            self.shard_count,
            self.players,
            &self.bots,
            &self.variants,
            self.max_moves,
        ) == (
            &o.game,
            &o.engine,
            o.seed,
            o.games,
            o.shard_count,
            o.players,
            &o.bots,
            &o.variants,
            o.max_moves,
        )
    }

    fn merge(&mut self, o: &RunReport) -> Result<(), String> {
        if !self.same_run(o) {
            return Err(format!(
                "the files are not shards of one run (game, seed, games, shard count, players, bots, variants and move cap must agree): {} seed {} vs {} seed {}",
                self.game, self.seed, o.game, o.seed
            ));
        }
        if let Some(dup) = o.shards.iter().find(|s| self.shards.contains(s)) {
            return Err(format!("shard {dup}/{} appears twice", self.shard_count));
        }
        self.shards.extend(&o.shards);
        self.shards.sort_unstable();
        self.stats.merge(&o.stats);
        self.summary = Summary::of(&self.stats, self.players);
        Ok(())
    }

    /// Nobody scoring is a shared loss with several players, a plain loss alone.
    pub fn loss_label(&self) -> &'static str {
        if self.players > 1 {
            "shared loss"
        } else {
            "loss"
        }
    }

    /// The text table.
    pub fn text(&self) -> String {
        let s = &self.summary;
        let st = &self.stats;
        let mut out = String::new();
        let variants = if self.variants.is_empty() {
            "default rules".to_string()
        } else {
            let v: Vec<String> = self
                .variants
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            v.join(" ")
        };
        let _ = writeln!(
            out,
            "{}: {} games, seed {}, {} players, bots {}, {variants}",
            self.game,
            st.games,
            self.seed,
            self.players,
            self.bots.join(",")
        );
        if self.shard_count > 1 {
            let shards: Vec<String> = self.shards.iter().map(u64::to_string).collect();
            let _ = writeln!(out, "shards {} of {}", shards.join(","), self.shard_count);
        }
        let _ = writeln!(
            out,
            "\n{:<28} {:>8}  {:<17}",
            "win rate", "rate", "95 % interval"
        );
        for (i, r) in s.seat_win_rates.iter().enumerate() {
            let _ = writeln!(out, "{:<28} {}", format!("seat {}", i + 1), rate(r));
        }
        for (bot, r) in &s.bot_win_rates {
            let _ = writeln!(out, "{:<28} {}", format!("bot {bot}"), rate(r));
        }
        if self.players > 1 {
            let first = rate(&s.first_player_wins);
            let _ = writeln!(out, "{:<28} {first}", "first seat, of decided");
        }
        let _ = writeln!(
            out,
            "{:<28} {}",
            self.loss_label(),
            rate(&s.shared_loss_rate)
        );
        let _ = writeln!(out, "{:<28} {}", "turn-cap timeout", rate(&s.timeout_rate));
        let _ = writeln!(out, "\nend reasons:");
        for (reason, n) in &st.end_reasons {
            let _ = writeln!(out, "  {reason:<26} {n:>8}  {:>6.1} %", pct(*n, st.games));
        }
        let _ = writeln!(
            out,
            "\nlength in moves: mean {:.1}, median {}, p90 {}, max {}",
            s.length_mean, s.length_median, s.length_p90, s.length_max
        );
        let _ = writeln!(
            out,
            "balance {:.3}, decisiveness {:.3}, duration {:.1} moves, first-seat advantage {:+.3}",
            s.balance, s.decisiveness, s.duration, s.first_player_advantage
        );
        if !s.end_stats.is_empty() {
            let _ = writeln!(
                out,
                "\nat the end (finished games): {:>8} {:>7} {:>7} {:>7}",
                "mean", "sd", "min", "max"
            );
            for (k, [mean, sd, min, max]) in &s.end_stats {
                let _ = writeln!(out, "  {k:<26} {mean:>8.2} {sd:>7.2} {min:>7} {max:>7}");
            }
        }
        let moves: u64 = st.actions.values().sum();
        let _ = writeln!(out, "\nmoves by kind:");
        for (kind, n) in &st.actions {
            let _ = writeln!(out, "  {kind:<26} {n:>10}  {:>6.1} %", pct(*n, moves));
        }
        out
    }
}

fn pct(n: u64, of: u64) -> f64 {
    100.0 * n as f64 / of.max(1) as f64
}

fn rate(r: &Rate) -> String {
    format!(
        "{:>7.1} %  {:>6.1} - {:>5.1} %",
        r.rate * 100.0,
        r.low * 100.0,
        r.high * 100.0
    )
}

/// A difference between two readings, with its 95 % interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub measure: String,
    pub difference: f64,
    pub low: f64,
    pub high: f64,
}

/// What `--json` writes and `printplay merge` reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimFile {
    pub format: String,
    /// With `--compare`: the variant whose readings the runs are.
    pub compare: Option<String>,
    pub runs: Vec<RunReport>,
    /// With `--compare`: second run minus first.
    pub differences: Vec<Difference>,
}

impl SimFile {
    pub fn new(compare: Option<String>, runs: Vec<RunReport>) -> SimFile {
        let differences = match (&compare, runs.as_slice()) {
            (Some(_), [a, b]) => differences(a, b),
            _ => Vec::new(),
        };
        SimFile {
            format: FORMAT.into(),
            compare,
            runs,
            differences,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("simulation reports serialise") + "\n"
    }

    pub fn from_json(text: &str, name: &str) -> Result<SimFile, String> {
        let file: SimFile = serde_json::from_str(text)
            .map_err(|e| format!("{name}: not a simulation report: {e}"))?;
        if file.format != FORMAT {
            return Err(format!(
                "{name}: format `{}`, expected `{FORMAT}`",
                file.format
            ));
        }
        Ok(file)
    }

    pub fn text(&self) -> String {
        let mut out: Vec<String> = self.runs.iter().map(RunReport::text).collect();
        if let (Some(name), [a, b]) = (&self.compare, self.runs.as_slice()) {
            let mut t = format!(
                "{name}: {} minus {} (same seeds; 95 % intervals)\n",
                b.variants.get(name).map_or("?", String::as_str),
                a.variants.get(name).map_or("?", String::as_str)
            );
            for d in &self.differences {
                let _ = writeln!(
                    t,
                    "  {:<34} {:>+9.4}  {:>+9.4} .. {:>+9.4}",
                    d.measure, d.difference, d.low, d.high
                );
            }
            out.push(t);
        }
        out.join("\n")
    }
}

/// Second reading minus first: win rates, shared losses, timeouts (Newcombe intervals)
/// and mean length (normal interval).
fn differences(a: &RunReport, b: &RunReport) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut rate_diff = |name: String, ra: &Rate, rb: &Rate| {
        let (d, low, high) = difference(rb.rate, (rb.low, rb.high), ra.rate, (ra.low, ra.high));
        out.push(Difference {
            measure: name,
            difference: d,
            low,
            high,
        });
    };
    let (sa, sb) = (&a.summary, &b.summary);
    for (i, (ra, rb)) in sa.seat_win_rates.iter().zip(&sb.seat_win_rates).enumerate() {
        rate_diff(format!("seat {} win rate", i + 1), ra, rb);
    }
    rate_diff(
        "shared loss rate".into(),
        &sa.shared_loss_rate,
        &sb.shared_loss_rate,
    );
    rate_diff("timeout rate".into(), &sa.timeout_rate, &sb.timeout_rate);
    let decisive = |r: &RunReport| {
        let (low, high) = wilson(r.stats.decided as f64, r.stats.games as f64);
        Rate {
            rate: r.summary.decisiveness,
            low,
            high,
        }
    };
    rate_diff("decisiveness".into(), &decisive(a), &decisive(b));
    let (na, nb) = (a.stats.games.max(1) as f64, b.stats.games.max(1) as f64);
    let d = b.stats.length_mean() - a.stats.length_mean();
    let se = (a.stats.length_sd().powi(2) / na + b.stats.length_sd().powi(2) / nb).sqrt();
    out.push(Difference {
        measure: "mean length (moves)".into(),
        difference: d,
        low: d - 1.96 * se,
        high: d + 1.96 * se,
    });
    out
}

/// `printplay merge`: adds up shards of one run into the totals of the whole run.
pub fn merge_files(files: &[SimFile]) -> Result<SimFile, String> {
    let (first, rest) = files.split_first().ok_or("merge needs at least one file")?;
    let mut runs = first.runs.clone();
    for f in rest {
        if f.compare != first.compare || f.runs.len() != runs.len() {
            return Err("the files come from different kinds of run (compare or not)".into());
        }
        for (mine, theirs) in runs.iter_mut().zip(&f.runs) {
            mine.merge(theirs)?;
        }
    }
    let runs = runs.into_iter().map(RunReport::normalised).collect();
    Ok(SimFile::new(first.compare.clone(), runs))
}
