//! The Tabletop Simulator saved object read back: one DeckCustom per deck whose DeckIDs count
//! every copy, every CardID pointing at a filled slot of its sheet (read from the image),
//! names and texts on the cards, sheets within TTS's grid and size, a separate back, pieces
//! as tiles in bags of their count, boards as custom boards, and hosted links on request.

use std::path::{Path, PathBuf};

use printplay::model::{Game, load_game};
use printplay::render::{self, BuildOptions, GameBuild, tts};
use serde_json::Value;

fn game(slug: &str) -> Game {
    load_game(Path::new("data"), slug).unwrap_or_else(|e| panic!("{slug} loads: {e:?}"))
}

/// Runs only the TTS stage of a game; returns the folder and the saved object.
fn tts_build(g: &Game, base_url: Option<&str>) -> (tempfile::TempDir, Value) {
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions {
        out: dir.path().to_path_buf(),
        tts_base_url: base_url.map(str::to_string),
        ..BuildOptions::default()
    };
    let build = GameBuild {
        game: g,
        faces: render::draw_faces(g, &options).unwrap(),
        options: &options,
        dir: dir.path().join(&g.slug),
    };
    tts::stage(&build).unwrap();
    let json = dir
        .path()
        .join(&g.slug)
        .join("tts")
        .join(format!("{}.json", g.slug));
    let save = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    (dir, save)
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

/// Decoded RGBA pixels of a PNG with its width and height.
fn pixels(path: &Path) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    (info.width, info.height, buf)
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
        for card in copies {
            assert_eq!(&card["CardID"], id);
            assert_eq!(card["Nickname"], model.name);
            assert_eq!(card["Description"], model.text.clone().unwrap_or_default());
        }
    }
}

#[test]
fn every_copy_of_every_card_is_in_its_deck_on_a_filled_slot() {
    for slug in ["the-search", "capek-golems"] {
        let g = game(slug);
        let (_dir, save) = tts_build(&g, None);
        let decks = objects(&save, "DeckCustom");
        let printed = g.components.decks.iter().filter(|d| d.print).count();
        assert_eq!(decks.len(), printed, "{slug}: one DeckCustom per deck");
        for deck in decks {
            check_deck_object(&g, deck);
        }
    }
    let g = game("the-search");
    let (_dir, save) = tts_build(&g, None);
    let map = objects(&save, "DeckCustom")
        .into_iter()
        .find(|d| d["DeckIDs"].as_array().unwrap().len() == 20);
    assert!(map.is_some(), "20 map cards stay 20");
}

#[test]
fn pieces_are_tiles_in_bags_of_their_count_and_boards_custom_boards() {
    let g = game("aether");
    let (_dir, save) = tts_build(&g, None);
    let bags = objects(&save, "Bag");
    let printed: Vec<_> = g.components.pieces.iter().filter(|p| p.print).collect();
    assert_eq!(bags.len(), printed.len());
    for (bag, piece) in bags.iter().zip(&printed) {
        let tiles = bag["ContainedObjects"].as_array().unwrap();
        assert_eq!(tiles.len() as u32, piece.count.0, "{}", piece.name);
        assert!(
            tiles
                .iter()
                .all(|t| t["Name"] == "Custom_Tile" && t["Nickname"] == piece.name)
        );
        let image = file_of(tiles[0]["CustomImage"]["ImageURL"].as_str().unwrap());
        assert!(image.exists());
    }
    let boards = objects(&save, "Custom_Board");
    assert_eq!(boards.len(), g.components.boards.len());
    for board in boards {
        let image = file_of(board["CustomImage"]["ImageURL"].as_str().unwrap());
        let (w, h, _) = pixels(&image);
        assert!(w > 400 && h > 400);
    }
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
