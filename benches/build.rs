//! `cargo bench --bench build`: the full print build of all four shipped games (every stage,
//! into a temporary folder), and Capek Golems' cards.pdf alone with its size.
//! Goals: all games under 3 s on 2 cores; Capek cards.pdf under 300 ms and under 400 KB.

use std::path::Path;
use std::time::{Duration, Instant};

use printplay::model::load_game;
use printplay::render::{self, BuildOptions};

const GAMES: [&str; 4] = [
    "capek-golems",
    "the-search",
    "aether",
    "imperial-settlers-aztecs",
];

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
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
    let runs = 3;
    let mut full = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        // Games in parallel, as `printplay build` runs them.
        let results: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = games
                .iter()
                .map(|g| s.spawn(|| render::build_game(g, &options)))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        full.push(start.elapsed());
        for r in results {
            r.expect("every shipped game builds");
        }
    }
    let files = walk(out.path());
    let bytes: u64 = files.iter().sum();
    println!(
        "full build, all four games (every stage): median {:.0} ms of {runs} runs; {} files, {:.1} MB",
        median(full).as_secs_f64() * 1000.0,
        files.len(),
        bytes as f64 / 1e6
    );
    stage_times(&games, &options);
    let capek = &games[0];
    let mut cards = Vec::new();
    let mut size = 0;
    for _ in 0..10 {
        let start = Instant::now();
        let faces = render::draw_faces(capek, &options).expect("Capek draws");
        let pdf = render::cards_pdf(capek, &faces, &options).expect("Capek cards.pdf");
        cards.push(start.elapsed());
        size = pdf.len();
    }
    println!(
        "capek-golems cards.pdf alone: median {:.0} ms of 10 runs, {:.0} KB",
        median(cards).as_secs_f64() * 1000.0,
        size as f64 / 1024.0
    );
}

/// Each game's stages one after another on one thread, in CPU-independent order, so the
/// cost of each stage shows (the full build above runs them in parallel).
fn stage_times(games: &[printplay::model::Game], options: &BuildOptions) {
    for game in games {
        let start = Instant::now();
        let problems = printplay::check::check_game(game);
        assert!(problems.is_empty(), "{} checks", game.slug);
        let check = start.elapsed();
        let start = Instant::now();
        let faces = render::draw_faces(game, options).expect("faces draw");
        let draw = start.elapsed();
        let build = render::GameBuild {
            game,
            faces,
            options,
            dir: options.out.join(&game.slug),
        };
        let mut line = format!(
            "{:<26} check {:>5.0} ms  faces {:>4.0} ms",
            game.slug,
            check.as_secs_f64() * 1000.0,
            draw.as_secs_f64() * 1000.0
        );
        for (name, stage) in render::stages() {
            let start = Instant::now();
            stage(&build).expect("stage runs");
            line.push_str(&format!(
                "  {name} {:>4.0} ms",
                start.elapsed().as_secs_f64() * 1000.0
            ));
        }
        println!("{line}");
    }
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
