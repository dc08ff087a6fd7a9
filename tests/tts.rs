//! The Tabletop Simulator saved object read back: one DeckCustom per deck whose DeckIDs count
//! every copy, every CardID pointing at a filled slot of its sheet (read from the image),
//! names and texts on the cards, sheets within TTS's grid and size, a separate back, pieces
//! as tiles in bags of their count, boards as custom boards, and hosted links on request.

use std::path::{Path, PathBuf};

use printplay::model::{Game, load_game};
use printplay::render::formats::tts;
use printplay::render::{self, BuildOptions, GameBuild};
use serde_json::Value;

fn game(slug: &str) -> Game {
    load_game(Path::new("data"), slug).unwrap_or_else(|e| panic!("{slug} loads: {e:?}"))
}

/// The saved object of each game without a base URL, built once for all tests.
fn saved(slug: &str) -> &'static Value {
    static SAVES: std::sync::OnceLock<std::collections::BTreeMap<&'static str, Value>> =
        std::sync::OnceLock::new();
    let saves = SAVES.get_or_init(|| {
        std::thread::scope(|s| {
            let built: Vec<_> = GAMES
                .iter()
                .map(|&slug| {
                    s.spawn(move || {
                        // Kept under Cargo's folder for tests: the images stay readable.
                        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
                            .join("tts")
                            .join(slug);
                        (slug, tts_build_in(&game(slug), None, &dir))
                    })
                })
                .collect();
            built.into_iter().map(|h| h.join().unwrap()).collect()
        })
    });
    &saves[slug]
}

/// Runs only the TTS stage of a game; returns the folder and the saved object.
fn tts_build(g: &Game, base_url: Option<&str>) -> (tempfile::TempDir, Value) {
    let dir = tempfile::tempdir().unwrap();
    let save = tts_build_in(g, base_url, dir.path());
    (dir, save)
}

/// Runs only the TTS stage of a game into `dir`; returns the saved object.
fn tts_build_in(g: &Game, base_url: Option<&str>, dir: &Path) -> Value {
    let _ = std::fs::remove_dir_all(dir);
    let dir = dir.to_path_buf();
    let options = BuildOptions {
        out: dir.clone(),
        tts_base_url: base_url.map(str::to_string),
        ..BuildOptions::default()
    };
    let build = GameBuild {
        game: g,
        faces: render::draw_faces(g, &options).unwrap(),
        options: &options,
        dir: dir.join(&g.slug),
    };
    tts::stage(&build).unwrap();
    let json = dir
        .join(&g.slug)
        .join("tts")
        .join(format!("{}.json", g.slug));
    serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap()
}

fn objects<'a>(save: &'a Value, name: &str) -> Vec<&'a Value> {
    save["ObjectStates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["Name"] == name)
        .collect()
}

fn file_of(url: &str) -> PathBuf {
    PathBuf::from(url.strip_prefix("file://").expect("a file:// link"))
}

/// Decoded pixels of a PNG (RGBA, or RGB when it is opaque) with its width and height.
fn pixels(path: &Path) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let rgba: Vec<u8> = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("{}: {other:?}", path.display()),
    };
    (info.width, info.height, rgba)
}

/// Whether the slot's centre is painted (a filled slot) on the sheet.
fn slot_filled(sheet: &(u32, u32, Vec<u8>), grid: (u32, u32), slot: u32) -> bool {
    let (w, h, data) = sheet;
    let (cw, ch) = (w / grid.0, h / grid.1);
    let (x, y) = ((slot % grid.0) * cw + cw / 2, (slot / grid.0) * ch + ch / 2);
    data[((y * w + x) * 4 + 3) as usize] == 255
}

fn check_deck_object(g: &Game, deck_obj: &Value) {
    let deck = g
        .components
        .decks
        .iter()
        .find(|d| d.name == deck_obj["Nickname"])
        .expect("the deck's name");
    let copies: u32 = deck.cards.iter().map(|c| c.count.0).sum();
    let ids = deck_obj["DeckIDs"].as_array().unwrap();
    assert_eq!(
        ids.len() as u32,
        copies,
        "{}: every copy in DeckIDs",
        deck.name
    );
    let contained = deck_obj["ContainedObjects"].as_array().unwrap();
    assert_eq!(contained.len(), ids.len());
    let custom = deck_obj["CustomDeck"].as_object().unwrap();
    let mut sheets = std::collections::BTreeMap::new();
    for (key, sheet) in custom {
        let grid = (
            sheet["NumWidth"].as_u64().unwrap() as u32,
            sheet["NumHeight"].as_u64().unwrap() as u32,
        );
        assert!(grid.0 <= 10 && grid.1 <= 7, "{}: grid {grid:?}", deck.name);
        let face = pixels(&file_of(sheet["FaceURL"].as_str().unwrap()));
        assert_eq!(
            face.0,
            grid.0 * tts::CARD_PX,
            "{} px per card width",
            tts::CARD_PX
        );
        assert!(face.0 <= tts::MAX_SHEET_PX && face.1 <= tts::MAX_SHEET_PX);
        assert_eq!(face.1 % grid.1, 0);
        let back = file_of(sheet["BackURL"].as_str().unwrap());
        assert!(back.ends_with(format!("{}-back.png", deck.id.get_ref())));
        assert_eq!(pixels(&back).0, tts::CARD_PX);
        assert_eq!(sheet["UniqueBack"], false);
        sheets.insert(key.parse::<u64>().unwrap(), (grid, face));
    }
    for (id, card) in ids.iter().zip(contained) {
        let id = id.as_u64().unwrap();
        assert_eq!(card["CardID"].as_u64(), Some(id));
        assert_eq!(card["Name"], "Card");
        let (grid, face) = &sheets[&(id / 100)];
        let slot = (id % 100) as u32;
        assert!(slot < grid.0 * grid.1);
        assert!(
            slot_filled(face, *grid, slot),
            "{}: card {id} on an empty slot",
            deck.name
        );
    }
    // Cards come in deck order, each design's copies together on one slot of their own.
    let mut rest = contained.as_slice();
    let mut slots = std::collections::BTreeSet::new();
    for model in &deck.cards {
        let (copies, more) = rest.split_at(model.count.0 as usize);
        rest = more;
        let id = &copies[0]["CardID"];
        assert!(
            slots.insert(id.as_u64().unwrap()),
            "{}: one slot per design",
            deck.name
        );
        let text = tts::card_text(
            g,
            deck.id.get_ref(),
            model.id.get_ref(),
            model.text.as_deref(),
        );
        for card in copies {
            assert_eq!(&card["CardID"], id);
            assert_eq!(card["Nickname"], model.name);
            assert_eq!(card["Description"], text.as_str());
        }
    }
}

#[test]
fn every_copy_of_every_card_is_in_its_deck_on_a_filled_slot() {
    for slug in ["the-search", "capek-golems"] {
        let g = game(slug);
        let save = saved(slug);
        let decks = objects(save, "DeckCustom");
        let printed = g.components.decks.iter().filter(|d| d.print).count();
        assert_eq!(decks.len(), printed, "{slug}: one DeckCustom per deck");
        for deck in decks {
            check_deck_object(&g, deck);
        }
    }
    let save = saved("the-search");
    let map = objects(save, "DeckCustom")
        .into_iter()
        .find(|d| d["DeckIDs"].as_array().unwrap().len() == 20);
    assert!(map.is_some(), "20 map cards stay 20");
}

/// Every object of the save, at any depth (inside decks and bags too).
fn all_objects(save: &Value) -> Vec<&Value> {
    let mut out = Vec::new();
    let mut stack: Vec<&Value> = save["ObjectStates"].as_array().unwrap().iter().collect();
    while let Some(o) = stack.pop() {
        out.push(o);
        if let Some(inner) = o["ContainedObjects"].as_array() {
            stack.extend(inner);
        }
    }
    out
}

fn angle(o: &Value, axis: &str) -> f64 {
    o["Transform"][axis].as_f64().unwrap().rem_euclid(360.0)
}

const GAMES: [&str; 4] = [
    "aether",
    "the-search",
    "capek-golems",
    "imperial-settlers-aztecs",
];

#[test]
fn nothing_lies_upside_down_and_every_card_can_be_held_and_hides_its_face() {
    for slug in GAMES {
        let g = game(slug);
        let save = saved(slug);
        let objects = all_objects(save);
        let mut cards = 0;
        for o in &objects {
            let name = o["Name"].as_str().unwrap();
            let (x, z) = (angle(o, "rotX"), angle(o, "rotZ"));
            match name {
                "Bag" | "Custom_Tile" | "Custom_Board" => {
                    assert!(
                        x.min(360.0 - x) < 1.0 && z.min(360.0 - z) < 1.0,
                        "{slug}: {name} `{}` lies at rotX {x}, rotZ {z}",
                        o["Nickname"]
                    );
                }
                "Card" => {
                    cards += 1;
                    assert_eq!(o["Hands"], true, "{slug}: {}", o["Nickname"]);
                    assert_eq!(o["HideWhenFaceDown"], true, "{slug}: {}", o["Nickname"]);
                }
                // A deck lies face down, as a draw pile does, or face up.
                "DeckCustom" => assert!(z == 0.0 || z == 180.0, "{slug}: deck at {z}"),
                other => panic!("{slug}: unexpected object {other}"),
            }
        }
        // A game publishing its cards in several languages has each deck in each.
        let langs = render::faces::languages::card_languages(&g).len().max(1) as u32;
        let copies: u32 = g
            .components
            .decks
            .iter()
            .filter(|d| d.print)
            .flat_map(|d| {
                let each = if d.multilingual { 1 } else { langs };
                d.cards.iter().map(move |c| c.count.0 * each)
            })
            .sum();
        assert_eq!(cards, copies, "{slug}: every printed card copy is a Card");
    }
}

#[test]
fn every_card_carries_its_text_and_its_fields() {
    for slug in GAMES {
        let g = game(slug);
        let save = saved(slug);
        let cards: Vec<&Value> = all_objects(save)
            .into_iter()
            .filter(|o| o["Name"] == "Card")
            .collect();
        // Every card whose data holds text or field values says them; a card with
        // neither (The Search's map cards, art and a name) has nothing to say.
        for deck in g.components.decks.iter().filter(|d| d.print) {
            for model in &deck.cards {
                if model.text.is_none() && model.fields.is_empty() {
                    continue;
                }
                let card = cards
                    .iter()
                    .find(|c| c["Nickname"] == model.name.as_str())
                    .unwrap_or_else(|| panic!("{slug}: {}", model.name));
                let text = card["Description"].as_str().unwrap();
                assert!(!text.is_empty(), "{slug}: `{}` has no text", model.name);
                if let Some(t) = &model.text {
                    assert!(text.starts_with(t.trim()), "{slug}: {text:?}");
                }
            }
        }
    }
    let save = saved("capek-golems");
    let card = all_objects(save)
        .into_iter()
        .find(|o| o["Nickname"] == "Parts Machining 1")
        .expect("the card");
    let text = card["Description"].as_str().unwrap();
    for line in [
        "Scientific Inquiry colour: Parts Machining",
        "Gold coins: 3",
        "Field Research value: 1",
        "Field Research journal line: Lathe tolerances held at a hair's width today.",
    ] {
        assert!(text.lines().any(|l| l == line), "`{line}` not in {text:?}");
    }
}

#[test]
fn pieces_lie_in_bags_of_their_count_or_of_their_kind_and_all_fit_the_table() {
    let g = game("aether");
    let save = saved("aether");
    let top = save["ObjectStates"].as_array().unwrap();
    let bags = objects(save, "Bag");
    let printed: Vec<_> = g.components.pieces.iter().filter(|p| p.print).collect();
    for piece in printed.iter().filter(|p| p.count.0 > 1) {
        let bag = bags
            .iter()
            .find(|b| {
                b["ContainedObjects"][0]["Nickname"] == piece.name.as_str()
                    && b["ContainedObjects"].as_array().unwrap().len() as u32 == piece.count.0
            })
            .unwrap_or_else(|| panic!("a bag of {} {}", piece.count.0, piece.name));
        let image = file_of(
            bag["ContainedObjects"][0]["CustomImage"]["ImageURL"]
                .as_str()
                .unwrap(),
        );
        assert!(image.exists());
    }
    // The 14 aether tiles, one of each, share one bag.
    let aether: Vec<&str> = printed
        .iter()
        .filter(|p| p.kind == "aether-tile")
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(aether.len(), 14);
    let bag = bags
        .iter()
        .find(|b| b["Nickname"] == "Aether tile (14)")
        .expect("one bag of aether tiles");
    let inside: Vec<&str> = bag["ContainedObjects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["Nickname"].as_str().unwrap())
        .collect();
    assert_eq!(inside, aether);
    assert_eq!(
        bags.len(),
        printed.iter().filter(|p| p.count.0 > 1).count() + 1
    );
    // Every object of every game lies on the table, apart from the others.
    for slug in GAMES {
        let save = saved(slug);
        let top = save["ObjectStates"].as_array().unwrap();
        let at: Vec<(f64, f64)> = top
            .iter()
            .map(|o| {
                let t = &o["Transform"];
                (t["posX"].as_f64().unwrap(), t["posZ"].as_f64().unwrap())
            })
            .collect();
        for (o, &(x, z)) in top.iter().zip(&at) {
            assert!(
                x.abs() <= tts::TABLE_HALF.0 && z.abs() <= tts::TABLE_HALF.1,
                "{slug}: {} at ({x}, {z})",
                o["Nickname"]
            );
        }
        for (i, a) in at.iter().enumerate() {
            for b in &at[i + 1..] {
                let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                assert!(d >= 2.0, "{slug}: two objects {d:.2} units apart");
            }
        }
    }
    assert!(top.len() < 22, "Aether lays {} objects", top.len());
}

#[test]
fn a_game_in_two_languages_gets_a_board_in_each() {
    let g = game("aether");
    let save = saved("aether");
    let boards = objects(save, "Custom_Board");
    assert_eq!(
        boards.len(),
        g.components.boards.len() * g.info.languages.len()
    );
    let mut images = Vec::new();
    for (board, lang) in boards.iter().zip(&g.info.languages) {
        let url = board["CustomImage"]["ImageURL"].as_str().unwrap();
        assert!(url.ends_with(&format!(".{lang}.png")), "{url}");
        assert!(
            board["Nickname"]
                .as_str()
                .unwrap()
                .ends_with(&format!("({lang})"))
        );
        let (w, h, data) = pixels(&file_of(url));
        assert!(w > 400 && h > 400);
        images.push(data);
    }
    assert_ne!(images[0], images[1], "the boards' words differ");
    let g = game("the-search");
    let save = saved("the-search");
    assert_eq!(
        objects(save, "Custom_Board").len(),
        g.components.boards.len()
    );
}

/// Aether prints its cards in Finnish and in English: a deck in each, named with its
/// language, its sheets under `tts/<lang>/`, each card's name and text in that language.
#[test]
fn a_game_in_two_languages_gets_each_deck_in_each() {
    let g = game("aether");
    let save = saved("aether");
    let decks = objects(save, "DeckCustom");
    assert_eq!(decks.len(), 2, "one player aid deck per language");
    let aid = g.deck("player-aid").unwrap();
    let card = &aid.cards[0];
    let mut sheets = Vec::new();
    for (deck, lang) in decks.iter().zip(["fi", "en"]) {
        let name = aid.names.get(lang).unwrap_or(&aid.name);
        assert_eq!(deck["Nickname"], format!("{name} ({lang})"));
        let custom = deck["CustomDeck"]
            .as_object()
            .unwrap()
            .values()
            .next()
            .unwrap();
        let face = custom["FaceURL"].as_str().unwrap();
        assert!(
            face.ends_with(&format!("/tts/{lang}/player-aid.png")),
            "{face}"
        );
        let back = custom["BackURL"].as_str().unwrap();
        assert!(
            back.ends_with(&format!("/tts/{lang}/player-aid-back.png")),
            "{back}"
        );
        let first = &deck["ContainedObjects"][0];
        assert_eq!(
            first["Nickname"],
            *card.names.get(lang).unwrap_or(&card.name)
        );
        let text = card.texts.get(lang).or(card.text.as_ref()).unwrap();
        assert!(
            first["Description"]
                .as_str()
                .unwrap()
                .starts_with(text.trim()),
            "{lang}: {}",
            first["Description"]
        );
        sheets.push(pixels(&file_of(face)).2);
    }
    assert_ne!(sheets[0], sheets[1], "the cards' words differ");
}

/// A saved object from a public repository (`tests/fixtures/tts/`).
struct Reference {
    file: &'static str,
    repository: String,
    object: Value,
}

fn references() -> Vec<Reference> {
    [
        "sced-card.json",
        "sced-deck.json",
        "sced-bag.json",
        "sced-tile.json",
        "zont3-deck.json",
    ]
    .into_iter()
    .map(|file| {
        let text = std::fs::read_to_string(Path::new("tests/fixtures/tts").join(file)).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        Reference {
            file,
            repository: v["repository"].as_str().unwrap().to_string(),
            object: v["object"].clone(),
        }
    })
    .collect()
}

/// Fields real saves carry that ours leave out, and why.
const LEFT_OUT: [(&str, &str); 3] = [
    ("GUID", "TTS gives every object it spawns a fresh one"),
    ("Tags", "the mod's own labels for its scripts"),
    (
        "ContainedObjects",
        "a card holds nothing (ZONT3's card carries an empty list)",
    ),
];

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Compares `ours` with a real object field by field: the same fields (but those left out
/// for a reason), each of the same JSON type, nested objects alike.
fn compare(ours: &Value, real: &Value, path: &str, problems: &mut Vec<String>) {
    let (Some(o), Some(r)) = (ours.as_object(), real.as_object()) else {
        return;
    };
    for (key, rv) in r {
        let at = format!("{path}.{key}");
        match o.get(key) {
            None if LEFT_OUT.iter().any(|(k, _)| k == key) => {}
            // CustomDeck's keys are numbers of the save's own: its entries are compared
            // with ours.
            None if key.parse::<u32>().is_ok() => match o.values().next() {
                Some(ov) => compare(ov, rv, &at, problems),
                None => problems.push(format!("{at}: no entry")),
            },
            None => problems.push(format!("{at} missing")),
            Some(ov) if json_kind(ov) != json_kind(rv) => problems.push(format!(
                "{at}: {} where the save has {}",
                json_kind(ov),
                json_kind(rv)
            )),
            Some(ov) => compare(ov, rv, &at, problems),
        }
    }
}

#[test]
fn objects_match_real_saved_objects_field_by_field() {
    // Real saves: argonui/SCED (Arkham Horror LCG, one file per saved object) and
    // ZONT3/tts-deck-generator (a saved DeckCustom and Card it fills in).
    let refs = references();
    let kinds = [
        ("Card", vec!["Card"]),
        ("DeckCustom", vec!["Deck", "DeckCustom"]),
        ("Bag", vec!["Bag"]),
        ("Custom_Tile", vec!["Custom_Tile"]),
    ];
    let mut compared = std::collections::BTreeSet::new();
    for slug in GAMES {
        let save = saved(slug);
        for ours in all_objects(save) {
            let name = ours["Name"].as_str().unwrap();
            let Some((_, real_names)) = kinds.iter().find(|(k, _)| *k == name) else {
                continue;
            };
            let of_kind: Vec<&Reference> = refs
                .iter()
                .filter(|r| real_names.contains(&r.object["Name"].as_str().unwrap()))
                .collect();
            assert!(!of_kind.is_empty(), "no saved {name} to compare with");
            for real in of_kind {
                let mut problems = Vec::new();
                compare(ours, &real.object, name, &mut problems);
                // Nothing of ours that no real save of the kind carries.
                let known: std::collections::BTreeSet<&String> = refs
                    .iter()
                    .filter(|r| real_names.contains(&r.object["Name"].as_str().unwrap()))
                    .flat_map(|r| r.object.as_object().unwrap().keys())
                    .collect();
                for key in ours.as_object().unwrap().keys() {
                    if !known.contains(key) {
                        problems.push(format!("{name}.{key}: no saved {name} carries it"));
                    }
                }
                assert!(
                    problems.is_empty(),
                    "{slug}: our {name} against {} ({}): {problems:?}",
                    real.file,
                    real.repository
                );
                compared.insert(real.file);
            }
        }
    }
    assert_eq!(compared.len(), refs.len(), "every reference was compared");
    assert!(refs.iter().any(|r| r.repository == "argonui/SCED"));
    assert!(
        refs.iter()
            .any(|r| r.repository == "ZONT3/tts-deck-generator")
    );
}

#[test]
fn hosted_images_are_linked_under_the_base_url() {
    let g = game("the-search");
    let (_dir, save) = tts_build(&g, Some("https://example.org/games/search/"));
    for deck in objects(&save, "DeckCustom") {
        for sheet in deck["CustomDeck"].as_object().unwrap().values() {
            for key in ["FaceURL", "BackURL"] {
                let url = sheet[key].as_str().unwrap();
                assert!(
                    url.starts_with("https://example.org/games/search/"),
                    "{url}"
                );
                assert!(!url.contains("search//"), "{url}");
            }
        }
    }
}
