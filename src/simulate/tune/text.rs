//! A tuning run in words: the table, the rule for games stopped at the cap, the verdict.

use std::fmt::Write;

use super::{Candidate, MAX_STOPPED, Target, TuneFile};
use crate::simulate::report::{percent, percent_text};

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
            "{}: tuning {} towards {goal}, {} games played (budget {}) in {} rounds of successive halving on common seeds (seed {}), bots {}",
            self.game,
            self.measure,
            self.played,
            self.budget,
            self.rounds,
            self.seed,
            self.bots.join(",")
        );
        let _ = writeln!(out, "{}", self.stopped_rule());
        let _ = writeln!(
            out,
            "\n  {:<30} {:>7} {:>7} {:>8}  {:<28} {:>5}  interval includes {goal}",
            "values", "games", "stopped", "rests on", "estimate (95 % interval)", "round"
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
                "  {values:<30} {:>7} {:>7} {:>8}  {:<28} {:>5}  {}",
                c.games,
                c.stopped,
                c.rests_on,
                format!(
                    "{} ({} to {})",
                    self.figure(c.estimate),
                    self.figure(c.low),
                    self.figure(c.high)
                ),
                c.round,
                self.includes(c)
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

    /// The last column of a candidate's row: whether its interval includes the goal, and
    /// why it is not eligible.
    pub fn includes(&self, c: &Candidate) -> String {
        let yes = if c.supported { "yes" } else { "no" };
        if c.eligible {
            yes.to_string()
        } else {
            format!(
                "{yes}, but {} of its games stopped at the cap",
                percent_text(c.stopped as f64 / c.games.max(1) as f64)
            )
        }
    }

    /// How games stopped at the move cap count, in a sentence.
    pub fn stopped_rule(&self) -> String {
        let stopped: u64 = self.candidates.iter().map(|c| c.stopped).sum();
        format!(
            "games stopped at the {}-move cap: {stopped} of {}; they have no winner and no length, so each estimate rests on the other games, and a value with more than {} of its games stopped is not eligible to be named best.",
            self.max_moves,
            self.played,
            percent_text(MAX_STOPPED)
        )
    }

    /// The claim the figures support, in a sentence.
    pub fn verdict(&self) -> String {
        let goal = self.figure(self.goal);
        if let Some(values) = &self.best {
            let v = values
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            return format!(
                "best: {v}, the finalist nearest {goal}; its 95 % interval includes it. Values whose interval also includes it are as good on these games.",
            );
        }
        let finalists = || self.candidates.iter().filter(|c| c.round == self.rounds);
        let within = self.figure_width(self.resolution);
        if let Some(c) = finalists().find(|c| c.supported && c.eligible) {
            let half = (c.high - c.low) / 2.0;
            let more = match self.budget_needed {
                Some(b) => format!("about --budget {b} would narrow them to ±{within}"),
                None => {
                    format!("no game gave a figure to say how many would narrow them to ±{within}")
                }
            };
            return format!(
                "no best is claimed: the budget is too small to tell the values apart ({} games played, each finalist's 95 % interval is about ±{} wide, more than ±{within}); {more}.",
                self.played,
                self.figure_width(half)
            );
        }
        if finalists().any(|c| c.supported) {
            return format!(
                "no best is claimed: every finalist whose interval includes {goal} had more than {} of its games stopped at the {}-move cap; raise --max-moves or change the ranges.",
                percent_text(MAX_STOPPED),
                self.max_moves
            );
        }
        format!(
            "no finalist's 95 % interval includes {goal}: none is claimed; widen the ranges or raise --budget."
        )
    }

    /// A width of the measure in its unit (percentage points for a share).
    fn figure_width(&self, x: f64) -> String {
        if self.is_share() {
            format!("{:.1} points", percent(x))
        } else {
            format!("{x:.1}")
        }
    }

    /// The warning printed when a bot plays at random.
    pub fn random_warning(&self) -> Option<String> {
        self.bots.iter().any(|b| b == "random").then(|| {
            "warning: the `random` bot moves at random; a value tuned for it balances the game for players who do not try, not for people who do.".to_string()
        })
    }
}
