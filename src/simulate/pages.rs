//! Every run keeps its page: `<out>/<slug>/sim/<run-id>.html` (the id from the command line
//! that reproduces it), its charts in `<run-id>/`, `report.html` and the charts beside it as
//! the latest run's, and `index.html` listing every run kept (from `runs.json`), with no date
//! in it, so the same runs give the same index byte for byte.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use super::html::{
    FOOT, REPORT_FILE, SCRIPT, SCRIPT_FILE, command, esc, head, report_html, table, tune_html,
};
use super::report::SimFile;
use super::tune::TuneFile;
use crate::output::write_atomic;

/// The index of every run's page inside `<out>/<slug>/sim/`.
pub const INDEX_FILE: &str = "index.html";
/// The list of runs the index is made from.
const RUNS_FILE: &str = "runs.json";

/// One run as the index lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct RunEntry {
    id: String,
    command: String,
    /// What `games` counts, in words ("games", "games per reading"...).
    games_label: String,
    games: u64,
    /// Chart files, relative to the `sim/` folder.
    charts: Vec<String>,
}

/// A run's id: the command's kind and a hash of the command line that reproduces it (game,
/// seed, games, bots, readings, values), so the same run writes the same page and another run
/// another page.
pub fn run_id(command: &str) -> String {
    let kind = command
        .split_whitespace()
        .nth(1)
        .filter(|k| k.chars().all(|c| c.is_ascii_lowercase()))
        .unwrap_or("run");
    let hash = blake3::hash(command.as_bytes()).to_hex();
    format!("{kind}-{}", &hash[..12])
}

/// A run to write: its page, the command that reproduces it, what its games count and its
/// charts (file name, SVG).
pub struct RunPage<'a> {
    pub command: &'a str,
    pub page: &'a str,
    pub games_label: &'a str,
    pub games: u64,
    pub charts: Vec<(String, String)>,
}

/// Writes a run under `<out>/<slug>/sim/`: its page as `<run-id>.html` and its charts under
/// `<run-id>/`; `report.html` and the charts beside it as the latest run's; and the index of
/// every run kept there (`index.html`, from `runs.json`). The files written.
pub fn write_run(out: &Path, slug: &str, run: &RunPage<'_>) -> std::io::Result<Vec<PathBuf>> {
    let dir = out.join(slug).join("sim");
    let id = run_id(run.command);
    let mut written = Vec::new();
    write_atomic(&dir.join(SCRIPT_FILE), SCRIPT.as_bytes())?;
    // The run's own charts, and no chart an earlier run of the same id left.
    let own = dir.join(&id);
    remove_charts(&own)?;
    // The latest run's charts beside report.html: an earlier run's go.
    remove_charts(&dir)?;
    let mut charts = Vec::new();
    for (name, svg) in &run.charts {
        for path in [own.join(name), dir.join(name)] {
            write_atomic(&path, svg.as_bytes())?;
            written.push(path);
        }
        charts.push(format!("{id}/{name}"));
    }
    let page = dir.join(format!("{id}.html"));
    write_atomic(&page, run.page.as_bytes())?;
    written.push(page);
    write_atomic(&dir.join(REPORT_FILE), run.page.as_bytes())?;
    written.push(dir.join(REPORT_FILE));
    let mut runs: Vec<RunEntry> = std::fs::read(dir.join(RUNS_FILE))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default();
    runs.retain(|r| r.id != id && dir.join(format!("{}.html", r.id)).is_file());
    runs.push(RunEntry {
        id,
        command: run.command.to_string(),
        games_label: run.games_label.to_string(),
        games: run.games,
        charts,
    });
    runs.sort_by(|a, b| a.command.cmp(&b.command).then(a.id.cmp(&b.id)));
    let list = serde_json::to_string_pretty(&runs).map_err(std::io::Error::other)? + "\n";
    write_atomic(&dir.join(RUNS_FILE), list.as_bytes())?;
    let index = dir.join(INDEX_FILE);
    write_atomic(&index, index_html(slug, &runs).as_bytes())?;
    written.push(index);
    Ok(written)
}

/// Removes the SVG files directly in `dir` (a run's charts), if any.
fn remove_charts(dir: &Path) -> std::io::Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in entries {
        let path = e?.path();
        if path.extension().is_some_and(|x| x == "svg") && path.is_file() {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// The index page: every run kept, by its command line, with its games, page and charts.
/// It holds no date, so the same runs give the same page.
fn index_html(slug: &str, runs: &[RunEntry]) -> String {
    let mut page = head(&format!("{slug}: simulation runs"));
    let _ = writeln!(
        page,
        "<p>Every run of <code>printplay simulate</code> and <code>printplay tune</code> written to this folder keeps its own page, named by a hash of its command line, and its charts in a folder of that name: the same command writes the same page again, another command another page. <a href=\"{REPORT_FILE}\">{REPORT_FILE}</a> is the latest run's page, and the charts directly in this folder are its charts.</p>"
    );
    let rows: Vec<String> = runs
        .iter()
        .map(|r| {
            let charts = r
                .charts
                .iter()
                .map(|c| {
                    let name = c.rsplit('/').next().unwrap_or(c);
                    format!("<a href=\"{}\">{}</a>", esc(c), esc(name))
                })
                .collect::<Vec<_>>()
                .join(" ");
            format!(
                "<td><a href=\"{0}.html\">{0}</a></td><td class=\"wrap\"><code>{1}</code></td><td data-sort=\"{2}\">{2} {3}</td><td class=\"wrap\">{4}</td>",
                esc(&r.id),
                esc(&r.command),
                r.games,
                esc(&r.games_label),
                if charts.is_empty() { "-".to_string() } else { charts }
            )
        })
        .collect();
    page.push_str(&table(
        "Every run kept: its page, the command that reproduces it, its games and its charts",
        &["page", "command", "games", "charts"],
        &rows,
    ));
    page.push_str(FOOT);
    page
}

/// Writes a simulation report's run ([`write_run`]): its page, charts and index entry.
pub fn write_simulation(out: &Path, file: &SimFile) -> std::io::Result<Vec<PathBuf>> {
    let Some(first) = file.runs.first() else {
        return Ok(Vec::new());
    };
    let command = command(file);
    let page = report_html(file);
    let games_label = if file.compare.is_some() {
        "games per reading"
    } else if !file.swept.is_empty() {
        "games per value"
    } else {
        "games"
    };
    write_run(
        out,
        &first.game,
        &RunPage {
            command: &command,
            page: &page,
            games_label,
            games: first.games,
            charts: super::svg::charts(file),
        },
    )
}

/// Writes a tuning run ([`write_run`]): its page and index entry.
pub fn write_tuning(out: &Path, file: &TuneFile, command: &str) -> std::io::Result<Vec<PathBuf>> {
    let page = tune_html(file, command);
    write_run(
        out,
        &file.game,
        &RunPage {
            command,
            page: &page,
            games_label: "games played",
            games: file.played,
            charts: Vec::new(),
        },
    )
}
