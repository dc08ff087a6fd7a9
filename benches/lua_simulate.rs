//! `cargo bench --bench lua_simulate`: a Lua engine against the Rust engine of the same game on
//! the path a designer uses, `printplay simulate` (the release binary as a process, report and
//! statistics included), not the engine alone (that is `benches/lua_engine.rs`).
//!
//! Aether at 2 players, seed 1, 10,000 games (`LUA_SIM_GAMES` changes the count), `--no-charts`,
//! one worker thread (`RAYON_NUM_THREADS=1`), timed by the CPU time of the process (the
//! machine is shared; the load average is printed beside the figures). Rust: `data/aether`.
//! Lua: the same data with `engine = "lua"` and `tests/fixtures/aether-lua/engine.lua`. Bots:
//! `random`, and `heuristic` when the Lua fixture offers it. Each figure is the median of
//! three runs, Rust and Lua runs interleaved. The two reports of a pair are compared too: a
//! faithful port plays the same games for the same seed, so they are identical but for the
//! game length in turns, which the Rust engine counts and the Lua contract does not.
//!
//! To compare builds in one run (before and after a change), name the other binary in
//! `PRINTPLAY_BENCH_BEFORE` (and, if the fixture changed too, its `engine.lua` in
//! `PRINTPLAY_BENCH_BEFORE_SCRIPT`): both are measured, interleaved, under the same load.
//! `PRINTPLAY_BENCH_BIN` replaces this build's binary.

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::process::Command;

const RUNS: usize = 3;

fn games() -> u64 {
    std::env::var("LUA_SIM_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000)
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// CPU seconds (user and system) of the children waited for so far.
fn children_cpu() -> f64 {
    // SAFETY: getrusage writes one `rusage` into the zeroed value it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// One `simulate` run: CPU seconds and the report, or why it did not run.
fn simulate(bin: &str, data: &Path, bots: &str, out: &Path) -> Result<(f64, String), String> {
    let games = games().to_string();
    let before = children_cpu();
    let run = Command::new(bin)
        .args(["--data", data.to_str().unwrap(), "simulate", "aether"])
        .args(["--games", &games, "--seed", "1", "--players", "2"])
        .args([
            "--bots",
            bots,
            "--no-charts",
            "--out",
            out.to_str().unwrap(),
        ])
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .map_err(|e| format!("{bin}: {e}"))?;
    let cpu = children_cpu() - before;
    if !run.status.success() {
        return Err(String::from_utf8_lossy(&run.stderr).trim().to_string());
    }
    let report = String::from_utf8_lossy(&run.stdout)
        .lines()
        .filter(|l| !l.trim_start().starts_with("in turns"))
        .collect::<Vec<_>>()
        .join("\n");
    Ok((cpu, report))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Aether's data played by the Lua engine `script`.
fn lua_aether(script: &Path) -> common::Fixture {
    let lua = common::Fixture::with_games(&["aether"]);
    lua.edit(
        "aether",
        "game.toml",
        "engine = \"aether\"",
        "engine = \"lua\"",
    );
    std::fs::copy(script, lua.file("aether", "engine.lua"))
        .unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    lua
}

fn main() {
    let rust = common::Fixture::with_games(&["aether"]);
    let script = common::repo().join("tests/fixtures/aether-lua/engine.lua");
    let out = tempfile::tempdir().expect("a temporary folder");
    let this = std::env::var("PRINTPLAY_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_printplay").to_string());
    let mut builds = vec![("this build", this, lua_aether(&script))];
    if let Ok(before) = std::env::var("PRINTPLAY_BENCH_BEFORE") {
        let script =
            std::env::var("PRINTPLAY_BENCH_BEFORE_SCRIPT").map_or(script, std::path::PathBuf::from);
        builds.insert(0, ("before", before, lua_aether(&script)));
    }
    println!(
        "printplay simulate aether --players 2 --seed 1 --games {}, RAYON_NUM_THREADS=1, median of {RUNS}; load {}",
        games(),
        load()
    );
    for bots in ["random", "heuristic"] {
        for (label, bin, lua) in &builds {
            let (mut r, mut l) = (Vec::new(), Vec::new());
            let mut same = true;
            let mut skipped = None;
            for _ in 0..RUNS {
                let (rc, rtext) = simulate(bin, rust.data(), bots, out.path())
                    .unwrap_or_else(|e| panic!("Rust aether, {bots}: {e}"));
                match simulate(bin, lua.data(), bots, out.path()) {
                    Ok((lc, ltext)) => {
                        r.push(rc);
                        l.push(lc);
                        same &= rtext == ltext;
                    }
                    Err(e) => {
                        skipped = Some(e);
                        break;
                    }
                }
            }
            if let Some(e) = skipped {
                println!("{bots:<9} {label:<10} Lua skipped: {e}");
                continue;
            }
            let n = games() as f64;
            let (rate_r, rate_l) = (n / median(r), n / median(l));
            println!(
                "{bots:<9} {label:<10} Rust {rate_r:>8.0} games/s  Lua {rate_l:>7.0} games/s  Lua/Rust {:.3}  reports {}",
                rate_l / rate_r,
                if same { "identical" } else { "differ" }
            );
        }
    }
    println!(
        "(goal: Lua/Rust at least 0.1, next 0.2; load after: {})",
        load()
    );
}
