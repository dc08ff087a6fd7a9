//! What a run reports: the raw totals (which `printplay merge` adds up) and the figures
//! derived from them, as JSON and as a text table.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::SimOptions;
use super::cards::{self, CardRow};
use super::stats::{Histogram, POINT, STAT, Stats, difference, wilson};
use super::sweep::{self, SweepPoint};
use crate::model::Game;

/// The JSON format's name and version.
pub const FORMAT: &str = "printplay-sim/4";

/// One reading of the rules, simulated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub game: String,
    pub engine: String,
    pub seed: u64,
    /// Games in the whole run (all shards).
    pub games: u64,
    pub shard_count: u64,
    /// Shards these totals cover, numbered from 1 as `--shard I/N` counts them.
    pub shards: Vec<u64>,
    pub players: usize,
    /// Each seat's name (a role or a player colour from the data), first seat first.
    pub seat_names: Vec<String>,
    pub bots: Vec<String>,
    /// Variants set on the command line; [`RestsOn::readings`] lists every one.
    pub variants: BTreeMap<String, String>,
    /// `[params.*]` values set by `--sweep` (the data's values otherwise).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, String>,
    pub max_moves: u32,
    pub rests_on: RestsOn,
    pub stats: Stats,
    /// Derived from `stats`; recomputed on merge.
    pub summary: Summary,
    /// With `--cards`: one row per design, most telling first (derived from `stats`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<Vec<CardRow>>,
    /// With `--cards`: why there is no cards table, when the engine does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards_note: Option<String>,
}

/// What the figures rest on besides the rulebook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestsOn {
    /// Values of the data the rulebook does not print: our reconstructions.
    pub reconstructed_values: usize,
    /// Values inferred from printed facts.
    pub inferred_values: usize,
    /// An original design (no rulebook): its values are the designer's own.
    #[serde(default)]
    pub original: bool,
    /// Every rule variant of the engine and the reading these games were played by.
    pub readings: Vec<Reading>,
    /// What each bot is.
    pub bots: Vec<BotNote>,
}

/// The reading of one ambiguity the games were played by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    pub variant: String,
    pub value: String,
    /// Whether it is the engine's default reading.
    pub default: bool,
}

/// A bot and what it does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotNote {
    pub bot: String,
    pub plays: String,
}

/// A rate with its 95 % Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub(crate) fn of(successes: f64, n: f64) -> Rate {
        let (low, high) = wilson(successes, n);
        Rate {
            rate: if n > 0.0 { successes / n } else { 0.0 },
            low,
            high,
        }
    }
}

/// A seat's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatSummary {
    /// 1 for the first seat.
    pub seat: usize,
    pub name: String,
    /// Points per game (a win 1, shares for ties), with its interval.
    pub win_rate: Rate,
}

/// A bot's results over every seat it played.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BotSummary {
    pub bot: String,
    pub seats_played: u64,
    pub win_rate: Rate,
}

/// Game length over the finished games (timeouts are counted apart).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Length {
    pub games: u64,
    pub mean: f64,
    pub sd: f64,
    pub median: u32,
    pub p90: u32,
    pub max: u32,
}

impl Length {
    fn of(h: &Histogram) -> Length {
        Length {
            games: h.games,
            mean: h.mean(),
            sd: h.sd(),
            median: h.quantile(0.5),
            p90: h.quantile(0.9),
            max: h.max(),
        }
    }
}

/// An end statistic over the finished games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub seats: Vec<SeatSummary>,
    pub bots: Vec<BotSummary>,
    /// Share of the decided games that the first seat won.
    pub first_seat_share_of_decided: Rate,
    /// That share minus an even share (1 / players).
    pub first_seat_advantage: f64,
    pub shared_loss_rate: Rate,
    pub timeout_rate: Rate,
    pub length_in_moves: Length,
    /// `None` when the engine does not count turns.
    pub length_in_turns: Option<Length>,
    /// Ludii-style: 1 minus the spread between the best and worst seat's win rate.
    pub balance: f64,
    /// Ludii-style: share of games with a sole winner.
    pub decisiveness: f64,
    pub end_stats: BTreeMap<String, Spread>,
}

impl Summary {
    pub fn of(s: &Stats, seat_names: &[String]) -> Summary {
        let n = s.games as f64;
        let players = seat_names.len();
        let seats: Vec<SeatSummary> = seat_names
            .iter()
            .enumerate()
            .map(|(i, name)| SeatSummary {
                seat: i + 1,
                name: name.clone(),
                win_rate: Rate::of(s.seat_points.get(i).copied().unwrap_or(0) as f64 / POINT, n),
            })
            .collect();
        let bots = s
            .bots
            .iter()
            .map(|(k, b)| BotSummary {
                bot: k.clone(),
                seats_played: b.seats,
                win_rate: Rate::of(b.points as f64 / POINT, b.seats as f64),
            })
            .collect();
        let first = s.seat_wins.first().copied().unwrap_or(0) as f64;
        let first_seat = Rate::of(first, s.decided as f64);
        let rates: Vec<f64> = seats.iter().map(|r| r.win_rate.rate).collect();
        let spread = rates.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
            - rates.iter().cloned().fold(f64::INFINITY, f64::min);
        Summary {
            first_seat_advantage: if s.decided > 0 {
                first_seat.rate - 1.0 / players as f64
            } else {
                0.0
            },
            seats,
            bots,
            first_seat_share_of_decided: first_seat,
            shared_loss_rate: Rate::of(s.shared_losses as f64, n),
            timeout_rate: Rate::of(s.timeouts as f64, n),
            length_in_moves: Length::of(&s.moves),
            length_in_turns: (s.turns.games > 0).then(|| Length::of(&s.turns)),
            balance: if rates.is_empty() { 1.0 } else { 1.0 - spread },
            decisiveness: s.decided as f64 / n.max(1.0),
            end_stats: s
                .end_stats
                .iter()
                .map(|(k, a)| {
                    let spread = Spread {
                        mean: a.mean(),
                        sd: a.sd(),
                        min: a.min as f64 / STAT,
                        max: a.max as f64 / STAT,
                    };
                    (k.clone(), spread)
                })
                .collect(),
        }
    }
}

impl RunReport {
    pub fn new(
        game: &Game,
        opts: &SimOptions,
        seat_names: Vec<String>,
        rests_on: RestsOn,
        stats: Stats,
    ) -> RunReport {
        let summary = Summary::of(&stats, &seat_names);
        let names = cards::names(game);
        let mut report = RunReport {
            game: game.slug.clone(),
            engine: game.info.engine.clone().unwrap_or_default(),
            seed: opts.seed,
            games: opts.games,
            shard_count: opts.shard.count,
            shards: vec![opts.shard.number()],
            players: seat_names.len(),
            seat_names,
            bots: opts.bots.clone(),
            variants: opts.variants.clone(),
            params: BTreeMap::new(),
            max_moves: opts.max_moves,
            rests_on,
            stats,
            summary,
            cards: None,
            cards_note: None,
        };
        report.derive_cards(&names);
        report.normalised()
    }

    /// The cards table from the totals (`names`: design names by id).
    fn derive_cards(&mut self, names: &BTreeMap<String, String>) {
        let Some(c) = &self.stats.cards else {
            return;
        };
        if c.moves_said == 0 {
            self.cards = None;
            self.cards_note = Some(cards::not_offered(&self.engine));
        } else {
            self.cards = Some(cards::rows(c, self.stats.games, names));
            self.cards_note = None;
        }
    }

    /// A run covering every shard is the same as one unsharded run.
    fn normalised(mut self) -> RunReport {
        if self.shards.len() as u64 == self.shard_count {
            self.shard_count = 1;
            self.shards = vec![1];
        }
        self
    }

    /// What differs between two reports' run settings, each as `name: mine against theirs`;
    /// empty when they are shards of one run.
    pub(crate) fn run_differences(&self, o: &RunReport) -> Vec<String> {
        fn field<T: PartialEq + std::fmt::Debug>(out: &mut Vec<String>, name: &str, a: T, b: T) {
            if a != b {
                out.push(format!("{name} {a:?} against {b:?}"));
            }
        }
        let mut out = Vec::new();
        field(&mut out, "game", &self.game, &o.game);
        field(&mut out, "engine", &self.engine, &o.engine);
        field(&mut out, "seed", self.seed, o.seed);
        field(&mut out, "games", self.games, o.games);
        field(&mut out, "shard count", self.shard_count, o.shard_count);
        field(&mut out, "players", self.players, o.players);
        field(&mut out, "bots", &self.bots, &o.bots);
        field(&mut out, "variants", &self.variants, &o.variants);
        field(&mut out, "parameters", &self.params, &o.params);
        field(&mut out, "move cap", self.max_moves, o.max_moves);
        field(
            &mut out,
            "--cards",
            self.stats.cards.is_some(),
            o.stats.cards.is_some(),
        );
        out
    }

    /// Adds shard report `o` (read from file `name`) to this one (the first file's, `first`).
    fn merge(&mut self, o: &RunReport, first: &str, name: &str) -> Result<(), String> {
        let differences = self.run_differences(o);
        if !differences.is_empty() {
            return Err(format!(
                "{name} is not a shard of the run in {first}: {} (game, engine, seed, games, shard count, players, bots, variants and move cap must agree)",
                differences.join("; ")
            ));
        }
        if let Some(dup) = o.shards.iter().find(|s| self.shards.contains(s)) {
            return Err(format!(
                "shard {dup}/{} is given twice ({name} holds games another file already gave)",
                self.shard_count
            ));
        }
        self.shards.extend(&o.shards);
        self.shards.sort_unstable();
        self.stats.merge(&o.stats);
        self.summary = Summary::of(&self.stats, &self.seat_names);
        let names: BTreeMap<String, String> = [&self.cards, &o.cards]
            .into_iter()
            .flatten()
            .flatten()
            .map(|r| (r.id.clone(), r.name.clone()))
            .collect();
        self.derive_cards(&names);
        Ok(())
    }

    /// Refuses a merge that leaves shards out: its totals would not be the run's.
    fn check_complete(&self) -> Result<(), String> {
        let missing: Vec<String> = (1..=self.shard_count)
            .filter(|n| !self.shards.contains(n))
            .map(|n| n.to_string())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(format!(
            "shards {} of {} are missing (a gap in the files given: every shard 1..{} must be merged once)",
            missing.join(", "),
            self.shard_count,
            self.shard_count
        ))
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
        self.text_at(None)
    }

    /// The text table, its heading naming the swept values `at` (`hand_size=4`) when the run
    /// is one value of a sweep.
    pub fn text_at(&self, at: Option<&str>) -> String {
        let mut out = String::new();
        self.write_heading(&mut out, at);
        self.write_rates(&mut out);
        self.write_lengths(&mut out);
        self.write_end(&mut out);
        if let Some(rows) = &self.cards {
            out.push_str(&cards::text(rows, None));
        }
        if let Some(note) = &self.cards_note {
            let _ = writeln!(out, "\n{note}");
        }
        self.write_rests_on(&mut out);
        out
    }

    fn write_heading(&self, out: &mut String, at: Option<&str>) {
        let st = &self.stats;
        let seats: Vec<String> = self
            .seat_names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{} {n}", ordinal(i + 1)))
            .collect();
        let _ = writeln!(
            out,
            "{}{}: {}, seed {}, {} players ({}), bots {}",
            self.game,
            at.map_or(String::new(), |at| format!(" at {at}")),
            crate::messages::count_of(st.games, "game", "games"),
            self.seed,
            self.players,
            seats.join(", "),
            self.bots.join(",")
        );
        if self.shard_count > 1 {
            let shards: Vec<String> = self.shards.iter().map(u64::to_string).collect();
            let word = if shards.len() == 1 { "shard" } else { "shards" };
            let _ = writeln!(out, "{word} {} of {}", shards.join(","), self.shard_count);
        }
    }

    fn write_rates(&self, out: &mut String) {
        let s = &self.summary;
        let _ = writeln!(
            out,
            "\n{:<34} {:>8}  {:<17}",
            "win rate", "rate", "95 % interval"
        );
        for seat in &s.seats {
            let _ = writeln!(out, "{:<34} {}", seat.name, rate(&seat.win_rate));
        }
        for b in &s.bots {
            let label = format!("bot {} ({} seats)", b.bot, b.seats_played);
            let _ = writeln!(out, "{label:<34} {}", rate(&b.win_rate));
        }
        if self.players > 1 {
            let label = format!("{} seat, of decided games", self.seat_names[0]);
            let _ = writeln!(out, "{label:<34} {}", rate(&s.first_seat_share_of_decided));
        }
        let _ = writeln!(
            out,
            "{:<34} {}",
            self.loss_label(),
            rate(&s.shared_loss_rate)
        );
        let _ = writeln!(
            out,
            "{:<34} {}",
            format!("stopped at {} moves", self.max_moves),
            rate(&s.timeout_rate)
        );
        let _ = writeln!(
            out,
            "balance {:.3}, decisiveness {:.3}, first-seat advantage {:+.1} points",
            s.balance,
            s.decisiveness,
            s.first_seat_advantage * 100.0
        );
    }

    fn write_lengths(&self, out: &mut String) {
        let s = &self.summary;
        let _ = writeln!(
            out,
            "\nlength of the {} (timeouts apart):",
            crate::messages::count_of(s.length_in_moves.games, "finished game", "finished games")
        );
        let mut line = |unit: &str, l: &Length| {
            let _ = writeln!(
                out,
                "  in {unit:<6} mean {:.1}, median {}, p90 {}, max {}",
                l.mean, l.median, l.p90, l.max
            );
        };
        line("moves", &s.length_in_moves);
        if let Some(turns) = &s.length_in_turns {
            line("turns", turns);
        }
    }

    fn write_end(&self, out: &mut String) {
        let (s, st) = (&self.summary, &self.stats);
        let _ = writeln!(out, "\nend reasons:");
        for (reason, n) in &st.end_reasons {
            let _ = writeln!(out, "  {reason:<32} {n:>8}  {:>6.1} %", pct(*n, st.games));
        }
        if !s.end_stats.is_empty() {
            let _ = writeln!(
                out,
                "\nat the end (finished games):       {:>8} {:>7} {:>7} {:>7}",
                "mean", "sd", "min", "max"
            );
            for (k, v) in &s.end_stats {
                let _ = writeln!(
                    out,
                    "  {k:<32} {:>8.2} {:>7.2} {:>7} {:>7}",
                    v.mean, v.sd, v.min, v.max
                );
            }
        }
        let moves: u64 = st.actions.values().sum();
        let _ = writeln!(out, "\nmoves by kind:");
        for (kind, n) in &st.actions {
            let _ = writeln!(out, "  {kind:<32} {n:>10}  {:>6.1} %", pct(*n, moves));
        }
    }

    fn write_rests_on(&self, out: &mut String) {
        let r = &self.rests_on;
        if r.original {
            let _ = writeln!(
                out,
                "\nthese figures rest on: an original design's data (every value the designer's own)"
            );
        } else {
            let _ = writeln!(
                out,
                "\nthese figures rest on: {} reconstructed and {} inferred values of the data (printplay check {} --provenance lists them)",
                r.reconstructed_values, r.inferred_values, self.game
            );
        }
        for reading in &r.readings {
            let how = if reading.default {
                "the default reading"
            } else {
                "not the default"
            };
            let _ = writeln!(out, "  {}={} ({how})", reading.variant, reading.value);
        }
        for b in &r.bots {
            let _ = writeln!(out, "  bot {}: {}", b.bot, b.plays);
        }
    }
}

/// "first", "second"... for seat headings.
fn ordinal(n: usize) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        5 => "fifth".into(),
        n => format!("seat {n}:"),
    }
}

/// What the figures mean, in plain words: printed under every report.
pub const EXPLANATION: &str = "\
how to read this:
  95 % interval  the range the true rate lies in, given these games, 19 times in 20; more
                 games narrow it. Two readings differ clearly when their intervals do not overlap.
  balance        1 minus the gap between the best and the worst seat's win rate: 1 when every
                 seat wins as often, 0 when one seat always wins. It counts every game, so when
                 few games have a winner (low decisiveness) it is near 1 whoever plays: read
                 it beside the decisiveness.
  decisiveness   the share of games with a single winner (not a shared loss, tie or timeout).
  first-seat advantage  how many points (per 100 decided games) the first seat wins above an
                 even share; near 0 means moving first does not matter.";

/// A share (0 to 1) as the percentage every report and chart prints, rounded once to one
/// decimal, halves away from zero: the same share prints the same wherever it appears (the
/// shared-loss rate and the end reason that is the shared loss both print 62.1 %, where
/// `100 * n / games` and `rate * 100` once printed 62.0 % and 62.1 %).
pub fn percent(share: f64) -> f64 {
    (share * 1000.0).round() / 10.0
}

/// A share as text: `24.6 %`.
pub fn percent_text(share: f64) -> String {
    format!("{:.1} %", percent(share))
}

fn pct(n: u64, of: u64) -> f64 {
    percent(n as f64 / of.max(1) as f64)
}

fn rate(r: &Rate) -> String {
    format!(
        "{:>7.1} %  {:>6.1} - {:>5.1} %",
        percent(r.rate),
        percent(r.low),
        percent(r.high)
    )
}

/// A difference between two readings, with its 95 % interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub measure: String,
    /// `percentage points` for rates, `moves` or `turns` for lengths.
    pub unit: String,
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
    /// With `--sweep`: the swept names, and one point per value (or grid point), in the
    /// order of `runs`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub swept: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sweep: Vec<SweepPoint>,
    /// With `--playtests`: the person games stored at the table, shown beside the bots'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persons: Option<super::persons::PersonGames>,
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
            swept: Vec::new(),
            sweep: Vec::new(),
            persons: None,
        }
    }

    /// A sweep over `swept` (parameters or variants), one run per point.
    pub fn swept(swept: Vec<String>, runs: Vec<RunReport>) -> SimFile {
        let mut file = SimFile::new(None, runs);
        file.sweep = file
            .runs
            .iter()
            .map(|r| SweepPoint::of(&swept, r))
            .collect();
        file.swept = swept;
        file
    }

    /// The cards tables of every run as one CSV (a `reading` column for `--compare`).
    pub fn cards_csv(&self) -> Result<Vec<u8>, String> {
        let runs: Vec<(Option<String>, &[CardRow])> = self
            .runs
            .iter()
            .map(|r| {
                let reading = self
                    .compare
                    .as_ref()
                    .and_then(|c| r.variants.get(c).cloned());
                (reading, r.cards.as_deref().unwrap_or_default())
            })
            .collect();
        cards::csv(&runs)
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
        let mut out: Vec<String> = self
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let at = self.sweep.get(i).map(|p| {
                    p.values
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                });
                let at = at.or_else(|| {
                    let name = self.compare.as_ref()?;
                    Some(format!("{name}={}", r.variants.get(name)?))
                });
                r.text_at(at.as_deref())
            })
            .collect();
        if let (Some(name), [a, b]) = (&self.compare, self.runs.as_slice()) {
            let mut t = format!(
                "{name}={} minus {name}={}, game by game on the same seeds (95 % intervals):\n",
                b.variants.get(name).map_or("?", String::as_str),
                a.variants.get(name).map_or("?", String::as_str)
            );
            for d in &self.differences {
                let _ = writeln!(
                    t,
                    "  {:<34} {:>+7.1} {:<18} {:>+7.1} to {:>+7.1}",
                    d.measure, d.difference, d.unit, d.low, d.high
                );
            }
            out.push(t);
        }
        if !self.swept.is_empty() {
            let names = self
                .runs
                .first()
                .map(|r| r.seat_names.clone())
                .unwrap_or_default();
            out.push(sweep::text(&self.swept, &names, &self.sweep));
        }
        out.push(EXPLANATION.to_string());
        out.join("\n")
    }
}

const POINTS: &str = "percentage points";

/// Second reading minus first, in the units of the report: rates in percentage points
/// (Newcombe intervals), mean lengths in moves and turns (normal intervals).
fn differences(a: &RunReport, b: &RunReport) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut rate_diff = |name: String, ra: &Rate, rb: &Rate| {
        let (d, low, high) = difference(rb.rate, (rb.low, rb.high), ra.rate, (ra.low, ra.high));
        out.push(Difference {
            measure: name,
            unit: POINTS.into(),
            difference: d * 100.0,
            low: low * 100.0,
            high: high * 100.0,
        });
    };
    let (sa, sb) = (&a.summary, &b.summary);
    for (ra, rb) in sa.seats.iter().zip(&sb.seats) {
        rate_diff(format!("{} win rate", ra.name), &ra.win_rate, &rb.win_rate);
    }
    rate_diff(
        format!("{} rate", a.loss_label()),
        &sa.shared_loss_rate,
        &sb.shared_loss_rate,
    );
    rate_diff("timeout rate".into(), &sa.timeout_rate, &sb.timeout_rate);
    let decisive = |r: &RunReport| Rate::of(r.stats.decided as f64, r.stats.games as f64);
    rate_diff("decisiveness".into(), &decisive(a), &decisive(b));
    out.push(mean_difference(
        "mean length",
        "moves",
        &a.stats.moves,
        &b.stats.moves,
    ));
    if a.stats.turns.games > 0 && b.stats.turns.games > 0 {
        out.push(mean_difference(
            "mean length",
            "turns",
            &a.stats.turns,
            &b.stats.turns,
        ));
    }
    out
}

fn mean_difference(measure: &str, unit: &str, a: &Histogram, b: &Histogram) -> Difference {
    let (na, nb) = (a.games.max(1) as f64, b.games.max(1) as f64);
    let d = b.mean() - a.mean();
    let se = (a.sd().powi(2) / na + b.sd().powi(2) / nb).sqrt();
    Difference {
        measure: measure.into(),
        unit: unit.into(),
        difference: d,
        low: d - 1.96 * se,
        high: d + 1.96 * se,
    }
}

/// `printplay merge`: adds up shards of one run into the totals of the whole run. Each file
/// comes with its name, which the errors give.
pub fn merge_files(files: &[(String, SimFile)]) -> Result<SimFile, String> {
    let files = &super::shard::majority_first(files);
    let ((first_name, first), rest) = files.split_first().ok_or("merge needs at least one file")?;
    let mut runs = first.runs.clone();
    for (name, f) in rest {
        if f.compare != first.compare || f.runs.len() != runs.len() {
            return Err(format!(
                "{name} is not a shard of the run in {first_name}: one is a --compare run and the other is not"
            ));
        }
        if f.swept != first.swept {
            return Err(format!(
                "{name} is not a shard of the run in {first_name}: it sweeps {:?}, the first {:?}",
                f.swept, first.swept
            ));
        }
        if f.persons != first.persons {
            return Err(format!(
                "{name} shows other person games (--playtests) than {first_name}: give every shard the same --playtests database, unchanged"
            ));
        }
        for (mine, theirs) in runs.iter_mut().zip(&f.runs) {
            mine.merge(theirs, first_name, name)?;
        }
    }
    if let Some(run) = runs.first() {
        run.check_complete()?;
    }
    let runs = runs.into_iter().map(RunReport::normalised).collect();
    let mut merged = if first.swept.is_empty() {
        SimFile::new(first.compare.clone(), runs)
    } else {
        SimFile::swept(first.swept.clone(), runs)
    };
    // Every shard read the same person games: the merged run shows them once.
    merged.persons = first.persons.clone();
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_prints_the_same_wherever_it_appears() {
        // 1241 shared losses in 2000 games: the rate line and the end-reason line once gave
        // 62.1 % and 62.0 % (`rate * 100` against `100 * n / games`).
        let rate = Rate::of(1241.0, 2000.0);
        assert_eq!(percent(rate.rate), 62.1);
        assert_eq!(pct(1241, 2000), 62.1);
        for n in 0..=2000u64 {
            let share = Rate::of(n as f64, 2000.0).rate;
            assert_eq!(pct(n, 2000), percent(share), "{n}");
            assert_eq!(
                format!("{:.1}", pct(n, 2000)),
                format!("{:.1}", percent(share))
            );
        }
        assert_eq!(percent(0.0005), 0.1, "halves away from zero");
    }
}
