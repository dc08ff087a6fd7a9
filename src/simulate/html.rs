//! `output/<slug>/sim/report.html`: a run's figures as a page to look at. The tables sort
//! (a small script file beside the page, `sort.js`: the page allows no inline script), the
//! charts are inline SVG drawn in the page's colours (light or dark, as the reader's system
//! prefers) with a title and description for screen readers, and the page says in words
//! what the figures mean, what they rest on and which command reproduces them. The page
//! depends only on the report, so merged shards give the same page byte for byte.

use std::fmt::Write;

use super::cards::{CARDS_EXPLANATION, CardRow, dead_rule, diff_or_none};
use super::report::{EXPLANATION, Rate, RunReport, SimFile, percent};
use super::tune::TuneFile;

pub use super::pages::{INDEX_FILE, RunPage, run_id, write_run, write_simulation, write_tuning};

/// The page's file name inside `<out>/<slug>/sim/`.
pub const REPORT_FILE: &str = "report.html";
/// The sorting script's file name beside it.
pub const SCRIPT_FILE: &str = "sort.js";
pub(super) const SCRIPT: &str = include_str!("sort.js");

pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Text for a page: escaped, with each `quoted` span (as the terminal prints names of bots,
/// engines, functions) set as code instead of showing its backticks.
pub(super) fn prose(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", esc(part));
        } else {
            out.push_str(&esc(part));
        }
    }
    // An unpaired backtick: the last part was opened as code and is closed above; nothing
    // shows a backtick either way.
    out
}

fn pc(x: f64) -> String {
    format!("{:.1} %", percent(x))
}

fn rate_cells(r: &Rate) -> String {
    format!(
        "<td data-sort=\"{}\">{}</td><td>{} to {}</td>",
        r.rate,
        pc(r.rate),
        pc(r.low),
        pc(r.high)
    )
}

const STYLE: &str = "<style>
:root { --fg: #1b1b1b; --bg: #ffffff; --muted: #5a5a5a; --code: #f0f0f0;
  --rule: #c8c8c8; --bar1: #2f6b9a; --bar2: #b5562a; --bar3: #4d7d3a; --bar4: #7a4f9a;
  --flag: #8f1d1d; --goal: #8f1d1d; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e8e8; --bg: #161616; --muted: #b4b4b4; --rule: #4a4a4a; --code: #262626;
    --bar1: #7fb3e0; --bar2: #f0a070; --bar3: #9fd08a; --bar4: #c9a4ec; --flag: #ff9d9d;
    --goal: #ff9d9d; } }
body { font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg);
  margin: 0 auto; padding: 1rem; max-width: 72rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; }
.muted, figcaption { color: var(--muted); }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll:focus-visible { outline: 2px solid var(--fg); outline-offset: 2px; }
table { border-collapse: collapse; margin: .5rem 0; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--rule); padding: .3rem .6rem; text-align: right;
  white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
th button { font: inherit; font-weight: bold; color: inherit; background: none; border: 0;
  padding: 0; cursor: pointer; text-decoration: underline dotted; }
th[aria-sort=ascending] button::after { content: ' \\2191'; }
th[aria-sort=descending] button::after { content: ' \\2193'; }
.flag { color: var(--flag); font-weight: bold; }
td.wrap { white-space: normal; overflow-wrap: anywhere; text-align: left; min-width: 16rem; }
pre { overflow-x: auto; background: var(--code);
  padding: .6rem; border-radius: 4px; }
pre.command { white-space: pre-wrap; overflow-wrap: anywhere; }
.explain { background: var(--code); padding: .2rem 1rem .6rem; border-radius: 4px; }
.explain h3 { font-size: 1rem; margin: .6rem 0 .2rem; }
.explain dt { font-weight: bold; margin-top: .5rem; }
.explain dd { margin: 0 0 0 1.5rem; }
caption { text-align: left; }
caption span { display: inline-block; position: sticky; left: 0;
  max-width: min(100%, calc(100vw - 2rem), 72rem); padding: 0 .6rem .3rem 0; }
figure { margin: 1rem 0; }
svg { max-width: 100%; height: auto; }
svg text { fill: var(--fg); font: 12px system-ui, sans-serif; }
svg .axis { stroke: var(--muted); fill: none; }
svg .err { stroke: var(--fg); stroke-width: 1.5; }
svg .goal { stroke: var(--goal); stroke-dasharray: 6 4; stroke-width: 1.5; }
svg .s0 { fill: var(--bar1); } svg .s1 { fill: var(--bar2); }
svg .s2 { fill: var(--bar3); } svg .s3 { fill: var(--bar4); }
@media (max-width: 40rem) { svg text { font-size: 22px; }
  th:first-child, td:first-child { white-space: normal; min-width: 8rem; max-width: 11rem;
    position: sticky; left: 0; z-index: 1; background: var(--bg); } }
</style>
";

/// Opens the page.
pub(super) fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'self'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <title>{}</title>\n{STYLE}<script src=\"{SCRIPT_FILE}\" defer></script>\n</head>\n<body>\n<main>\n<h1>{}</h1>\n",
        esc(title),
        esc(title)
    )
}

pub(super) const FOOT: &str = "</main>\n</body>\n</html>\n";

/// A sortable table: header labels, then rows of ready cells. A table wider than the page
/// (a phone's) scrolls in a region of its own, which takes the keyboard's focus (arrow keys
/// scroll it) and is named by the caption, so the page itself never scrolls sideways.
pub(super) fn table(caption: &str, heads: &[&str], rows: &[String]) -> String {
    let mut t = format!(
        "<div class=\"scroll\" tabindex=\"0\" role=\"group\" aria-label=\"{0}\">\n<table class=\"sortable\">\n<caption class=\"muted\"><span>{0}</span></caption>\n<thead><tr>",
        esc(caption)
    );
    for h in heads {
        let _ = write!(
            t,
            "<th scope=\"col\"><button type=\"button\">{}</button></th>",
            esc(h)
        );
    }
    t.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        let _ = writeln!(t, "<tr>{r}</tr>");
    }
    t.push_str("</tbody>\n</table>\n</div>\n");
    t
}

/// One bar of a chart: the estimate and its interval.
struct Bar {
    value: f64,
    low: f64,
    high: f64,
}

/// A grouped bar chart with interval whiskers: one group per label, one bar per series.
/// `top` is the value at the top of the axis; `goal` draws a dashed line.
#[allow(clippy::too_many_arguments)] // one chart's labels, scale and data, each named
fn chart(
    id: &str,
    title: &str,
    desc: &str,
    series: &[String],
    groups: &[(String, Vec<Bar>)],
    top: f64,
    fmt: &dyn Fn(f64) -> String,
    goal: Option<f64>,
) -> String {
    // The margins leave room for the labels at the larger type a phone gets (the chart is drawn
    // at about half its size there).
    let (w, h, left, right, top_m, bottom) = (720.0, 340.0, 96.0, 16.0, 28.0, 88.0);
    let (pw, ph) = (w - left - right, h - top_m - bottom);
    let top = if top > 0.0 { top } else { 1.0 };
    let y = |v: f64| top_m + ph * (1.0 - (v / top).clamp(0.0, 1.0));
    let slot = pw / groups.len().max(1) as f64;
    let bw = (slot * 0.8 / series.len().max(1) as f64).min(60.0);
    let mut s = format!(
        "<figure>\n<svg viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-labelledby=\"{id}-t {id}-d\">\n\
         <title id=\"{id}-t\">{}</title>\n<desc id=\"{id}-d\">{}</desc>\n",
        esc(title),
        esc(desc)
    );
    let _ = writeln!(
        s,
        "<path class=\"axis\" d=\"M{left} {top_m} V{} H{}\"/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
        top_m + ph,
        w - right,
        left - 6.0,
        top_m + 4.0,
        esc(&fmt(top)),
        left - 6.0,
        top_m + ph + 4.0,
        esc(&fmt(0.0))
    );
    for (g, (label, bars)) in groups.iter().enumerate() {
        let x0 = left + slot * g as f64 + (slot - bw * bars.len() as f64) / 2.0;
        for (i, b) in bars.iter().enumerate() {
            let x = x0 + bw * i as f64;
            let cx = x + bw / 2.0;
            let _ = writeln!(
                s,
                "<rect class=\"s{}\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"/>\n<path class=\"err\" d=\"M{cx:.1} {:.1} V{:.1} M{:.1} {:.1} H{:.1} M{:.1} {:.1} H{:.1}\"/>",
                i % 4,
                y(b.value),
                (bw - 2.0).max(1.0),
                top_m + ph - y(b.value),
                y(b.high),
                y(b.low),
                cx - 4.0,
                y(b.high),
                cx + 4.0,
                cx - 4.0,
                y(b.low),
                cx + 4.0
            );
        }
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            left + slot * (g as f64 + 0.5),
            top_m + ph + 18.0,
            esc(label)
        );
    }
    if let Some(goal) = goal {
        let _ = writeln!(
            s,
            "<path class=\"goal\" d=\"M{left} {:.1} H{}\"/>",
            y(goal),
            w - right
        );
    }
    if series.len() > 1 || goal.is_some() {
        let mut x = left;
        // The series on one row, the target on the row under it.
        let ly = h - 38.0;
        for (i, name) in series.iter().enumerate() {
            let _ = writeln!(
                s,
                "<rect class=\"s{}\" x=\"{x:.1}\" y=\"{}\" width=\"12\" height=\"12\"/><text x=\"{:.1}\" y=\"{}\">{}</text>",
                i % 4,
                ly - 10.0,
                x + 16.0,
                ly,
                esc(name)
            );
            x += 34.0 + 13.0 * name.chars().count() as f64;
        }
        if let Some(goal) = goal {
            let (x, ly) = (left, h - 10.0);
            let _ = writeln!(
                s,
                "<path class=\"goal\" d=\"M{x:.1} {:.1} H{:.1}\"/><text x=\"{:.1}\" y=\"{ly}\">target {}</text>",
                ly - 4.0,
                x + 20.0,
                x + 24.0,
                esc(&fmt(goal))
            );
        }
    }
    s.push_str("</svg>\n");
    let _ = writeln!(s, "<figcaption>{}</figcaption>\n</figure>", esc(desc));
    s
}

/// The command line that reproduces a simulation report.
pub fn command(file: &SimFile) -> String {
    let Some(r) = file.runs.first() else {
        return String::new();
    };
    let mut c = format!(
        "printplay simulate {} --games {} --seed {} --players {} --bots {} --max-moves {}",
        r.game,
        r.games,
        r.seed,
        r.players,
        r.bots.join(","),
        r.max_moves
    );
    for (k, v) in &r.variants {
        let swept = file.swept.contains(k) || file.compare.as_ref() == Some(k);
        if !swept {
            let _ = write!(c, " --variant {k}={v}");
        }
    }
    if let Some(name) = &file.compare {
        let values: Vec<&str> = file
            .runs
            .iter()
            .filter_map(|r| r.variants.get(name).map(String::as_str))
            .collect();
        let _ = write!(c, " --compare {name}={}", values.join(","));
    }
    for name in &file.swept {
        let mut values: Vec<&str> = Vec::new();
        for p in &file.sweep {
            if let Some(v) = p.values.get(name)
                && !values.contains(&v.as_str())
            {
                values.push(v);
            }
        }
        let _ = write!(c, " --sweep {name}={}", values.join(","));
    }
    if r.stats.cards.is_some() {
        c.push_str(" --cards");
    }
    c
}

fn rests_on(file: &SimFile) -> String {
    let Some(run) = file.runs.first() else {
        return String::new();
    };
    let r = &run.rests_on;
    let mut s = String::from("<h2>What these figures rest on</h2>\n<ul>\n");
    if r.original {
        let _ = writeln!(
            s,
            "<li>An original design: every value of the data is the designer's own (no rulebook to reconstruct values from).</li>"
        );
    } else {
        let _ = writeln!(
            s,
            "<li>{} reconstructed and {} inferred values of the data (values the rulebook does not print; <code>printplay check {} --provenance</code> lists them).</li>",
            r.reconstructed_values,
            r.inferred_values,
            esc(&run.game)
        );
    }
    for reading in &r.readings {
        // Every value the runs were played by (two for a --compare or a swept variant).
        let mut values: Vec<(String, bool)> = Vec::new();
        for other in &file.runs {
            for o in &other.rests_on.readings {
                if o.variant == reading.variant && !values.iter().any(|(v, _)| *v == o.value) {
                    values.push((o.value.clone(), o.default));
                }
            }
        }
        let shown = |(v, default): &(String, bool)| {
            format!(
                "<code>{}={}</code> ({})",
                esc(&reading.variant),
                esc(v),
                if *default {
                    "the default reading"
                } else {
                    "not the default"
                }
            )
        };
        let _ = match values.as_slice() {
            [one] => writeln!(s, "<li>Reading {}.</li>", shown(one)),
            many => writeln!(
                s,
                "<li>Readings {}: each run says which it played by.</li>",
                many.iter().map(shown).collect::<Vec<_>>().join(" and ")
            ),
        };
    }
    for b in &r.bots {
        let _ = writeln!(
            s,
            "<li>Bot <code>{}</code>: {}.</li>",
            esc(&b.bot),
            prose(&b.plays)
        );
    }
    if r.bots.iter().any(|b| b.bot == "random") {
        s.push_str("<li>The <code>random</code> bot does not try to win: its figures describe the rules under aimless play, not a game between people who play to win.</li>\n");
    }
    s.push_str("</ul>\n");
    s
}

/// An explanation written for the terminal (a heading line, then `  term  meaning` with the
/// meaning's lines indented under it) as a definition list, which wraps on a phone.
/// With `titled`, its heading line becomes the list's heading (else the page has one).
fn explanation(text: &str, titled: bool) -> String {
    let mut lines = text.lines();
    let title = lines.next().unwrap_or_default().trim_end_matches(':');
    let mut out = String::from("<section class=\"explain\">\n");
    if titled {
        let _ = writeln!(out, "<h3>{}</h3>", esc(&capitalised(title)));
    }
    out.push_str("<dl>\n");
    let mut open = false;
    for line in lines {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        match body.split_once("  ") {
            Some((term, meaning)) if indent <= 2 => {
                if open {
                    out.push_str("</dd>\n");
                }
                let _ = write!(
                    out,
                    "<dt>{}</dt>\n<dd>{}",
                    esc(term),
                    esc(meaning.trim_start())
                );
                open = true;
            }
            _ => {
                out.push(' ');
                out.push_str(&esc(body));
            }
        }
    }
    if open {
        out.push_str("</dd>\n");
    }
    out.push_str("</dl>\n</section>\n");
    out
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

fn run_section(run: &RunReport, n: usize, heading: &str) -> String {
    let s = &run.summary;
    let mut out = format!("<h2>{}</h2>\n", esc(heading));
    let _ = writeln!(
        out,
        "<p>{}, seed {}, {} players, bots {}. {} decided (a single winner), balance {:.3}, first-seat advantage {:+.1} points per 100 decided games.</p>",
        crate::messages::count_of(run.stats.games, "game", "games"),
        run.seed,
        run.players,
        esc(&run.bots.join(", ")),
        pc(s.decisiveness),
        s.balance,
        s.first_seat_advantage * 100.0
    );
    let rows: Vec<String> = s
        .seats
        .iter()
        .map(|seat| format!("<td>{}</td>{}", esc(&seat.name), rate_cells(&seat.win_rate)))
        .chain(s.bots.iter().map(|b| {
            format!(
                "<td>bot {} ({} seats)</td>{}",
                esc(&b.bot),
                b.seats_played,
                rate_cells(&b.win_rate)
            )
        }))
        .collect();
    out.push_str(&table(
        "Win rate (points per game: a win 1, shares for ties) with its 95 % interval",
        &["seat or bot", "win rate", "95 % interval"],
        &rows,
    ));
    let groups: Vec<(String, Vec<Bar>)> = s
        .seats
        .iter()
        .map(|seat| {
            let r = seat.win_rate;
            (
                seat.name.clone(),
                vec![Bar {
                    value: r.rate,
                    low: r.low,
                    high: r.high,
                }],
            )
        })
        .collect();
    let desc = s
        .seats
        .iter()
        .map(|seat| {
            format!(
                "{} {} ({} to {})",
                seat.name,
                pc(seat.win_rate.rate),
                pc(seat.win_rate.low),
                pc(seat.win_rate.high)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    out.push_str(&chart(
        &format!("win{n}"),
        "Win rate by seat with 95 % intervals",
        &format!("Win rate by seat: {desc}."),
        &["win rate".to_string()],
        &groups,
        1.0,
        &|x| pc(x),
        None,
    ));
    let l = &s.length_in_moves;
    let _ = write!(
        out,
        "<p>Length of the {} finished games: mean {:.1} moves, median {}, 90 % within {}, longest {}",
        l.games, l.mean, l.median, l.p90, l.max
    );
    if let Some(t) = &s.length_in_turns {
        let _ = write!(out, "; in turns mean {:.1}, median {}", t.mean, t.median);
    }
    let _ = writeln!(
        out,
        ". Stopped at the {}-move cap: {} of {} games ({}); they have no winner (every seat's win rate counts them as a loss) and no length (left out of the lengths).</p>",
        run.max_moves,
        run.stats.timeouts,
        run.stats.games,
        pc(s.timeout_rate.rate)
    );
    if let Some(rows) = &run.cards {
        out.push_str(&cards_section(rows, n, None));
    }
    if let Some(note) = &run.cards_note {
        let _ = writeln!(out, "<h3>Cards</h3>\n<p>{}.</p>", prose(note));
    }
    out
}

/// The cards table under `heading` (a page section of its own), or under the run's section.
fn cards_section(rows: &[CardRow], n: usize, heading: Option<&str>) -> String {
    let flagged = rows.iter().filter(|r| r.flagged).count();
    let heading = match heading {
        Some(h) => format!("<h2 id=\"cards{n}\">{}</h2>", esc(h)),
        None => format!("<h3 id=\"cards{n}\">Cards</h3>"),
    };
    let dead: u64 = rows.iter().map(|r| r.dead).sum();
    let mut out = format!(
        "{heading}\n<p>{flagged} of {} designs flagged. A flag marks a design whose seats win more (or less) than seats without it, seat by seat, beyond what chance explains over all designs at once (Benjamini-Hochberg, 5 %). It is a correlation under these bots, not proof: a card bought by players already ahead wins more without being strong.</p>\n<p>{}</p>\n",
        rows.len(),
        esc(&dead_rule(dead))
    );
    let cells: Vec<String> = rows
        .iter()
        .map(|r| {
            let flag = match (r.flagged, r.seat_controlled.is_some_and(|d| d.difference > 0.0)) {
                (false, _) => "<td data-sort=\"0\">no</td>".to_string(),
                (true, true) => "<td data-sort=\"1\" class=\"flag\">wins more</td>".to_string(),
                (true, false) => "<td data-sort=\"1\" class=\"flag\">wins less</td>".to_string(),
            };
            format!(
                "<td>{} <span class=\"muted\">({})</span></td>{flag}<td>{}</td><td>{}</td><td>{}</td><td data-sort=\"{}\">{}</td><td data-sort=\"{}\">{}</td><td data-sort=\"{}\">{}</td><td data-sort=\"{}\">{}</td><td data-sort=\"{}\">{}</td>",
                esc(&r.name),
                esc(&r.id),
                r.games,
                r.times,
                r.dead,
                r.win_rate_with.rate,
                pc(r.win_rate_with.rate),
                r.win_rate_without.rate,
                if r.seats_without == 0 {
                    "-".to_string()
                } else {
                    pc(r.win_rate_without.rate)
                },
                r.difference.map_or(0.0, |d| d.difference),
                diff_or_none(&r.difference),
                r.seat_controlled.map_or(0.0, |d| d.difference),
                diff_or_none(&r.seat_controlled),
                r.q_value.unwrap_or(2.0),
                r.q_value.map_or("-".to_string(), |q| format!("{q:.3}"))
            )
        })
        .collect();
    out.push_str(&table(
        "Per design: the flag, games and times played or acquired for its effect, times discarded for no effect, win rates with and without, differences in percentage points with 95 % intervals",
        &[
            "design",
            "flag",
            "games",
            "times",
            "dead",
            "with",
            "without",
            "difference",
            "by seat",
            "q",
        ],
        &cells,
    ));
    if rows.iter().all(|r| r.p_value.is_none()) {
        let _ = writeln!(
            out,
            "<p>{}</p>",
            esc(&super::cards::NOTHING_TO_COMPARE.replacen('e', "E", 1))
        );
    }
    out.push_str(&explanation(CARDS_EXPLANATION, true));
    out
}

fn sweep_section(file: &SimFile) -> String {
    let names = &file.swept;
    let seats = file
        .runs
        .first()
        .map(|r| r.seat_names.clone())
        .unwrap_or_default();
    let unit = file
        .sweep
        .first()
        .map_or("turns", |p| p.length.unit.as_str());
    let games: u64 = file.sweep.iter().map(|p| p.games).sum();
    let stopped: u64 = file.sweep.iter().map(|p| p.stopped).sum();
    let mut out = format!(
        "<h2>Sweep of {}</h2>\n<p>Every value plays the same games (the same seeds), so the differences between rows are the value's, not the dice's. {games} games in all, {stopped} of them stopped at the {}-move cap. {}</p>\n",
        esc(&names.join(" × ")),
        file.runs.first().map_or(0, |r| r.max_moves),
        esc(super::sweep::STOPPED_RULE)
    );
    let mut heads: Vec<String> = names.clone();
    heads.push("games".into());
    heads.push("stopped at the cap".into());
    for s in &seats {
        heads.push(format!("{s} win rate"));
    }
    heads.extend([format!("mean {unit} (finished)"), "decisiveness".into()]);
    let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
    let rows: Vec<String> = file
        .sweep
        .iter()
        .map(|p| {
            let mut r = String::new();
            for n in names {
                let v = p.values.get(n).map_or("", String::as_str);
                let _ = write!(r, "<td>{}</td>", esc(v));
            }
            let _ = write!(
                r,
                "<td>{}</td><td data-sort=\"{}\">{} <span class=\"muted\">({})</span></td>",
                p.games,
                p.timeouts.rate,
                p.stopped,
                pc(p.timeouts.rate)
            );
            for w in &p.win_rates {
                let _ = write!(
                    r,
                    "<td data-sort=\"{}\">{} <span class=\"muted\">({} to {})</span></td>",
                    w.rate,
                    pc(w.rate),
                    pc(w.low),
                    pc(w.high)
                );
            }
            let _ = write!(
                r,
                "<td data-sort=\"{}\">{:.1} <span class=\"muted\">({:.1} to {:.1})</span></td><td data-sort=\"{}\">{}</td>",
                p.length.mean,
                p.length.mean,
                p.length.low,
                p.length.high,
                p.decisiveness.rate,
                pc(p.decisiveness.rate)
            );
            r
        })
        .collect();
    out.push_str(&table(
        "Per value: games, games stopped at the move cap, win rate by seat, mean length of the finished games and decisiveness, with 95 % intervals",
        &heads,
        &rows,
    ));
    let label = |p: &super::sweep::SweepPoint| {
        names
            .iter()
            .map(|n| p.values.get(n).cloned().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let groups: Vec<(String, Vec<Bar>)> = file
        .sweep
        .iter()
        .map(|p| {
            (
                label(p),
                p.win_rates
                    .iter()
                    .map(|r| Bar {
                        value: r.rate,
                        low: r.low,
                        high: r.high,
                    })
                    .collect(),
            )
        })
        .collect();
    out.push_str(&chart(
        "sweep-win",
        &format!("Win rate by seat at each value of {}", names.join(" and ")),
        &format!(
            "Win rate of each seat ({}) at each value of {}, with 95 % intervals, over every game ({stopped} stopped at the move cap count as a loss for every seat); the table above gives the figures.",
            seats.join(", "),
            names.join(" and ")
        ),
        &seats,
        &groups,
        1.0,
        &|x| pc(x),
        None,
    ));
    let top = file
        .sweep
        .iter()
        .map(|p| p.length.high)
        .fold(0.0, f64::max)
        .ceil();
    let groups: Vec<(String, Vec<Bar>)> = file
        .sweep
        .iter()
        .map(|p| {
            let label = match p.stopped {
                0 => label(p),
                n => format!("{} ({n} stopped)", label(p)),
            };
            (
                label,
                vec![Bar {
                    value: p.length.mean,
                    low: p.length.low,
                    high: p.length.high,
                }],
            )
        })
        .collect();
    out.push_str(&chart(
        "sweep-len",
        &format!("Mean game length in {unit} at each value"),
        &format!(
            "Mean length in {unit} of the finished games at each value of {}, with 95 % intervals; {stopped} of {games} games stopped at the move cap are left out of the means and shown under each value that had them.",
            names.join(" and ")
        ),
        &[format!("mean {unit}")],
        &groups,
        top,
        &|x| format!("{x:.0}"),
        None,
    ));
    out
}

/// The report page of a simulation (one run, `--compare`, `--sweep`, with `--cards`).
pub fn report_html(file: &SimFile) -> String {
    let Some(first) = file.runs.first() else {
        return String::new();
    };
    let mut page = head(&format!("{}: simulation report", first.game));
    let _ = writeln!(
        page,
        "<p>Reproduce these figures with:</p>\n<pre class=\"command\"><code>{}</code></pre>",
        esc(&command(file))
    );
    if file.swept.is_empty() {
        for (n, run) in file.runs.iter().enumerate() {
            let heading = match &file.compare {
                Some(name) => format!(
                    "Reading {name}={}",
                    run.variants.get(name).map_or("?", String::as_str)
                ),
                None => "Results".to_string(),
            };
            page.push_str(&run_section(run, n, &heading));
        }
        if !file.differences.is_empty() {
            let rows: Vec<String> = file
                .differences
                .iter()
                .map(|d| {
                    format!(
                        "<td>{}</td><td data-sort=\"{}\">{:+.1}</td><td>{:+.1} to {:+.1}</td><td>{}</td>",
                        esc(&d.measure),
                        d.difference,
                        d.difference,
                        d.low,
                        d.high,
                        esc(&d.unit)
                    )
                })
                .collect();
            page.push_str("<h2>Second reading minus first</h2>\n");
            page.push_str(&table(
                "Game by game on the same seeds, with 95 % intervals",
                &["measure", "difference", "95 % interval", "unit"],
                &rows,
            ));
        }
    } else {
        page.push_str(&sweep_section(file));
        for (n, run) in file.runs.iter().enumerate() {
            if let Some(rows) = &run.cards {
                let values = file.sweep.get(n).map_or(String::new(), |p| {
                    p.values
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                });
                let heading = format!("Cards at {values}");
                page.push_str(&cards_section(rows, n, Some(&heading)));
            }
        }
    }
    if let Some(persons) = &file.persons {
        page.push_str(&persons.html(first));
    }
    page.push_str(&rests_on(file));
    page.push_str("<h2>How to read this</h2>\n");
    page.push_str(&explanation(EXPLANATION, false));
    page.push_str(FOOT);
    page
}

/// The report page of `printplay tune`.
pub fn tune_html(file: &TuneFile, command: &str) -> String {
    let mut page = head(&format!("{}: tuning report", file.game));
    let _ = writeln!(
        page,
        "<p>Reproduce these figures with:</p>\n<pre class=\"command\"><code>{}</code></pre>",
        esc(command)
    );
    let _ = writeln!(
        page,
        "<p>Target: {} at {}. {} games played (budget {}) in {} rounds of successive halving: every value played the same first games (the same seeds), the half nearer the target went on to twice as many.</p>\n<p>{}</p>\n<p><strong>{}</strong></p>",
        esc(&file.measure),
        esc(&file.figure(file.goal)),
        file.played,
        file.budget,
        file.rounds,
        prose(&capitalised(&file.stopped_rule())),
        prose(&file.verdict())
    );
    let rows: Vec<String> = file
        .candidates
        .iter()
        .map(|c| {
            let values = c
                .values
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            format!(
                "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td data-sort=\"{}\">{}</td><td>{} to {}</td><td>{}</td><td>{}</td>",
                esc(&values),
                c.games,
                c.stopped,
                c.rests_on,
                c.estimate,
                esc(&file.figure(c.estimate)),
                esc(&file.figure(c.low)),
                esc(&file.figure(c.high)),
                c.round,
                esc(&file.includes(c))
            )
        })
        .collect();
    page.push_str(&table(
        "Every value tried: games played, games stopped at the move cap, the games the estimate rests on, the estimate with its 95 % interval, the round it reached, and whether its interval includes the target",
        &[
            "values",
            "games",
            "stopped at the cap",
            "estimate rests on",
            "estimate",
            "95 % interval",
            "round",
            "includes target",
        ],
        &rows,
    ));
    let mut by_value = file.candidates.clone();
    by_value.sort_by(|a, b| {
        let key = |c: &super::tune::Candidate| {
            c.values
                .values()
                .map(|v| v.parse::<f64>().unwrap_or(f64::NAN))
                .collect::<Vec<_>>()
        };
        key(a)
            .partial_cmp(&key(b))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let groups: Vec<(String, Vec<Bar>)> = by_value
        .iter()
        .map(|c| {
            (
                c.values.values().cloned().collect::<Vec<_>>().join(" "),
                vec![Bar {
                    value: c.estimate,
                    low: c.low,
                    high: c.high,
                }],
            )
        })
        .collect();
    let top = if file.target == super::tune::Target::Balance {
        1.0
    } else {
        by_value
            .iter()
            .map(|c| c.high)
            .fold(file.goal, f64::max)
            .ceil()
    };
    page.push_str(&chart(
        "tune",
        &format!("{} at each value tried", file.measure),
        &format!(
            "The estimate of {} at each value tried, with 95 % intervals and the target {} as a dashed line.",
            file.measure,
            file.figure(file.goal)
        ),
        std::slice::from_ref(&file.measure),
        &groups,
        top,
        &|x| file.figure(x),
        Some(file.goal),
    ));
    page.push_str("<h2>What these figures rest on</h2>\n<ul>\n");
    for b in &file.bot_notes {
        let _ = writeln!(
            page,
            "<li>Bot <code>{}</code>: {}.</li>",
            esc(&b.bot),
            prose(&b.plays)
        );
    }
    if let Some(w) = file.random_warning() {
        let _ = writeln!(page, "<li>{}</li>", prose(&w));
    }
    page.push_str("</ul>\n");
    page.push_str(FOOT);
    page
}
