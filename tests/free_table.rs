//! The free table (issue 24): a game's components on a table with no rules, as one more
//! engine behind `State`. Random manipulations never lose or make a card or a piece, in
//! every shipped game and the scaffold; a saved free table replays to the same table; and
//! `printplay table` of the Aztecs (which has no engine) serves two seats that shuffle, deal,
//! draw, play face up and face down, move a piece and hand a card over, while neither seat
//! nor the spectator ever receives another hand or a hidden card, over HTTP or WebSocket; and
//! two Chromium contexts (Playwright, as `tests/table_browser.rs` drives it) play the same
//! table through the free table's own view.

use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

mod common;

use common::server::{
    Seen, api, browser_script, browser_tools, http, is_live_view, link_of, listen, start, with_path,
};

use printplay::engine::free::{Act, FreeEngine, FreeTable};
use printplay::engine::view::{self, Observer};
use printplay::engine::{Config, Engine, State, Turn};
use printplay::model::{Game, load_game};
use printplay::play::{PERSON, Transcript};
use printplay::simulate::game_rng;
use rand::RngExt;
use serde_json::Value;

fn data() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data"))
}

fn accounted(state: &FreeTable, what: &str) {
    let (here, total) = state.card_count();
    assert_eq!(here, total, "{what}: cards made or lost");
    for (k, (here, total)) in state.piece_counts().into_iter().enumerate() {
        assert_eq!(here, total, "{what}: pieces of kind {k} made or lost");
    }
}

#[test]
fn a_thousand_random_manipulations_never_lose_a_card_or_a_piece() {
    let (_dir, games) = common::shipped_and_scaffold_games();
    for game in &games {
        let engine = FreeEngine::from_model(game).unwrap();
        let max = *engine.player_counts().end();
        for (players, turns) in [(2, "seat-order"), (max.min(4), "free")] {
            let config = Config::with_variants(players, &[("turns", turns)]);
            let mut rng = game_rng(24, players as u64);
            let mut state = engine.new_game(&config, &mut rng).unwrap();
            accounted(&state, &game.slug);
            let mut kinds = std::collections::BTreeSet::new();
            for step in 0..1000 {
                let action = match state.turn() {
                    Turn::Player(_) => {
                        // Any move but closing the table.
                        let legal: Vec<Act> = state
                            .legal_actions()
                            .into_iter()
                            .filter(|&a| a != Act::End)
                            .collect();
                        assert!(!legal.is_empty(), "{}: no move at step {step}", game.slug);
                        legal[rng.random_range(0..legal.len())]
                    }
                    Turn::Chance => state.sample_chance(&mut rng),
                    Turn::Terminal => panic!("{}: the free table never ends", game.slug),
                };
                kinds.insert(state.action_kind(action));
                let before = state.clone();
                state.apply(action);
                accounted(&state, &format!("{} step {step}: {action:?}", game.slug));
                // Every observer's words and table, as the outputs ask for them.
                if step % 10 != 0 {
                    continue;
                }
                for observer in [Observer::Seat(0), Observer::Public, Observer::Omniscient] {
                    let seen = view::seen(&before, action, &state, observer);
                    assert!(!seen.action.is_empty());
                    view::table(&state, observer);
                }
            }
            // The random walk really moved cards and pieces around.
            for kind in ["draw", "move card", "pass"] {
                assert!(
                    kinds.contains(kind),
                    "{}: never `{kind}` in {kinds:?}",
                    game.slug
                );
            }
            if !game.components.pieces.is_empty() {
                assert!(kinds.contains("move piece"), "{}: {kinds:?}", game.slug);
            }
        }
    }
}

#[test]
fn the_set_up_follows_the_table_keys() {
    let game = load_game(data(), "imperial-settlers-aztecs").unwrap();
    let engine = FreeEngine::from_model(&game).unwrap();
    let state = engine
        .new_game(&Config::with_variants(3, &[]), &mut game_rng(1, 0))
        .unwrap();
    let public = state.public_data();
    // Two decks on the table: the common deck (84) and the example Aztec deck (30).
    let piles = public["piles"].as_array().unwrap();
    assert_eq!(piles.len(), 2, "{public}");
    assert_eq!(piles[0]["count"], 84 - 2 * 3);
    assert_eq!(piles[1]["count"], 30 - 2);
    assert_eq!(public["seats"][0]["hand"], 4);
    assert_eq!(public["seats"][1]["hand"], 2);
    let mine: Vec<&str> = public["seats"][0]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["piece"].as_str().unwrap())
        .collect();
    assert_eq!(mine, ["faction-board", "faction-marker"]);
    assert!(public["seats"][1]["pieces"].as_array().unwrap().is_empty());
    // The pile's order is nowhere in what a seat or the spectator is shown.
    assert!(piles[0].get("cards").is_none());
    // The scaffold: a mat for each seat, a marker in front of each and one on the board, a die.
    let (_dir, games) = common::shipped_and_scaffold_games();
    let scaffold = games.last().unwrap();
    let state = FreeEngine::from_model(scaffold)
        .unwrap()
        .new_game(&Config::with_variants(2, &[]), &mut game_rng(1, 0))
        .unwrap();
    let public = state.public_data();
    let boards = public["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 3, "the board and two mats: {public}");
    assert_eq!(boards[0]["cells"][0]["pieces"][0]["piece"], "marker");
    assert_eq!(public["dice"][0]["sides"], 6);
    assert_eq!(public["seats"][1]["pieces"][0]["count"], 1);
}

#[test]
fn a_bad_table_key_names_the_file_line_and_column() {
    let fixture = tempfile::tempdir().unwrap();
    printplay::scaffold::new_game_with_engine(fixture.path(), "g", "lua").unwrap();
    let path = fixture.path().join("g/components.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace(r#"deal = [{ deck = "deck""#, r#"deal = [{ deck = "dekc""#),
    )
    .unwrap();
    let game = load_game(fixture.path(), "g").unwrap();
    let err = FreeEngine::from_model(&game).err().expect("refused");
    assert!(err.contains("components.toml:"), "{err}");
    assert!(err.contains("no deck on the table `dekc`"), "{err}");
}

/// A free table's transcript played by chance and random choices, through the server's
/// `Live` (the same streams as the server).
fn random_transcript(game: &Game, moves: usize) -> Transcript {
    let t = Transcript {
        game: game.slug.clone(),
        seed: 9,
        players: 2,
        free: true,
        variants: Default::default(),
        seats: vec![PERSON.into(), PERSON.into()],
        moves: Vec::new(),
    };
    let mut live = printplay::serve::live::open(game, t).unwrap();
    for k in 0..moves {
        let index = match live.next() {
            printplay::serve::live::Next::Chance => live.chance_index().unwrap(),
            // Any move but closing the table.
            printplay::serve::live::Next::Person(p) => {
                let open: Vec<usize> = (live.legal(p).iter().enumerate())
                    .filter(|(_, m)| !m.starts_with("close the table"))
                    .map(|(i, _)| i)
                    .collect();
                open[(k * 7 + 3) % open.len()]
            }
            other => panic!("{other:?}"),
        };
        live.play(index).unwrap();
    }
    live.transcript().clone()
}

/// Which deck each card in a hand comes from is public (its back), and only that: every
/// observer is told, for every seat, how many cards of each deck it holds, and it matches the
/// hand.
#[test]
fn every_observer_sees_which_deck_each_hidden_card_comes_from() {
    let game = &load_game(data(), "imperial-settlers-aztecs").unwrap();
    let t = random_transcript(game, 120);
    for k in [0, 30, 60, 120] {
        let mut part = t.clone();
        part.moves.truncate(k);
        let live = printplay::serve::live::open(game, part).unwrap();
        let all = live.view(Observer::Omniscient, None).unwrap();
        for (seat, hand) in all["view"]["hands"].as_array().unwrap().iter().enumerate() {
            let mut counts = std::collections::BTreeMap::new();
            for c in hand["data"]["hand"].as_array().unwrap() {
                *counts
                    .entry(c["deck"].as_str().unwrap().to_string())
                    .or_insert(0u64) += 1;
            }
            for observer in [Observer::Seat(0), Observer::Seat(1), Observer::Public] {
                let v = live.view(observer, None).unwrap();
                let backs = &v["view"]["public_data"]["seats"][seat]["backs"];
                let told: std::collections::BTreeMap<String, u64> = backs
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| {
                        assert_eq!(
                            b.as_object().unwrap().len(),
                            2,
                            "only a deck and a count: {b}"
                        );
                        (
                            b["deck"].as_str().unwrap().to_string(),
                            b["count"].as_u64().unwrap(),
                        )
                    })
                    .collect();
                assert_eq!(told, counts, "seat {seat} to {observer:?} after {k} moves");
            }
        }
    }
}

#[test]
fn a_saved_free_table_replays_to_the_same_table() {
    let (_dir, games) = common::shipped_and_scaffold_games();
    for game in &games {
        let t = random_transcript(game, 120);
        // The stored format: written and read back, then opened afresh.
        let back: Transcript = toml::from_str(&t.to_toml()).unwrap();
        assert_eq!(back, t);
        assert!(t.to_toml().contains("free = true"));
        let a = printplay::serve::live::open(game, t.clone()).unwrap();
        let b = printplay::serve::live::open(game, back).unwrap();
        for observer in [Observer::Seat(0), Observer::Seat(1), Observer::Public] {
            assert_eq!(
                a.view(observer, None).unwrap(),
                b.view(observer, None).unwrap()
            );
        }
        // `replay --moves` names the moves as the table's log does.
        let lines = printplay::play::replay_transcript(game, &t, Some("omniscient")).unwrap();
        let text = lines.join("\n");
        let log = a.view(Observer::Omniscient, None).unwrap();
        let mut rest = text.as_str();
        for entry in log["log"].as_array().unwrap() {
            let action = entry["action"].as_str().unwrap();
            let at = rest
                .find(action)
                .unwrap_or_else(|| panic!("{}: `{action}` not in the replay", game.slug));
            rest = &rest[at + action.len()..];
        }
    }
}

// --- The server -------------------------------------------------------------------------

/// Plays the first legal move whose name passes `pick`, as the seat at `url`; the answer.
fn play(url: &str, seen: &Seen, pick: impl Fn(&str) -> bool, what: &str) -> Value {
    let (status, body) = http("GET", url, b"");
    assert_eq!(status, 200, "{body}");
    seen.lock().unwrap().push(body.clone());
    let v: Value = serde_json::from_str(&body).unwrap();
    let legal = v["legal"].as_array().unwrap();
    let index = legal
        .iter()
        .find(|m| pick(m["name"].as_str().unwrap()))
        .unwrap_or_else(|| panic!("no move to {what} among {legal:?}"))["index"]
        .as_u64()
        .unwrap();
    let (status, body) = http(
        "POST",
        &with_path(url, "moves"),
        format!(r#"{{"index": {index}}}"#).as_bytes(),
    );
    assert_eq!(status, 200, "{what}: {body}");
    seen.lock().unwrap().push(body.clone());
    serde_json::from_str(&body).unwrap()
}

/// Checks everything `observer` received at a table whose whole game is `transcript`:
/// every log it was sent is a beginning of its own log (each move and event as the one
/// observer rule words them for it), it was sent no hand but its own, and no text it got
/// holds a whole hand of the other seat, at any point, that it never held itself.
fn check_received(game: &Game, transcript: &Transcript, observer: Observer, got: &[String]) {
    let live = printplay::serve::live::open(game, transcript.clone()).unwrap();
    let mine = live.view(observer, None).unwrap();
    let log = mine["log"].as_array().unwrap();
    // The omniscient log differs from the observer's somewhere: something was hidden.
    let full = live.view(Observer::Omniscient, None).unwrap();
    assert_ne!(
        &full["log"], &mine["log"],
        "{observer:?}: nothing hidden from it?"
    );
    let mut hands = Vec::new();
    let mut own = Vec::new();
    for k in 0..=transcript.moves.len() {
        for seat in 0..2 {
            let v = live.view(Observer::Seat(seat), Some(k)).unwrap();
            for hand in v["view"]["hands"].as_array().unwrap() {
                let text = hand["text"].as_str().unwrap().to_string();
                if Observer::Seat(seat) == observer {
                    own.push(text);
                } else if text != "Hand: empty" {
                    hands.push(text);
                }
            }
        }
    }
    hands.retain(|h| !own.contains(h));
    assert!(!hands.is_empty() || observer == Observer::Public);
    for text in got {
        for secret in &hands {
            assert!(
                !text.contains(secret.as_str()),
                "{observer:?} received `{secret}`"
            );
        }
        // The page's own files are not views.
        let Ok(v) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        let from = v["log_from"].as_u64().unwrap_or(0) as usize;
        let v = if is_live_view(text) { &v["view"] } else { &v };
        if let Some(sent) = v["log"].as_array() {
            assert_eq!(
                sent.as_slice(),
                &log[from..from + sent.len()],
                "{observer:?} was sent another log"
            );
        }
        for hand in v["view"]["hands"].as_array().into_iter().flatten() {
            let seat = hand["seat"].as_u64().unwrap() as usize;
            assert_eq!(Observer::Seat(seat), observer, "a hand not its own: {hand}");
        }
        for table in v["view"]["public_data"]["table"]
            .as_array()
            .into_iter()
            .flatten()
        {
            if table["face_up"] == false {
                assert!(table.get("name").is_none() && table.get("design").is_none());
            }
        }
    }
}

#[test]
fn two_seats_play_the_aztecs_free_table_and_neither_sees_the_other_s_hand() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.sqlite").display().to_string();
    let server = start(
        &[
            "table",
            "imperial-settlers-aztecs",
            "--seats",
            "a=person,b=person",
            "--seed",
            "7",
            "--port",
            "0",
            "--db",
            &db,
        ],
        3,
    );
    let first = api(&link_of(&server.lines, "player 1"));
    let second = api(&link_of(&server.lines, "player 2"));
    let spectator = api(&link_of(&server.lines, "spectator"));
    let seen: Vec<Seen> = (0..3).map(|_| Arc::new(Mutex::new(Vec::new()))).collect();
    let listeners: Vec<_> = [&first, &second, &spectator]
        .iter()
        .zip(&seen)
        .map(|(url, s)| listen(url, s.clone()))
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (a, b) = (&seen[0], &seen[1]);
    let common = "Base game common deck";
    play(
        &first,
        a,
        |m| m.starts_with("shuffle the Base game"),
        "shuffle",
    );
    play(
        &first,
        a,
        |m| m.starts_with(&format!("deal 1 card from {common}")),
        "deal",
    );
    let v = play(
        &first,
        a,
        |m| m == format!("draw a card from {common} (colour mix, not printed)"),
        "draw",
    );
    assert_eq!(v["view"]["public_data"]["seats"][0]["hand"], 6, "{v}");
    play(
        &first,
        a,
        |m| m.starts_with("play ") && m.ends_with("face up onto the table"),
        "play face up",
    );
    let v = play(
        &first,
        a,
        |m| m.starts_with("play ") && m.ends_with("face down onto the table"),
        "play face down",
    );
    let table = v["view"]["public_data"]["table"].as_array().unwrap();
    assert_eq!(table.len(), 2);
    assert_eq!(table[1]["face_up"], false);
    assert!(
        table[1].get("name").is_none(),
        "a face-down card named: {v}"
    );
    play(
        &first,
        a,
        |m| m == "pick up a Statue token I from the supply",
        "pick up a piece",
    );
    let v = play(
        &first,
        a,
        |m| m == "put the Statue token I in front of player 1",
        "put it down",
    );
    assert!(
        v["view"]["public_data"]["seats"][0]["pieces"]
            .to_string()
            .contains("statue-i")
    );
    let v = play(
        &first,
        a,
        |m| m.starts_with("give ") && m.ends_with(" to player 2"),
        "hand a card over",
    );
    let given = v["log"].as_array().unwrap().last().unwrap()["action"]
        .as_str()
        .unwrap()
        .trim_start_matches("give ")
        .trim_end_matches(" to player 2")
        .to_string();
    play(&first, a, |m| m == "end the turn", "pass");
    // The second seat holds the card it was given, and is told what it was.
    let (_, body) = http("GET", &second, b"");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert!(
        v["view"]["hands"][0]["text"]
            .as_str()
            .unwrap()
            .contains(&given),
        "{v}"
    );
    assert!(
        v["log"]
            .to_string()
            .contains(&format!("give {given} to player 2"))
    );
    play(
        &second,
        b,
        |m| m.starts_with("draw a card from Example Aztec"),
        "draw",
    );
    play(
        &second,
        b,
        |m| m.starts_with("play ") && m.ends_with("face down onto the table"),
        "play face down",
    );
    play(
        &second,
        b,
        |m| m.starts_with("turn ") && m.ends_with(" face up"),
        "flip",
    );
    play(&second, b, |m| m == "end the turn", "pass");
    // Closing the table ends the session: its transcript can be exported.
    let v = play(
        &first,
        a,
        |m| m.starts_with("close the table"),
        "close the table",
    );
    assert_eq!(v["outcome"]["ending"], "the table was closed", "{v}");
    // The other seat's hidden cards are shown by their own decks' backs (a deck the build
    // does not print: no picture), as many as that seat holds of each deck.
    let other = &v["view"]["public_data"]["seats"][1];
    let mut shown = 0;
    for h in v["cards"]["hidden"].as_array().unwrap() {
        assert_eq!(h["seat"], "player 2", "{h}");
        let deck = v["view"]["public_data"]["piles"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == h["deck"])
            .unwrap_or_else(|| panic!("no pile of {h}"))["deck"]
            .as_str()
            .unwrap();
        assert_eq!(h["back"], v["cards"]["backs"][deck], "{h}");
        let held = other["backs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["deck"] == deck)
            .unwrap();
        assert_eq!(h["count"], held["count"]);
        shown += h["count"].as_u64().unwrap();
    }
    assert_eq!(shown, other["hand"].as_u64().unwrap(), "{}", v["cards"]);
    assert!(shown > 0, "the other seat holds no card to show backs for");
    // The spectator: no hand, no move.
    let (_, body) = http("GET", &spectator, b"");
    seen[2].lock().unwrap().push(body.clone());
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["view"]["hands"], serde_json::json!([]));
    assert!(v["legal"].as_array().unwrap().is_empty());
    for l in listeners {
        l.join().unwrap();
    }
    let (status, toml) = http("GET", &with_path(&first, "transcript"), b"");
    assert_eq!(status, 200);
    let transcript: Transcript = toml::from_str(&toml).unwrap();
    assert_eq!(transcript.moves.len(), 14);
    let game = load_game(data(), "imperial-settlers-aztecs").unwrap();
    for ((observer, s), name) in [Observer::Seat(0), Observer::Seat(1), Observer::Public]
        .iter()
        .zip(&seen)
        .zip(["player 1", "player 2", "spectator"])
    {
        let got = s.lock().unwrap();
        assert!(
            got.iter().filter(|t| is_live_view(t)).count() > 3,
            "{name} got few live views"
        );
        check_received(&game, &transcript, *observer, &got);
    }
    // The stored transcript replays (the CLI) to the table the server shows.
    let file = dir.path().join("game.toml");
    std::fs::write(&file, &toml).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(["replay", "imperial-settlers-aztecs", "--moves"])
        .arg(&file)
        .args(["--observer", "1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replay = String::from_utf8(out.stdout).unwrap();
    let live = printplay::serve::live::open(&game, transcript).unwrap();
    let (_, body) = http("GET", &first, b"");
    let server_view: Value = serde_json::from_str(&body).unwrap();
    let replayed = live.view(Observer::Seat(0), None).unwrap();
    assert_eq!(server_view["view"], replayed["view"]);
    assert_eq!(server_view["log"], replayed["log"]);
    for entry in replayed["log"].as_array().unwrap() {
        assert!(
            replay.contains(entry["action"].as_str().unwrap()),
            "{replay}"
        );
    }
}

// --- In a real browser ------------------------------------------------------------------

#[test]
fn two_browser_contexts_play_the_aztecs_free_table_through_its_view() {
    let Some((browser_dir, chromium)) = browser_tools() else {
        eprintln!("skipped: Chromium, node or tests/browser/node_modules (npm ci) missing");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.sqlite").display().to_string();
    let server = start(
        &[
            "table",
            "imperial-settlers-aztecs",
            "--seats",
            "a=person,b=person",
            "--seed",
            "11",
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
    let result = browser_script(&browser_dir, "free.mjs", &cfg, dir.path());
    assert_eq!(result["clicks"], 12, "{}", result["clicks"]);
    let first = api(&link_of(&server.lines, "player 1"));
    let (status, toml) = http("GET", &with_path(&first, "transcript"), b"");
    assert_eq!(status, 200, "{toml}");
    let transcript: Transcript = toml::from_str(&toml).unwrap();
    let game = load_game(data(), "imperial-settlers-aztecs").unwrap();
    let live = printplay::serve::live::open(&game, transcript.clone()).unwrap();
    let full = live.view(Observer::Omniscient, None).unwrap();
    for (i, page) in result["seats"].as_array().unwrap().iter().enumerate() {
        let name = page["name"].as_str().unwrap();
        assert_eq!(
            page["errors"],
            serde_json::json!([]),
            "{name}'s page had errors"
        );
        let mut got: Vec<String> = page["traffic"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        let dom = page["dom"].as_str().unwrap().to_string();
        // The page's log is the seat's log, move by move.
        let mine = live.view(Observer::Seat(i), None).unwrap();
        let shown: Vec<&str> = page["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        let expected = mine["log"].as_array().unwrap();
        assert_eq!(shown.len(), expected.len(), "{name}: {shown:?}");
        for (line, entry) in shown.iter().zip(expected) {
            assert!(
                line.contains(entry["action"].as_str().unwrap()),
                "{name}: `{line}` against {entry}"
            );
        }
        // A card played face down by the first seat: a back on the second seat's page.
        assert!(
            dom.contains("free-card back"),
            "{name}: no face-down card on the page"
        );
        // Nothing told only to the onlooker who sees every hand reaches the page's DOM.
        let own = mine["log"].to_string();
        for entry in full["log"].as_array().unwrap() {
            for said in std::iter::once(&entry["action"]).chain(entry["events"].as_array().unwrap())
            {
                let said = said.as_str().unwrap();
                if !own.contains(&serde_json::to_string(said).unwrap()) {
                    assert!(!dom.contains(said), "{name}'s page shows `{said}`");
                }
            }
        }
        got.push(dom);
        check_received(&game, &transcript, Observer::Seat(i), &got);
    }
}

/// Each observer's log is made when first asked for (replaying the moves) and then kept up
/// move by move: the same log either way, before and after an undo.
#[test]
fn a_log_asked_for_late_is_the_log_kept_from_the_start() {
    let (_dir, games) = common::shipped_and_scaffold_games();
    for game in &games {
        let t = random_transcript(game, 80);
        let observers = [
            Observer::Seat(0),
            Observer::Seat(1),
            Observer::Public,
            Observer::Omniscient,
        ];
        let start = Transcript {
            moves: Vec::new(),
            ..t.clone()
        };
        // Every log asked for before the first move, then kept while the moves are played.
        let mut kept = printplay::serve::live::open(game, start).unwrap();
        for &o in &observers {
            assert!(
                kept.view(o, None).unwrap()["log"]
                    .as_array()
                    .unwrap()
                    .is_empty()
            );
        }
        for &index in &t.moves {
            kept.play(index).unwrap();
        }
        // Every log asked for only now.
        let mut late = printplay::serve::live::open(game, t.clone()).unwrap();
        for &o in &observers {
            let log = kept.view(o, None).unwrap()["log"].clone();
            assert_eq!(log.as_array().unwrap().len(), t.moves.len());
            assert_eq!(
                log,
                late.view(o, None).unwrap()["log"],
                "{} {o:?}",
                game.slug
            );
        }
        kept.rewind(30).unwrap();
        late.rewind(30).unwrap();
        let mut part = t.clone();
        part.moves.truncate(30);
        let fresh = printplay::serve::live::open(game, part).unwrap();
        for &o in &observers {
            let log = fresh.view(o, None).unwrap()["log"].clone();
            assert_eq!(log.as_array().unwrap().len(), 30);
            assert_eq!(
                kept.view(o, None).unwrap()["log"],
                log,
                "{} {o:?}",
                game.slug
            );
            assert_eq!(
                late.view(o, None).unwrap()["log"],
                log,
                "{} {o:?}",
                game.slug
            );
        }
    }
}
