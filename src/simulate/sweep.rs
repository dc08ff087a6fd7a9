//! `simulate --sweep NAME=A..B[:STEP]` or `NAME=v1,v2,...`: the same games (the same seeds)
//! under each value of a `[params.*]` value or a rule variant; two sweeps give a grid.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::report::{Rate, RunReport, Summary, percent};
use crate::model::Game;

/// The most values one run sweeps over (every value plays every game).
pub const MAX_POINTS: usize = 1000;

/// One swept name and its values, as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sweep {
    pub name: String,
    pub values: Vec<String>,
}

/// Parses `NAME=A..B[:STEP]` (numbers, STEP 1 unless given) or `NAME=v1,v2,...`.
pub fn parse(text: &str) -> Result<Sweep, String> {
    let bad = |why: &str| {
        format!("--sweep takes NAME=A..B[:STEP] or NAME=v1,v2,... ({why}), not `{text}`")
    };
    let (name, spec) = text.split_once('=').ok_or_else(|| bad("no `=`"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(bad("no name"));
    }
    let values = match spec.split_once("..") {
        Some((from, rest)) => {
            let (to, step) = match rest.split_once(':') {
                Some((to, step)) => (to, Some(step)),
                None => (rest, None),
            };
            range(from.trim(), to.trim(), step.map(str::trim)).map_err(|e| bad(&e))?
        }
        None => spec.split(',').map(|v| v.trim().to_string()).collect(),
    };
    if values.iter().any(String::is_empty) {
        return Err(bad("an empty value"));
    }
    if values.len() > MAX_POINTS {
        return Err(bad(&format!("more than {MAX_POINTS} values")));
    }
    let mut seen = Vec::new();
    for v in &values {
        if seen.contains(v) {
            return Err(bad(&format!("`{v}` twice")));
        }
        seen.push(v.clone());
    }
    Ok(Sweep {
        name: name.to_string(),
        values,
    })
}

fn range(from: &str, to: &str, step: Option<&str>) -> Result<Vec<String>, String> {
    let ints = |s: &str| s.parse::<i64>().ok();
    if let (Some(a), Some(b), Some(step)) = (ints(from), ints(to), step.map_or(Some(1), ints)) {
        if step <= 0 || b < a {
            return Err("A..B runs upwards by a positive STEP".into());
        }
        if (b - a) / step >= MAX_POINTS as i64 {
            return Err(format!("more than {MAX_POINTS} values"));
        }
        return Ok((0..=(b - a) / step)
            .map(|i| (a + i * step).to_string())
            .collect());
    }
    let num = |s: &str| {
        s.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("`{s}` is not a number"))
    };
    let (a, b) = (num(from)?, num(to)?);
    let step = match step {
        Some(s) => num(s)?,
        None => return Err("a range of fractions needs a STEP".into()),
    };
    if step <= 0.0 || b < a {
        return Err("A..B runs upwards by a positive STEP".into());
    }
    let n = ((b - a) / step + 1e-9).floor();
    if n >= MAX_POINTS as f64 {
        return Err(format!("more than {MAX_POINTS} values"));
    }
    // Each value from its index (no running sum), printed without float noise.
    Ok((0..=n as usize)
        .map(|i| {
            let x = a + i as f64 * step;
            format!("{}", (x * 1e9).round() / 1e9)
        })
        .collect())
}

/// Every combination of the sweeps' values, the first sweep slowest.
pub fn grid(sweeps: &[Sweep]) -> Vec<Vec<(String, String)>> {
    let mut points: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for s in sweeps {
        points = points
            .into_iter()
            .flat_map(|p| {
                s.values.iter().map(move |v| {
                    let mut p = p.clone();
                    p.push((s.name.clone(), v.clone()));
                    p
                })
            })
            .collect();
    }
    points
}

/// The game with parameter `name` set to `value`, typed as the data's value is (a whole
/// number, a number, true/false or text). The error names the parameter and the value.
pub fn with_param(game: &Game, name: &str, value: &str) -> Result<Game, String> {
    let mut g = game.clone();
    let p = g
        .params
        .get_mut(name)
        .ok_or_else(|| format!("{} has no parameter `{name}`", game.slug))?;
    let old = p.value.get_ref();
    let bad = |kind: &str| format!("parameter `{name}` is {kind}; `{value}` is not");
    let new = match old {
        toml::Value::Integer(_) => {
            toml::Value::Integer(value.parse().map_err(|_| bad("a whole number"))?)
        }
        toml::Value::Float(_) => toml::Value::Float(
            value
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad("a number"))?,
        ),
        toml::Value::Boolean(_) => {
            toml::Value::Boolean(value.parse().map_err(|_| bad("true or false"))?)
        }
        toml::Value::String(_) => toml::Value::String(value.to_string()),
        _ => {
            return Err(format!(
                "parameter `{name}` is a list or table; --sweep sets numbers, true/false and text"
            ));
        }
    };
    if let Some(n) = new.as_integer().map(|i| i as f64).or(new.as_float()) {
        let out = p.min.is_some_and(|m| n < m) || p.max.is_some_and(|m| n > m);
        if out {
            return Err(format!(
                "parameter `{name}` = {value} is outside its declared range ({} to {})",
                p.min.map_or("-".into(), |m| m.to_string()),
                p.max.map_or("-".into(), |m| m.to_string())
            ));
        }
    }
    p.value = toml::Spanned::new(p.value.span(), new);
    Ok(g)
}

/// One value of a sweep (or point of a grid) with its figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// The swept names and the values this point ran with.
    pub values: BTreeMap<String, String>,
    pub games: u64,
    /// Games stopped at the move cap: no seat wins them (they count in the win rates as a
    /// loss for every seat) and they have no length (the mean leaves them out).
    #[serde(default)]
    pub stopped: u64,
    /// Win rate by seat, the first seat first.
    pub win_rates: Vec<Rate>,
    pub decisiveness: Rate,
    pub timeouts: Rate,
    /// Mean length in turns (moves when the engine counts no turns), with a 95 % interval.
    pub length: MeanLength,
    pub balance: f64,
    pub first_seat_advantage: f64,
}

/// A mean game length and its normal 95 % interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeanLength {
    pub unit: String,
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

impl SweepPoint {
    pub fn of(names: &[String], run: &RunReport) -> SweepPoint {
        let values = names
            .iter()
            .map(|n| {
                let v = run
                    .params
                    .get(n)
                    .or_else(|| run.variants.get(n))
                    .cloned()
                    .unwrap_or_default();
                (n.clone(), v)
            })
            .collect();
        let s: &Summary = &run.summary;
        SweepPoint {
            values,
            games: run.stats.games,
            stopped: run.stats.timeouts,
            win_rates: s.seats.iter().map(|x| x.win_rate).collect(),
            decisiveness: Rate::of(run.stats.decided as f64, run.stats.games as f64),
            timeouts: s.timeout_rate,
            length: mean_length(run),
            balance: s.balance,
            first_seat_advantage: s.first_seat_advantage,
        }
    }
}

fn mean_length(run: &RunReport) -> MeanLength {
    let (unit, h) = if run.stats.turns.games > 0 {
        ("turns", &run.stats.turns)
    } else {
        ("moves", &run.stats.moves)
    };
    let half = 1.959_963_984_540_054 * h.sd() / (h.games.max(1) as f64).sqrt();
    MeanLength {
        unit: unit.to_string(),
        mean: h.mean(),
        low: h.mean() - half,
        high: h.mean() + half,
    }
}

/// How a sweep counts the games stopped at the move cap, in a sentence.
pub const STOPPED_RULE: &str = "A game stopped at the move cap has no winner (it counts in every seat's win rate as a loss) and no length (the mean length is that of the finished games); each value's stopped games are counted in a column of their own.";

/// The sweep table in words.
pub fn text(names: &[String], seat_names: &[String], points: &[SweepPoint]) -> String {
    use std::fmt::Write;
    let mut out = format!(
        "sweep of {} on the same seeds at every value (95 % intervals):\n",
        names.join(" x ")
    );
    let _ = writeln!(out, "  {STOPPED_RULE}");
    let mut header = names.join(" ");
    for s in seat_names {
        let _ = write!(header, " | {s} win rate");
    }
    let unit = points.first().map_or("turns", |p| p.length.unit.as_str());
    let _ = writeln!(
        out,
        "  {header} | games | mean {unit} of the finished games | decisiveness | stopped at the cap"
    );
    for p in points {
        let mut line = names
            .iter()
            .map(|n| format!("{n}={}", p.values.get(n).map_or("?", String::as_str)))
            .collect::<Vec<_>>()
            .join(" ");
        for r in &p.win_rates {
            let _ = write!(line, " | {}", rate(r));
        }
        let _ = write!(
            line,
            " | {} | {:.1} ({:.1} to {:.1}) | {} | {}, {}",
            p.games,
            p.length.mean,
            p.length.low,
            p.length.high,
            rate(&p.decisiveness),
            crate::messages::count_of(p.stopped, "game", "games"),
            rate(&p.timeouts)
        );
        let _ = writeln!(out, "  {line}");
    }
    out
}

fn rate(r: &Rate) -> String {
    format!(
        "{:.1} % ({:.1} to {:.1})",
        percent(r.rate),
        percent(r.low),
        percent(r.high)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_lists_parse() {
        assert_eq!(
            parse("hand_size=3..7").unwrap().values,
            ["3", "4", "5", "6", "7"]
        );
        assert_eq!(parse("x=2..10:4").unwrap().values, ["2", "6", "10"]);
        assert_eq!(
            parse("x=0.1..0.3:0.1").unwrap().values,
            ["0.1", "0.2", "0.3"]
        );
        assert_eq!(parse("v=a,b").unwrap().values, ["a", "b"]);
        for bad in [
            "x", "=1,2", "x=3..1", "x=1..2:0", "x=a..b:1", "x=1,,2", "x=1,1",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let g = grid(&[parse("a=1,2").unwrap(), parse("b=x,y,z").unwrap()]);
        assert_eq!(g.len(), 6);
        assert_eq!(g[1], [("a".into(), "1".into()), ("b".into(), "y".into())]);
    }
}
