//! Bot fairness on `printplay serve`: two tables of The Search where the heaviest search the
//! server allows plays both seats (`mcts:N` against itself, N = `serve --bot-iterations`,
//! 20000 by default) think without a pause, while a person plays a third table against the
//! heuristic bot. Reports how long the heuristic bot takes to answer the person (from the
//! person's move sent to the view where the person may move again) at p50, p99 and max: the
//! bound the server's scheduler keeps (issue 35: p99 at most 1 s).
//!
//! `PRINTPLAY_BENCH_BIN=path` measures that build (default: this one); with
//! `PRINTPLAY_BENCH_BEFORE=path` it measures that build first, then the other, in one run,
//! under the same load. `SAMPLES` (default 40) answers a build, `HEAVY` the iterations of the
//! heavy bots (default 20000), `LIMIT_S` (default 300) the most seconds spent on one build.
//! Each server is its own process on 127.0.0.1 with a fresh database, stopped when done.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn request(host: &str, method: &str, path: &str, body: &str) -> Value {
    let Ok(mut s) = TcpStream::connect(host) else {
        return Value::Null;
    };
    let _ = write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).unwrap_or(Value::Null)
}

/// A server and what it printed: its address and, if it prints one, its admin token.
struct Server {
    child: Child,
    host: String,
    admin: Option<String>,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(bin: &str) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin)
        .args(["serve", "--port", "0", "--db"])
        .arg(dir.path().join("tables.sqlite"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let out = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in out.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let first = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the address");
    let host = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .expect("the address")
        .trim_end_matches('/')
        .to_string();
    // A build from before the admin token prints no second line.
    let admin = rx
        .recv_timeout(Duration::from_secs(2))
        .ok()
        .and_then(|l| l.split_once("?admin=").map(|(_, t)| t.to_string()));
    Server {
        child,
        host,
        admin,
        _dir: dir,
    }
}

impl Server {
    /// Makes a table of The Search with these seats; its first link (the API's address).
    fn table(&self, seats: &str, seed: u64) -> (String, String) {
        let path = match &self.admin {
            Some(a) => format!("/api/tables?admin={a}"),
            None => "/api/tables".to_string(),
        };
        let body = format!(r#"{{"game":"the-search","seats":[{seats}],"seed":{seed}}}"#);
        let made = request(&self.host, "POST", &path, &body);
        let link = made["seats"]
            .get(0)
            .and_then(|s| s["link"].as_str())
            .or_else(|| made["spectator"].as_str())
            .unwrap_or_else(|| panic!("no table made: {made}"))
            .replacen("/tables/", "/api/tables/", 1);
        let spectator = made["spectator"]
            .as_str()
            .unwrap()
            .replacen("/tables/", "/api/tables/", 1);
        (link, spectator)
    }
}

/// The heuristic bot's answers at a person's table while two heavy tables think.
fn measure(bin: &str, samples: usize, heavy: u64, limit: Duration) -> Vec<Duration> {
    let server = start(bin);
    let spec = format!(r#""mcts:{heavy}","mcts:{heavy}""#);
    // The heavy tables play by themselves; a finished one is replaced.
    let mut heavies: Vec<String> = (0..2).map(|i| server.table(&spec, 100 + i).1).collect();
    let mut seed = 0;
    let (mut me, _) = server.table(r#""person","heuristic""#, seed);
    let started = Instant::now();
    let mut times = Vec::new();
    let mut waited_heavy = Instant::now();
    while times.len() < samples && started.elapsed() < limit {
        if waited_heavy.elapsed() > Duration::from_secs(1) {
            for (i, h) in heavies.iter_mut().enumerate() {
                if !request(&server.host, "GET", h, "")["outcome"].is_null() {
                    seed += 1;
                    *h = server.table(&spec, 1000 + seed + i as u64).1;
                }
            }
            waited_heavy = Instant::now();
        }
        let v = request(&server.host, "GET", &me, "");
        if !v["outcome"].is_null() || v["legal"].as_array().is_none_or(|l| l.is_empty()) {
            if !v["outcome"].is_null() {
                seed += 1;
                me = server.table(r#""person","heuristic""#, seed).0;
            } else {
                std::thread::sleep(Duration::from_millis(20));
            }
            continue;
        }
        // A person's pause, then a move; the clock runs until the person may move again.
        std::thread::sleep(Duration::from_millis(100));
        let at = v["moves"].as_u64().unwrap_or(0);
        let n = v["legal"].as_array().map_or(1, |l| l.len());
        let index = (at as usize * 7 + 3) % n;
        let moves = me.replacen('?', "/moves?", 1);
        let sent = Instant::now();
        let after = request(
            &server.host,
            "POST",
            &moves,
            &format!(r#"{{"index":{index},"at":{at}}}"#),
        );
        if after["moves"].as_u64().is_none_or(|m| m <= at) {
            continue;
        }
        loop {
            let v = request(&server.host, "GET", &me, "");
            let back = v["legal"].as_array().is_some_and(|l| !l.is_empty());
            if back || !v["outcome"].is_null() {
                times.push(sent.elapsed());
                break;
            }
            if sent.elapsed() > limit {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    times
}

fn report(name: &str, bin: &str, mut times: Vec<Duration>) {
    times.sort();
    if times.is_empty() {
        println!("{name} ({bin}): no answer measured");
        return;
    }
    let pick = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{name}: the heuristic bot answered {} moves beside two tables of the heaviest search: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms (goal: p99 at most 1000 ms) [{bin}]",
        times.len(),
        ms(pick(0.5)),
        ms(pick(0.99)),
        ms(*times.last().unwrap())
    );
}

fn main() {
    let samples = env_or("SAMPLES", 40) as usize;
    let heavy = env_or("HEAVY", 20_000);
    let limit = Duration::from_secs(env_or("LIMIT_S", 300));
    let now = std::env::var("PRINTPLAY_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_printplay").to_string());
    println!(
        "two tables of mcts:{heavy} against itself, a person against the heuristic bot at a third; {samples} answers a build, at most {} s each",
        limit.as_secs()
    );
    if let Ok(before) = std::env::var("PRINTPLAY_BENCH_BEFORE") {
        let times = measure(&before, samples, heavy, limit);
        report("before", &before, times);
    }
    let times = measure(&now, samples, heavy, limit);
    report("now", &now, times);
}
