//! `cargo bench --bench build`: the full print build of all four shipped games (every stage,
//! into a temporary folder), each stage of each game on its own, and Capek Golems' cards.pdf
//! alone with its size. Goals: all games under 3 s on 2 cores; Capek cards.pdf under 300 ms
//! and under 400 KB.
//!
//! The machine is shared, so beside each wall-clock time the bench prints the CPU time the
//! process used (Linux `/proc/self/stat`, 10 ms ticks) and the load average when it started.

use std::path::Path;
use std::time::{Duration, Instant};

use printplay::model::{Game, load_game};
use printplay::render::{self, BuildOptions};

const GAMES: [&str; 4] = [
    "capek-golems",
    "the-search",
    "aether",
    "imperial-settlers-aztecs",
];

/// CPU time (user + system) of this process so far, in seconds; `None` off Linux.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// Wall time and CPU time (when known) of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration, Option<f64>) {
    let cpu = cpu_seconds();
    let start = Instant::now();
    let out = f();
    let wall = start.elapsed();
    let used = cpu.zip(cpu_seconds()).map(|(a, b)| b - a);
    (out, wall, used)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn cpu_ms(c: Option<f64>) -> String {
    c.map_or("?".to_string(), |c| format!("{:.0}", c * 1000.0))
}

fn median<T: PartialOrd + Copy>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    v[v.len() / 2]
}

fn main() {
    let data = Path::new("data");
    let games: Vec<_> = GAMES
        .iter()
        .map(|s| load_game(data, s).expect("shipped games load"))
        .collect();
    let out = tempfile::tempdir().expect("temporary folder");
    let options = BuildOptions {
        out: out.path().to_path_buf(),
        ..BuildOptions::default()
    };
    println!("load average at start: {}", load());
    full_build(&games, &options, out.path());
    stage_times(&games, &options);
    capek_cards(&games[0], &options);
}

/// Every stage of every game, games in parallel, as `printplay build` runs them.
fn full_build(games: &[Game], options: &BuildOptions, out: &Path) {
    let runs = 5;
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    for _ in 0..runs {
        let (results, wall, cpu) = timed(|| {
            std::thread::scope(|s| {
                let handles: Vec<_> = games
                    .iter()
                    .map(|g| s.spawn(|| printplay::pipeline::build_game(g, options)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap())
                    .collect::<Vec<_>>()
            })
        });
        for r in results {
            r.expect("every shipped game builds");
        }
        walls.push(wall);
        cpus.extend(cpu);
    }
    let files = walk(out);
    let bytes: u64 = files.iter().sum();
    println!(
        "full build, all four games (every stage): median {:.0} ms wall, {} ms CPU, of {runs} runs; {} files, {:.1} MB",
        ms(median(walls)),
        if cpus.is_empty() {
            "?".to_string()
        } else {
            format!("{:.0}", median(cpus) * 1000.0)
        },
        files.len(),
        bytes as f64 / 1e6
    );
}

/// Each game's check, faces and stages one after another, so the cost of each shows
/// (a stage may still use both cores inside; CPU time is the figure to compare).
fn stage_times(games: &[Game], options: &BuildOptions) {
    println!("per stage, wall ms / CPU ms:");
    for game in games {
        let (problems, wall, cpu) = timed(|| printplay::check::check_game(game));
        assert!(problems.is_empty(), "{} checks", game.slug);
        let mut line = format!("  {:<25} check {:.0}/{}", game.slug, ms(wall), cpu_ms(cpu));
        let (faces, wall, cpu) = timed(|| render::draw_faces(game, options).expect("faces draw"));
        line.push_str(&format!("  faces {:.0}/{}", ms(wall), cpu_ms(cpu)));
        let build = render::GameBuild {
            game,
            faces,
            options,
            dir: options.out.join(&game.slug),
        };
        for (name, stage) in printplay::pipeline::stages() {
            let (r, wall, cpu) = timed(|| stage(&build));
            r.expect("stage runs");
            line.push_str(&format!("  {name} {:.0}/{}", ms(wall), cpu_ms(cpu)));
        }
        println!("{line}");
    }
}

/// Capek Golems' cards.pdf alone: faces drawn, pages laid out, PDF written.
fn capek_cards(capek: &Game, options: &BuildOptions) {
    let runs = 10;
    let mut walls = Vec::new();
    let mut size = 0;
    let (_, _, cpu) = timed(|| {
        for _ in 0..runs {
            let (pdf, wall, _) = timed(|| {
                let faces = render::draw_faces(capek, options).expect("Capek draws");
                render::cards_pdf(capek, &faces, options).expect("Capek cards.pdf")
            });
            walls.push(wall);
            size = pdf.len();
        }
    });
    println!(
        "capek-golems cards.pdf alone: median {:.0} ms wall of {runs} runs ({} ms CPU per run), {:.0} KB",
        ms(median(walls)),
        cpu.map_or("?".to_string(), |c| format!(
            "{:.0}",
            c * 1000.0 / runs as f64
        )),
        size as f64 / 1024.0
    );
}

fn walk(dir: &Path) -> Vec<u64> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else if let Ok(m) = p.metadata() {
                out.push(m.len());
            }
        }
    }
    out
}
