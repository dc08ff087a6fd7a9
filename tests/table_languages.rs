//! A game printing its cards in several languages (`languages` in `game.toml`) is served at
//! its table in the language the page asks (`?lang=`, one of those languages; the game's
//! first without it): the cards' faces and names, the decks' names, the boards as drawn and
//! the rules reference, as the build prints `cards.<lang>.pdf`. Aether prints in Finnish and
//! English: its player aid is `Pelaajan muistilappu` in one and `Player aid` in the other.

mod common;

use common::server::{api, browser_script, browser_tools, http, link_of, start, with_path};
use serde_json::{Value, json};

fn get(url: &str) -> Value {
    let (status, body) = http("GET", url, b"");
    assert_eq!(status, 200, "{url}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// Aether's free table, its first seat having drawn a player aid into its hand: the seat's
/// link and the server.
fn aether_with_an_aid_in_hand(dir: &std::path::Path) -> (String, common::server::Server) {
    let db = dir.join("t.sqlite").display().to_string();
    let server = start(
        &[
            "table",
            "aether",
            "--free",
            "--seats",
            "yellow=person,red=person",
            "--seed",
            "2",
            "--port",
            "0",
            "--db",
            &db,
        ],
        3,
    );
    let link = link_of(&server.lines, "Yellow");
    let view = get(&api(&link));
    let draw = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| {
            m["name"]
                .as_str()
                .unwrap()
                .starts_with("draw a card from Player aid")
        })
        .unwrap_or_else(|| panic!("no draw from the player aids: {}", view["legal"]))["index"]
        .clone();
    let (status, body) = http(
        "POST",
        &with_path(&api(&link), "moves"),
        json!({ "index": draw }).to_string().as_bytes(),
    );
    assert_eq!(status, 200, "{body}");
    (link, server)
}

#[test]
fn aether_s_table_gives_its_cards_boards_and_rules_in_the_language_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (link, _server) = aether_with_an_aid_in_hand(dir.path());
    let asked = |lang: Option<&str>| {
        let url = match lang {
            Some(l) => format!("{}&lang={l}", api(&link)),
            None => api(&link),
        };
        get(&url)
    };
    let (fi, en, none, unknown) = (
        asked(Some("fi")),
        asked(Some("en")),
        asked(None),
        asked(Some("sv")),
    );
    let hand = |v: &Value| v["cards"]["hands"][0]["cards"][0].clone();
    // The card in the hand: its name and its face in the language asked.
    assert_eq!(hand(&fi)["name"], "Pelaajan muistilappu", "{}", fi["cards"]);
    assert_eq!(hand(&en)["name"], "Player aid", "{}", en["cards"]);
    assert_ne!(hand(&fi)["face"], hand(&en)["face"]);
    assert_eq!(hand(&fi)["id"], hand(&en)["id"]);
    // The deck's name and its back (public), and the board as printed in that language.
    assert_eq!(fi["cards"]["decks"]["player-aid"], "Pelaajien muistilaput");
    assert_eq!(en["cards"]["decks"]["player-aid"], "Player aid");
    let board = |v: &Value| v["free"]["boards"]["board"]["image"].clone();
    assert!(board(&fi).is_string(), "{}", fi["free"]);
    assert_ne!(board(&fi), board(&en));
    // The view says the languages and the one given; without a language, or with one the
    // game does not print in, the game's first.
    for (v, lang) in [(&fi, "fi"), (&en, "en"), (&none, "fi"), (&unknown, "fi")] {
        assert_eq!(v["data"]["languages"], json!(["fi", "en"]));
        assert_eq!(v["data"]["lang"], lang);
    }
    assert_eq!(hand(&none), hand(&fi));
    assert_eq!(hand(&unknown), hand(&fi));
    // Apart from the faces, the view is the same: the language changes no seat's view.
    let mut same = [fi.clone(), en.clone()];
    for v in &mut same {
        for k in ["cards", "free", "data"] {
            v.as_object_mut().unwrap().remove(k);
        }
    }
    assert_eq!(same[0], same[1]);
    // Both faces are served, and the rules reference is in the language asked.
    for v in [&fi, &en] {
        let face = hand(v)["face"].as_str().unwrap().to_string();
        let base = &link[..link.find("/tables/").unwrap()];
        let (status, svg) = http("GET", &format!("{base}{face}"), b"");
        assert_eq!(status, 200);
        assert!(svg.starts_with("<svg") || svg.contains("<svg"), "{face}");
    }
    let rules = |lang: &str| {
        let (status, html) = http(
            "GET",
            &format!("{}&lang={lang}", with_path(&link, "rules")),
            b"",
        );
        assert_eq!(status, 200, "{html}");
        html
    };
    let (rules_fi, rules_en) = (rules("fi"), rules("en"));
    assert!(rules_fi.contains("lang=\"fi\""), "the Finnish rules");
    assert!(rules_en.contains("lang=\"en\""), "the English rules");
}

/// The page in Chromium: opened with `?lang=en` it shows the aid's English name, with
/// `?lang=fi` its Finnish one, and offers the game's languages to choose from; axe-core finds
/// no violation on either (English light at 1280 px, Finnish dark at 390 px).
#[test]
fn aether_s_table_page_shows_english_or_finnish_card_words_as_asked() {
    let Some((browser_dir, chromium)) = browser_tools() else {
        eprintln!("skipped: Chromium, node or tests/browser/node_modules (npm ci) missing");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (link, _server) = aether_with_an_aid_in_hand(dir.path());
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/table-pages");
    std::fs::create_dir_all(&shots).unwrap();
    // (Each language once, together at both widths and in both schemes: a test of seconds.)
    let pages: Vec<Value> = [("en", "light", 1280), ("fi", "dark", 390)]
        .iter()
        .map(|(l, scheme, width)| {
            json!({"name": format!("aether-free-{l}"), "url": format!("{link}&lang={l}"),
                   "ready": ".free-hand .free-card", "schemes": [scheme], "widths": [width]})
        })
        .collect();
    let cfg = json!({"exe": chromium, "pages": pages, "shots": shots});
    let results = browser_script(&browser_dir, "table_axe.mjs", &cfg, dir.path());
    let results = results.as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        let at = format!("{} ({}, {} px)", r["page"], r["scheme"], r["width"]);
        assert_eq!(r["violations"], json!([]), "{at}");
        assert_eq!(r["errors"], json!([]), "{at}");
        assert_eq!(r["wider"], 0, "{at}");
        // The cards shown (the hand's aid, the piles' backs), not the moves' words (the
        // engine's, in English).
        // (As read: without the soft hyphens that mark where a long word may break.)
        let cards: Vec<String> = r["cards"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .map(|c| c.replace('\u{ad}', ""))
            .collect();
        let has = |words: &str| cards.iter().any(|b| b.contains(words));
        let (finnish, english) = (has("Pelaajan muistilappu"), has("Player aid"));
        // The aid's name under its face says its language, and its long word breaks between
        // syllables (the server's hyphenation points), never mid-syllable.
        let names = r["names"].as_array().unwrap();
        let aid = |text: &str| names.iter().find(|n| n["text"] == text);
        if r["page"] == "aether-free-fi" {
            assert!(finnish && !english, "{at}: {cards:?}");
            let name = aid("Pelaajan muis\u{ad}ti\u{ad}lap\u{ad}pu")
                .unwrap_or_else(|| panic!("{at}: {names:?}"));
            assert_eq!(name["lang"], "fi", "{at}");
        } else {
            assert!(english && !finnish, "{at}: {cards:?}");
            let name = aid("Player aid").unwrap_or_else(|| panic!("{at}: {names:?}"));
            assert_eq!(name["lang"], "en", "{at}");
        }
        let langs = r["langs"].as_array().unwrap();
        assert_eq!(langs.len(), 2, "{at}: {langs:?}");
        assert_eq!(
            r["lang"],
            r["page"].as_str().unwrap().rsplit('-').next().unwrap(),
            "{at}"
        );
    }
}
