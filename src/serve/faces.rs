//! The build's own card faces at the table: every printed design and deck back drawn once per
//! game version (the faces the PDF prints), as standalone SVG documents with their text set
//! as outlines in the game's fonts and their art inside, so that a browser shows exactly what
//! will print. Each file is served at `/tables/ID/faces/HASH.svg`, named by a digest of its
//! content: the same face always has the same address at a table, cached for good.
//!
//! What a seat is shown follows its view only: a face address appears in a seat's view for
//! a card that view names (its hand, the cards on the table, the cards of its own legal
//! moves, as the engine's `cards_of` names them), and a hidden hand is shown by its deck's
//! back, an address that is the same for every card of that deck. The address of a face says
//! which design it is, never where that card lies, so fetching faces tells nothing a view
//! does not.

use std::collections::HashMap;
use std::sync::Arc;

use rustc_hash::FxHashMap;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::model::Game;
use crate::render::formats::pdf;
use crate::render::{BuildOptions, sheets};

/// A design with a face.
#[derive(Debug, Clone)]
struct Design {
    id: String,
    /// Its name in the language of its face (shown).
    name: String,
    /// Its name in the data's own words, as the engines' views name it (found by).
    key: String,
    /// The digest naming its face file.
    face: String,
    /// Its deck, by index.
    deck: usize,
}

/// A printed deck: its back and the designs in it.
#[derive(Debug, Clone)]
struct Deck {
    id: String,
    name: String,
    back: String,
    /// Its cards' trim size in millimetres.
    size: (f64, f64),
}

/// A printed piece: its name, the digest of its face and its size in millimetres.
#[derive(Debug, Clone)]
struct PieceDrawn {
    name: String,
    face: String,
    size: (f64, f64),
}

/// A board as the build draws it, once per game version: the digest of its drawing, its
/// size in millimetres and, for a hex board, each cell's name (`q,r`) and centre on it.
#[derive(Debug, Clone)]
struct BoardDrawn {
    face: String,
    size: (f64, f64),
    cells: Vec<(String, f64, f64)>,
    /// A hex's corner radius and whether its point is up.
    hex: Option<(f64, bool)>,
    /// A square grid's cell side (its cells are named `row,column`).
    square: Option<f64>,
}

/// One game version's faces, in one language: the cards and boards as the build prints them
/// in it (the pieces are printed once for every language). A game printing its cards in
/// several languages (`languages` in `game.toml`) has a `Faces` for each: this one, in its
/// first language, holds the others.
#[derive(Debug, Default)]
pub struct Faces {
    /// Each face file by its digest (of every language: the first language's `Faces` only).
    pub(crate) files: HashMap<String, Arc<[u8]>>,
    /// The language of its cards and boards; `None` for a game printing in one language.
    lang: Option<String>,
    /// The faces in each other language the game prints its cards in, in the order of its
    /// `languages`.
    others: Vec<Faces>,
    designs: Vec<Design>,
    by_id: FxHashMap<String, usize>,
    /// Each design's id, and each name that names one design only, to the design (an id
    /// before a name): one look-up for each string of a view's data.
    by_key: FxHashMap<String, usize>,
    /// Those names, longest first (found in prose before the shorter names inside them).
    names: Vec<(String, usize)>,
    decks: Vec<Deck>,
    /// Each printed piece by its id.
    pieces: FxHashMap<String, PieceDrawn>,
    /// Each board by its id.
    boards: FxHashMap<String, BoardDrawn>,
    /// The language of its cards' and decks' words (the game's first for a game printing in
    /// one), and of its pieces' (the data's own: a piece is printed once for every language).
    words: String,
    pieces_words: String,
    /// The names shown under its faces that have long words, with those words' hyphenation
    /// points ([`super::words`]): every view carries them all, as the rules reference's
    /// gallery names every card and piece; where a card is, only the view says.
    shown: Value,
}

/// Where a face file is served to a table's page: under the table's own address, so that a
/// reverse proxy routing by table id sends it to the server that drew it.
pub(crate) fn url(table: &str, digest: &str) -> String {
    format!("/tables/{table}/faces/{digest}.svg")
}

fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Faces {
    /// Draws every printed face of `game` (the build's own drawing) and writes each as a
    /// standalone document.
    pub(crate) fn draw(game: &Game) -> Result<Faces, String> {
        let drawn = crate::render::draw_faces(game, &BuildOptions::default())?;
        let mut files: HashMap<String, Arc<[u8]>> = HashMap::new();
        // A document kept as only its drawing, sized by a view box so that the page can show
        // it at any size; its name is its digest.
        let mut store = |doc: &str| -> Result<String, String> {
            let tree = pdf::parse_raster(doc, &drawn.fonts)?;
            let text = crate::render::svg_clean::write(&tree);
            let key = digest(text.as_bytes());
            files
                .entry(key.clone())
                .or_insert_with(|| Arc::from(text.into_bytes()));
            Ok(key)
        };
        let mut pieces = FxHashMap::default();
        for piece in &drawn.pieces {
            let face = store(&crate::render::piece_document(piece))?;
            pieces.insert(
                piece.id.clone(),
                PieceDrawn {
                    name: piece.name.clone(),
                    face,
                    size: piece.size,
                },
            );
        }
        let mut add = |svg: &str, size: (f64, f64)| store(&sheets::single_face(svg, size));
        // The data's own name of each card, by id: what the engines' views name it by.
        let keys: HashMap<&str, &str> = game
            .components
            .decks
            .iter()
            .flat_map(|d| d.cards.iter())
            .map(|c| (c.id.get_ref().as_str(), c.name.as_str()))
            .collect();
        let templates = crate::render::faces::template::Templates::new(game)?;
        // Each card file the build prints (one per language of a game printing in several),
        // with the boards as the build prints them in that language.
        let mut sets = Vec::new();
        for set in drawn.card_sets(game) {
            let mut faces = Faces {
                lang: set.lang.map(str::to_string),
                pieces: pieces.clone(),
                ..Faces::default()
            };
            for deck in set.decks.iter() {
                let back = add(&deck.back, deck.size)?;
                let mut designs = Vec::new();
                for card in &deck.cards {
                    let key = keys.get(card.id.as_str()).copied().unwrap_or(&card.name);
                    designs.push((
                        card.id.clone(),
                        card.name.clone(),
                        key.to_string(),
                        add(&card.svg, deck.size)?,
                    ));
                }
                faces.add_deck(&deck.id, &deck.name, back, deck.size, designs);
            }
            let lang = set
                .lang
                .unwrap_or_else(|| crate::render::sheets::boards::first_language(game));
            faces.words = lang.to_string();
            faces.pieces_words = crate::render::faces::languages::data_language(game).to_string();
            let names = (faces.designs.iter().map(|d| d.name.as_str()))
                .chain(faces.decks.iter().map(|d| d.name.as_str()))
                .map(|n| (n, lang))
                .chain(
                    faces
                        .pieces
                        .values()
                        .map(|p| (p.name.as_str(), faces.pieces_words.as_str())),
                );
            faces.shown = json!(super::words::shown(names));
            for board in &game.components.boards {
                let (svg, size) =
                    crate::render::sheets::boards::board_svg_in(game, board, &templates, lang)?;
                let face = add(&svg, size)?;
                faces
                    .boards
                    .insert(board.id.get_ref().clone(), drawn_board(board, face, size));
            }
            faces.index();
            sets.push(faces);
        }
        let mut first = sets.remove(0);
        first.others = sets;
        first.files = files;
        Ok(first)
    }

    /// The languages the faces are in, the first the default; empty for a game printing in
    /// one language.
    pub fn languages(&self) -> Vec<&str> {
        std::iter::once(self)
            .chain(&self.others)
            .filter_map(|f| f.lang.as_deref())
            .collect()
    }

    /// The faces in `lang`, else in the first language.
    pub fn in_language(&self, lang: Option<&str>) -> &Faces {
        lang.and_then(|l| self.others.iter().find(|f| f.lang.as_deref() == Some(l)))
            .unwrap_or(self)
    }

    /// Every design and deck of `game` with an address made from its id, without drawing
    /// anything: the faces a view is given, by design, as [`Faces::draw`] names them (tests
    /// compare which faces an observer is given without drawing a game).
    pub fn unpainted(game: &Game) -> Faces {
        let mut faces = Faces::default();
        for deck in &game.components.decks {
            let designs = deck
                .cards
                .iter()
                .map(|c| {
                    (
                        c.id.get_ref().clone(),
                        c.name.clone(),
                        c.name.clone(),
                        digest(c.id.get_ref().as_bytes()),
                    )
                })
                .collect();
            let id = deck.id.get_ref();
            faces.add_deck(
                id,
                &deck.name,
                digest(format!("back of {id}").as_bytes()),
                (63.0, 88.0),
                designs,
            );
        }
        for piece in &game.components.pieces {
            let id = piece.id.get_ref();
            faces.pieces.insert(
                id.clone(),
                PieceDrawn {
                    name: piece.name.clone(),
                    face: digest(format!("piece {id}").as_bytes()),
                    size: (20.0, 20.0),
                },
            );
        }
        for board in &game.components.boards {
            let id = board.id.get_ref();
            let face = digest(format!("board {id}").as_bytes());
            let size = board
                .hex()
                .map(|h| crate::render::sheets::boards::hex::hex_layout(h).size)
                .unwrap_or((100.0, 100.0));
            faces
                .boards
                .insert(id.clone(), drawn_board(board, face, size));
        }
        faces.index();
        faces
    }

    fn add_deck(
        &mut self,
        id: &str,
        name: &str,
        back: String,
        size: (f64, f64),
        designs: Vec<(String, String, String, String)>,
    ) {
        self.decks.push(Deck {
            id: id.to_string(),
            name: name.to_string(),
            back,
            size,
        });
        let deck = self.decks.len() - 1;
        for (id, name, key, face) in designs {
            self.by_id.insert(id.clone(), self.designs.len());
            self.designs.push(Design {
                id,
                name,
                key,
                face,
                deck,
            });
        }
    }

    /// The look-ups by name (the data's own, as the views name a card), once every deck is
    /// in.
    fn index(&mut self) {
        let mut count: HashMap<&str, usize> = HashMap::new();
        for d in &self.designs {
            *count.entry(d.key.as_str()).or_default() += 1;
        }
        let names: Vec<(String, usize)> = self
            .designs
            .iter()
            .enumerate()
            .filter(|(_, d)| count[d.key.as_str()] == 1 && !d.key.trim().is_empty())
            .map(|(i, d)| (d.key.clone(), i))
            .collect();
        self.by_key = names.iter().cloned().collect();
        self.by_key
            .extend(self.by_id.iter().map(|(k, &i)| (k.clone(), i)));
        self.names = names;
        self.names
            .sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
    }

    fn design(&self, key: &str) -> Option<usize> {
        self.by_key.get(key).copied()
    }

    fn card(&self, table: &str, i: usize, count: Option<u64>) -> Value {
        let d = &self.designs[i];
        json!({"id": d.id, "name": d.name, "face": url(table, &d.face), "count": count})
    }

    /// The designs a piece of a view's data names (a string that is a design's id or name),
    /// with the count beside it where the data gives one, in order of first mention.
    fn in_data(&self, v: &Value, out: &mut Vec<(usize, Option<u64>)>) {
        match v {
            Value::String(s) => {
                if let Some(i) = self.design(s) {
                    add_found(out, i, Some(1));
                }
            }
            Value::Array(items) => items.iter().for_each(|x| self.in_data(x, out)),
            Value::Object(map) => {
                let count = map.get("count").and_then(Value::as_u64);
                for (key, x) in map {
                    match x {
                        Value::String(s) if key != "count" => {
                            if let Some(i) = self.design(s) {
                                add_found(out, i, Some(count.unwrap_or(1)));
                            }
                        }
                        _ => self.in_data(x, out),
                    }
                }
            }
            _ => {}
        }
    }

    /// The designs a view's words name (a design's name as a whole word), without counts.
    fn in_text(&self, text: &str, out: &mut Vec<(usize, Option<u64>)>) {
        let mut taken = vec![false; text.len()];
        let mut hits: Vec<(usize, usize)> = Vec::new();
        for (name, i) in &self.names {
            for (at, _) in text.match_indices(name.as_str()) {
                let end = at + name.len();
                let free = !taken[at..end].iter().any(|&t| t);
                let before = text[..at].chars().next_back();
                let after = text[end..].chars().next();
                let word = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
                if free && word(before) && word(after) {
                    taken[at..end].iter_mut().for_each(|t| *t = true);
                    hits.push((at, *i));
                }
            }
        }
        hits.sort();
        for (_, i) in hits {
            if !out.iter().any(|(j, _)| *j == i) {
                out.push((i, None));
            }
        }
    }

    /// The cards of what `data` (else `text`) shows.
    fn found(&self, table: &str, data: &Value, text: &str) -> Vec<Value> {
        let mut out = Vec::new();
        if data.is_null() {
            self.in_text(text, &mut out);
        } else {
            self.in_data(data, &mut out);
        }
        out.into_iter()
            .map(|(i, n)| self.card(table, i, n))
            .collect()
    }

    /// The deck a seat's hidden cards are shown with: the deck named after the seat (The
    /// Search's police and criminal decks), else the first deck.
    fn deck_of(&self, seat: &str) -> Option<&Deck> {
        let seat = seat.to_lowercase();
        self.decks
            .iter()
            .find(|d| d.id.to_lowercase() == seat || d.name.to_lowercase().contains(&seat))
            .or_else(|| self.decks.first())
    }

    /// The backs a seat's hidden hand shows, where the public data says (an entry of `seats`
    /// with the seat's `name` and `backs`: `[{"deck", "count"}]`): each deck's printed back
    /// (`None` for a deck the build does not print), its name (from `piles`) and the count.
    fn backs_of(&self, public: &Value, seat: &str) -> Option<Vec<(Option<&Deck>, String, u64)>> {
        let entry = public["seats"]
            .as_array()?
            .iter()
            .find(|e| e["name"].as_str() == Some(seat))?;
        let backs = entry["backs"].as_array()?;
        Some(
            backs
                .iter()
                .filter_map(|b| {
                    let id = b["deck"].as_str()?;
                    let deck = self.decks.iter().find(|d| d.id == id);
                    let name = public["piles"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .find(|p| p["deck"].as_str() == Some(id))
                        .and_then(|p| p["name"].as_str())
                        .unwrap_or(id)
                        .to_string();
                    Some((deck, name, b["count"].as_u64()?))
                })
                .collect(),
        )
    }

    /// Adds the faces to a seat's view: `cards` (the cards on the table, in each hand the
    /// observer sees, and a back for each hand it does not) and, on each legal move whose
    /// `cards` the engine named, those cards as faces. Only what the view itself names is
    /// given a face.
    pub fn annotate(&self, view: &mut Value, seat_names: &[String], id: &str) {
        let inner = &view["view"];
        let table = self.found(
            id,
            &inner["public_data"],
            inner["public"].as_str().unwrap_or(""),
        );
        let mut seen_seats = Vec::new();
        let hands: Vec<Value> = inner["hands"]
            .as_array()
            .map(|hands| {
                hands
                    .iter()
                    .map(|h| {
                        seen_seats.push(h["seat"].as_u64().unwrap_or(u64::MAX) as usize);
                        super::live::object([
                            ("seat", h["name"].clone()),
                            (
                                "cards",
                                self.found(id, &h["data"], h["text"].as_str().unwrap_or(""))
                                    .into(),
                            ),
                        ])
                    })
                    .collect()
            })
            .unwrap_or_default();
        let hidden: Vec<Value> = seat_names
            .iter()
            .enumerate()
            .filter(|(s, _)| !seen_seats.contains(s))
            .flat_map(
                |(s, name)| match self.backs_of(&inner["public_data"], name) {
                    // The view says which deck each hidden card comes from: its own back.
                    // A deck the build does not print has no back to show: its name only.
                    Some(backs) => backs
                        .into_iter()
                        .map(|(deck, name_of, count)| {
                            json!({
                                "seat": name,
                                "deck": deck.map_or(name_of, |d| d.name.clone()),
                                "back": deck.map(|d| url(id, &d.back)),
                                "count": count,
                            })
                        })
                        .collect::<Vec<_>>(),
                    None => self
                        .deck_of(name)
                        .map(|deck| {
                            json!({
                                "seat": name,
                                "deck": deck.name,
                                "back": url(id, &deck.back),
                                "count": hand_size(&inner["public_data"], s, name),
                            })
                        })
                        .into_iter()
                        .collect(),
                },
            )
            .collect();
        if let Some(legal) = view["legal"].as_array_mut() {
            for m in legal {
                let ids: Vec<String> = m["cards"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                let cards: Vec<Value> = ids
                    .iter()
                    .filter_map(|d| self.by_id.get(d).map(|&i| self.card(id, i, None)))
                    .collect();
                m["cards"] = Value::Array(cards);
            }
        }
        // The board: drawn once per version (its address, size and cells do not change as
        // the game goes, so a live connection sends them once), and what lies on it now.
        let board = view["view"]["board"].take();
        if board.is_object() {
            let (drawn, on) = self.board_json(id, &board);
            view["board"] = drawn;
            view["on_board"] = on;
        }
        if view["view"]["public_data"]["free"] == Value::Bool(true) {
            view["free"] = self.free_json(id, &view["view"]["public_data"]);
        }
        let zones = self.zones(&view["view"]["public_data"], &table);
        let hand_pieces: Vec<Value> = view["view"]["hands"]
            .as_array()
            .map(|hands| {
                hands
                    .iter()
                    .map(|h| self.pieces_json(id, &h["pieces"]))
                    .collect()
            })
            .unwrap_or_default();
        let mut hands = hands;
        for (h, p) in hands.iter_mut().zip(hand_pieces) {
            h["pieces"] = p;
        }
        // Every deck's back is public (a pile, a face-down card): by deck id.
        let backs: serde_json::Map<String, Value> = self
            .decks
            .iter()
            .map(|d| (d.id.clone(), json!(url(id, &d.back))))
            .collect();
        // And each deck's name in the faces' language.
        let decks: serde_json::Map<String, Value> = self
            .decks
            .iter()
            .map(|d| (d.id.clone(), json!(d.name)))
            .collect();
        view["cards"] = super::live::object([
            ("lang", self.words.clone().into()),
            ("pieces_lang", self.pieces_words.clone().into()),
            ("shown", self.shown.clone()),
            ("table", table.into()),
            ("zones", zones),
            ("hands", hands.into()),
            ("hidden", hidden.into()),
            ("backs", Value::Object(backs)),
            ("decks", Value::Object(decks)),
        ]);
    }
}

impl Faces {
    /// A piece's face, name and size (in millimetres) by its id; a piece the build does
    /// not print is shown by its id alone.
    fn piece(&self, table: &str, piece: &str) -> Value {
        match self.pieces.get(piece) {
            Some(p) => json!({"piece": piece, "name": p.name, "face": url(table, &p.face),
                              "size": [round(p.size.0), round(p.size.1)]}),
            None => json!({"piece": piece, "name": piece, "face": null, "size": null}),
        }
    }

    /// Pieces of a view's data (`[{"piece", "at", "count"}]`) with their faces.
    fn pieces_json(&self, table: &str, pieces: &Value) -> Value {
        pieces
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                let mut v = self.piece(table, p["piece"].as_str().unwrap_or(""));
                v["at"] = p["at"].clone();
                v["count"] = p["count"].clone();
                v
            })
            .collect()
    }

    /// A view's board (`{"board", "columns", "rows", "cells", "pieces"}`) as the page draws
    /// it: the build's drawing of the data's board with each cell's centre on it, or a grid
    /// of card faces; and, apart, the pieces on its cells now.
    fn board_json(&self, table: &str, board: &Value) -> (Value, Value) {
        let on = self.pieces_json(table, &board["pieces"]);
        if let Some(drawn) = board["board"].as_str().and_then(|b| self.boards.get(b)) {
            return (self.drawn_json(table, drawn), on);
        }
        let mut size = (63.0, 88.0);
        let cells: Vec<Value> = board["cells"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                let card = c[1].as_str().and_then(|d| self.by_id.get(d)).map(|&i| {
                    size = self.decks[self.designs[i].deck].size;
                    self.card(table, i, None)
                });
                json!({"name": c[0], "card": card})
            })
            .collect();
        let drawn = json!({
            "columns": board["columns"],
            "rows": board["rows"],
            "card_size": [round(size.0), round(size.1)],
            "cells": cells,
        });
        (drawn, on)
    }

    /// A board as the build draws it: the address of its drawing, its size and its cells'
    /// centres (millimetres), a hex's radius or a square's side.
    fn drawn_json(&self, table: &str, drawn: &BoardDrawn) -> Value {
        let cells: Vec<Value> = drawn
            .cells
            .iter()
            .map(|(name, x, y)| json!([name, round(*x), round(*y)]))
            .collect();
        let hex = drawn
            .hex
            .map(|(r, pointy)| json!({"r": round(r), "pointy": pointy}));
        json!({
            "image": url(table, &drawn.face),
            "size": [round(drawn.size.0), round(drawn.size.1)],
            "cells": cells,
            "hex": hex,
            "square": drawn.square.map(round),
        })
    }

    /// The free table's drawings (its public data says `free`): each board on it as the
    /// build draws it and each piece's face, by id. They do not change as the table goes, so
    /// a live connection sends them once; the pieces' places stay in the view's data.
    fn free_json(&self, table: &str, public: &Value) -> Value {
        let mut boards = serde_json::Map::new();
        for b in public["boards"].as_array().into_iter().flatten() {
            if let Some((id, drawn)) = b["board"]
                .as_str()
                .and_then(|id| self.boards.get(id).map(|d| (id, d)))
            {
                boards.insert(id.to_string(), self.drawn_json(table, drawn));
            }
        }
        let mut ids: Vec<&String> = self.pieces.keys().collect();
        ids.sort();
        let pieces: serde_json::Map<String, Value> = ids
            .into_iter()
            .map(|id| (id.clone(), self.piece(table, id)))
            .collect();
        json!({"boards": boards, "pieces": pieces})
    }

    /// The zones of the table as the view's public data names them (each top-level key:
    /// `auction_house` is the zone `auction house`), each with the cards found in it: their
    /// places in `table` and how many.
    fn zones(&self, public: &Value, table: &[Value]) -> Value {
        let Some(map) = public.as_object() else {
            return Value::Array(Vec::new());
        };
        let mut zones = Vec::new();
        for (key, v) in map {
            let mut out = Vec::new();
            self.in_data(v, &mut out);
            if out.is_empty() {
                continue;
            }
            let cards: Vec<Value> = out
                .into_iter()
                .filter_map(|(i, n)| {
                    let id = &self.designs[i].id;
                    let at = table.iter().position(|c| c["id"].as_str() == Some(id))?;
                    Some(json!([at, n]))
                })
                .collect();
            zones.push(json!({"name": key.replace('_', " "), "cards": cards}));
        }
        Value::Array(zones)
    }
}

/// A board's drawing and, for a hex board, its cells' names and centres on it.
fn drawn_board(board: &crate::model::Board, face: String, size: (f64, f64)) -> BoardDrawn {
    let (cells, hex) = match board.hex() {
        Some(h) => {
            let layout = crate::render::sheets::boards::hex::hex_layout(h);
            let (dx, dy) = layout.shift;
            let cells = h
                .cells
                .iter()
                .zip(&layout.centres)
                .map(|(c, (x, y))| (format!("{},{}", c.q, c.r), x + dx, y + dy))
                .collect();
            let pointy = h.orientation == crate::model::HexOrientation::Pointy;
            (cells, Some((h.hex_mm / 3f64.sqrt(), pointy)))
        }
        None => (Vec::new(), None),
    };
    // A square grid's cells, where the build draws them (`render::sheets::boards`).
    let (cells, square) = match &board.kind {
        crate::model::BoardKind::Square(g) => {
            let frame = crate::render::sheets::boards::hex::FRAME;
            let centre = |i: u32| frame + (f64::from(i) - 0.5) * g.mm;
            let cells = (1..=g.rows)
                .flat_map(|row| (1..=g.columns).map(move |column| (row, column)))
                .map(|(row, column)| (format!("{row},{column}"), centre(column), centre(row)))
                .collect();
            (cells, Some(g.mm))
        }
        _ => (cells, None),
    };
    BoardDrawn {
        face,
        size,
        cells,
        hex,
        square,
    }
}

/// Millimetres to a hundredth, so that the page's numbers stay short.
fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn add_found(out: &mut Vec<(usize, Option<u64>)>, i: usize, n: Option<u64>) {
    match out.iter_mut().find(|(j, _)| *j == i) {
        Some((_, c)) => *c = Some(c.unwrap_or(0) + n.unwrap_or(0)),
        None => out.push((i, n)),
    }
}

/// The size of seat `s`'s hand where the public data tells it: an entry with `hand_size`
/// that names the seat (by name, or as player `s + 1`).
fn hand_size(public: &Value, s: usize, name: &str) -> Option<u64> {
    let mut found = None;
    fn visit(v: &Value, s: usize, name: &str, found: &mut Option<u64>) {
        match v {
            Value::Object(map) => {
                if let Some(n) = map.get("hand_size").and_then(Value::as_u64) {
                    let names_it = map.values().any(|x| x.as_str() == Some(name))
                        || map.get("player").and_then(Value::as_u64) == Some(s as u64 + 1);
                    if names_it {
                        *found = Some(n);
                    }
                }
                map.values().for_each(|x| visit(x, s, name, found));
            }
            Value::Array(items) => items.iter().for_each(|x| visit(x, s, name, found)),
            _ => {}
        }
    }
    visit(public, s, name, &mut found);
    found
}
