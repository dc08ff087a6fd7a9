//! A real browser at a printplay table: Debian's Chromium, driven by Playwright (npm
//! `playwright-core`, installed by `.ci/run` into `tests/browser`), plays a seeded game of The
//! Search to the end with two person seats in two browser contexts, by clicking the moves the
//! page offers; then a Lua game (the tutorial engine of `printplay new --engine lua`) the same
//! way. Each page's log matches `printplay replay --moves` of the same game as that seat, and
//! no page's DOM or network traffic holds anything of the other seat's hidden cards. A table
//! held because its data changed while the server was down starts over from its pages.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};

mod common;

use common::server::{browser_script, browser_tools};

use printplay::engine::view::Observer;
use printplay::play::Transcript;
use serde_json::Value;

struct Server {
    child: Child,
    _out: BufReader<ChildStdout>,
    links: Vec<(String, String)>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `printplay table` and reads its links up to the spectator's.
fn table(args: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut links = Vec::new();
    loop {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let (name, url) = line.trim().rsplit_once(' ').expect("a `SEAT URL` line");
        links.push((name.to_string(), url.to_string()));
        if name == "spectator" {
            break;
        }
    }
    Server {
        child,
        _out: out,
        links,
    }
}

fn get(url: &str) -> String {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut s = TcpStream::connect(host).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    text.split_once("\r\n\r\n").unwrap().1.to_string()
}

/// `printplay replay --moves` of the game as `seat` sees it.
fn replayed(data: &Path, t: &Transcript, seat: &str, dir: &Path) -> String {
    let file = dir.join(format!("{seat}.toml"));
    std::fs::write(&file, t.to_toml()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .arg("--data")
        .arg(data)
        .args(["replay", &t.game, "--moves"])
        .arg(&file)
        .args(["--observer", seat])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Plays the table at `server` in the browser and checks the logs and what each page got;
/// false when this machine has no browser to play in.
fn play_in_browser(data: &Path, server: &Server, shots: Option<&Path>, dir: &Path) -> bool {
    let Some((browser_dir, chromium)) = browser_tools() else {
        eprintln!("skipped: Chromium, node or tests/browser/node_modules (npm ci) missing");
        return false;
    };
    let persons: Vec<&(String, String)> = server
        .links
        .iter()
        .filter(|(n, _)| n != "spectator")
        .collect();
    assert!(persons.len() >= 2, "{:?}", server.links);
    let cfg = serde_json::json!({
        "exe": chromium,
        "seats": persons.iter().map(|(n, u)| serde_json::json!({"name": n, "url": u})).collect::<Vec<_>>(),
        "shots": shots,
    });
    let result = browser_script(&browser_dir, "table.mjs", &cfg, dir);
    assert!(result["clicks"].as_u64().unwrap() > 5, "{result}");
    // Cards in the hand are shown by their faces and play from the keyboard.
    assert!(
        result["cardPresses"].as_u64().unwrap() > 0,
        "no card was pressed"
    );
    let api = persons[0]
        .1
        .replacen("/tables/", "/api/tables/", 1)
        .replacen('?', "/transcript?", 1);
    let transcript: Transcript =
        toml::from_str(&get(&api)).expect("the finished game's transcript");
    for (i, page) in result["seats"].as_array().unwrap().iter().enumerate() {
        let name = page["name"].as_str().unwrap();
        assert_eq!(
            page["errors"],
            serde_json::json!([]),
            "{name}'s page had errors"
        );
        let seat = (0..transcript.players)
            .find(|&s| server.links.iter().position(|(n, _)| n == name) == Some(s))
            .unwrap_or(i);
        let log: Vec<&str> = page["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let replay = replayed(data, &transcript, name, dir);
        assert_eq!(
            log.len(),
            transcript.moves.len(),
            "{name}: the page's log has not every move"
        );
        // Each entry as the page words it (`N. seat: move` or `chance: outcome`) is the
        // replay's line for it, in the same order.
        let lines: Vec<&str> = replay.lines().collect();
        let mut at = 0;
        for shown in &log {
            let words = shown
                .strip_prefix("chance: ")
                .unwrap_or_else(|| shown.split_once(". ").map_or(shown, |(_, w)| w));
            let found = lines[at..]
                .iter()
                .position(|l| {
                    let action = l
                        .trim_start()
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .trim_start()
                        .trim_start_matches("* ");
                    !action.is_empty()
                        && (action == words || words.ends_with(&format!(": {action}")))
                })
                .unwrap_or_else(|| {
                    panic!("{name}: `{shown}` is not the replay's next move:\n{replay}")
                });
            at += found + 1;
        }
        let secrets = common::hidden::hidden_lines(data, &transcript, Observer::Seat(seat));
        assert!(!secrets.is_empty(), "nothing is hidden from the {name}?");
        let dom = page["dom"].as_str().unwrap();
        for secret in &secrets {
            assert!(
                !dom.contains(secret.as_str()),
                "the {name}'s page shows `{secret}`"
            );
            for t in page["traffic"].as_array().unwrap() {
                assert!(
                    !t.as_str().unwrap().contains(secret.as_str()),
                    "the {name}'s browser received `{secret}`"
                );
            }
        }
        assert!(
            dom.contains("/faces/"),
            "the {name}'s page shows no card face"
        );
    }
    true
}

#[test]
fn two_people_play_the_search_to_the_end_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/table-shots");
    std::fs::create_dir_all(&shots).unwrap();
    for old in std::fs::read_dir(&shots).unwrap() {
        std::fs::remove_file(old.unwrap().path()).unwrap();
    }
    let server = table(&[
        "--data",
        data.to_str().unwrap(),
        "table",
        "the-search",
        "--seats",
        "criminal=person,police=person",
        "--seed",
        "1",
        "--port",
        "0",
        "--db",
        db.to_str().unwrap(),
    ]);
    if play_in_browser(&data, &server, Some(&shots), dir.path()) {
        // The book's pictures of The Search's table (`docs/src/images/table-*.png`).
        common::pictures::book_pictures(&shots, "table", "table");
    }
}

#[test]
fn two_people_play_the_lua_tutorial_game_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let made = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .arg("--data")
        .arg(&data)
        .args(["new", "tutorial", "--engine", "lua"])
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let db = dir.path().join("t.sqlite");
    let server = table(&[
        "--data",
        data.to_str().unwrap(),
        "table",
        "tutorial",
        "--seed",
        "4",
        "--port",
        "0",
        "--db",
        db.to_str().unwrap(),
    ]);
    play_in_browser(&data, &server, None, dir.path());
}

#[test]
fn two_people_start_a_held_table_over_in_chromium() {
    let Some((browser_dir, chromium)) = browser_tools() else {
        eprintln!("skipped: Chromium, node or tests/browser/node_modules (npm ci) missing");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let fixture = common::Fixture::with_games(&["the-search"]);
    let data = fixture.data().to_str().unwrap().to_string();
    let db = db.to_str().unwrap();
    let first = table(&[
        "--data",
        &data,
        "table",
        "the-search",
        "--seats",
        "criminal=person,police=person",
        "--seed",
        "1",
        "--port",
        "0",
        "--db",
        db,
    ]);
    let links = first.links.clone();
    drop(first);
    // Edited while the server is down: the table is held on the server started again.
    fixture.edit(
        "the-search",
        "game.toml",
        "try to box them in.",
        "try to box them in, edited.",
    );
    let server = common::server::start(&["--data", &data, "serve", "--port", "0", "--db", db], 1);
    let base = server.base();
    let moved = |url: &str| format!("{base}{}", &url[url.find("/tables/").unwrap()..]);
    let seats: Vec<Value> = links
        .iter()
        .filter(|(n, _)| n != "spectator")
        .map(|(n, u)| serde_json::json!({"name": n, "url": moved(u)}))
        .collect();
    let cfg = serde_json::json!({"exe": chromium, "seats": seats});
    let result = browser_script(&browser_dir, "held.mjs", &cfg, dir.path());
    let held = result["held"].as_str().unwrap();
    assert!(held.contains("waiting for: criminal, police"), "{held}");
    let saw = result["secondSaw"].as_str().unwrap();
    assert!(
        saw.contains("agreed: criminal; waiting for: police"),
        "{saw}"
    );
    // Both pages play again, from the start, on the edited data.
    let view: Value = serde_json::from_str(&get(&moved(&links[0].1).replacen(
        "/tables/",
        "/api/tables/",
        1,
    )))
    .unwrap();
    let games: Value = serde_json::from_str(&get(&format!("{base}/api/games"))).unwrap();
    let now = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["slug"] == "the-search")
        .map(|g| g["version"].clone())
        .unwrap();
    assert_eq!(view["data"]["version"], now, "{view}");
    assert_eq!(games["held"], serde_json::json!([]), "{games}");
    for (page, status) in result["seats"]
        .as_array()
        .unwrap()
        .iter()
        .zip(result["status"].as_array().unwrap())
    {
        let status = status.as_str().unwrap();
        assert!(
            status == "Your turn." || status.ends_with("to act."),
            "{status}"
        );
        // The only errors: the held table's first answers (409), before it started over.
        for e in page["errors"].as_array().unwrap() {
            assert!(e.as_str().unwrap().contains("409"), "{e}");
        }
    }
}
