//! Tabletop Simulator export: `<out>/<slug>/tts/<slug>.json`, a saved object that TTS
//! imports (Objects -> Saved Objects), with the images it points at beside it.
//!
//! Every deck becomes one `DeckCustom` whose `DeckIDs` list every copy (a card printed 20
//! times is 20 cards in the deck), drawn from face sheets of at most 10 x 7 designs and a
//! separate back image; each card carries its name as `Nickname` and its text as
//! `Description`. Printed pieces become stacks of custom tiles (a bag holding `count` of
//! them) and boards custom boards. Images are linked as `file://` paths by default or
//! under `--tts-base-url` for hosted copies.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::{Value, json};

use super::faces::{DeckFaces, PieceFace};
use super::template::Templates;
use super::{GameBuild, board, piece_document, sheets};
use crate::model::Shape;

/// TTS's card sheets hold at most this many columns and rows.
pub const MAX_GRID: (u32, u32) = (10, 7);
/// TTS keeps images under 4096 x 4096 pixels (its knowledge base, *Asset Creation*).
pub const MAX_SHEET_PX: u32 = 4096;
/// Pixels per card width on every sheet: ten cards fill 4090 pixels.
pub const CARD_PX: u32 = 409;

/// One face sheet of a deck: which designs it holds, its grid, and its file name.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetPlan {
    /// Indexes into the deck's cards, in slot order.
    pub cards: Vec<usize>,
    pub grid: (u32, u32),
    pub file: String,
}

/// Height in pixels of a card `size` mm drawn [`CARD_PX`] wide.
pub fn card_height_px(size: (f64, f64)) -> u32 {
    (f64::from(CARD_PX) * size.1 / size.0).round() as u32
}

/// The smallest grid of at most [`MAX_GRID`] for `n` designs, with at most `max_rows` rows.
fn grid_for(n: usize, max_rows: u32) -> (u32, u32) {
    let n = n as u32;
    let rows = n.div_ceil(MAX_GRID.0).clamp(1, max_rows);
    (n.div_ceil(rows).max(1), rows)
}

/// Splits a deck's designs over sheets that stay within TTS's limits.
pub fn plan_sheets(deck: &DeckFaces) -> Result<Vec<SheetPlan>, String> {
    let h = card_height_px(deck.size);
    let max_rows = (MAX_SHEET_PX / h.max(1)).min(MAX_GRID.1);
    if max_rows == 0 {
        return Err(format!(
            "deck `{}`: a card {CARD_PX} px wide is {h} px tall, more than a TTS sheet holds",
            deck.id
        ));
    }
    let per_sheet = (MAX_GRID.0 * max_rows) as usize;
    let indexes: Vec<usize> = (0..deck.cards.len()).collect();
    let chunks: Vec<&[usize]> = indexes.chunks(per_sheet).collect();
    Ok(chunks
        .iter()
        .enumerate()
        .map(|(n, chunk)| SheetPlan {
            cards: chunk.to_vec(),
            grid: grid_for(chunk.len(), max_rows),
            file: if chunks.len() == 1 {
                format!("{}.png", deck.id)
            } else {
                format!("{}-{}.png", deck.id, n + 1)
            },
        })
        .collect())
}

/// Where the saved object finds the images: hosted under a base URL or `file://` paths.
struct Links {
    base: String,
}

impl Links {
    fn new(dir: &Path, base_url: Option<&str>) -> Links {
        let base = match base_url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => {
                let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
                format!("file://{}", abs.to_string_lossy().replace('\\', "/"))
            }
        };
        Links { base }
    }

    fn url(&self, file: &str) -> String {
        format!("{}/{file}", self.base)
    }
}

/// The build stage: sheets, backs, tile and board images, and `tts/<slug>.json`.
pub fn stage(b: &GameBuild) -> Result<Vec<PathBuf>, String> {
    let decks: Vec<&DeckFaces> = b
        .faces
        .decks
        .iter()
        .filter(|d| !d.cards.is_empty())
        .collect();
    let boards = board_images(b)?;
    if decks.is_empty() && b.faces.pieces.is_empty() && boards.is_empty() {
        return Ok(Vec::new());
    }
    let links = Links::new(&b.dir.join("tts"), b.options.tts_base_url.as_deref());
    let mut files = Vec::new();
    let mut objects = Vec::new();
    let mut next_key = 1;
    for (i, deck) in decks.iter().enumerate() {
        let plans = plan_sheets(deck)?;
        files.extend(write_deck_images(b, deck, &plans)?);
        let keys: Vec<u32> = (next_key..).take(plans.len()).collect();
        next_key += plans.len() as u32;
        objects.push(deck_object(deck, &plans, &keys, &links, position(i, 0.0)));
    }
    for (i, piece) in b.faces.pieces.iter().enumerate() {
        let file = format!("piece-{}.png", piece.id);
        let bytes = b.png(&piece_document(piece), piece.size, TILE_PX_PER_MM)?;
        files.push(b.write(&format!("tts/{file}"), &bytes)?);
        let shape = b.game.piece(&piece.id).map_or(Shape::Other, |p| p.shape);
        objects.push(tile_bag(piece, shape, &links.url(&file), position(i, 6.0)));
    }
    for (i, board) in boards.iter().enumerate() {
        files.push(b.dir.join("tts").join(&board.file));
        objects.push(board_object(
            board,
            &links.url(&board.file),
            position(i, -12.0),
        ));
    }
    let save = json!({
        "SaveName": b.game.info.name,
        "GameMode": b.game.info.name,
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    });
    let text = serde_json::to_string_pretty(&save).map_err(|e| e.to_string())?;
    files.push(b.write(&format!("tts/{}.json", b.game.slug), text.as_bytes())?);
    Ok(files)
}

/// Pixels per millimetre of tile and board images (about 200 dpi).
const TILE_PX_PER_MM: f64 = 8.0;

/// Where the `i`-th object of a row lies on the table (TTS units, rows along z).
fn position(i: usize, z: f64) -> Value {
    transform(i as f64 * 4.0 - 8.0, 1.0, z, 1.0)
}

fn transform(x: f64, y: f64, z: f64, scale: f64) -> Value {
    json!({
        "posX": x, "posY": y, "posZ": z,
        "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
        "scaleX": scale, "scaleY": 1.0, "scaleZ": scale,
    })
}

/// Renders a deck's face sheets and its back image.
fn write_deck_images(
    b: &GameBuild,
    deck: &DeckFaces,
    plans: &[SheetPlan],
) -> Result<Vec<PathBuf>, String> {
    let px_per_mm = f64::from(CARD_PX) / deck.size.0;
    let mut files = Vec::new();
    for plan in plans {
        let faces: Vec<String> = plan
            .cards
            .iter()
            .map(|&i| sheets::single_face(&deck.cards[i].svg, deck.size))
            .collect();
        let sheet = b.grid_png(&faces, None, plan.grid, deck.size, px_per_mm)?;
        files.push(b.write(&format!("tts/{}", plan.file), &sheet)?);
    }
    let back = b.screen_png(
        &sheets::single_face(&deck.back, deck.size),
        deck.size,
        px_per_mm,
    )?;
    files.push(b.write(&format!("tts/{}-back.png", deck.id), &back)?);
    Ok(files)
}

/// A deck's TTS object: every copy of every card, each pointing at its sheet slot.
fn deck_object(
    deck: &DeckFaces,
    plans: &[SheetPlan],
    keys: &[u32],
    links: &Links,
    at: Value,
) -> Value {
    let back = links.url(&format!("{}-back.png", deck.id));
    let custom = |plan: &SheetPlan| {
        json!({
            "FaceURL": links.url(&plan.file),
            "BackURL": back,
            "NumWidth": plan.grid.0,
            "NumHeight": plan.grid.1,
            "BackIsHidden": true,
            "UniqueBack": false,
            "Type": 0,
        })
    };
    let mut custom_deck = serde_json::Map::new();
    let mut cards = Vec::new();
    let mut ids = Vec::new();
    for (plan, key) in plans.iter().zip(keys) {
        custom_deck.insert(key.to_string(), custom(plan));
        for (slot, &i) in plan.cards.iter().enumerate() {
            let card = &deck.cards[i];
            let card_id = key * 100 + slot as u32;
            for _ in 0..card.count {
                ids.push(card_id);
                cards.push(json!({
                    "Name": "Card",
                    "Transform": transform(0.0, 0.0, 0.0, 1.0),
                    "Nickname": card.name,
                    "Description": card.text.clone().unwrap_or_default(),
                    "CardID": card_id,
                    "CustomDeck": { key.to_string(): custom(plan) },
                }));
            }
        }
    }
    if cards.len() == 1 {
        // TTS decks hold two cards or more; a single card is saved as a card.
        let mut card = cards.remove(0);
        card["Transform"] = at;
        return card;
    }
    json!({
        "Name": "DeckCustom",
        "Transform": at,
        "Nickname": deck.name,
        "Description": "",
        "DeckIDs": ids,
        "CustomDeck": custom_deck,
        "ContainedObjects": cards,
    })
}

/// TTS's tile types: 0 box, 1 hex, 2 circle, 3 rounded.
fn tile_type(shape: Shape) -> u32 {
    match shape {
        Shape::Hex => 1,
        Shape::Circle | Shape::Pawn | Shape::Cube => 2,
        Shape::Square | Shape::Other => 0,
    }
}

/// A bag holding `count` custom tiles of a printed piece.
fn tile_bag(piece: &PieceFace, shape: Shape, url: &str, at: Value) -> Value {
    // A tile's size in TTS follows its scale: 1 is about 25 mm across.
    let scale = piece.size.0.max(piece.size.1) / 25.0;
    let tile = json!({
        "Name": "Custom_Tile",
        "Transform": transform(0.0, 0.0, 0.0, scale),
        "Nickname": piece.name,
        "Description": "",
        "CustomImage": {
            "ImageURL": url,
            "ImageSecondaryURL": url,
            "WidthScale": 0.0,
            "CustomTile": {
                "Type": tile_type(shape),
                "Thickness": 0.2,
                "Stackable": true,
                "Stretch": true,
            },
        },
    });
    json!({
        "Name": "Bag",
        "Transform": at,
        "Nickname": format!("{} ({})", piece.name, piece.count),
        "Description": "",
        "ContainedObjects": vec![tile; piece.count as usize],
    })
}

fn board_object(board: &BoardImage, url: &str, at: Value) -> Value {
    // A custom board is 20 units at scale 1 along its long side; 1 unit is about 25 mm.
    let scale = board.size.0.max(board.size.1) / 25.0 / 20.0;
    json!({
        "Name": "Custom_Board",
        "Transform": transform_up(at, scale),
        "Nickname": board.name,
        "Description": board.id,
        "CustomImage": { "ImageURL": url, "ImageSecondaryURL": "", "WidthScale": 0.0 },
    })
}

/// A board lies face up.
fn transform_up(mut at: Value, scale: f64) -> Value {
    at["rotY"] = json!(0.0);
    at["rotZ"] = json!(0.0);
    at["scaleX"] = json!(scale);
    at["scaleZ"] = json!(scale);
    at
}

/// A board's image for TTS.
struct BoardImage {
    id: String,
    name: String,
    file: String,
    size: (f64, f64),
}

/// Renders each board to `tts/board-<id>.png`.
fn board_images(b: &GameBuild) -> Result<Vec<BoardImage>, String> {
    if b.game.components.boards.is_empty() {
        return Ok(Vec::new());
    }
    let templates = Templates::new(b.game)?;
    b.game
        .components
        .boards
        .par_iter()
        .map(|board| {
            let (svg, size) = board::board_svg(b.game, board, &templates)?;
            let id = board.id.get_ref().clone();
            let file = format!("board-{id}.png");
            let bytes = b.png(&sheets::single_face(&svg, size), size, TILE_PX_PER_MM)?;
            b.write(&format!("tts/{file}"), &bytes)?;
            Ok(BoardImage {
                id,
                name: board.name.clone(),
                file,
                size,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(designs: usize, size: (f64, f64)) -> DeckFaces {
        DeckFaces {
            id: "d".into(),
            name: "D".into(),
            size,
            cards: (0..designs)
                .map(|i| super::super::faces::CardFace {
                    id: format!("c{i}"),
                    name: format!("Card {i}"),
                    text: None,
                    count: 1,
                    svg: String::new(),
                })
                .collect(),
            back: String::new(),
            back_template: String::new(),
        }
    }

    #[test]
    fn sheets_are_sized_to_their_designs() {
        assert_eq!(grid_for(1, 7), (1, 1));
        assert_eq!(grid_for(4, 7), (4, 1));
        assert_eq!(grid_for(12, 7), (6, 2));
        assert_eq!(grid_for(13, 7), (7, 2));
        assert_eq!(grid_for(70, 7), (10, 7));
    }

    #[test]
    fn sheets_stay_within_the_grid_and_the_pixel_limit() {
        for (designs, size) in [(150, (63.0, 88.0)), (80, (70.0, 120.0)), (3, (44.0, 63.0))] {
            let d = deck(designs, size);
            let plans = plan_sheets(&d).unwrap();
            let placed: Vec<usize> = plans.iter().flat_map(|p| p.cards.clone()).collect();
            assert_eq!(
                placed,
                (0..designs).collect::<Vec<_>>(),
                "every design once"
            );
            for p in &plans {
                assert!(p.grid.0 <= 10 && p.grid.1 <= 7);
                assert!(p.cards.len() <= (p.grid.0 * p.grid.1) as usize);
                assert!(p.grid.0 * CARD_PX <= MAX_SHEET_PX);
                assert!(p.grid.1 * card_height_px(size) <= MAX_SHEET_PX);
            }
        }
        assert_eq!(plan_sheets(&deck(150, (63.0, 88.0))).unwrap().len(), 3);
    }
}
