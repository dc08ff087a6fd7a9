//! The cards table in words (the terminal's) and as CSV.

use std::fmt::Write;

use super::{CARDS_EXPLANATION, CardRow, Diff, NOTHING_TO_COMPARE, dead_rule};
use crate::simulate::report::{Rate, percent};

/// Whether the seat-controlled difference says stronger or weaker.
fn direction(r: &CardRow) -> &'static str {
    match (
        r.flagged,
        r.seat_controlled.is_some_and(|d| d.difference > 0.0),
    ) {
        (false, _) => "",
        (true, true) => "wins more",
        (true, false) => "wins less",
    }
}

/// The text table: the first `limit` rows (all with `None`).
pub fn text(rows: &[CardRow], limit: Option<usize>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\ncards (win rate of seats that played or acquired each design for its effect; 95 % intervals, percentage points):"
    );
    let dead: u64 = rows.iter().map(|r| r.dead).sum();
    let _ = writeln!(out, "  {}", dead_rule(dead));
    let labels = labels(rows, limit);
    let width = labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let _ = writeln!(
        out,
        "  {:<width$} {:>6} {:>7} {:>6} {:>6} {:>7}  {:<22} {:<22} {:>7}  flag",
        "design", "games", "times", "dead", "with", "without", "difference", "by seat", "q"
    );
    if let Some(r) = rows.iter().find(|r| r.strata == "seat and bot") {
        let _ = writeln!(
            out,
            "  different bots played: \"by seat\" is taken within each {} (a bot's own strength does not count for the cards it plays)",
            r.strata
        );
    }
    for (r, label) in rows.iter().zip(&labels) {
        let _ = writeln!(
            out,
            "  {label:<width$} {:>6} {:>7} {:>6} {:>6} {:>7}  {:<22} {:<22} {:>7}  {}",
            r.games,
            r.times,
            r.dead,
            share(r.seats_with, &r.win_rate_with),
            share(r.seats_without, &r.win_rate_without),
            diff_or_none(&r.difference),
            diff_or_none(&r.seat_controlled),
            r.q_value.map_or("-".to_string(), |q| format!("{q:.3}")),
            direction(r)
        );
    }
    if let Some(limit) = limit.filter(|&l| rows.len() > l) {
        let _ = writeln!(out, "  ... {} more designs", rows.len() - limit);
    }
    if rows.iter().all(|r| r.p_value.is_none()) {
        let _ = writeln!(out, "  {NOTHING_TO_COMPARE}");
    }
    out.push_str(CARDS_EXPLANATION);
    out.push('\n');
    out
}

/// The widest a design's label in the text table.
pub(super) const LABEL_WIDTH: usize = 36;

/// Each shown row's label in the text table: its name, with its id where another design has
/// the same name, shortened in the middle (the end tells numbered designs apart) to
/// [`LABEL_WIDTH`]; the id alone where shortening would still leave two alike.
fn labels(rows: &[CardRow], limit: Option<usize>) -> Vec<String> {
    let shown = &rows[..rows.len().min(limit.unwrap_or(usize::MAX))];
    let named = |r: &CardRow| {
        if rows.iter().filter(|o| o.name == r.name).count() > 1 {
            format!("{} ({})", r.name, r.id)
        } else {
            r.name.clone()
        }
    };
    let mut labels: Vec<String> = shown.iter().map(|r| clip(&named(r), LABEL_WIDTH)).collect();
    for i in 0..labels.len() {
        if labels.iter().filter(|l| **l == labels[i]).count() > 1 {
            let same: Vec<usize> = (0..labels.len())
                .filter(|&j| labels[j] == labels[i])
                .collect();
            for j in same {
                labels[j] = clip(&shown[j].id, LABEL_WIDTH);
            }
        }
    }
    labels
}

/// `s` in at most `n` characters: the start and the end, with `…` for the middle.
fn clip(s: &str, n: usize) -> String {
    let count = s.chars().count();
    if count <= n {
        return s.to_string();
    }
    let tail = (n - 1) / 3;
    let head = n - 1 - tail;
    let mut c: String = s.chars().take(head).collect();
    c.push('…');
    c.extend(s.chars().skip(count - tail));
    c
}

/// A win rate as `52.3%`, or `-` for an empty group.
fn share(n: u64, r: &Rate) -> String {
    if n == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", percent(r.rate))
    }
}

/// [`diff`], or `-` when there is nothing to compare.
pub fn diff_or_none(d: &Option<Diff>) -> String {
    d.as_ref().map_or_else(|| "-".to_string(), diff)
}

/// A difference as `+5.2 (+1.0 to +9.4)` percentage points.
pub fn diff(d: &Diff) -> String {
    format!(
        "{:+.1} ({:+.1} to {:+.1})",
        percent(d.difference),
        percent(d.low),
        percent(d.high)
    )
}

/// The CSV of the cards table: every row, every figure.
pub fn csv(runs: &[(Option<String>, &[CardRow])]) -> Result<Vec<u8>, String> {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record([
        "reading",
        "id",
        "name",
        "games",
        "times",
        "dead plays",
        "seats with",
        "seats without",
        "win rate with",
        "low",
        "high",
        "win rate without",
        "low",
        "high",
        "difference",
        "low",
        "high",
        "seat-controlled difference",
        "low",
        "high",
        "p",
        "q (Benjamini-Hochberg)",
        "flagged",
    ])
    .map_err(|e| e.to_string())?;
    let opt = |x: Option<f64>| x.map_or(String::new(), |v| v.to_string());
    for (reading, rows) in runs {
        for r in *rows {
            let mut rec = vec![
                reading.clone().unwrap_or_default(),
                r.id.clone(),
                r.name.clone(),
                r.games.to_string(),
                r.times.to_string(),
                r.dead.to_string(),
                r.seats_with.to_string(),
                r.seats_without.to_string(),
            ];
            for rate in [&r.win_rate_with, &r.win_rate_without] {
                rec.extend([rate.rate, rate.low, rate.high].map(|x| x.to_string()));
            }
            for d in [&r.difference, &r.seat_controlled] {
                match d {
                    Some(d) => rec.extend([d.difference, d.low, d.high].map(|x| x.to_string())),
                    None => rec.extend([String::new(), String::new(), String::new()]),
                }
            }
            rec.push(opt(r.p_value));
            rec.push(opt(r.q_value));
            rec.push(r.flagged.to_string());
            out.write_record(&rec).map_err(|e| e.to_string())?;
        }
    }
    out.into_inner().map_err(|e| e.to_string())
}
