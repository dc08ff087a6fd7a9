//! Load on `printplay serve`: many tables of The Search at once, each with one scripted person
//! (a WebSocket client here) and the heuristic bot on the server. Reports the person's move
//! round trip (sent to the first view that shows it: bot thinking is not in it) at p50 and
//! p99, the server's memory per table, and checks that no move was lost or doubled.
//!
//! It starts its own server on 127.0.0.1 (a free port, a fresh database), talks only to it,
//! is bounded in tables, moves and time, and stops it when done.
//! `TABLES` and `MOVES` (person moves per table) set the size; defaults 200 and 20.
//! `THINK_MS` (default 0) makes each person think before a move, between half and one and a
//! half times that (the same for the same table and move): with 0 every person moves the
//! instant it may, so the server is saturated and each round trip waits behind the other
//! tables' moves; with a person's pace it is the round trip a person sees.
//! `PRINTPLAY_BENCH_BIN=path/to/printplay` measures another build of the server the same way
//! (a before/after on one load); the client reads both whole views and updates.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn post(host: &str, path: &str, body: &str) -> Value {
    let mut s = TcpStream::connect(host).expect("the server");
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).unwrap_or(Value::Null)
}

fn get(host: &str, path: &str) -> Value {
    let mut s = TcpStream::connect(host).expect("the server");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    serde_json::from_str(text.split_once("\r\n\r\n").map_or("", |(_, b)| b)).unwrap_or(Value::Null)
}

/// A line of the server's `/proc/PID/status` (`VmRSS`: KB; `Threads`).
fn status(pid: u32, key: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// The CPU time a process (the server, or this bench) has used (user and system), in ms.
fn cpu_ms(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command (in parentheses): utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    let ticks = f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0);
    // The kernel's clock ticks are 100 a second on Linux.
    ticks * 10
}

fn rss_kb(pid: u32) -> u64 {
    status(pid, "VmRSS:")
}

/// A view or an update as the person reads it: only the parts it needs are read (the rest
/// is skipped unparsed), so that the clients, which share the machine with the server, cost
/// little next to it. A part an update leaves out is `None`.
#[derive(Deserialize)]
struct Live {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    view: Part,
}

#[derive(Deserialize, Default)]
struct Part {
    moves: Option<u64>,
    legal: Option<Vec<IgnoredAny>>,
    /// `Some(Null)`: the game goes on.
    #[serde(default, deserialize_with = "present")]
    outcome: Option<Value>,
}

/// A part that is there, `null` or not (serde reads a `null` as `None` otherwise).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// One scripted person: plays up to `moves` moves, returns each round trip, the moves it had
/// acknowledged, and the views and updates it received.
async fn person(
    url: String,
    moves: usize,
    table: usize,
    think_ms: u64,
) -> (Vec<Duration>, usize, String, usize) {
    let (mut socket, _) = tokio_tungstenite::connect_async(&url)
        .await
        .expect("a socket");
    let mut times = Vec::new();
    let mut sent: Option<(u64, Instant)> = None;
    let mut played = 0;
    let mut received = 0;
    // What the person reads of its view: the move count, how many moves it may make, and
    // whether the game is over.
    let (mut at, mut legal, mut over) = (0u64, 0usize, false);
    while let Ok(Some(Ok(msg))) = tokio::time::timeout(Duration::from_secs(30), socket.next()).await
    {
        let Message::Text(text) = msg else { continue };
        received += 1;
        let msg: Live = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("a message the bench cannot read ({e}): {text}"));
        match msg.kind.as_str() {
            // A whole view has every part; an update only the parts that changed.
            "view" | "update" => {
                let v = msg.view;
                if msg.kind == "view" && (v.moves.is_none() || v.legal.is_none()) {
                    panic!("a whole view without its moves: {text}");
                }
                at = v.moves.unwrap_or(at);
                legal = v.legal.map_or(legal, |l| l.len());
                over = v.outcome.map_or(over, |o| !o.is_null());
            }
            // Who is connected: nothing the person acts on.
            "presence" => continue,
            _ => panic!("the server refused a move: {text}"),
        }
        if let Some((before, t)) = sent
            && at > before
        {
            times.push(t.elapsed());
            played += 1;
            sent = None;
        }
        if over || played >= moves {
            break;
        }
        if sent.is_none() && legal > 0 {
            if think_ms > 0 {
                // 0.5 to 1.5 times THINK_MS, from the table and the move count.
                let spread = (table as u64 * 7919 + at * 104_729) % 1000;
                let ms = think_ms / 2 + think_ms * spread / 1000;
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            let index = (at as usize * 7 + 3) % legal;
            let m = format!(r#"{{"type":"move","index":{index},"at":{at}}}"#);
            sent = Some((at, Instant::now()));
            socket.send(Message::Text(m.into())).await.unwrap();
        }
    }
    let _ = socket.close(None).await;
    (times, played, url, received)
}

fn main() {
    let tables = env_or("TABLES", 200);
    let moves = env_or("MOVES", 20);
    let think_ms = env_or("THINK_MS", 0) as u64;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.sqlite");
    let bin = std::env::var("PRINTPLAY_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_printplay").to_string());
    println!("server: {bin}");
    let mut child = Command::new(&bin)
        .args(["serve", "--port", "0", "--db"])
        .arg(&db)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let out = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in out.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let line = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the address");
    // The admin token makes tables (a build from before it prints no second line).
    let make = match rx
        .recv_timeout(Duration::from_secs(2))
        .ok()
        .and_then(|l| l.split_once("?admin=").map(|(_, t)| t.to_string()))
    {
        Some(admin) => format!("/api/tables?admin={admin}"),
        None => "/api/tables".to_string(),
    };
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .expect("the address")
        .trim_end_matches('/')
        .to_string();
    let host = base.trim_start_matches("http://").to_string();
    std::thread::sleep(Duration::from_millis(200));
    // One table first, its view asked for: what every table shares (The Search's faces, drawn
    // once) is then in the empty server's memory, not counted per table.
    let warm = post(
        &host,
        &make,
        r#"{"game":"the-search","seats":["person","heuristic"],"seed":999999}"#,
    );
    let warm_link = warm["seats"][0]["link"].as_str().expect("a link");
    assert!(get(&host, &warm_link.replacen("/tables/", "/api/tables/", 1))["view"].is_object());
    std::thread::sleep(Duration::from_millis(200));
    let empty = rss_kb(child.id());
    let links: Vec<String> = (0..tables)
        .map(|i| {
            let body =
                format!(r#"{{"game":"the-search","seats":["person","heuristic"],"seed":{i}}}"#);
            let made = post(&host, &make, &body);
            let link = made["seats"][0]["link"]
                .as_str()
                .unwrap_or_else(|| panic!("no table made: {made}"))
                .to_string();
            format!(
                "ws://{host}{}",
                link.replacen("/tables/", "/api/tables/", 1)
                    .replacen('?', "/ws?", 1)
            )
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let full = rss_kb(child.id());
    let cpu_before = cpu_ms(child.id());
    let own_before = cpu_ms(std::process::id());
    let started = Instant::now();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let results = rt.block_on(async {
        let tasks: Vec<_> = links
            .iter()
            .enumerate()
            .map(|(i, u)| tokio::spawn(person(u.clone(), moves, i, think_ms)))
            .collect();
        let mut results = Vec::new();
        for t in tasks {
            results.push(t.await.unwrap());
        }
        results
    });
    let elapsed = started.elapsed();
    let cpu = cpu_ms(child.id()).saturating_sub(cpu_before);
    let own = cpu_ms(std::process::id()).saturating_sub(own_before);
    let played_rss = rss_kb(child.id());
    let threads = status(child.id(), "Threads:");
    // No move lost or doubled: each table holds exactly the moves its person had answered.
    let mut lost = 0;
    for (_, played, url, _) in &results {
        let api = url.replacen("ws://", "", 1).replacen("/ws?", "?", 1);
        let (h, path) = api.split_at(api.find('/').unwrap());
        let v = get(h, path);
        let mine = v["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["by"] == "criminal")
            .count();
        if mine != *played {
            lost += 1;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let mut times: Vec<Duration> = results.iter().flat_map(|r| r.0.iter().copied()).collect();
    times.sort();
    let pick = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "{tables} tables, {} person moves in {:.1} s (persons think {think_ms} ms): round trip p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        times.len(),
        elapsed.as_secs_f64(),
        pick(0.5).as_secs_f64() * 1e3,
        pick(0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3
    );
    println!(
        "server memory: {empty} KB with one table (faces drawn), {full} KB with {tables} new tables ({} KB per table), {played_rss} KB after the moves ({} KB per table)",
        (full.saturating_sub(empty)) / tables as u64,
        (played_rss.saturating_sub(empty)) / tables as u64
    );
    println!(
        "server CPU during the moves: {cpu} ms ({:.2} ms a person move, with the bot's and chance's moves after it)",
        cpu as f64 / times.len() as f64
    );
    let received: usize = results.iter().map(|r| r.3).sum();
    println!(
        "views and updates sent to the persons: {received} ({:.2} a person move)",
        received as f64 / times.len() as f64
    );
    println!(
        "the bench's own CPU (its {tables} clients) during the moves: {own} ms ({:.2} ms a person move)",
        own as f64 / times.len() as f64
    );
    println!("server threads after the moves: {threads}");
    println!("tables whose stored moves differ from the acknowledged ones: {lost}");
    assert_eq!(lost, 0, "a move was lost or doubled");
}
