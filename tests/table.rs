//! `printplay table` and `printplay serve` end to end: the real binary on 127.0.0.1, driven
//! over HTTP and WebSocket as the page drives it. The JSON API answers as issue 23 says, bad
//! and forged requests change nothing, a server killed with SIGKILL resumes every table at its
//! last acknowledged move, the game matches `printplay replay --moves`, and no client ever
//! receives what its observer view hides.

use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

mod common;

use common::server::{
    Seen, admin_of, api, composed, http, http_with, is_live_view, link_of, listen, start, with_path,
};

use printplay::engine::view::Observer;
use printplay::play::Transcript;
use serde_json::Value;

/// The server's address, from a link.
fn base_of(url: &str) -> String {
    let rest = url.strip_prefix("http://").unwrap();
    format!("http://{}", &rest[..rest.find('/').unwrap()])
}

/// Every face address (`/tables/ID/faces/DIGEST.svg`) in a text.
fn face_urls(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .match_indices("/tables/")
        .filter_map(|(at, _)| {
            let end = text[at..].find('"').map_or(text.len(), |e| at + e);
            let url = &text[at..end];
            (url.contains("/faces/") && url.ends_with(".svg")).then(|| url.to_string())
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

fn get(url: &str) -> (u16, Value) {
    let (status, body) = http("GET", url, b"");
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// Waits until a person is to act or the game is over (bots think on the server).
fn settle(url: &str) -> Value {
    for _ in 0..600 {
        let (status, v) = get(url);
        assert_eq!(status, 200, "{v}");
        let person_turn = v["to_act"].as_array().is_some_and(|a| {
            a.iter().any(|s| {
                v["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|x| x["name"] == *s && x["plays"] == "person")
            })
        });
        if !v["outcome"].is_null() || !v["failure"].is_null() || person_turn {
            return v;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("the table never came to a person's turn");
}

fn db_in(dir: &Path) -> String {
    dir.join("tables.sqlite").display().to_string()
}

fn table_args<'a>(db: &'a str, seats: &'a str, seed: &'a str) -> Vec<&'a str> {
    vec![
        "table",
        "the-search",
        "--seats",
        seats,
        "--seed",
        seed,
        "--port",
        "0",
        "--db",
        db,
    ]
}

#[test]
fn the_table_prints_links_and_the_api_answers_as_the_issue_says() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let server = start(&table_args(&db, "criminal=person,police=heuristic", "1"), 2);
    assert!(
        server.lines[0].starts_with("criminal http://127.0.0.1:"),
        "{:?}",
        server.lines
    );
    assert!(
        server.lines[1].starts_with("spectator http://127.0.0.1:"),
        "{:?}",
        server.lines
    );
    let me = api(&link_of(&server.lines, "criminal"));
    let v = settle(&me);
    for key in ["game", "moves", "to_act", "legal", "view", "log"] {
        assert!(v.get(key).is_some(), "the view has no `{key}`: {v}");
    }
    assert_eq!(v["game"], "the-search");
    assert_eq!(v["to_act"], serde_json::json!(["criminal"]));
    let legal = v["legal"].as_array().unwrap();
    assert!(!legal.is_empty());
    assert_eq!(legal[0]["index"], 0);
    assert!(legal[0]["name"].is_string());
    // The page itself: the same link, a page with its own script and a strict policy.
    let page = link_of(&server.lines, "criminal");
    let (status, html) = http("GET", &page, b"");
    assert_eq!(status, 200);
    assert!(html.contains("/assets/table.js") && !html.contains("<script>"));
    // A move answers the new view.
    let moves = v["moves"].as_u64().unwrap();
    let (status, body) = http("POST", &with_path(&me, "moves"), br#"{"index": 0}"#);
    assert_eq!(status, 200, "{body}");
    let after: Value = serde_json::from_str(&body).unwrap();
    assert!(after["moves"].as_u64().unwrap() > moves);
    // The spectator sees no hand; an unknown token gets 403.
    let (status, spec) = get(&api(&link_of(&server.lines, "spectator")));
    assert_eq!(status, 200);
    assert_eq!(spec["view"]["hands"], serde_json::json!([]));
    assert!(spec["legal"].as_array().unwrap().is_empty());
    let forged = me.replace("token=", "token=0");
    assert_eq!(get(&forged).0, 403);
    let no_table = me.replace("/api/tables/", "/api/tables/0");
    assert_eq!(get(&no_table).0, 403);

    // The cards in the seat's hand come with the build's own faces, cached for good.
    let v = settle(&me);
    let hand = &v["cards"]["hands"][0];
    assert_eq!(hand["seat"], "criminal", "{v}");
    let face = hand["cards"][0]["face"]
        .as_str()
        .expect("a face")
        .to_string();
    assert!(face.starts_with("/tables/"), "{face}");
    let url = format!("{}{face}", base_of(&me));
    let (status, head, svg) = http_with("GET", &url, b"", "");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: image/svg+xml"), "{head}");
    assert!(head.contains("immutable"), "{head}");
    let etag = head
        .lines()
        .find_map(|l| l.strip_prefix("etag: "))
        .expect("an ETag")
        .to_string();
    // Text set as outlines in the game's fonts, nothing that runs.
    assert!(svg.starts_with("<svg") && svg.contains("<path") && svg.contains("viewBox"));
    assert!(!svg.contains("<text") && !svg.contains("<script"));
    let (status, _, _) = http_with("GET", &url, b"", &format!("If-None-Match: {etag}\r\n"));
    assert_eq!(status, 304);
    // The police's hand is a back, with its size.
    let hidden = &v["cards"]["hidden"][0];
    assert_eq!(hidden["seat"], "police");
    assert!(hidden["count"].as_u64().unwrap() > 0);
    assert_ne!(hidden["back"], hand["cards"][0]["face"]);
    // The rules reference, one click away (for a holder of a link).
    assert_eq!(v["data"]["rules"], true);
    let rules = with_path(&page, "rules");
    let (status, head, html) = http_with("GET", &rules, b"", "");
    assert_eq!(status, 200);
    assert!(
        head.contains("text/html") && !html.contains("<script"),
        "{head}"
    );
    assert!(html.contains("The Search"));
    assert_eq!(http("GET", &rules.replace("token=", "token=0"), b"").0, 403);

    // Tokens at rest: the database keeps their digests, never the tokens.
    drop(server);
    let token = me.split("token=").nth(1).unwrap().to_string();
    for file in std::fs::read_dir(dir.path()).unwrap() {
        let bytes = std::fs::read(file.unwrap().path()).unwrap();
        assert!(
            !bytes.windows(token.len()).any(|w| w == token.as_bytes()),
            "the database holds a token"
        );
    }
}

/// A database as printplay kept it before digests: the tokens themselves; its table began on
/// the data version `version`.
fn old_database(path: &str, id: &str, token: &str, version: &str) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, data_version TEXT NOT NULL,
             created INTEGER NOT NULL, moves INTEGER NOT NULL, transcript TEXT NOT NULL);
         CREATE TABLE tokens (token TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id),
             seat INTEGER);",
    )
    .unwrap();
    let transcript = Transcript {
        game: "the-search".into(),
        seed: 4,
        players: 2,
        variants: Default::default(),
        seats: vec!["person".into(), "heuristic".into()],
        moves: Vec::new(),
        free: false,
    };
    conn.execute(
        "INSERT INTO tables VALUES (?1, 'the-search', ?3, 1, 0, ?2)",
        rusqlite::params![id, transcript.to_toml(), version],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO tokens VALUES (?1, ?2, 0)",
        rusqlite::params![token, id],
    )
    .unwrap();
}

#[test]
fn a_database_with_plain_tokens_is_migrated_to_digests_and_its_links_still_open() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let token = "0123456789abcdef0123456789abcdef";
    // The data version of the shipped game, as a server lists it.
    let version = {
        let other = db_in(&dir.path().join("other"));
        let server = start(&["serve", "--port", "0", "--db", &other], 1);
        version_of(&games_until(&server.base(), |_| true))
    };
    old_database(&db, "feedc0de", token, &version);
    let server = start(&["serve", "--port", "0", "--db", &db], 1);
    let base = server.base();
    let url = format!("{base}/api/tables/feedc0de?token={token}");
    let v = settle(&url);
    assert_eq!(v["you"], "criminal");
    assert_eq!(get(&url.replace("token=0", "token=1")).0, 403);
    drop(server);
    for file in std::fs::read_dir(dir.path()).unwrap() {
        let path = file.unwrap().path();
        if path.is_dir() {
            continue;
        }
        let bytes = std::fs::read(path).unwrap();
        assert!(
            !bytes.windows(token.len()).any(|w| w == token.as_bytes()),
            "the migrated database still holds the token"
        );
    }
}

#[test]
fn bad_oversized_and_forged_messages_leave_the_table_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let server = start(&table_args(&db, "criminal=person,police=heuristic", "2"), 2);
    let me = api(&link_of(&server.lines, "criminal"));
    let spectator = api(&link_of(&server.lines, "spectator"));
    let before = settle(&me);
    let n = before["legal"].as_array().unwrap().len();
    let post = |url: &str, body: &[u8]| http("POST", &with_path(url, "moves"), body).0;
    assert_eq!(post(&me, format!(r#"{{"index": {n}}}"#).as_bytes()), 400);
    assert_eq!(post(&me, br#"{"index": -1}"#), 400);
    assert_eq!(post(&me, br#"{"index": "0"}"#), 400);
    assert_eq!(post(&me, br#"{"index": 0, "cheat": true}"#), 400);
    assert_eq!(post(&me, b"not json"), 400);
    let huge = format!(r#"{{"index": 0, "at": {}}}"#, "1".repeat(5000));
    assert!(matches!(post(&me, huge.as_bytes()), 413 | 400));
    // A stale move (the client saw another move count) is refused.
    let stale = format!(
        r#"{{"index": 0, "at": {}}}"#,
        before["moves"].as_u64().unwrap() + 7
    );
    assert_eq!(post(&me, stale.as_bytes()), 409);
    assert_eq!(post(&spectator, br#"{"index": 0}"#), 403);
    assert_eq!(
        post(&me.replace("token=", "token=f"), br#"{"index": 0}"#),
        403
    );
    let after = settle(&me);
    assert_eq!(before, after, "a refused message changed the table");
}

/// Plays the move [`choose`] picks from the view `v`, through the seat's link `me`.
fn play_chosen(me: &str, v: &Value) {
    let (status, body) = http(
        "POST",
        &with_path(me, "moves"),
        format!(r#"{{"index": {}}}"#, choose(v)).as_bytes(),
    );
    assert_eq!(status, 200, "{body}");
}

/// The move to play at a person's turn: varied, and the same for the same view.
fn choose(v: &Value) -> usize {
    let n = v["legal"].as_array().unwrap().len();
    let k = v["moves"].as_u64().unwrap() as usize;
    (k * 7 + 3) % n
}

#[test]
fn a_server_killed_with_sigkill_resumes_the_table_and_the_game_replays() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let mut server = start(&table_args(&db, "criminal=person,police=heuristic", "1"), 2);
    let link = link_of(&server.lines, "criminal");
    let me = api(&link);
    for _ in 0..6 {
        let v = settle(&me);
        play_chosen(&me, &v);
    }
    let before = settle(&me);
    // SIGKILL: no chance to flush or say goodbye.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let server = start(&["serve", "--port", "0", "--db", &db], 1);
    let base = server.base();
    let path = &me[me.find("/api/").unwrap()..];
    let me = format!("{base}{path}");
    let resumed = settle(&me);
    assert_eq!(resumed["moves"], before["moves"]);
    assert_eq!(resumed["log"], before["log"]);
    assert_eq!(resumed["view"], before["view"]);
    // Play on to the end.
    let mut v = resumed;
    while v["outcome"].is_null() {
        assert!(v["failure"].is_null(), "{v}");
        play_chosen(&me, &v);
        v = settle(&me);
    }
    // The finished table exports the transcript `replay --moves` reads, and the replay
    // names the moves as the page's log did.
    let (status, toml) = http("GET", &with_path(&me, "transcript"), b"");
    assert_eq!(status, 200);
    let file = dir.path().join("game.toml");
    std::fs::write(&file, &toml).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(["replay", "the-search", "--moves"])
        .arg(&file)
        .args(["--observer", "criminal"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replay = String::from_utf8(out.stdout).unwrap();
    let mut rest = replay.as_str();
    for entry in v["log"].as_array().unwrap() {
        let action = entry["action"].as_str().unwrap();
        let at = rest
            .find(action)
            .unwrap_or_else(|| panic!("`{action}` not in the replay (in order):\n{replay}"));
        rest = &rest[at + action.len()..];
    }
    let outcome = &v["outcome"]["ending"];
    assert!(replay.contains(outcome.as_str().unwrap()), "{replay}");
}

#[test]
fn no_client_receives_another_hand_a_pile_order_or_a_hidden_draw() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let server = start(&table_args(&db, "criminal=person,police=person", "5"), 3);
    let criminal = api(&link_of(&server.lines, "criminal"));
    let police = api(&link_of(&server.lines, "police"));
    let spectator = api(&link_of(&server.lines, "spectator"));
    let seen: Vec<Seen> = (0..3).map(|_| Arc::new(Mutex::new(Vec::new()))).collect();
    let listeners: Vec<_> = [&criminal, &police, &spectator]
        .iter()
        .zip(&seen)
        .map(|(url, s)| listen(url, s.clone()))
        .collect();
    // A forged token opens no socket and no view.
    let forged = police.replace("token=", "token=00");
    let ws = forged
        .replacen("http://", "ws://", 1)
        .replacen('?', "/ws?", 1);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    assert!(rt.block_on(tokio_tungstenite::connect_async(&ws)).is_err());
    assert_eq!(get(&forged).0, 403);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let urls = [&criminal, &police, &spectator];
    loop {
        let mut views = Vec::new();
        for (url, s) in urls.iter().zip(&seen) {
            let (status, body) = http("GET", url, b"");
            assert_eq!(status, 200);
            s.lock().unwrap().push(body.clone());
            views.push(serde_json::from_str::<Value>(&body).unwrap());
        }
        if !views[0]["outcome"].is_null() {
            break;
        }
        assert!(views[0]["failure"].is_null());
        let mover = views
            .iter()
            .position(|v| !v["legal"].as_array().unwrap().is_empty())
            .expect("a seat to move");
        // The other person's view offers no move.
        assert!(views[1 - mover]["legal"].as_array().unwrap().is_empty());
        let (status, body) = http(
            "POST",
            &with_path(urls[mover], "moves"),
            format!(r#"{{"index": {}}}"#, choose(&views[mover])).as_bytes(),
        );
        assert_eq!(status, 200, "{body}");
        seen[mover].lock().unwrap().push(body);
    }
    for l in listeners {
        l.join().unwrap();
    }
    // Each socket's whole view and updates, applied as the page applies them, build the view
    // the JSON API answers, log included.
    for (url, s) in urls.iter().zip(&seen) {
        let built = composed(&s.lock().unwrap()).expect("live views");
        let (_, body) = http("GET", url, b"");
        assert_eq!(built, serde_json::from_str::<Value>(&body).unwrap());
    }
    let (_, toml) = http("GET", &with_path(&criminal, "transcript"), b"");
    let transcript: Transcript = toml::from_str(&toml).unwrap();
    assert!(transcript.moves.len() > 10);
    // Each design's face, as the seats were shown their own cards.
    let mut faces = std::collections::BTreeMap::new();
    for s in &seen {
        for text in s.lock().unwrap().iter() {
            let v: Value = serde_json::from_str(text).unwrap();
            let v = if is_live_view(text) { &v["view"] } else { &v };
            for hand in v["cards"]["hands"].as_array().into_iter().flatten() {
                for c in hand["cards"].as_array().unwrap() {
                    faces.insert(
                        c["name"].as_str().unwrap().to_string(),
                        c["face"].as_str().unwrap().to_string(),
                    );
                }
            }
        }
    }
    assert!(faces.len() >= 6, "few faces shown: {faces:?}");
    let (games, _) = printplay::pipeline::load_games(Path::new("data"), &["the-search".into()]);
    let observers = [Observer::Seat(0), Observer::Seat(1), Observer::Public];
    for ((observer, s), name) in
        observers
            .iter()
            .zip(&seen)
            .zip(["criminal", "police", "spectator"])
    {
        let got = s.lock().unwrap();
        assert!(
            got.iter().filter(|t| is_live_view(t)).count() > 5,
            "{name} got few live views"
        );
        let secrets = common::hidden::hidden_lines(Path::new("data"), &transcript, *observer);
        assert!(!secrets.is_empty() || *observer == Observer::Public);
        for text in got.iter() {
            for secret in &secrets {
                assert!(
                    !text.contains(secret.as_str()),
                    "the {name} received `{secret}`"
                );
            }
            // No hand but the seat's own.
            let v: Value = serde_json::from_str(text).unwrap();
            let v = if is_live_view(text) { &v["view"] } else { &v };
            check_faces(&games[0], &transcript, *observer, name, text, v, &faces);
            for hand in v["view"]["hands"].as_array().into_iter().flatten() {
                let own = match observer {
                    Observer::Seat(s) => serde_json::json!(s),
                    _ => Value::Null,
                };
                assert_eq!(hand["seat"], own, "the {name} received another seat's hand");
            }
        }
    }
}

/// The faces in one message `text` (the view `v`) to `observer`: only the cards the view
/// names have a face (the other hands are backs), and no card in another seat's hand at that
/// point, unless the observer sees that design itself, has its face anywhere in the message.
fn check_faces(
    game: &printplay::model::Game,
    transcript: &Transcript,
    observer: Observer,
    name: &str,
    text: &str,
    v: &Value,
    faces: &std::collections::BTreeMap<String, String>,
) {
    if v["moves"].is_null() {
        return;
    }
    let shown = face_urls(text);
    let mut named: Vec<String> = Vec::new();
    let mut collect = |cards: &Value| {
        for c in cards.as_array().into_iter().flatten() {
            named.push(c["face"].as_str().unwrap().to_string());
        }
    };
    collect(&v["cards"]["table"]);
    for hand in v["cards"]["hands"].as_array().into_iter().flatten() {
        collect(&hand["cards"]);
    }
    for m in v["legal"].as_array().into_iter().flatten() {
        collect(&m["cards"]);
    }
    // The board (public): its drawing, the map's cards, the pieces on it; and the pieces of
    // the hands the view shows.
    if let Some(image) = v["board"]["image"].as_str() {
        named.push(image.to_string());
    }
    for c in v["board"]["cells"].as_array().into_iter().flatten() {
        if let Some(face) = c["card"]["face"].as_str() {
            named.push(face.to_string());
        }
    }
    let mut pieces = |list: &Value| {
        for p in list.as_array().into_iter().flatten() {
            if let Some(face) = p["face"].as_str() {
                named.push(face.to_string());
            }
        }
    };
    pieces(&v["on_board"]);
    for hand in v["cards"]["hands"].as_array().into_iter().flatten() {
        pieces(&hand["pieces"]);
    }
    for h in v["cards"]["hidden"].as_array().into_iter().flatten() {
        let back = h["back"].as_str().unwrap().to_string();
        assert!(
            !faces.values().any(|f| *f == back),
            "a back is a card's face"
        );
        named.push(back);
    }
    // Every deck's back is public: named for every seat, and never a card's face.
    for back in v["cards"]["backs"].as_object().into_iter().flatten() {
        let back = back.1.as_str().unwrap().to_string();
        assert!(
            !faces.values().any(|f| *f == back),
            "a deck's back is a card's face"
        );
        named.push(back);
    }
    for url in &shown {
        assert!(
            named.contains(url),
            "the {name} got {url}, which its view does not name"
        );
    }
    let k = v["moves"].as_u64().unwrap() as usize;
    let mut t = transcript.clone();
    t.moves.truncate(k);
    let live = printplay::serve::live::open(game, t).unwrap();
    let mine = live.view(observer, None).unwrap();
    let mut known = mine["view"]["public"].as_str().unwrap().to_string();
    for hand in mine["view"]["hands"].as_array().unwrap() {
        known.push_str(hand["text"].as_str().unwrap());
    }
    for seat in (0..transcript.players).filter(|&s| Observer::Seat(s) != observer) {
        let other = live.view(Observer::Seat(seat), None).unwrap();
        for card in other["view"]["hands"][0]["data"]["hand"]
            .as_array()
            .unwrap()
        {
            let card = card["card"].as_str().unwrap();
            if known.contains(card) {
                continue;
            }
            if let Some(face) = faces.get(card) {
                assert!(
                    !shown.contains(face),
                    "the {name} got the face of {card}, in another hand at move {k}"
                );
            }
        }
    }
}

#[test]
fn playtests_summarise_the_stored_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let server = start(&table_args(&db, "criminal=person,police=heuristic", "3"), 2);
    let me = api(&link_of(&server.lines, "criminal"));
    let mut v = settle(&me);
    let mut mine = 0;
    while v["outcome"].is_null() {
        play_chosen(&me, &v);
        mine += 1;
        v = settle(&me);
    }
    drop(server);
    let out = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(["playtests", "the-search", "--db", &db])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("the-search: 1 stored sessions, 1 finished"),
        "{text}"
    );
    let criminal_won = v["outcome"]["returns"][0].as_f64().unwrap();
    assert!(
        text.contains(&format!("criminal: 1 games, won {criminal_won:.1}")),
        "{text}"
    );
    assert!(
        text.contains(&format!("person: 1 games, won {criminal_won:.1}")),
        "{text}"
    );
    let moves = v["outcome"]["moves"].as_u64().unwrap();
    assert!(text.contains(&format!("mean {moves}.0")), "{text}");
    assert!(
        text.contains(&format!("people's decisions: {mine},")),
        "{text}"
    );
    // The balance report shows the person seat beside the bots' figures, each figure with
    // the games it rests on: the criminal's one person game and its card plays (as the
    // export counts them).
    let out_dir = dir.path().join("out");
    let sim = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args([
            "simulate",
            "the-search",
            "--games",
            "20",
            "--seed",
            "1",
            "--cards",
        ])
        .args(["--playtests", &db, "--out", out_dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    let said = String::from_utf8(sim.stdout).unwrap();
    assert!(
        said.contains("1 finished games with a person seat"),
        "{said}"
    );
    let person = format!("{:.1} %", 100.0 * criminal_won);
    let line = said
        .lines()
        .find(|l| l.trim_start().starts_with("criminal: bots"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(line.contains("over 20 games; persons"), "{line}");
    assert!(line.contains(&format!("persons {person}")), "{line}");
    assert!(line.ends_with("over 1 games"), "{line}");
    let police = said
        .lines()
        .find(|l| l.trim_start().starts_with("police: bots"))
        .unwrap();
    assert!(police.ends_with("no person game"), "{police}");
    let page = std::fs::read_to_string(out_dir.join("the-search/sim/report.html")).unwrap();
    let section = &page[page
        .find("Person seats beside bot seats")
        .unwrap_or_else(|| panic!("no person section"))..];
    let row = section
        .lines()
        .find(|l| l.starts_with("<tr><td>criminal</td>"))
        .unwrap_or_else(|| panic!("{section}"));
    assert!(row.contains("</td><td>20</td>"), "{row}");
    assert!(row.contains(&format!(">{person} (")), "{row}");
    assert!(row.ends_with("</td><td>1</td></tr>"), "{row}");
    let export = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(["playtests", "the-search", "--db", &db, "--json", "-"])
        .output()
        .unwrap();
    let export: Value = serde_json::from_slice(&export.stdout).unwrap();
    let mut played = 0;
    for (id, n) in export["card_plays"].as_object().unwrap() {
        let persons = n["persons"].as_u64().unwrap();
        if persons == 0 {
            continue;
        }
        played += 1;
        let row = section
            .lines()
            .find(|l| l.contains("<tr>") && l.to_lowercase().contains(&id.replace('-', " ")))
            .unwrap_or_else(|| panic!("no row for {id} in {section}"));
        assert!(
            row.ends_with(&format!(
                "<td data-sort=\"{persons}\">{persons}.00</td><td>1</td></tr>"
            )),
            "{row}"
        );
    }
    assert!(played > 0, "the person played no card: {export}");
}

#[test]
fn websockets_from_another_site_are_refused_and_undo_waits_for_every_person() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let server = start(&table_args(&db, "criminal=person,police=person", "6"), 3);
    let criminal = api(&link_of(&server.lines, "criminal"));
    let police = api(&link_of(&server.lines, "police"));
    // The Origin check: a page of another site cannot open the socket; this site can.
    let ws = criminal
        .replacen("http://", "ws://", 1)
        .replacen('?', "/ws?", 1);
    let host = criminal
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let open = |origin: String| {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut req = ws.as_str().into_client_request().unwrap();
        req.headers_mut().insert("origin", origin.parse().unwrap());
        rt.block_on(tokio_tungstenite::connect_async(req)).is_ok()
    };
    assert!(!open("http://evil.example".into()));
    assert!(open(format!("http://{host}")));
    // The police's live views, through the moves and the undo.
    let seen: Seen = Arc::new(Mutex::new(Vec::new()));
    let listener = listen(&police, seen.clone());
    std::thread::sleep(std::time::Duration::from_millis(300));
    // Play until each person has decided at least once.
    let mut v = settle(&criminal);
    let mut decided = [false, false];
    while !(decided[0] && decided[1]) {
        let (seat, url) = if v["legal"].as_array().unwrap().is_empty() {
            (1, &police)
        } else {
            (0, &criminal)
        };
        let view = settle(url);
        let (status, body) = http(
            "POST",
            &with_path(url, "moves"),
            format!(r#"{{"index": {}}}"#, choose(&view)).as_bytes(),
        );
        assert_eq!(status, 200, "{body}");
        decided[seat] = true;
        v = settle(&criminal);
    }
    let before = settle(&police)["length"].as_u64().unwrap();
    // One person asks: nothing is taken back until the other agrees.
    let (status, body) = http("POST", &with_path(&police, "undo"), b"{}");
    assert_eq!(status, 200, "{body}");
    let asked = settle(&criminal);
    assert_eq!(asked["length"].as_u64().unwrap(), before);
    assert_eq!(asked["undo"]["waiting"], serde_json::json!(["criminal"]));
    let (status, body) = http("POST", &with_path(&criminal, "undo"), b"{}");
    assert_eq!(status, 200, "{body}");
    let back = settle(&police);
    assert!(back["length"].as_u64().unwrap() < before, "{back}");
    assert!(back["undo"].is_null());
    assert_eq!(back["to_act"], serde_json::json!(["police"]));
    assert!(!back["legal"].as_array().unwrap().is_empty());
    // The updates after the undo take the log back: applied as the page applies them, they
    // build the view the API answers.
    listener.join().unwrap();
    let built = composed(&seen.lock().unwrap()).expect("live views");
    assert_eq!(built, get(&police).1);
}

/// Polls `GET /api/games` until `done` holds (the server reads and checks edits on a thread
/// of its own).
fn games_until(base: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let (status, v) = get(&format!("{base}/api/games"));
        assert_eq!(status, 200);
        if done(&v) {
            return v;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("the server never picked up the edit");
}

fn version_of(games: &Value) -> String {
    games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["slug"] == "the-search")
        .map(|g| g["version"].as_str().unwrap().to_string())
        .expect("the-search listed")
}

#[test]
fn data_edited_while_serving_reaches_new_tables_and_running_ones_offer_to_restart() {
    let fixture = common::Fixture::with_games(&["the-search"]);
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let data = fixture.data().to_str().unwrap().to_string();
    let server = start(&["--data", &data, "serve", "--port", "0", "--db", &db], 2);
    let base = server.base();
    let admin = admin_of(&server.lines);
    let make = || {
        let (status, body) = http(
            "POST",
            &format!("{base}/api/tables?admin={admin}"),
            br#"{"game": "the-search", "seats": ["person", "heuristic"], "seed": 1}"#,
        );
        assert_eq!(status, 201, "{body}");
        let made: Value = serde_json::from_str(&body).unwrap();
        api(&format!(
            "{base}{}",
            made["seats"][0]["link"].as_str().unwrap()
        ))
    };
    let first = make();
    let v = settle(&first);
    let old = v["data"]["version"].as_str().unwrap().to_string();
    assert_eq!(v["data"]["newer"], false);
    assert_eq!(version_of(&games_until(&base, |_| true)), old);
    play_chosen(&first, &v);
    let played = settle(&first);

    // An edit that passes the check: new tables use it, the running one keeps its own.
    fixture.edit(
        "the-search",
        "game.toml",
        "try to box them in.",
        "try to box them in, edited while serving.",
    );
    let games = games_until(&base, |g| version_of(g) != old);
    let new = version_of(&games);
    assert!(games["problems"].as_array().unwrap().is_empty(), "{games}");
    let running = settle(&first);
    assert_eq!(running["data"]["version"], old.as_str());
    assert_eq!(running["data"]["newer"], true);
    assert_eq!(running["log"], played["log"]);
    let second = make();
    assert_eq!(settle(&second)["data"]["version"], new.as_str());

    // An edit that fails the check: shown on the home page's list; nothing running breaks
    // and new tables still get the last data that passed.
    fixture.edit(
        "the-search",
        "components.toml",
        r#"template = "search-police""#,
        r#"template = "no-such-template""#,
    );
    let games = games_until(&base, |g| {
        g["problems"].to_string().contains("no-such-template")
    });
    assert_eq!(version_of(&games), new);
    let third = make();
    assert_eq!(settle(&third)["data"]["version"], new.as_str());
    assert_eq!(settle(&first)["log"], played["log"]);

    // The running table starts again on the newer data once its person agrees.
    let (status, body) = http("POST", &with_path(&first, "restart"), b"{}");
    assert_eq!(status, 200, "{body}");
    let restarted = settle(&first);
    assert_eq!(restarted["data"]["version"], new.as_str());
    assert_eq!(restarted["data"]["newer"], false);
    assert!(restarted["length"].as_u64().unwrap() < played["length"].as_u64().unwrap());
    // Restarting a table already on the newest data is refused.
    assert_eq!(http("POST", &with_path(&second, "restart"), b"{}").0, 409);
}

/// A table of The Search (seed 3) whose persons made three moves, then whose data was edited
/// while its server was down, and the server started again on the edited data.
struct HeldTable {
    fixture: common::Fixture,
    _dir: tempfile::TempDir,
    db: String,
    server: common::server::Server,
    /// Each link the table printed ("SEAT URL", "spectator URL"), as an API address on the
    /// server now.
    links: Vec<(String, String)>,
    id: String,
    /// The first person's view before the server went down.
    before: Value,
}

/// The edit made while the server was down, and what it replaced.
const HELD_FROM: &str = "try to box them in.";
const HELD_TO: &str = "try to box them in, edited while the server was down.";

fn held_table(seats: &str) -> HeldTable {
    let fixture = common::Fixture::with_games(&["the-search"]);
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let data = fixture.data().to_str().unwrap().to_string();
    let mut args = vec!["--data", data.as_str()];
    args.extend(table_args(&db, seats, "3"));
    let persons = seats.matches("=person").count();
    let mut server = start(&args, persons + 1);
    let links: Vec<(String, String)> = server
        .lines
        .iter()
        .filter_map(|l| l.split_once(' '))
        .map(|(seat, url)| (seat.to_string(), api(url)))
        .collect();
    let me = &links[0].1;
    let id = me[me.find("/api/tables/").unwrap() + 12..me.find('?').unwrap()].to_string();
    for _ in 0..3 {
        let (seat, v) = links
            .iter()
            .filter(|(seat, _)| seat != "spectator")
            .map(|(_, url)| (url, settle(url)))
            .find(|(_, v)| !v["legal"].as_array().unwrap().is_empty())
            .expect("a person to move");
        play_chosen(seat, &v);
    }
    let before = settle(me);
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    // The designer edits the data while the server is down: the table is not replayed on it.
    fixture.edit("the-search", "game.toml", HELD_FROM, HELD_TO);
    let serve = ["--data", data.as_str(), "serve", "--port", "0", "--db", &db];
    let server = start(&serve, 1);
    let base = server.base();
    let links = links
        .into_iter()
        .map(|(seat, url)| {
            (
                seat,
                format!("{base}{}", &url[url.find("/api/").unwrap()..]),
            )
        })
        .collect();
    HeldTable {
        fixture,
        _dir: dir,
        db,
        server,
        links,
        id,
        before,
    }
}

#[test]
fn a_table_whose_data_changed_while_the_server_was_down_waits_for_the_data_it_began_on() {
    let held = held_table("criminal=person,police=heuristic");
    let (me, before, id) = (&held.links[0].1, &held.before, &held.id);
    let began = before["data"]["version"].as_str().unwrap().to_string();
    let base = held.server.base();
    let (status, body) = get(me);
    assert_eq!(status, 409, "{body}");
    let said = body["error"].as_str().unwrap();
    assert!(said.contains(&began), "{said}");
    assert!(said.contains("put the game's data back"), "{said}");
    // Its page opens (and shows that answer); a forged token still gets nothing.
    let page = me.replacen("/api/tables/", "/tables/", 1);
    assert_eq!(http("GET", &page, b"").0, 200);
    assert_eq!(get(&me.replace("token=", "token=00")).0, 403);
    let moves = with_path(me, "moves");
    assert_eq!(http("POST", &moves, br#"{"index": 0}"#).0, 409);
    // The home page lists it, with the version it began on and the data's version now.
    let games = games_until(&base, |_| true);
    let listed = &games["held"][0];
    assert_eq!(listed["id"], id.as_str(), "{games}");
    assert_eq!(listed["began"], began.as_str());
    assert_eq!(listed["moves"], before["length"]);
    assert_ne!(listed["now"], began.as_str());
    assert_eq!(listed["now"], version_of(&games).as_str());

    // The data put back as it was: the table resumes where it stopped, on its own data.
    held.fixture
        .edit("the-search", "game.toml", HELD_TO, HELD_FROM);
    games_until(&base, |g| g["held"].as_array().unwrap().is_empty());
    let resumed = settle(me);
    assert_eq!(resumed["data"]["version"], began.as_str());
    assert_eq!(resumed["log"], before["log"]);
    assert_eq!(resumed["view"], before["view"]);
    let (status, body) = http(
        "POST",
        &with_path(me, "moves"),
        format!(r#"{{"index": {}}}"#, choose(&resumed)).as_bytes(),
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_held_table_starts_over_on_the_data_now_once_every_person_agrees() {
    let held = held_table("criminal=person,police=person");
    let link = |seat: &str| {
        let found = held.links.iter().find(|(s, _)| s == seat);
        found.expect("a link").1.clone()
    };
    let (criminal, police, spectator) = (link("criminal"), link("police"), link("spectator"));
    let began = held.before["data"]["version"].as_str().unwrap().to_string();
    assert_eq!(get(&criminal).0, 409);
    // The spectator and a forged token have no say; one person is not enough.
    let restart = |url: &str, body: &[u8]| http("POST", &with_path(url, "restart"), body);
    assert_eq!(restart(&spectator, b"{}").0, 403);
    assert_eq!(restart(&police.replace("token=", "token=00"), b"{}").0, 403);
    let (status, body) = restart(&criminal, b"{}");
    assert_eq!(status, 202, "{body}");
    assert!(
        body.contains("agreed: criminal; waiting for: police"),
        "{body}"
    );
    let (status, body) = get(&police);
    assert_eq!(status, 409);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("waiting for: police"),
        "{body}"
    );
    // Declining withdraws the agreement.
    let (status, body) = restart(&police, br#"{"decline": true}"#);
    assert_eq!(status, 202, "{body}");
    assert!(body.contains("agreed: nobody"), "{body}");
    assert_eq!(restart(&criminal, b"{}").0, 202);
    let (status, body) = restart(&police, b"{}");
    assert_eq!(status, 200, "{body}");
    // It plays again behind the same links, from the start, on the data now.
    let games = games_until(&held.server.base(), |g| {
        g["held"].as_array().unwrap().is_empty()
    });
    let now = version_of(&games);
    assert_ne!(now, began);
    let fresh = settle(&criminal);
    assert_eq!(fresh["data"]["version"], now.as_str());
    assert!(fresh["length"].as_u64().unwrap() < held.before["length"].as_u64().unwrap());
    assert_eq!(get(&spectator).0, 200);
    let mover = [&criminal, &police]
        .into_iter()
        .find(|url| !settle(url)["legal"].as_array().unwrap().is_empty())
        .expect("a person to move");
    play_chosen(mover, &settle(mover));
    let played = settle(&police);
    // Stored so: a server started again resumes it on the data now, move for move.
    let HeldTable {
        fixture,
        db,
        mut server,
        ..
    } = held;
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let data = fixture.data().to_str().unwrap().to_string();
    let server = start(
        &["--data", data.as_str(), "serve", "--port", "0", "--db", &db],
        1,
    );
    let police = format!(
        "{}{}",
        server.base(),
        &police[police.find("/api/").unwrap()..]
    );
    let resumed = settle(&police);
    assert_eq!(resumed["data"]["version"], now.as_str());
    assert_eq!(resumed["log"], played["log"]);
}

// --- Who may change what (issue 35) -----------------------------------------------------

/// One request with exactly the header lines `head` (no others but Host, Connection and
/// Content-Length): the status and the body.
fn raw(method: &str, url: &str, head: &str, body: &[u8]) -> (u16, String) {
    use std::io::{Read, Write};
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut s = std::net::TcpStream::connect(host).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{head}Content-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(body).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

/// How many rows of `table` the database holds for the table `id`.
fn rows_of(db: &str, table: &str, id: &str) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    let column = if table == "tables" { "id" } else { "table_id" };
    conn.query_row(
        &format!("SELECT COUNT(*) FROM {table} WHERE {column} = ?1"),
        [id],
        |r| r.get(0),
    )
    .unwrap()
}

fn id_of(link: &str) -> String {
    let after = &link[link.find("/tables/").unwrap() + "/tables/".len()..];
    after[..after.find('?').unwrap()].to_string()
}

const NEW_TABLE: &[u8] = br#"{"game": "the-search", "seats": ["person", "heuristic"], "seed": 3}"#;

#[test]
fn changes_need_json_from_the_servers_own_pages_and_new_tables_need_the_admin_token() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let server = start(&["serve", "--port", "0", "--db", &db], 2);
    let base = server.base();
    let admin = admin_of(&server.lines);
    let make = format!("{base}/api/tables?admin={admin}");
    let host = base.trim_start_matches("http://");
    let json = "Content-Type: application/json\r\n";
    // A form on another site (a cross-site form posts without asking), with the token even.
    let evil = "Origin: http://evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\n";
    assert_eq!(raw("POST", &make, evil, b"game=the-search").0, 403);
    let evil_json = format!("Origin: http://localhost:1\r\n{json}");
    assert_eq!(raw("POST", &make, &evil_json, NEW_TABLE).0, 403);
    assert_eq!(
        raw("POST", &make, &format!("Origin: null\r\n{json}"), NEW_TABLE).0,
        403
    );
    // No content type, or one a form or a simple cross-site request can send: 415.
    assert_eq!(raw("POST", &make, "", NEW_TABLE).0, 415);
    assert_eq!(
        raw("POST", &make, "Content-Type: text/plain\r\n", NEW_TABLE).0,
        415
    );
    let own_form =
        format!("Origin: http://{host}\r\nContent-Type: application/x-www-form-urlencoded\r\n");
    assert_eq!(raw("POST", &make, &own_form, b"game=the-search").0, 415);
    // Without the admin token, or with another: 403.
    let (status, body) = raw("POST", &format!("{base}/api/tables"), json, NEW_TABLE);
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("admin link"), "{body}");
    let forged = format!(
        "{base}/api/tables?admin={}",
        admin.replace(&admin[..2], "zz")
    );
    assert_eq!(raw("POST", &forged, json, NEW_TABLE).0, 403);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let count = || -> i64 {
        conn.query_row("SELECT COUNT(*) FROM tables", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(count(), 0, "a refused request made a table");
    // With it, from this server's page or from a client that is no browser: 201.
    let own = format!("Origin: http://{host}\r\n{json}");
    let (status, body) = raw("POST", &make, &own, NEW_TABLE);
    assert_eq!(status, 201, "{body}");
    let (status, body) = raw("POST", &make, json, NEW_TABLE);
    assert_eq!(status, 201, "{body}");
    assert_eq!(count(), 2);
    // A move from another site's page, or not as JSON, changes nothing.
    let made: Value = serde_json::from_str(&body).unwrap();
    let me = api(&format!(
        "{base}{}",
        made["seats"][0]["link"].as_str().unwrap()
    ));
    let before = settle(&me);
    let moves = with_path(&me, "moves");
    let evil_move = format!("Origin: http://evil.example\r\n{json}");
    assert_eq!(raw("POST", &moves, &evil_move, br#"{"index": 0}"#).0, 403);
    assert_eq!(raw("POST", &moves, "", br#"{"index": 0}"#).0, 415);
    assert_eq!(raw("POST", &with_path(&me, "undo"), evil, b"").0, 403);
    assert_eq!(settle(&me), before);
}

#[test]
fn closing_and_deleting_a_table_need_the_admin_token_or_every_person() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let server = start(&table_args(&db, "criminal=person,police=person", "1"), 4);
    let criminal = api(&link_of(&server.lines, "criminal"));
    let police = api(&link_of(&server.lines, "police"));
    let spectator = api(&link_of(&server.lines, "spectator"));
    let admin = admin_of(&server.lines);
    let base = base_of(&criminal);
    let id = id_of(&criminal);
    let ask = |url: &str, what: &str, body: &[u8]| http("POST", &with_path(url, what), body);
    // Neither a spectator nor a forged token may.
    assert_eq!(ask(&spectator, "delete", b"{}").0, 403);
    assert_eq!(ask(&spectator, "close", b"{}").0, 403);
    assert_eq!(
        ask(&criminal.replace("token=", "token=0"), "delete", b"{}").0,
        403
    );
    // One person asks to close: the table waits for the other.
    let (status, body) = ask(&criminal, "close", b"{}");
    assert_eq!(status, 202, "{body}");
    let waiting: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(waiting["waiting"], serde_json::json!(["police"]));
    let v = settle(&police);
    assert_eq!(v["data"]["closed"], false);
    assert_eq!(
        v["data"]["close"]["agreed"],
        serde_json::json!(["criminal"])
    );
    // The other agrees: closed, no one moves, still viewable.
    let (status, body) = ask(&police, "close", b"{}");
    assert_eq!(status, 200, "{body}");
    let v = settle(&criminal);
    assert_eq!(v["data"]["closed"], true);
    let mover = if v["legal"].as_array().unwrap().is_empty() {
        &police
    } else {
        &criminal
    };
    let (status, body) = http("POST", &with_path(mover, "moves"), br#"{"index": 0}"#);
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("closed"), "{body}");
    // Deleting likewise: one person is not enough, both are; then nothing of it is left.
    assert_eq!(ask(&criminal, "delete", b"{}").0, 202);
    assert!(rows_of(&db, "tables", &id) == 1 && rows_of(&db, "tokens", &id) == 3);
    let (status, body) = ask(&police, "delete", b"{}");
    assert_eq!(status, 200, "{body}");
    assert_eq!(get(&criminal).0, 403);
    for table in ["tables", "tokens", "moves"] {
        assert_eq!(rows_of(&db, table, &id), 0, "{table} still holds the table");
    }
    // The admin closes and deletes at once, a table it made or not.
    let (status, body) = http(
        "POST",
        &format!("{base}/api/tables?admin={admin}"),
        NEW_TABLE,
    );
    assert_eq!(status, 201, "{body}");
    let made: Value = serde_json::from_str(&body).unwrap();
    let other = api(&format!(
        "{base}{}",
        made["seats"][0]["link"].as_str().unwrap()
    ));
    let other_id = made["id"].as_str().unwrap().to_string();
    let by_admin = |what: &str| {
        http(
            "POST",
            &format!("{base}/api/tables/{other_id}/{what}?admin={admin}"),
            b"",
        )
    };
    assert_eq!(by_admin("close").0, 200);
    // Closed whoever was to act (the bot thinks no more).
    assert_eq!(get(&other).1["data"]["closed"], true);
    assert_eq!(by_admin("delete").0, 200);
    assert_eq!(get(&other).0, 403);
    assert_eq!(rows_of(&db, "tables", &other_id), 0);
    // A deleted table does not come back with the server.
    drop(server);
    let server = start(&["serve", "--port", "0", "--db", &db], 2);
    let moved = format!(
        "{}{}",
        server.base(),
        &other[other.find("/api/").unwrap()..]
    );
    assert_eq!(get(&moved).0, 403);
}

#[test]
fn a_bot_asking_for_more_than_the_servers_maximum_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let server = start(
        &[
            "serve",
            "--port",
            "0",
            "--db",
            &db,
            "--bot-iterations",
            "1000",
        ],
        2,
    );
    let admin = admin_of(&server.lines);
    let make = format!("{}/api/tables?admin={admin}", server.base());
    let seats =
        |bot: &str| format!(r#"{{"game": "the-search", "seats": ["person", "{bot}"], "seed": 1}}"#);
    let (status, body) = http("POST", &make, seats("mcts:1001:random").as_bytes());
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("at most 1000") && body.contains("--bot-iterations"),
        "{body}"
    );
    assert_eq!(http("POST", &make, seats("mcts:1000").as_bytes()).0, 201);
    // `printplay table` with the default maximum: a usage error naming it.
    let out = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(table_args(
            &db,
            "criminal=person,police=mcts:2000000000",
            "1",
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("at most 20000"), "{err}");
}

#[test]
fn a_table_idle_longer_than_the_admins_rule_is_gone_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let old = start(&table_args(&db, "criminal=person,police=heuristic", "1"), 2);
    let old_link = api(&link_of(&old.lines, "criminal"));
    settle(&old_link);
    drop(old);
    let fresh = start(&table_args(&db, "criminal=person,police=heuristic", "2"), 2);
    let fresh_link = api(&link_of(&fresh.lines, "criminal"));
    settle(&fresh_link);
    drop(fresh);
    // The first was last moved at 31 days ago; the rule keeps tables 30 days.
    let id = id_of(&old_link);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "UPDATE tables SET active = active - 31 * 86400 WHERE id = ?1",
        [&id],
    )
    .unwrap();
    drop(conn);
    let server = start(
        &["serve", "--port", "0", "--db", &db, "--expire-days", "30"],
        2,
    );
    let moved = |url: &str| format!("{}{}", server.base(), &url[url.find("/api/").unwrap()..]);
    assert_eq!(get(&moved(&old_link)).0, 403);
    assert_eq!(get(&moved(&fresh_link)).0, 200);
    for table in ["tables", "tokens", "moves"] {
        assert_eq!(rows_of(&db, table, &id), 0, "{table} still holds the table");
    }
    assert_eq!(rows_of(&db, "tables", &id_of(&fresh_link)), 1);
}

#[test]
fn a_game_whose_data_fails_its_check_is_listed_with_its_problems_and_gets_no_table() {
    let fixture = common::Fixture::with_games(&["the-search"]);
    fixture.edit(
        "the-search",
        "components.toml",
        r#"template = "search-police""#,
        r#"template = "no-such-template""#,
    );
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let data = fixture.data().to_str().unwrap().to_string();
    let server = start(&["--data", &data, "serve", "--port", "0", "--db", &db], 2);
    let base = server.base();
    let admin = admin_of(&server.lines);
    let games = games_until(&base, |g| g["games"][0]["playable"] == false);
    let game = &games["games"][0];
    assert!(
        game["note"].as_str().unwrap().contains("no-such-template"),
        "{games}"
    );
    assert!(
        games["problems"].to_string().contains("no-such-template"),
        "{games}"
    );
    let (status, body) = http(
        "POST",
        &format!("{base}/api/tables?admin={admin}"),
        NEW_TABLE,
    );
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("no-such-template"), "{body}");
    // `printplay table` refuses it too, naming the problem.
    let out = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(["--data", &data])
        .args(table_args(&db, "criminal=person,police=heuristic", "1"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no-such-template"), "{err}");
}
