//! What testers say and do at a `serve` table, end to end on the real binary: chat, notes on a
//! move or a card, and each move's time are stored with the table, survive a SIGKILL of the
//! server and come out of `printplay playtests --json/--csv`; a note not shared reaches no
//! other seat; chat is untrusted text (bounded: 413, rate-limited: 429) that the page shows
//! as text.

use std::path::Path;
use std::process::Command;

mod common;

use common::server::{
    admin_of, api, browser_script, browser_tools, http, link_of, start, with_path,
};

use serde_json::{Value, json};

fn get(url: &str) -> (u16, Value) {
    let (status, body) = http("GET", url, b"");
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn post(url: &str, body: &Value) -> (u16, Value) {
    let (status, body) = http("POST", url, body.to_string().as_bytes());
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn two_persons(db: &str) -> common::server::Server {
    start(
        &[
            "table",
            "the-search",
            "--seats",
            "criminal=person,police=person",
            "--seed",
            "5",
            "--port",
            "0",
            "--db",
            db,
        ],
        4,
    )
}

/// The seat to act now and its link, among `links` (seat name, API address); waits out chance.
fn to_act(links: &[(String, String)]) -> (&str, Value) {
    for _ in 0..400 {
        for (name, me) in links {
            let (status, v) = get(me);
            assert_eq!(status, 200, "{v}");
            let acts = v["to_act"]
                .as_array()
                .is_some_and(|a| a.iter().any(|s| s == name.as_str()));
            if acts && !v["legal"].as_array().unwrap().is_empty() {
                return (me, v);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    panic!("no person came to act");
}

/// Plays `n` moves, each by the seat to act.
fn play(links: &[(String, String)], n: usize) {
    for k in 0..n {
        let (me, v) = to_act(links);
        let legal = v["legal"].as_array().unwrap().len();
        let (status, body) = http(
            "POST",
            &with_path(me, "moves"),
            format!(r#"{{"index": {}}}"#, (k * 5 + 1) % legal).as_bytes(),
        );
        assert_eq!(status, 200, "{body}");
    }
}

fn texts(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("not a list: {list}"))
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

const SCRIPT: &str = "<script>alert('x')</script> is <b>bold</b> here?";
const SECRET: &str = "this card confused me: the alibi rule";
const SHARED: &str = "shared: the map cards are hard to tell apart";

#[test]
fn chat_notes_and_move_times_survive_a_sigkill_and_come_out_of_the_export() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.sqlite").display().to_string();
    let mut server = two_persons(&db);
    let admin = admin_of(&server.lines);
    let criminal = api(&link_of(&server.lines, "criminal"));
    let police = api(&link_of(&server.lines, "police"));
    let spectator = api(&link_of(&server.lines, "spectator"));
    let links = vec![
        ("criminal".to_string(), criminal.clone()),
        ("police".to_string(), police.clone()),
    ];
    play(&links, 3);

    // Chat from a seat and from the spectator; a note kept to oneself and one shared.
    let (status, body) = post(&with_path(&criminal, "chat"), &json!({"text": SCRIPT}));
    assert_eq!(status, 201, "{body}");
    let (status, body) = post(
        &with_path(&spectator, "chat"),
        &json!({"text": "go police"}),
    );
    assert_eq!(status, 201, "{body}");
    let (status, body) = post(
        &with_path(&criminal, "notes"),
        &json!({"text": SECRET, "move": 1, "card": "Alibi"}),
    );
    assert_eq!(status, 201, "{body}");
    let (status, body) = post(
        &with_path(&police, "notes"),
        &json!({"text": SHARED, "shared": true}),
    );
    assert_eq!(status, 201, "{body}");
    // A chat line is text alone; without a token nothing is said.
    let (status, _) = post(
        &with_path(&police, "chat"),
        &json!({"text": "hi", "shared": true}),
    );
    assert_eq!(status, 400);
    let anonymous = police.split('?').next().unwrap().to_string();
    let (status, _) = post(&format!("{anonymous}/chat"), &json!({"text": "hi"}));
    assert_eq!(status, 403);

    // Everyone at the table reads the chat, as the text sent (the page shows it as text).
    for me in [&criminal, &police, &spectator] {
        let (_, v) = get(me);
        assert_eq!(texts(&v["chat"]), vec![SCRIPT, "go police"], "{me}");
    }
    // The unshared note reaches its writer only: not the other seat, not the spectator.
    let (_, mine) = get(&criminal);
    assert_eq!(texts(&mine["notes"]), vec![SECRET, SHARED]);
    assert_eq!(mine["notes"][0]["card"], "Alibi");
    assert_eq!(mine["notes"][0]["mine"], true);
    for me in [&police, &spectator] {
        let (_, body) = http("GET", me, b"");
        assert!(
            !body.contains("alibi rule"),
            "{me} was sent the note: {body}"
        );
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(texts(&v["notes"]), vec![SHARED]);
    }
    // The designer reads every note with the admin link, and only with it.
    let voices = |token: &str| {
        let base = criminal.split('?').next().unwrap();
        get(&format!("{base}/voices?{token}"))
    };
    let (status, all) = voices(&format!("admin={admin}"));
    assert_eq!(status, 200, "{all}");
    assert_eq!(
        texts(&all["voices"]),
        vec![SCRIPT, "go police", SECRET, SHARED]
    );
    let token = criminal.split("token=").nth(1).unwrap();
    assert_eq!(voices(&format!("token={token}")).0, 403);
    play(&links, 2);

    // SIGKILL: nothing flushed on the way out; what was acknowledged is stored.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let server = start(&["serve", "--port", "0", "--db", &db], 1);
    let moved = |me: &str| {
        let path = &me[me.find("/api/").unwrap()..];
        format!("{}{path}", server.base())
    };
    let (_, v) = get(&moved(&criminal));
    assert_eq!(texts(&v["chat"]), vec![SCRIPT, "go police"]);
    assert_eq!(texts(&v["notes"]), vec![SECRET, SHARED]);
    let (_, v) = get(&moved(&police));
    assert_eq!(texts(&v["notes"]), vec![SHARED]);
    let moves = v["moves"].as_u64().unwrap() as usize;
    drop(server);

    let csv = dir.path().join("out/sessions.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args([
            "playtests",
            "the-search",
            "--db",
            &db,
            "--json",
            "-",
            "--csv",
        ])
        .arg(&csv)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let export: Value = serde_json::from_slice(&out.stdout).unwrap();
    let session = &export["sessions"][0];
    assert_eq!(export["sessions"].as_array().unwrap().len(), 1);
    let played = session["moves"].as_array().unwrap();
    assert_eq!(played.len(), moves);
    let mut before = session["began_ms"].as_i64().unwrap();
    for m in played {
        let at = m["at"].as_i64().unwrap_or_else(|| panic!("no time: {m}"));
        assert!(at >= before, "{m}");
        let took = m["turn_seconds"].as_f64().unwrap();
        assert!((took - (at - before) as f64 / 1000.0).abs() < 1e-9, "{m}");
        before = at;
        assert!(!m["move"].as_str().unwrap().is_empty());
    }
    assert!(session["length_seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(texts(&session["chat"]), vec![SCRIPT, "go police"]);
    assert_eq!(texts(&session["notes"]), vec![SECRET, SHARED]);
    assert_eq!(session["notes"][0]["shared"], false);
    assert_eq!(session["notes"][0]["card"], "Alibi");
    assert_eq!(session["notes"][0]["who"], "criminal");
    assert_eq!(session["chat"][1]["who"], "spectator");
    let plays = export["card_plays"].as_object().unwrap();
    let person_plays: u64 = plays.values().map(|p| p["persons"].as_u64().unwrap()).sum();
    let named: usize = played
        .iter()
        .map(|m| m["cards"].as_array().unwrap().len())
        .sum();
    assert_eq!(person_plays as usize, named);

    // The CSV holds the same: a row per move with its time, per chat line and note.
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let head: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(head[..4], ["table", "kind", "n", "at_ms"]);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let kind = |k: &str| rows.iter().filter(|r| &r[1] == k).count();
    assert_eq!(kind("move"), moves);
    assert_eq!(kind("chat"), 2);
    assert_eq!(kind("note"), 2);
    assert!(
        rows.iter()
            .filter(|r| &r[1] == "move")
            .all(|r| r[3].parse::<i64>().is_ok() && r[4].parse::<f64>().is_ok())
    );
    assert!(
        rows.iter()
            .any(|r| &r[1] == "note" && &r[9] == SECRET && &r[8] == "Alibi")
    );
    assert!(rows.iter().any(|r| &r[1] == "chat" && &r[9] == SCRIPT));
}

#[test]
fn oversized_or_too_frequent_chat_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.sqlite").display().to_string();
    let server = two_persons(&db);
    let police = api(&link_of(&server.lines, "police"));
    let chat = with_path(&police, "chat");
    // Over the bound in characters (each is two bytes), and far over it in bytes.
    let long = "é".repeat(printplay::limits::VOICE_MAX_CHARS + 1);
    assert_eq!(post(&chat, &json!({"text": long})).0, 413);
    let huge = "x".repeat(100_000);
    assert_eq!(post(&chat, &json!({"text": huge})).0, 413);
    let notes = with_path(&police, "notes");
    assert_eq!(post(&notes, &json!({"text": "?", "card": long})).0, 413);
    assert_eq!(post(&chat, &json!({"text": "  "})).0, 400);
    // The longest text passes; then the seat's burst runs out and the next is refused.
    let most = "é".repeat(printplay::limits::VOICE_MAX_CHARS);
    assert_eq!(post(&chat, &json!({"text": most})).0, 201);
    for k in 1..printplay::limits::VOICE_BURST {
        assert_eq!(post(&chat, &json!({"text": format!("line {k}")})).0, 201);
    }
    let (status, body) = post(&chat, &json!({"text": "one too many"}));
    assert_eq!(status, 429, "{body}");
    // Another seat's allowance is its own.
    let criminal = api(&link_of(&server.lines, "criminal"));
    assert_eq!(
        post(&with_path(&criminal, "chat"), &json!({"text": "mine"})).0,
        201
    );
    let (_, v) = get(&police);
    let said = texts(&v["chat"]);
    assert_eq!(said.len(), printplay::limits::VOICE_BURST as usize + 1);
    assert!(
        !said
            .iter()
            .any(|t| t == "one too many" || t.chars().count() > 500)
    );
}

/// The page's script shows what testers said as text: no markup is ever parsed from it.
#[test]
fn the_voices_script_writes_text_only() {
    let script = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/serve/page/voices.js"),
    )
    .unwrap();
    for sink in [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "createContextualFragment",
        "DOMParser",
    ] {
        assert!(!script.contains(sink), "voices.js uses {sink}");
    }
    assert!(script.contains("textContent"));
}

/// In Chromium: chat holding markup, typed into the page's form, is shown as text on every
/// page (nothing parsed, nothing run); a note kept to oneself reaches no other page, nor any
/// other seat's traffic; a shared one reaches every page; each page says who is connected and
/// whose turn it is in its title and icon.
#[test]
fn pages_show_chat_as_text_and_keep_an_unshared_note_to_its_writer() {
    let Some((browser_dir, chromium)) = browser_tools() else {
        eprintln!("skipped: Chromium, node or tests/browser/node_modules (npm ci) missing");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.sqlite").display().to_string();
    let server = two_persons(&db);
    let chat =
        "<script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\"><b>bold?</b>";
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/table-pages");
    std::fs::create_dir_all(&shots).unwrap();
    let seat = |name: &str| json!({"name": name, "url": link_of(&server.lines, name)});
    let cfg = json!({
        "exe": chromium,
        "seats": [seat("criminal"), seat("police"), seat("spectator")],
        "chat": chat,
        "secret": SECRET,
        "shared": SHARED,
        "shots": shots,
    });
    let r = browser_script(&browser_dir, "voices.mjs", &cfg, dir.path());
    let pages = &r["pages"];
    let (_, v) = get(&api(&link_of(&server.lines, "criminal")));
    let acting = v["to_act"][0].as_str().unwrap().to_string();
    for name in ["criminal", "police", "spectator"] {
        let p = &pages[name];
        assert_eq!(p["chat"], json!([chat]), "{name}: {p}");
        assert_eq!(
            p["markup"], 0,
            "{name}: markup from chat became elements: {p}"
        );
        assert!(p["pwned"].is_null(), "{name}: chat ran as script: {p}");
        let notes = if name == "criminal" {
            json!([SECRET, SHARED])
        } else {
            json!([SHARED])
        };
        assert_eq!(p["notes"], notes, "{name}: {p}");
        let present = p["present"].as_str().unwrap();
        assert!(
            present.contains("criminal")
                && present.contains("police")
                && present.contains("1 spectator"),
            "{name}: {present}"
        );
        let turn = p["title"].as_str().unwrap().starts_with("(Your turn)");
        assert_eq!(turn, name == acting, "{name}: {p}");
        let icon = p["icon"].as_str().unwrap();
        assert_eq!(
            icon.ends_with("icon-turn.svg"),
            name == acting,
            "{name}: {icon}"
        );
    }
    for s in r["seats"].as_array().unwrap() {
        assert_eq!(s["errors"], json!([]), "{s}");
        if s["name"] != "criminal" {
            let heard = s["traffic"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t.as_str().unwrap().contains("alibi rule"));
            assert!(!heard, "{} was sent the criminal's note", s["name"]);
        }
    }
}

/// A rematch: the same links and seats, a new seed, once both persons agree (or the admin
/// says so); the game played stays stored, with its chat, as a session of its own.
#[test]
fn a_rematch_plays_again_behind_the_same_links_and_keeps_the_game_played() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.sqlite").display().to_string();
    let server = two_persons(&db);
    let admin = admin_of(&server.lines);
    let criminal = api(&link_of(&server.lines, "criminal"));
    let police = api(&link_of(&server.lines, "police"));
    let spectator = api(&link_of(&server.lines, "spectator"));
    let links = vec![
        ("criminal".to_string(), criminal.clone()),
        ("police".to_string(), police.clone()),
    ];
    play(&links, 3);
    let (_, before) = get(&criminal);
    let played = before["moves"].as_u64().unwrap();
    assert_eq!(
        post(
            &with_path(&criminal, "chat"),
            &json!({"text": "first game"})
        )
        .0,
        201
    );
    let (status, waiting) = post(&with_path(&criminal, "rematch"), &json!({}));
    assert_eq!(status, 202, "{waiting}");
    assert_eq!(waiting["waiting"], json!(["police"]));
    let (_, v) = get(&police);
    assert_eq!(v["rematch"]["asked"]["agreed"], json!(["criminal"]));
    assert_eq!(post(&with_path(&spectator, "rematch"), &json!({})).0, 403);
    let (status, done) = post(&with_path(&police, "rematch"), &json!({}));
    assert_eq!(status, 200, "{done}");
    let (status, v) = get(&criminal);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["rematch"]["round"], 1);
    assert!(v["rematch"]["asked"].is_null());
    assert!(v["moves"].as_u64().unwrap() < played, "{v}");
    // The chat goes on; the admin may call a rematch alone.
    assert_eq!(
        post(&with_path(&police, "chat"), &json!({"text": "second game"})).0,
        201
    );
    play(&links, 2);
    let base = criminal.split('?').next().unwrap();
    let (status, body) = post(&format!("{base}/rematch?admin={admin}"), &json!({}));
    assert_eq!(status, 200, "{body}");
    let (_, v) = get(&police);
    assert_eq!(v["rematch"]["round"], 2);
    assert_eq!(texts(&v["chat"]), vec!["first game", "second game"]);
    drop(server);

    let out = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(["playtests", "the-search", "--db", &db, "--json", "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let export: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sessions = export["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 3);
    for (k, s) in sessions.iter().enumerate() {
        assert_eq!(s["round"], k);
    }
    assert_eq!(
        sessions[0]["moves"].as_array().unwrap().len() as u64,
        played
    );
    assert_eq!(sessions[0]["seed"], 5);
    assert_ne!(sessions[1]["seed"], 5);
    assert_ne!(sessions[2]["seed"], sessions[1]["seed"]);
    assert_eq!(texts(&sessions[0]["chat"]), vec!["first game"]);
    assert_eq!(texts(&sessions[1]["chat"]), vec!["second game"]);
    let summary = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(["playtests", "the-search", "--db", &db])
        .output()
        .unwrap();
    let text = String::from_utf8(summary.stdout).unwrap();
    assert!(text.starts_with("the-search: 3 stored sessions"), "{text}");
}
