//! SVG charts of a run: the game-length histogram and win rates with their intervals.

use std::fmt::Write;

use super::report::{Rate, RunReport, SimFile, percent};

const W: f64 = 640.0;
const H: f64 = 360.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;
/// Bars of the length histogram.
const BINS: u32 = 30;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn open(title: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{W}\" height=\"{H}\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
        W / 2.0,
        escape(title)
    )
}

/// The length histogram of the finished games: games per band of game length. Games stopped
/// at the move cap are left out (one would stretch the axis over every other game) and
/// counted in the title.
pub fn length_histogram(run: &RunReport) -> String {
    let stats = &run.stats;
    let lengths = &stats.moves;
    let max = lengths.max().max(1);
    let width = max.div_ceil(BINS).max(1);
    let mut bins = vec![0u64; (max / width + 1) as usize];
    for (&len, &n) in &lengths.games_by_length {
        bins[(len / width) as usize] += n;
    }
    let top = bins.iter().copied().max().unwrap_or(1).max(1) as f64;
    let (pw, ph) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
    let bar = pw / bins.len() as f64;
    let stopped = if stats.timeouts > 0 {
        format!(
            "; {} stopped at {} moves left out",
            stats.timeouts, run.max_moves
        )
    } else {
        String::new()
    };
    let mut s = open(&format!(
        "{}: game length in moves ({} finished games{stopped})",
        run.game, lengths.games
    ));
    for (i, &n) in bins.iter().enumerate() {
        let h = ph * n as f64 / top;
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"#4a6fa5\"><title>{}-{} moves: {}</title></rect>",
            LEFT + i as f64 * bar,
            TOP + ph - h,
            (bar - 1.0).max(0.5),
            i as u32 * width,
            (i as u32 + 1) * width - 1,
            crate::messages::count_of(n, "game", "games")
        );
    }
    axes(
        &mut s,
        &format!("{top}"),
        "0",
        &format!("{}", bins.len() as u32 * width),
    );
    s.push_str("</svg>\n");
    s
}

fn axes(s: &mut String, y_top: &str, x_left: &str, x_right: &str) {
    let (x0, y0, x1) = (LEFT, H - BOTTOM, W - RIGHT);
    let _ = writeln!(
        s,
        "<path d=\"M{x0} {TOP} V{y0} H{x1}\" stroke=\"black\" fill=\"none\"/>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{y_top}</text>\n\
         <text x=\"{x0}\" y=\"{}\" text-anchor=\"middle\">{x_left}</text>\n\
         <text x=\"{x1}\" y=\"{}\" text-anchor=\"middle\">{x_right}</text>",
        x0 - 4.0,
        TOP + 4.0,
        y0 + 16.0,
        y0 + 16.0
    );
}

/// Win rates per seat and per bot, each with its 95 % interval as an error bar. The seats'
/// bars (points: a win 1, shares for ties), the shared loss and the games stopped at the
/// move cap add up to every game of the run, and the subtitle counts them; an outcome no
/// game had (a shared loss in a game where one side always wins) gets no bar. The bots'
/// bars count the seats each bot played, so they stand apart.
pub fn win_rates(run: &RunReport) -> String {
    let s = &run.summary;
    let stats = &run.stats;
    let mut rows: Vec<(String, Rate)> = s
        .seats
        .iter()
        .map(|seat| (seat.name.clone(), seat.win_rate))
        .collect();
    if stats.shared_losses > 0 {
        rows.push((run.loss_label().into(), s.shared_loss_rate));
    }
    if stats.timeouts > 0 {
        rows.push((
            format!("stopped at {} moves", run.max_moves),
            s.timeout_rate,
        ));
    }
    let outcomes = rows.len();
    // Bots are worth a bar of their own only when seats hold different bots.
    if s.bots.len() > 1 {
        rows.extend(
            s.bots
                .iter()
                .map(|b| (format!("bot {}", b.bot), b.win_rate)),
        );
    }
    let mut parts = vec![format!("{} won outright", stats.decided)];
    if stats.ties > 0 {
        parts.push(format!("{} tied (points shared)", stats.ties));
    }
    if stats.shared_losses > 0 {
        parts.push(format!("{} {}", stats.shared_losses, run.loss_label()));
    }
    if stats.timeouts > 0 {
        parts.push(format!(
            "{} stopped at {} moves",
            stats.timeouts, run.max_moves
        ));
    }
    let subtitle = format!(
        "{}: {}",
        crate::messages::count_of(stats.games, "game", "games"),
        parts.join(", ")
    );
    let (pw, ph) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
    let slot = pw / rows.len() as f64;
    let y = |v: f64| TOP + ph * (1.0 - v);
    let mut out = open(&format!("{}: win rates with 95 % intervals", run.game));
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"36\" text-anchor=\"middle\" font-size=\"11\">{}</text>",
        W / 2.0,
        escape(&subtitle)
    );
    for (i, (label, r)) in rows.iter().enumerate() {
        let x = LEFT + slot * (i as f64 + 0.5);
        if i == outcomes && i > 0 {
            // The bots' bars count seats, not games: a rule sets them apart.
            let _ = writeln!(
                out,
                "<path d=\"M{:.1} {TOP} V{:.1}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
                x - slot * 0.5,
                H - BOTTOM
            );
        }
        let _ = writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{}: {:.1} % ({:.1} - {:.1} %)</title></rect>\n\
             <path d=\"M{x:.1} {:.1} V{:.1} M{:.1} {:.1} H{:.1} M{:.1} {:.1} H{:.1}\" stroke=\"black\"/>\n\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{:.1} %</text>",
            x - slot * 0.3,
            y(r.rate),
            slot * 0.6,
            ph * r.rate,
            if i < outcomes { "#6c9a5b" } else { "#8a8fb5" },
            escape(label),
            percent(r.rate),
            percent(r.low),
            percent(r.high),
            y(r.high),
            y(r.low),
            x - 6.0,
            y(r.high),
            x + 6.0,
            x - 6.0,
            y(r.low),
            x + 6.0,
            H - BOTTOM + 16.0,
            escape(label),
            x + 8.0,
            (y(r.rate) - 3.0).max(TOP + 10.0),
            percent(r.rate)
        );
    }
    axes(&mut out, "100 %", "", "");
    out.push_str("</svg>\n");
    out
}

/// Both charts of every run, each with its file name (without the run's id): `lengths.svg`
/// and `win-rates.svg`, with the reading or swept values in the name when the run has several.
pub fn charts(file: &SimFile) -> Vec<(String, String)> {
    let mut charts = Vec::new();
    for run in &file.runs {
        let suffix = match &file.compare {
            Some(name) => format!("-{}", run.variants.get(name).map_or("", String::as_str)),
            // A sweep's runs differ by their swept values: one chart each.
            None => file
                .swept
                .iter()
                .map(|n| {
                    let v = run.params.get(n).or_else(|| run.variants.get(n));
                    format!("-{n}-{}", v.map_or("", String::as_str))
                })
                .collect::<String>(),
        };
        let suffix: String = suffix
            .chars()
            .map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '-' | '_' => c,
                _ => '_',
            })
            .collect();
        for (name, svg) in [
            ("lengths", length_histogram(run)),
            ("win-rates", win_rates(run)),
        ] {
            charts.push((format!("{name}{suffix}.svg"), svg));
        }
    }
    charts
}
