//! `cargo bench --bench designer`: what a designer waits for, measured on the whole process
//! (the release `printplay` binary):
//!
//! 1. `printplay build capek-golems --only cards`: wall time, CPU time and peak memory (maximum
//!    resident set size) of the process. Goals: at most 100 ms and 40 MB.
//! 2. `printplay watch capek-golems`: from writing a changed card to `components.toml` to the
//!    rewritten `cards.pdf`. Goal: at most 300 ms.
//!
//! The machine is shared: the load average is printed beside the figures. To compare with
//! another build, name its binary in `PRINTPLAY_BENCH_BIN`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 10;
/// Edits timed under `watch`.
const WATCH_EDITS: usize = 20;
/// How long `watch` stays silent before the next edit is made.
const QUIET: Duration = Duration::from_millis(500);
/// The goal for one edit under `watch`, in milliseconds.
const WATCH_GOAL_MS: f64 = 300.0;

/// The binary measured: this build's, or the one `PRINTPLAY_BENCH_BIN` names.
fn bin() -> String {
    std::env::var("PRINTPLAY_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_printplay").to_string())
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    v[v.len() / 2]
}

/// Runs a command to its end: wall milliseconds, CPU milliseconds and peak resident memory in
/// megabytes, from the kernel's accounting of the child (`wait4`).
fn measured(cmd: &mut Command) -> (f64, f64, f64) {
    let start = Instant::now();
    #[allow(clippy::zombie_processes)] // reaped by `wait4`, which also gives its resource usage
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("printplay runs");
    let mut status = 0;
    // SAFETY: `usage` is a plain C struct the kernel fills; the pid is our own child's.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let wall = start.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(pid, child.id() as i32, "wait4");
    assert_eq!(status, 0, "printplay failed");
    let tv = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    let cpu = tv(usage.ru_utime) + tv(usage.ru_stime);
    (wall, cpu, usage.ru_maxrss as f64 / 1024.0)
}

fn only_cards(out: &Path) {
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    let mut peaks = Vec::new();
    for _ in 0..RUNS {
        let (wall, cpu, peak) = measured(
            Command::new(bin())
                .args(["build", "capek-golems", "--only", "cards", "--out"])
                .arg(out),
        );
        walls.push(wall);
        cpus.push(cpu);
        peaks.push(peak);
    }
    println!(
        "build capek-golems --only cards ({RUNS} runs): median {:.0} ms wall (min {:.0}), {:.0} ms CPU, peak memory {:.1} MB (max {:.1})",
        median(walls.clone()),
        walls.iter().cloned().fold(f64::MAX, f64::min),
        median(cpus),
        median(peaks.clone()),
        peaks.iter().cloned().fold(0.0, f64::max),
    );
}

/// Edits one card of a copy of Capek Golems under `watch` and times the new `cards.pdf`.
fn watch_latency(tmp: &Path) {
    let data = tmp.join("data");
    common::copy_dir(Path::new("data/capek-golems"), &data.join("capek-golems"));
    let out = tmp.join("watched");
    let mut child = Command::new(bin())
        .args([
            "--data",
            data.to_str().unwrap(),
            "watch",
            "capek-golems",
            "--out",
        ])
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("watch runs");
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Waits for the end of a round ("built ..."), then until `watch` has been quiet for a
    // while, so that each edit is timed from rest, not behind the rest of a round before.
    let built = |lines: &std::sync::mpsc::Receiver<String>| {
        loop {
            match lines.recv_timeout(Duration::from_secs(60)) {
                Ok(l) if l.starts_with("built") => break,
                Ok(_) => {}
                Err(_) => panic!("watch stopped"),
            }
        }
        while lines.recv_timeout(QUIET).is_ok() {}
    };
    built(&lines);
    let components = data.join("capek-golems/components.toml");
    let pdf = out.join("capek-golems/cards.pdf");
    let original = std::fs::read_to_string(&components).unwrap();
    let mut latencies = Vec::new();
    for round in 0..WATCH_EDITS {
        let before = std::fs::read(&pdf).unwrap();
        let edited =
            original.replacen("Parts Machining 1", &format!("Parts Machining {round}x"), 1);
        let start = Instant::now();
        std::fs::write(&components, edited).unwrap();
        while std::fs::read(&pdf).map(|b| b == before).unwrap_or(true) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no new cards.pdf"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        latencies.push(start.elapsed().as_secs_f64() * 1000.0);
        built(&lines);
    }
    let _ = child.kill();
    let _ = child.wait();
    let mut sorted = latencies.clone();
    sorted.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    println!(
        "watch: saved card -> new cards.pdf ({WATCH_EDITS} edits): median {:.0} ms, 90th percentile {:.0} ms, max {:.0} ms, {} over {WATCH_GOAL_MS} ms",
        median(latencies.clone()),
        sorted[sorted.len() * 9 / 10 - 1],
        sorted[sorted.len() - 1],
        sorted.iter().filter(|&&l| l > WATCH_GOAL_MS).count(),
    );
    println!(
        "  each edit (ms): {}",
        latencies
            .iter()
            .map(|l| format!("{l:.0}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
}

fn main() {
    let tmp = tempfile::tempdir().expect("temporary folder");
    println!("load average at start: {}", load());
    only_cards(&tmp.path().join("out"));
    watch_latency(tmp.path());
    println!("load average at end: {}", load());
}
