//! The free table played by dragging (issue 36): every move that carries a card or a piece
//! names its two ends (`State::targets`), and a person in Chromium plays the scaffold's free
//! table by dragging pieces to the cells of its drawn boards and cards between zones, pressing
//! no move button (tests/browser/free_drag.mjs, Playwright as `tests/table_browser.rs` drives
//! it).

use std::path::Path;

mod common;

use common::server::{api, browser_script, browser_tools, http, link_of, start};

use printplay::engine::free::{Act, FreeEngine, FreeTable};
use printplay::engine::{Config, Engine, State, Turn};
use printplay::simulate::game_rng;
use rand::RngExt;
use serde_json::Value;

fn accounted(state: &FreeTable, what: &str) {
    let (here, total) = state.card_count();
    assert_eq!(here, total, "{what}: cards made or lost");
    for (k, (here, total)) in state.piece_counts().into_iter().enumerate() {
        assert_eq!(here, total, "{what}: pieces of kind {k} made or lost");
    }
}

/// Every move that carries a card or a piece somewhere is one drag at the page: it names
/// where it starts and where it ends ([`State::targets`]), no two moves the same ends, every
/// key reads back, and no key names a card lying face down. A card on the table moves to
/// another place (an empty one, or a new one after the last) with its side kept.
#[test]
fn every_carrying_move_is_one_drag_and_table_cards_move_between_places() {
    use printplay::engine::Target;
    use printplay::engine::free::Dest;
    let (_dir, games) = common::shipped_and_scaffold_games();
    let mut between = 0;
    for game in &games {
        let engine = FreeEngine::from_model(game).unwrap();
        let mut rng = game_rng(36, 2);
        let mut state = engine
            .new_game(
                &Config::with_variants(2, &[("turns", "seat-order")]),
                &mut rng,
            )
            .unwrap();
        let designs: Vec<String> = game
            .components
            .decks
            .iter()
            .flat_map(|d| d.cards.iter().map(|c| c.id.get_ref().clone()))
            .collect();
        for _ in 0..300 {
            let legal = match state.turn() {
                Turn::Player(_) => state.legal_actions(),
                Turn::Chance => {
                    let a = state.sample_chance(&mut rng);
                    state.apply(a);
                    continue;
                }
                Turn::Terminal => break,
            };
            let public = state.public_data().to_string();
            // Moving a card between places came after tables were saved by move numbers: those
            // moves come after closing the table, so that every saved number names its move.
            // (A seat holding a piece may only put it down.)
            let end = legal.iter().position(|&a| a == Act::End).unwrap_or(0);
            assert!(
                legal[..end]
                    .iter()
                    .all(|a| !matches!(a, Act::FromTable(_, Dest::Place(_)))),
                "{}: {legal:?}",
                game.slug
            );
            let mut lists = std::collections::HashSet::new();
            for &a in &legal {
                let targets = state.targets(a);
                let carries = matches!(
                    a,
                    Act::Draw(_)
                        | Act::Reveal(_)
                        | Act::TakeDiscard(_)
                        | Act::FromHand(..)
                        | Act::FromTable(..)
                        | Act::Take(..)
                        | Act::Put(_)
                );
                assert_eq!(
                    !targets.is_empty(),
                    carries,
                    "{}: {a:?} {targets:?}",
                    game.slug
                );
                let keys: Vec<String> = targets.iter().map(Target::key).collect();
                for (t, k) in targets.iter().zip(&keys) {
                    assert_eq!(Target::parse(k).as_ref(), Some(t), "{}: {k}", game.slug);
                    // A card key names a card of the acting seat's hand only.
                    if let Target::Card { card, .. } = t {
                        assert!(designs.contains(card) && matches!(a, Act::FromHand(..)));
                    }
                }
                if carries {
                    assert!(
                        lists.insert(keys.clone()),
                        "{}: two moves {keys:?}",
                        game.slug
                    );
                }
                if let Act::FromTable(i, Dest::Place(j)) = a {
                    let mut after = state.clone();
                    after.apply(a);
                    let (was, now) = (&public, after.public_data());
                    let places = |v: &Value| v["table"].as_array().unwrap().clone();
                    let before_card = places(&serde_json::from_str(was).unwrap())
                        .into_iter()
                        .find(|c| c["place"] == i + 1)
                        .unwrap();
                    let moved = places(&now)
                        .into_iter()
                        .find(|c| c["place"] == j + 1)
                        .unwrap_or_else(|| {
                            panic!("{}: {a:?} left place {} empty", game.slug, j + 1)
                        });
                    let mut expect = before_card.clone();
                    expect["place"] = serde_json::json!(j + 1);
                    assert_eq!(moved, expect, "{}: {a:?}", game.slug);
                    assert!(!places(&now).iter().any(|c| c["place"] == i + 1));
                    accounted(&after, &game.slug);
                    between += 1;
                }
            }
            // Steer towards cards on the table: reveal and play when there is little there.
            let on_table = state.public_data()["table"].as_array().unwrap().len();
            let pick = legal
                .iter()
                .copied()
                .filter(|a| match a {
                    Act::Reveal(_) | Act::FromHand(_, Dest::TableDown) => on_table < 3,
                    Act::End => false,
                    _ => true,
                })
                .collect::<Vec<_>>();
            let a = pick[rng.random_range(0..pick.len())];
            state.apply(a);
        }
    }
    assert!(between > 0, "no table card was ever offered another place");
}

/// Issue 36: the free table played by dragging only. Two persons at the scaffold's free
/// table (a hex board, a square mat for each seat, markers, a deck); the first drags pieces
/// from the supply, from a cell and from in front of it onto cells of the drawn boards, cards
/// from the hand onto the table, a card from one place of the table to another, the pile's
/// top card into the hand and a card of the table onto the discards, pressing no move button
/// (tests/browser/free_drag.mjs). On a phone (390 px, touch), a finger swiping over a card
/// scrolls the page and carries nothing, and a finger held on the pile's top card and moved
/// onto the hand draws it. The server's table is then what those drags mean, the page's
/// log is the server's, and axe-core finds no serious violation on the page, light and dark,
/// 390 and 1280 px (screenshots in target/free-shots).
#[test]
fn a_person_plays_the_free_table_by_dragging_pieces_to_cells_and_cards_between_zones() {
    let Some((browser_dir, chromium)) = browser_tools() else {
        eprintln!("skipped: Chromium, node or tests/browser/node_modules (npm ci) missing");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    printplay::scaffold::new_game_with_engine(dir.path(), "my-game", "lua").unwrap();
    let db = dir.path().join("tables.sqlite").display().to_string();
    let data = dir.path().display().to_string();
    let server = start(
        &[
            "table",
            "my-game",
            "--data",
            &data,
            "--free",
            "--seats",
            "a=person,b=person",
            "--seed",
            "3",
            "--port",
            "0",
            "--db",
            &db,
        ],
        3,
    );
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/free-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let seats = ["player 1", "player 2"];
    let cfg = serde_json::json!({
        "exe": chromium,
        "seats": seats.iter().map(|n| serde_json::json!({"name": n, "url": link_of(&server.lines, n)})).collect::<Vec<_>>(),
        "shots": shots,
    });
    let result = browser_script(&browser_dir, "free_drag.mjs", &cfg, dir.path());
    assert_eq!(result["drags"], 8, "{}", result["drags"]);
    for page in result["seats"].as_array().unwrap() {
        assert_eq!(page["errors"], serde_json::json!([]), "{}", page["name"]);
    }
    // On a phone a swipe that starts on a card scrolls the page and carries nothing; a finger
    // held on the pile's top card and moved onto the hand draws it, the page still.
    let touch = &result["touch"];
    assert_eq!(touch["handFirst"], true, "the hand is not first: {touch}");
    assert_eq!(touch["inView"], true, "{touch}");
    assert!(
        touch["scrolled"].as_f64().unwrap() >= 150.0,
        "a swipe over a card did not scroll the page: {touch}"
    );
    assert_eq!(touch["swipeMoves"], 0, "a swipe played a move: {touch}");
    assert_eq!(touch["swipeGhost"], 0, "a swipe lifted a card: {touch}");
    assert_eq!(touch["dragMoves"], 1, "{touch}");
    assert_eq!(
        touch["dragScrolled"], 0.0,
        "the page scrolled under a drag: {touch}"
    );
    assert_eq!(touch["errors"], serde_json::json!([]), "{touch}");
    for r in result["axe"].as_array().unwrap() {
        let serious: Vec<&Value> = r["violations"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
            .collect();
        assert!(
            serious.is_empty(),
            "{} {}: {serious:?}",
            r["scheme"],
            r["width"]
        );
        assert_eq!(r["wider"], 0, "{r}");
    }
    // The server's table is what the drags mean.
    let (status, body) = http("GET", &api(&link_of(&server.lines, "player 1")), b"");
    assert_eq!(status, 200, "{body}");
    let view: Value = serde_json::from_str(&body).unwrap();
    let public = &view["view"]["public_data"];
    let markers = |board: usize, cell: &str| -> u64 {
        public["boards"][board]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["cell"] == cell)
            .unwrap_or_else(|| panic!("no cell {cell}"))["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["count"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(markers(0, "1,-1"), 1, "{public}");
    assert_eq!(markers(0, "0,1"), 1, "{public}");
    assert_eq!(markers(0, "0,0"), 0, "{public}");
    assert_eq!(markers(1, "2,3"), 1, "{public}");
    assert_eq!(
        public["seats"][0]["pieces"],
        serde_json::json!([]),
        "{public}"
    );
    let table = public["table"].as_array().unwrap();
    assert_eq!(table.len(), 1, "{public}");
    assert_eq!(
        (table[0]["place"].as_u64(), table[0]["face_up"].as_bool()),
        (Some(3), Some(true))
    );
    assert_eq!(public["piles"][0]["discards"].as_array().unwrap().len(), 1);
    // One card left in the hand by the drags, one drawn by a finger.
    assert_eq!(public["seats"][0]["hand"], 2, "{public}");
    // Each card shown once: no second group of the same cards, one group for a hidden hand.
    let once = &result["once"];
    assert_eq!(once["others"], 0, "{once}");
    assert_eq!(once["onTable"], table.len(), "{once}");
    assert_eq!(once["hiddenGroups"], 1, "{once}");
    // Each drag played the move its words say, and the page's log is the server's.
    let log: Vec<&str> = view["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| !e["number"].is_null())
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    let said = [
        "pick up a Marker from the supply",
        "put the Marker on Board cell 1,-1",
        "pick up a Marker from Board cell 0,0",
        "put the Marker on Board cell 0,1",
        "pick up a Marker from in front of player 1",
        "put the Marker on Player mat of player 1 cell 2,3",
        "face up onto the table",
        "face up onto the table",
        "(table place 1) to table place 3",
        "draw a card from",
        "(table place 2)",
        "draw a card from",
    ];
    assert_eq!(log.len(), said.len(), "{log:?}");
    for (entry, words) in log.iter().zip(said) {
        assert!(entry.contains(words), "`{entry}` is not `{words}`: {log:?}");
    }
    let shown = result["seats"][0]["log"].as_array().unwrap();
    assert_eq!(shown.len(), log.len());
    for (line, entry) in shown.iter().zip(&log) {
        assert!(
            line.as_str().unwrap().contains(entry),
            "{line} against {entry}"
        );
    }
    // The book's pictures of the free table (docs/src/images/table-free-board-*.png) are the
    // ones this test takes: one that no longer matches fails the test, and
    // `PRINTPLAY_UPDATE_SCREENSHOTS=1` writes the new ones in its place, to be looked at.
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/images");
    let update = std::env::var_os("PRINTPLAY_UPDATE_SCREENSHOTS").is_some();
    let mut stale = Vec::new();
    for w in [1280, 390] {
        for scheme in ["light", "dark"] {
            let name = format!("free-board-{w}-{scheme}.png");
            let (new, old) = (shots.join(&name), book.join(format!("table-{name}")));
            let d = common::pictures::difference(&new, &old);
            // Anti-aliasing and hinting differ a little between machines; a changed layout,
            // colour or text moves far more than 2 % of the image.
            if d > 0.02 {
                if update {
                    std::fs::copy(&new, &old).unwrap();
                }
                stale.push(format!("table-{name} (difference {:.1} %)", d * 100.0));
            }
        }
    }
    assert!(
        update || stale.is_empty(),
        "the book's pictures of the free table no longer match the page; run with PRINTPLAY_UPDATE_SCREENSHOTS=1, look at them and commit them: {stale:?}"
    );
}
