//! The table's pages as people meet them in Chromium: axe-core finds no violation on any table
//! page (a rules table, a free table, a held table; a seat's page and the spectator's; light
//! and dark; 390 and 1280 px wide), a held table offers its spectator no button the server
//! refuses, and a page says when its connection to the server drops, that it is reconnecting,
//! and plays on once the server is back.
//!
//! Screenshots of every page go to `target/table-pages/` (look at them).

mod common;

use std::path::{Path, PathBuf};

use common::server::{browser_script, browser_tools, link_of, start};
use serde_json::{Value, json};

fn shots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/table-pages");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn page(name: &str, url: &str, ready: &str) -> Value {
    json!({"name": name, "url": url, "ready": ready})
}

/// A page also pictured for the book, as `<name>-<width>-<scheme>.png`.
fn book(mut page: Value, name: &str) -> Value {
    page["book"] = json!(name);
    page
}

/// The table page is drawn (its status line says whose turn it is).
const DRAWN: &str = "#status:not(:empty)";

#[test]
fn every_table_page_has_no_axe_violation_and_a_held_spectator_is_offered_no_restart() {
    let Some((browser_dir, chromium)) = browser_tools() else {
        eprintln!("skipped: Chromium, node or tests/browser/node_modules (npm ci) missing");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = |name: &str| dir.path().join(name).display().to_string();
    let persons = |seats: &str, game: &str, seed: &str, db: &str, data: Option<&str>| {
        let mut args: Vec<String> = Vec::new();
        if let Some(d) = data {
            args.extend(["--data".into(), d.into()]);
        }
        args.extend(
            [
                "table", game, "--seats", seats, "--seed", seed, "--port", "0", "--db", db,
            ]
            .map(String::from),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        start(&args, 3)
    };
    let rules = persons(
        "criminal=person,police=person",
        "the-search",
        "1",
        &db("rules.sqlite"),
        None,
    );
    let free = persons(
        "a=person,b=person",
        "imperial-settlers-aztecs",
        "11",
        &db("free.sqlite"),
        None,
    );
    // A drawn board (Aether's hexes) and a table of card zones (Capek's Auction House).
    let board = persons(
        "yellow=person,red=person",
        "aether",
        "4",
        &db("board.sqlite"),
        None,
    );
    let zones = persons(
        "1=person,2=person",
        "capek-golems",
        "4",
        &db("zones.sqlite"),
        None,
    );
    // A held table: made, the server stopped, the game's data edited, served again.
    let fixture = common::Fixture::with_games(&["the-search"]);
    let data = fixture.data().to_str().unwrap().to_string();
    let first = persons(
        "criminal=person,police=person",
        "the-search",
        "2",
        &db("held.sqlite"),
        Some(&data),
    );
    let links = first.lines.clone();
    drop(first);
    fixture.edit(
        "the-search",
        "game.toml",
        "try to box them in.",
        "try to box them in, edited.",
    );
    let held_db = db("held.sqlite");
    let held = start(
        &["--data", &data, "serve", "--port", "0", "--db", &held_db],
        1,
    );
    let base = held.base();
    let moved = |url: &str| format!("{base}{}", &url[url.find("/tables/").unwrap()..]);
    let banner = "#data-banner:not([hidden]) #data-text:not(:empty)";
    let pages = vec![
        page("rules-seat", &link_of(&rules.lines, "criminal"), DRAWN),
        page(
            "rules-spectator",
            &link_of(&rules.lines, "spectator"),
            DRAWN,
        ),
        page("board-seat", &link_of(&board.lines, "Yellow"), ".board-img"),
        book(
            page("zones-seat", &link_of(&zones.lines, "player 1"), DRAWN),
            "capek",
        ),
        book(
            page("free-seat", &link_of(&free.lines, "player 1"), ".free-card"),
            "aztecs",
        ),
        page(
            "free-spectator",
            &link_of(&free.lines, "spectator"),
            ".free-card",
        ),
        page("held-seat", &moved(&link_of(&links, "criminal")), banner),
        page(
            "held-spectator",
            &moved(&link_of(&links, "spectator")),
            banner,
        ),
    ];
    let cfg = json!({"exe": chromium, "pages": pages, "shots": shots()});
    let results = browser_script(&browser_dir, "table_axe.mjs", &cfg, dir.path());
    let results = results.as_array().unwrap();
    assert_eq!(results.len(), pages.len() * 4);
    let mut problems = Vec::new();
    for r in results {
        let at = format!("{} ({}, {} px)", r["page"], r["scheme"], r["width"]);
        for v in r["violations"].as_array().unwrap() {
            problems.push(format!(
                "{at}: {} [{}] {}: {}",
                v["id"], v["impact"], v["help"], v["nodes"]
            ));
        }
        if r["errors"] != json!([]) {
            problems.push(format!("{at}: page errors {}", r["errors"]));
        }
        if r["wider"].as_i64() != Some(0) {
            problems.push(format!("{at}: {} px wider than the window", r["wider"]));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // A long word that fits its caption stays whole, at either width: Capek's "Organ
    // Replacement" cards never show "Re-placement" (the hyphenation points are taken only
    // for a word wider than its caption: tests/table_languages.rs).
    for r in results.iter().filter(|r| r["page"] == "zones-seat") {
        let at = format!("{} ({}, {} px)", r["page"], r["scheme"], r["width"]);
        let organs: Vec<&str> = r["names"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n["text"].as_str())
            .filter(|t| t.replace('\u{ad}', "").contains("Organ Replacement"))
            .collect();
        assert!(!organs.is_empty(), "{at}: {}", r["names"]);
        assert!(
            organs.iter().all(|t| !t.contains('\u{ad}')),
            "{at}: {organs:?}"
        );
    }
    // The book's pictures of Capek's table and of the Aztecs' free table.
    common::pictures::book_pictures(&shots(), "capek", "table-capek-golems");
    common::pictures::book_pictures(&shots(), "aztecs", "table-aztecs");
    // The held table offers its persons to start over, and its spectator nothing it cannot do.
    for r in results {
        let buttons: Vec<&str> = r["buttons"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let offers = buttons.iter().any(|b| b.contains("Start again"));
        match r["page"].as_str().unwrap() {
            "held-seat" => assert!(offers, "{buttons:?}"),
            "held-spectator" => {
                assert!(!offers, "{buttons:?}");
                let said = r["said"].as_str().unwrap();
                assert!(said.contains("watching"), "{said}");
            }
            _ => {}
        }
    }
}

/// A port free now, for a server started twice on it.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn a_page_says_the_connection_dropped_reconnects_and_plays_on() {
    let Some((browser_dir, chromium)) = browser_tools() else {
        eprintln!("skipped: Chromium, node or tests/browser/node_modules (npm ci) missing");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite").display().to_string();
    let port = free_port().to_string();
    let cfg = json!({
        "exe": chromium,
        "printplay": env!("CARGO_BIN_EXE_printplay"),
        "first": ["table", "the-search", "--seats", "criminal=person,police=person", "--seed", "3", "--port", port, "--db", db],
        "again": ["serve", "--port", port, "--db", db],
        "seats": ["criminal", "police"],
        "shots": shots(),
    });
    let r = browser_script(&browser_dir, "reconnect.mjs", &cfg, dir.path());
    // Before: nothing said; while the server is down: dropped and reconnecting, as a status
    // the page shows; after: back, and a move plays through the new connection.
    assert_eq!(r["before"], json!(""), "{r}");
    let down = r["down"].as_str().unwrap();
    assert!(
        down.contains("lost") && down.contains("reconnecting"),
        "{down}"
    );
    assert_eq!(r["downVisible"], json!(true), "{r}");
    let back = r["back"].as_str().unwrap();
    assert!(back.contains("is back"), "{back}");
    assert!(
        r["logAfter"].as_u64().unwrap() > r["logBefore"].as_u64().unwrap(),
        "{r}"
    );
    assert_eq!(r["errors"], json!([]), "{r}");
}

/// Plays one person seat of `game` to the end by clicking the drawn board with
/// `board_play.mjs` (bots at the other seats) and answers its report.
fn played_by_clicks(game: &str, seats: &str, seat: &str, seed: &str, prefix: &str) -> Value {
    let (browser_dir, chromium) = browser_tools().expect("checked by the caller");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite").display().to_string();
    let server = start(
        &[
            "table", game, "--seats", seats, "--seed", seed, "--port", "0", "--db", &db,
        ],
        2,
    );
    let cfg = json!({
        "exe": chromium,
        "seats": [{"name": seat, "url": link_of(&server.lines, seat)}],
        "shots": shots(),
        "prefix": prefix,
        "shotAfter": 12,
    });
    browser_script(&browser_dir, "board_play.mjs", &cfg, dir.path())
}

/// What every game played by clicks must show: the game ended, no move button was pressed,
/// the page met no error, and the log holds the person's moves.
fn assert_played(r: &Value, person: &str) {
    let status = r["status"].as_str().unwrap();
    assert!(status.starts_with("Game over"), "{status}");
    assert_eq!(r["moveButtons"], json!(0), "{r}");
    let seat = &r["seats"][0];
    assert_eq!(seat["errors"], json!([]), "{}", seat["errors"]);
    let log: Vec<&str> = seat["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        log.iter().filter(|l| l.contains(person)).count() > 5,
        "{log:?}"
    );
}

#[test]
fn aether_plays_to_the_end_by_clicking_tiles_and_hexes_on_the_drawn_board() {
    if browser_tools().is_none() {
        eprintln!("skipped: Chromium, node or tests/browser/node_modules (npm ci) missing");
        return;
    }
    let r = played_by_clicks(
        "aether",
        "yellow=person,red=random",
        "Yellow",
        "5",
        "aether",
    );
    assert_played(&r, "Yellow: yellow places");
    // The book's pictures of Aether's table, after 12 clicks (Red, a bot, moves meanwhile:
    // taken again on demand, not compared).
    common::pictures::book_pictures_of_a_moving_game(&shots(), "aether", "table-aether");
    // Tiles from behind the screen, then hexes of the drawn board.
    assert!(
        r["clicks"]["piece"].as_u64().unwrap() >= 10,
        "{}",
        r["clicks"]
    );
    assert!(
        r["clicks"]["cell"].as_u64().unwrap() >= 10,
        "{}",
        r["clicks"]
    );
    let dom = r["seats"][0]["dom"].as_str().unwrap();
    // The board is the build's drawing, served as a face file; the tiles as printed faces.
    assert!(dom.contains("class=\"board-img\""), "no drawn board");
    assert!(dom.contains("/faces/"), "no printed faces");
}

#[test]
fn the_search_plays_to_the_end_by_clicking_officers_and_map_cards() {
    if browser_tools().is_none() {
        eprintln!("skipped: Chromium, node or tests/browser/node_modules (npm ci) missing");
        return;
    }
    let r = played_by_clicks(
        "the-search",
        "criminal=random,police=person",
        "police",
        "7",
        "search",
    );
    assert_played(&r, "police: move");
    assert!(
        r["clicks"]["piece"].as_u64().unwrap() >= 5,
        "{}",
        r["clicks"]
    );
    assert!(
        r["clicks"]["cell"].as_u64().unwrap() >= 5,
        "{}",
        r["clicks"]
    );
    let dom = r["seats"][0]["dom"].as_str().unwrap();
    // The map is its 20 map cards laid in their grid.
    assert_eq!(dom.matches("class=\"grid-cell").count(), 20);
}
