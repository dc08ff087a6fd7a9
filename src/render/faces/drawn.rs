//! The one list of every face a build draws: card fronts, a card's own back, deck backs
//! (each in every language the game prints its cards in),
//! piece fronts and backs, the gallery thumbnails, boards of every grid in every language
//! they print in, and the game's own icons. `check` reads each face of this list as the
//! build reads it, so that what it passes prints; the build's stages take what they print
//! from it. [`every_face`] destructures every drawn face without `..`: a new kind of face (a
//! new field of [`Faces`], [`DeckFaces`], [`CardFace`] or [`PieceFace`]) does not compile until
//! it is listed here.

use std::borrow::Cow;

use rayon::prelude::*;

use super::{BoxFace, CardFace, DeckFaces, Faces, OwnBack, PieceFace};
use crate::model::{Board, Game};
use crate::render::faces::images;
use crate::render::faces::template::{Templates, own_icons};
use crate::render::sheets;
use crate::render::sheets::boards;

/// What a face is the face of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A card's front (its deck's template, the one its `template_by` picks, or its own).
    CardFront,
    /// A card's own back (`back` on the card, or a spreadsheet's `back` column).
    CardBack,
    /// A deck's back, printed behind every card without a back of its own.
    DeckBack,
    /// A printed piece (token, tile), clipped to its outline.
    PieceFront,
    /// The other side of a two-sided piece: its `back` template, or its `back_art`.
    PieceBack,
    /// The image of a card or piece in the gallery (`png/<id>.png`).
    Thumbnail,
    /// A board (hex, square, art or sheet) in one of the languages it prints in.
    Board,
    /// One of the game's own `[[icon]]`s, as a text places it.
    Icon,
    /// A deck's tuck box: its template's faces over the whole net (`boxes.pdf`).
    TuckBox,
}

/// One face the build draws.
#[derive(Debug, Clone)]
pub struct Face<'a> {
    pub kind: Kind,
    /// The id of the card, deck, piece, board or icon it is the face of.
    pub id: &'a str,
    /// The deck of a card's face, or of a deck's back.
    pub deck: Option<&'a str>,
    /// The template that drew it; `None` for art (a piece's `back_art`, an image board
    /// without template, an icon).
    pub template: Option<&'a str>,
    /// What it is, for a message: "card `x` of deck `d`", "the back of piece `p`", ...
    pub what: String,
    /// Its trim size, in millimetres.
    pub size: (f64, f64),
    /// Its drawing: an SVG body in trim millimetres.
    pub svg: Cow<'a, str>,
    /// The cut outline a piece's face is clipped to (path data in its box).
    pub outline: Option<&'a str>,
    /// The language a board is drawn in, or a card face of a game that prints its cards in
    /// several languages (a deck drawn once per language); `None` for a face printed in
    /// every language.
    pub lang: Option<&'a str>,
}

impl Face<'_> {
    /// The face as the standalone SVG document the build reads (a PNG, a Tabletop Simulator
    /// image): at its trim size, a piece clipped to its outline with its cut line.
    pub fn document(&self) -> String {
        match self.outline {
            Some(outline) => clipped_document(&self.svg, outline, self.size),
            None => sheets::single_face(&self.svg, self.size),
        }
    }
}

/// A drawing clipped to `outline` with the cut line drawn, as an SVG document of `size`.
pub fn clipped_document(svg: &str, outline: &str, size: (f64, f64)) -> String {
    sheets::single_face(
        &format!(
            r##"<clipPath id="cut"><path d="{outline}"/></clipPath><g clip-path="url(#cut)">{svg}</g><path d="{outline}" fill="none" stroke="#1a1a1a" stroke-width="0.2"/>"##
        ),
        size,
    )
}

/// One board as the build prints it in one language.
#[derive(Debug, Clone, Copy)]
pub struct BoardJob<'a> {
    pub board: &'a Board,
    /// The language its words are in.
    pub lang: &'a str,
    /// The language as it is written in the file names (`board.<lang>.pdf`); `None` for a
    /// game printing its boards in one language (`board.pdf`).
    pub suffix: Option<&'a str>,
}

/// Every board of the game in every language the build prints it in: its first language
/// alone, or each of the game's `languages` when it has several.
pub fn board_jobs(game: &Game) -> Vec<BoardJob<'_>> {
    let langs = boards::board_languages(game);
    let langs: Vec<(&str, Option<&str>)> = if langs.is_empty() {
        vec![(boards::first_language(game), None)]
    } else {
        langs.into_iter().map(|l| (l, Some(l))).collect()
    };
    game.components
        .boards
        .iter()
        .flat_map(|b| {
            langs.iter().map(move |&(lang, suffix)| BoardJob {
                board: b,
                lang,
                suffix,
            })
        })
        .collect()
}

/// A board drawn in one language.
#[derive(Debug, Clone)]
pub struct DrawnBoard {
    pub id: String,
    pub lang: String,
    pub suffix: Option<String>,
    /// Its template; `None` for an image board drawn without one (the art is the board).
    pub template: Option<String>,
    pub svg: String,
    pub size: (f64, f64),
}

/// Draws every board in every language ([`board_jobs`]), on every core: each job with its
/// drawing, or why it could not be drawn.
pub fn draw_boards<'a>(
    game: &'a Game,
    templates: &Templates,
) -> Vec<(BoardJob<'a>, Result<DrawnBoard, boards::BoardError>)> {
    board_jobs(game)
        .into_par_iter()
        .map(|job| {
            let drawn =
                boards::board_svg_in(game, job.board, templates, job.lang).map(|(svg, size)| {
                    DrawnBoard {
                        id: job.board.id.get_ref().clone(),
                        lang: job.lang.to_string(),
                        suffix: job.suffix.map(str::to_string),
                        template: crate::render::sheets::boards::non_hex::template_of(job.board),
                        svg,
                        size,
                    }
                });
            (job, drawn)
        })
        .collect()
}

/// Every face the build draws of `game`: the faces of its decks and pieces (when they could
/// be drawn), their gallery thumbnails, the `boards` drawn, and the game's icons that load.
pub fn every_face<'a>(
    game: &'a Game,
    faces: Option<&'a Faces>,
    boards: &'a [DrawnBoard],
) -> Vec<Face<'a>> {
    let mut out = Vec::new();
    if let Some(faces) = faces {
        // Every field, named: a new one does not compile until it is listed or set aside.
        let Faces {
            decks,
            translations,
            pieces,
            placed: _,
            fonts: _,
            cache: _,
            trees: _,
        } = faces;
        // The decks in the first language (and the multilingual ones), then in each other
        // language the game prints its cards in.
        for deck in decks
            .iter()
            .chain(translations.iter().flat_map(|t| &t.decks))
        {
            deck_faces(deck, &mut out);
        }
        for piece in pieces {
            piece_faces(piece, &mut out);
        }
    }
    for b in boards {
        let DrawnBoard {
            id,
            lang,
            suffix: _,
            template,
            svg,
            size,
        } = b;
        out.push(Face {
            kind: Kind::Board,
            id,
            deck: None,
            template: template.as_deref(),
            what: match boards::board_languages(game).len() {
                0 | 1 => format!("board `{id}`"),
                _ => format!("board `{id}` in `{lang}`"),
            },
            size: *size,
            svg: Cow::Borrowed(svg),
            outline: None,
            lang: Some(lang),
        });
    }
    let icons = own_icons(game);
    for icon in &game.components.icons {
        let id = icon.id.get_ref();
        // The first icon of an id is the one text shows.
        if out.iter().any(|f| f.kind == Kind::Icon && f.id == id) {
            continue;
        }
        let Some(own) = icons.get(id) else {
            continue;
        };
        // As a line of text places it: an image a line high.
        let size = (24.0 * own.aspect, 24.0);
        out.push(Face {
            kind: Kind::Icon,
            id,
            deck: None,
            template: None,
            what: format!("icon `{id}`"),
            size,
            svg: Cow::Owned(images::element(
                &own.art,
                0.0,
                0.0,
                size.0,
                size.1,
                "xMidYMid meet",
            )),
            outline: None,
            lang: None,
        });
    }
    out
}

/// A deck's faces: each card's front, its own back and its thumbnail, and the deck's back.
fn deck_faces<'a>(deck: &'a DeckFaces, out: &mut Vec<Face<'a>>) {
    let DeckFaces {
        id: deck_id,
        name: _,
        size,
        cards,
        back,
        back_template,
        lang,
        tuck_box,
    } = deck;
    let lang = lang.as_deref();
    let in_lang = lang.map_or(String::new(), |l| format!(" in `{l}`"));
    for card in cards {
        let CardFace {
            id,
            name: _,
            text: _,
            count: _,
            template,
            svg,
            back: own_back,
        } = card;
        let front = Face {
            kind: Kind::CardFront,
            id,
            deck: Some(deck_id),
            template: Some(template),
            what: format!("card `{id}` of deck `{deck_id}`{in_lang}"),
            size: *size,
            svg: Cow::Borrowed(svg),
            outline: None,
            lang,
        };
        out.push(Face {
            kind: Kind::Thumbnail,
            ..front.clone()
        });
        out.push(front);
        if let Some(OwnBack { template, svg }) = own_back {
            out.push(Face {
                kind: Kind::CardBack,
                id,
                deck: Some(deck_id),
                template: Some(template),
                what: format!("the back of card `{id}` of deck `{deck_id}`{in_lang}"),
                size: *size,
                svg: Cow::Borrowed(svg),
                outline: None,
                lang,
            });
        }
    }
    if let Some(BoxFace { template, net, svg }) = tuck_box {
        out.push(Face {
            kind: Kind::TuckBox,
            id: deck_id,
            deck: Some(deck_id),
            template: Some(template),
            what: format!("the tuck box of deck `{deck_id}`"),
            size: net.size(),
            svg: Cow::Borrowed(svg),
            outline: None,
            lang: None,
        });
    }
    out.push(Face {
        kind: Kind::DeckBack,
        id: deck_id,
        deck: Some(deck_id),
        template: Some(back_template),
        what: format!("the back of deck `{deck_id}`{in_lang}"),
        size: *size,
        svg: Cow::Borrowed(back),
        outline: None,
        lang,
    });
}

/// A piece's faces: its front, its thumbnail, and its back when it has one.
fn piece_faces<'a>(piece: &'a PieceFace, out: &mut Vec<Face<'a>>) {
    let PieceFace {
        id,
        name: _,
        kind: _,
        count: _,
        size,
        outline,
        svg,
        bleed_outline: _,
        nests: _,
        template,
        back,
        back_template,
    } = piece;
    let front = Face {
        kind: Kind::PieceFront,
        id,
        deck: None,
        template: Some(template),
        what: format!("piece `{id}`"),
        size: *size,
        svg: Cow::Borrowed(svg),
        outline: Some(outline),
        lang: None,
    };
    out.push(Face {
        kind: Kind::Thumbnail,
        ..front.clone()
    });
    out.push(front);
    if let Some(back) = back {
        out.push(Face {
            kind: Kind::PieceBack,
            id,
            deck: None,
            template: back_template.as_deref(),
            what: format!("the back of piece `{id}`"),
            size: *size,
            svg: Cow::Borrowed(back),
            outline: Some(outline),
            lang: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scaffold's Lua game has a face of every kind, and the list holds each of them:
    /// per card a front and a thumbnail, the Comet's own back, the deck's back, a token
    /// with its back and thumbnail, each board, each icon.
    #[test]
    fn the_list_holds_every_face_of_the_scaffold() {
        let tmp = tempfile::tempdir().unwrap();
        crate::scaffold::new_game_with_engine(tmp.path(), "g", "lua").unwrap();
        let game = crate::model::load_game(tmp.path(), "g").unwrap();
        let templates = Templates::new(&game).unwrap();
        let faces = super::super::draw_all(&game, &templates, 3.0).unwrap();
        let boards: Vec<DrawnBoard> = draw_boards(&game, &templates)
            .into_iter()
            .map(|(_, b)| b.unwrap())
            .collect();
        let list = every_face(&game, Some(&faces), &boards);
        let count = |k: Kind| list.iter().filter(|f| f.kind == k).count();
        let cards: usize = game.components.decks.iter().map(|d| d.cards.len()).sum();
        let own_backs = game
            .components
            .decks
            .iter()
            .flat_map(|d| &d.cards)
            .filter(|c| c.back.is_some())
            .count();
        let pieces = game.components.pieces.iter().filter(|p| p.print).count();
        let two_sided = game
            .components
            .pieces
            .iter()
            .filter(|p| p.print && (p.back.is_some() || p.back_art.is_some()))
            .count();
        assert!(own_backs > 0 && two_sided > 0 && !boards.is_empty());
        assert_eq!(count(Kind::CardFront), cards);
        assert_eq!(count(Kind::CardBack), own_backs);
        assert_eq!(count(Kind::DeckBack), game.components.decks.len());
        assert_eq!(count(Kind::PieceFront), pieces);
        assert_eq!(count(Kind::PieceBack), two_sided);
        assert_eq!(count(Kind::Thumbnail), cards + pieces);
        assert_eq!(count(Kind::Board), game.components.boards.len());
        assert_eq!(count(Kind::Icon), game.components.icons.len());
        // A card's own back is drawn by its own template, not the deck's.
        let comet = list.iter().find(|f| f.kind == Kind::CardBack).unwrap();
        assert_eq!(comet.template, Some("comet-back"));
        let token = list.iter().find(|f| f.kind == Kind::PieceBack).unwrap();
        assert_eq!(token.template, Some("token-back"));
        for f in &list {
            assert!(
                crate::check::svg_error(&f.document()).is_none(),
                "{}",
                f.what
            );
        }
    }
}
