//! Tabletop Simulator export: `<out>/<slug>/tts/<slug>.json`, a saved object that TTS
//! imports (Objects -> Saved Objects), with the images it points at beside it.
//!
//! Every deck becomes one `DeckCustom` (in each language of a game that prints its cards in
//! several, named with the language, its images under `tts/<lang>/`, as its boards are one
//! per language) whose `DeckIDs` list every copy (a card printed 20
//! times is 20 cards in the deck), drawn from face sheets of at most 10 x 7 designs and a
//! separate back image; each card carries its name as `Nickname` and its text as
//! `Description`. Printed pieces become stacks of custom tiles (a bag holding `count` of
//! them) and boards custom boards. Images are linked as `file://` paths by default or
//! under `--tts-base-url` for hosted copies.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::{Value, json};

use crate::model::{FieldType, Game, Shape};
use crate::render::faces::template::Templates;
use crate::render::faces::{DeckFaces, PieceFace};
use crate::render::sheets::boards;
use crate::render::{GameBuild, piece_document, sheets};

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
                format!("{}{}.png", lang_folder(deck), deck.id)
            } else {
                format!("{}{}-{}.png", lang_folder(deck), deck.id, n + 1)
            },
        })
        .collect())
}

/// The folder of a deck drawn once per language (`<lang>/`), else none: its images are
/// `tts/<lang>/<deck>.png` and `tts/<lang>/<deck>-back.png`.
fn lang_folder(deck: &DeckFaces) -> String {
    deck.lang
        .as_ref()
        .map_or(String::new(), |l| format!("{l}/"))
}

/// A deck's back image, under its language's folder.
fn back_file(deck: &DeckFaces) -> String {
    format!("{}{}-back.png", lang_folder(deck), deck.id)
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
    // Every deck in every language the game prints its cards in, as the boards are.
    let decks: Vec<&DeckFaces> = b
        .faces
        .decks
        .iter()
        .chain(b.faces.translations.iter().flat_map(|t| &t.decks))
        .filter(|d| !d.cards.is_empty())
        .collect();
    let boards = board_images(b)?;
    if decks.is_empty() && b.faces.pieces.is_empty() && boards.is_empty() {
        return Ok(Vec::new());
    }
    let links = Links::new(&b.dir.join("tts"), b.options.tts_base_url.as_deref());
    let mut files = Vec::new();
    // Each object with the room it takes on the table; laid out at the end.
    let mut placed: Vec<(Value, (f64, f64))> = Vec::new();
    for board in &boards {
        files.push(b.dir.join("tts").join(&board.file));
        placed.push(board_object(board, &links.url(&board.file)));
    }
    let mut next_key = 1;
    for deck in &decks {
        let plans = plan_sheets(deck)?;
        files.extend(write_deck_images(b, deck, &plans)?);
        let keys: Vec<u32> = (next_key..).take(plans.len()).collect();
        next_key += plans.len() as u32;
        let texts: Vec<String> = deck
            .cards
            .iter()
            .map(|c| card_text(b.game, &deck.id, &c.id, c.text.as_deref()))
            .collect();
        placed.push(deck_object(deck, &texts, &plans, &keys, &links));
    }
    let mut tiles = Vec::new();
    for piece in &b.faces.pieces {
        let file = format!("piece-{}.png", piece.id);
        let bytes = b.png(&piece_document(piece), piece.size, TILE_PX_PER_MM)?;
        files.push(b.write(&format!("tts/{file}"), &bytes)?);
        let shape = b.game.piece(&piece.id).map_or(Shape::Other, |p| p.shape);
        let mut tile = tile_object(piece, shape, &links.url(&file));
        if let Some(back) = write_piece_back(b, piece)? {
            tile["CustomImage"]["ImageSecondaryURL"] = json!(links.url(&back));
            files.push(b.dir.join("tts").join(back));
        }
        tiles.push((piece, tile));
    }
    placed.extend(piece_objects(tiles));
    let objects = lay_out(placed);
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

/// Millimetres in one TTS unit (an inch).
const MM_PER_UNIT: f64 = 25.4;

/// Half the width (x) and depth (z) of the table area every object is laid in: TTS's
/// default tables are larger, so nothing lands off the table or on its edge.
pub const TABLE_HALF: (f64, f64) = (20.0, 15.0);

/// Room between two objects on the table, in units.
const GAP: f64 = 0.8;

/// Room (width, depth in units) a deck takes on the table: a card at scale 1 is about
/// 2.2 x 3.1 units.
const DECK_ROOM: (f64, f64) = (2.5, 3.5);

/// Room a bag takes on the table.
const BAG_ROOM: (f64, f64) = (2.5, 2.5);

/// Lays the objects out on the table in rows from its far side (positive z) to the near
/// side, left to right, each row as deep as its deepest object, and returns them with
/// their positions set. Boards come first, so they lie at the back.
fn lay_out(placed: Vec<(Value, (f64, f64))>) -> Vec<Value> {
    let width = 2.0 * TABLE_HALF.0;
    let mut rows: Vec<Vec<(Value, (f64, f64))>> = vec![Vec::new()];
    let mut used = 0.0;
    for (object, room) in placed {
        let row = rows.last_mut().expect("one row at least");
        if !row.is_empty() && used + room.0 > width {
            rows.push(Vec::new());
            used = 0.0;
        }
        used += room.0 + GAP;
        rows.last_mut()
            .expect("one row at least")
            .push((object, room));
    }
    let mut z = TABLE_HALF.1;
    let mut out = Vec::new();
    for row in rows {
        let depth = row.iter().map(|(_, r)| r.1).fold(0.0, f64::max);
        let total: f64 = row.iter().map(|(_, r)| r.0 + GAP).sum::<f64>() - GAP;
        let mut x = -total / 2.0;
        for (mut object, room) in row {
            let t = &mut object["Transform"];
            t["posX"] = json!(round(x + room.0 / 2.0));
            t["posZ"] = json!(round(z - depth / 2.0));
            x += room.0 + GAP;
            out.push(object);
        }
        z -= depth + GAP;
    }
    out
}

/// A position to the hundredth of a unit, so the JSON stays short and stable.
fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Where an object lies before it is laid out: at the centre, `y` above the table, turned
/// `rot_y` about the vertical and `rot_z` about its length (180: face down).
fn transform(rot_y: f64, rot_z: f64, scale: f64) -> Value {
    json!({
        "posX": 0.0, "posY": 1.0, "posZ": 0.0,
        "rotX": 0.0, "rotY": rot_y, "rotZ": rot_z,
        "scaleX": scale, "scaleY": 1.0, "scaleZ": scale,
    })
}

/// What every object of a real save carries besides its kind's own fields (compared with
/// saved objects in `tests/tts.rs`): grid, snap and tooltip as TTS sets them, not held in
/// a hand (`Hands`) and its face shown when it lies face down (`HideWhenFaceDown`), which
/// cards and decks change. No `GUID`: TTS gives every object it spawns a
/// fresh one, so a saved object spawned twice never holds two objects with one GUID.
fn object(name: &str, nickname: &str, description: &str, at: Value) -> Value {
    json!({
        "Name": name,
        "Transform": at,
        "Nickname": nickname,
        "Description": description,
        "GMNotes": "",
        "AltLookAngle": { "x": 0.0, "y": 0.0, "z": 0.0 },
        "ColorDiffuse": { "r": 0.713235259, "g": 0.713235259, "b": 0.713235259 },
        "LayoutGroupSortIndex": 0,
        "Value": 0,
        "Locked": false,
        "Grid": true,
        "Snap": true,
        "IgnoreFoW": false,
        "MeasureMovement": false,
        "DragSelectable": true,
        "Autoraise": true,
        "Sticky": true,
        "Tooltip": true,
        "GridProjection": false,
        "HideWhenFaceDown": false,
        "Hands": false,
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
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
    files.push(b.write(&format!("tts/{}", back_file(deck)), &back)?);
    if deck.backs_differ() {
        // Cards with backs of their own: each face sheet gets a back sheet, slot for slot.
        for plan in plans {
            let backs: Vec<String> = plan
                .cards
                .iter()
                .map(|&i| sheets::single_face(deck.cards[i].back_or(&deck.back), deck.size))
                .collect();
            let sheet = b.grid_png(&backs, None, plan.grid, deck.size, px_per_mm)?;
            files.push(b.write(&format!("tts/{}", back_sheet_file(plan)), &sheet)?);
        }
    }
    Ok(files)
}

/// The back sheet of a face sheet, for decks whose cards' backs differ.
fn back_sheet_file(plan: &SheetPlan) -> String {
    format!("{}-backs.png", plan.file.trim_end_matches(".png"))
}

/// A two-sided piece's back as `tts/piece-<id>-back.png`; `None` for a one-sided piece.
fn write_piece_back(b: &GameBuild, piece: &PieceFace) -> Result<Option<String>, String> {
    let Some(back) = &piece.back else {
        return Ok(None);
    };
    let file = format!("piece-{}-back.png", piece.id);
    let turned = PieceFace {
        svg: back.clone(),
        ..piece.clone()
    };
    let bytes = b.png(&piece_document(&turned), piece.size, TILE_PX_PER_MM)?;
    b.write(&format!("tts/{file}"), &bytes)?;
    Ok(Some(file))
}

/// A card's text as a player reads it on the card: its text, then each of its deck's
/// fields as "label: value" (a symbol by its name), in the order of the fields' names.
pub fn card_text(game: &Game, deck_id: &str, card_id: &str, text: Option<&str>) -> String {
    let mut lines: Vec<String> = text.map(|t| t.trim().to_string()).into_iter().collect();
    let deck = game.deck(deck_id);
    let card = deck.and_then(|d| d.cards.iter().find(|c| c.id.get_ref() == card_id));
    if let (Some(deck), Some(card)) = (deck, card) {
        for (key, decl) in &deck.fields {
            let Some(value) = card.fields.get(key).map(|v| v.get_ref()) else {
                continue;
            };
            let shown = match (decl.kind, value) {
                (FieldType::Image, _) => continue,
                (FieldType::Symbol, toml::Value::String(id)) => symbol_name(game, id),
                (FieldType::Symbols, toml::Value::Array(ids)) => ids
                    .iter()
                    .map(|v| {
                        v.as_str()
                            .map_or_else(|| v.to_string(), |id| symbol_name(game, id))
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                (_, toml::Value::String(s)) => s.clone(),
                (_, toml::Value::Boolean(b)) => if *b { "yes" } else { "no" }.to_string(),
                (_, toml::Value::Array(items)) => items
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                (_, other) => other.to_string(),
            };
            // A label's explanation after a colon is for the designer, not the player.
            let label = decl.label.split(':').next().unwrap_or(&decl.label).trim();
            lines.push(format!("{label}: {shown}"));
        }
    }
    lines.join("\n")
}

fn symbol_name(game: &Game, id: &str) -> String {
    game.symbol(id)
        .map_or_else(|| id.to_string(), |s| s.name.clone())
}

/// A deck's TTS object, lying face down as a draw pile does: every copy of every card,
/// each pointing at its sheet slot, with `texts[i]` the text of the deck's `i`-th design.
/// A deck of one card is that card, face up.
fn deck_object(
    deck: &DeckFaces,
    texts: &[String],
    plans: &[SheetPlan],
    keys: &[u32],
    links: &Links,
) -> (Value, (f64, f64)) {
    let unique = deck.backs_differ();
    let back = |plan: &SheetPlan| {
        if unique {
            links.url(&back_sheet_file(plan))
        } else {
            links.url(&back_file(deck))
        }
    };
    let custom = |plan: &SheetPlan| {
        json!({
            "FaceURL": links.url(&plan.file),
            "BackURL": back(plan),
            "NumWidth": plan.grid.0,
            "NumHeight": plan.grid.1,
            "BackIsHidden": true,
            "UniqueBack": unique,
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
                cards.push(card_object(
                    &card.name,
                    &texts[i],
                    card_id,
                    json!({ key.to_string(): custom(plan) }),
                    transform(180.0, 180.0, 1.0),
                ));
            }
        }
    }
    if cards.len() == 1 {
        // TTS decks hold two cards or more; a single card is saved as a card, face up.
        let mut card = cards.remove(0);
        card["Transform"] = transform(180.0, 0.0, 1.0);
        return (card, DECK_ROOM);
    }
    let name = match &deck.lang {
        Some(l) => format!("{} ({l})", deck.name),
        None => deck.name.clone(),
    };
    let mut object = object("DeckCustom", &name, "", transform(180.0, 180.0, 1.0));
    object["HideWhenFaceDown"] = json!(true);
    object["SidewaysCard"] = json!(false);
    object["DeckIDs"] = json!(ids);
    object["CustomDeck"] = Value::Object(custom_deck);
    object["ContainedObjects"] = json!(cards);
    (object, DECK_ROOM)
}

/// One card: held in a hand, its face hidden when it lies face down.
fn card_object(name: &str, text: &str, card_id: u32, custom_deck: Value, at: Value) -> Value {
    let mut card = object("Card", name, text, at);
    card["Hands"] = json!(true);
    card["HideWhenFaceDown"] = json!(true);
    card["CardID"] = json!(card_id);
    card["SidewaysCard"] = json!(false);
    card["CustomDeck"] = custom_deck;
    card
}

/// TTS's tile types: 0 box, 1 hex, 2 circle, 3 rounded.
fn tile_type(shape: Shape) -> u32 {
    match shape {
        Shape::Hex => 1,
        Shape::Circle | Shape::Pawn | Shape::Cube => 2,
        Shape::Square | Shape::Other => 0,
    }
}

/// A tile's scale: its size in TTS follows its scale, 1 being about 25 mm across.
fn tile_scale(piece: &PieceFace) -> f64 {
    piece.size.0.max(piece.size.1) / 25.0
}

/// One custom tile of a printed piece, face up.
fn tile_object(piece: &PieceFace, shape: Shape, url: &str) -> Value {
    let mut tile = object(
        "Custom_Tile",
        &piece.name,
        "",
        transform(180.0, 0.0, tile_scale(piece)),
    );
    tile["CustomImage"] = json!({
        "ImageURL": url,
        "ImageSecondaryURL": url,
        "ImageScalar": 1.0,
        "WidthScale": 0.0,
        "CustomTile": {
            "Type": tile_type(shape),
            "Thickness": 0.2,
            "Stackable": true,
            "Stretch": true,
        },
    });
    tile
}

/// A bag holding `tiles`, standing upright.
fn bag_object(nickname: &str, tiles: Vec<Value>) -> Value {
    let mut bag = object("Bag", nickname, "", transform(0.0, 0.0, 1.0));
    bag["MaterialIndex"] = json!(-1);
    bag["MeshIndex"] = json!(-1);
    bag["Bag"] = json!({ "Order": 0 });
    bag["ContainedObjects"] = json!(tiles);
    bag
}

/// The pieces as the table gets them: the copies of a piece in a bag of their own; pieces
/// printed once each and sharing a kind (Aether's 14 aether tiles) in one bag for the
/// kind; a piece printed once and alone of its kind loose on the table, face up.
fn piece_objects(tiles: Vec<(&PieceFace, Value)>) -> Vec<(Value, (f64, f64))> {
    let singles = |kind: &str| {
        tiles
            .iter()
            .filter(|(p, _)| p.count == 1 && p.kind == kind)
            .count()
    };
    let mut out = Vec::new();
    let mut kinds_done: Vec<&str> = Vec::new();
    for (piece, tile) in &tiles {
        if piece.count > 1 {
            let copies = vec![tile.clone(); piece.count as usize];
            let name = format!("{} ({})", piece.name, piece.count);
            out.push((bag_object(&name, copies), BAG_ROOM));
        } else if singles(&piece.kind) > 1 {
            if kinds_done.contains(&piece.kind.as_str()) {
                continue;
            }
            kinds_done.push(&piece.kind);
            let of_kind: Vec<(&PieceFace, Value)> = tiles
                .iter()
                .filter(|(p, _)| p.count == 1 && p.kind == piece.kind)
                .map(|(p, t)| (*p, t.clone()))
                .collect();
            let names: Vec<&str> = of_kind.iter().map(|(p, _)| p.name.as_str()).collect();
            let name = format!("{} ({})", common_words(&names), of_kind.len());
            out.push((
                bag_object(&name, of_kind.into_iter().map(|(_, t)| t).collect()),
                BAG_ROOM,
            ));
        } else {
            let side = (piece.size.0.max(piece.size.1) / MM_PER_UNIT).max(1.0);
            out.push((tile.clone(), (side, side)));
        }
    }
    out
}

/// The words all `names` begin with ("Aether tile" of "Aether tile 1" ... "Aether tile 14"),
/// or the first name when they share none.
fn common_words(names: &[&str]) -> String {
    let first: Vec<&str> = names.first().map_or(Vec::new(), |n| n.split(' ').collect());
    let shared = (0..first.len())
        .take_while(|&i| names.iter().all(|n| n.split(' ').nth(i) == Some(first[i])))
        .count();
    if shared == 0 {
        names.first().copied().unwrap_or_default().to_string()
    } else {
        first[..shared].join(" ")
    }
}

/// A board, face up; one per language the game prints its boards in.
fn board_object(board: &BoardImage, url: &str) -> (Value, (f64, f64)) {
    // A custom board is 20 units at scale 1 along its long side.
    let long = board.size.0.max(board.size.1) / MM_PER_UNIT;
    let scale = long / 20.0;
    let mut object = object(
        "Custom_Board",
        &board.name,
        &board.description,
        transform(0.0, 0.0, scale),
    );
    object["CustomImage"] = json!({
        "ImageURL": url,
        "ImageSecondaryURL": "",
        "ImageScalar": 1.0,
        "WidthScale": 0.0,
    });
    let room = (board.size.0 / MM_PER_UNIT, board.size.1 / MM_PER_UNIT);
    (object, room)
}

/// A board's image for TTS in one language.
struct BoardImage {
    name: String,
    description: String,
    file: String,
    size: (f64, f64),
}

/// Renders each board to `tts/board-<id>.png`, or for a game printed in several languages
/// to `tts/board-<id>.<lang>.png` per language, as the board PDFs are.
fn board_images(b: &GameBuild) -> Result<Vec<BoardImage>, String> {
    if b.game.components.boards.is_empty() {
        return Ok(Vec::new());
    }
    let templates = Templates::new(b.game)?;
    // The boards in their languages as the one list of faces has them.
    let jobs = crate::render::faces::drawn::board_jobs(b.game);
    jobs.par_iter()
        .map(|job| {
            let (board, lang, in_lang) = (job.board, job.suffix, job.lang);
            let (svg, size) = boards::board_svg_in(b.game, board, &templates, in_lang)?;
            let id = board.id.get_ref();
            let file = match lang {
                Some(l) => format!("board-{id}.{l}.png"),
                None => format!("board-{id}.png"),
            };
            let bytes = b
                .png(&sheets::single_face(&svg, size), size, TILE_PX_PER_MM)
                .map_err(|e| format!("board `{id}`: {e}"))?;
            b.write(&format!("tts/{file}"), &bytes)?;
            let title = board.names.get(in_lang).unwrap_or(&board.name);
            Ok(BoardImage {
                name: match lang {
                    Some(l) => format!("{title} ({l})"),
                    None => title.clone(),
                },
                description: id.clone(),
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
                .map(|i| crate::render::faces::CardFace {
                    id: format!("c{i}"),
                    name: format!("Card {i}"),
                    text: None,
                    count: 1,
                    template: String::new(),
                    svg: String::new(),
                    back: None,
                })
                .collect(),
            back: String::new(),
            back_template: String::new(),
            lang: None,
            tuck_box: None,
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
