//! The sheets the build lays out, laid out by the check with the build's options: a deck
//! whose cards, Tabletop Simulator sheets or tuck box do not fit is refused at the deck.

use super::in_components;
use crate::diag::Problem;
use crate::diag::spans::Key;
use crate::model::Game;
use crate::render::faces::Faces;
use crate::render::formats::tts;
use crate::render::sheets::tuck_box;
use crate::render::{BuildOptions, sheets};

/// The sheets the build lays out: `cards.pdf` on the build's paper with its bleed, the
/// Tabletop Simulator card sheets, and `boxes.pdf` (each deck's tuck box on the build's
/// paper); a deck that does not fit is placed at the deck: its `size`, or for a box, the
/// `box` key that sizes it (its `card_thickness_mm` when written) or else its `size`.
pub fn layouts(game: &Game, faces: &Faces, options: &BuildOptions) -> Vec<Problem> {
    // At the first of `keys` (under the deck) the data writes, the value to change (the
    // deck's id when it writes none).
    let at_keys = |id: &str, keys: &[&[&'static str]], message: String| {
        let found = game
            .components
            .decks
            .iter()
            .enumerate()
            .find(|(_, d)| d.id.get_ref() == id);
        match found {
            Some((i, d)) => {
                let span = keys.iter().find_map(|names| {
                    let mut path = vec![Key::Name("deck"), Key::At(i)];
                    path.extend(names.iter().map(|n| Key::Name(n)));
                    crate::diag::spans::value_span(&game.components_file.text, &path)
                });
                in_components(game, span.unwrap_or_else(|| d.id.span()), message)
            }
            None => Problem::data(message).in_file(&game.components_file),
        }
    };
    let at_deck = |id: &str, message: String| at_keys(id, &[&["size"]], message);
    let mut out = Vec::new();
    for d in faces.decks.iter().filter(|d| !d.cards.is_empty()) {
        let sheet = options.sheet();
        if let Err(e) = sheets::plan_cards(std::slice::from_ref(d), &sheet) {
            out.push(
                at_deck(&d.id, e)
                    .help("make the cards smaller, or build on larger paper (--paper)"),
            );
        } else if let Some(note) = sheet.grid_note(d.size) {
            let mut p = at_deck(&d.id, format!("deck `{}`: {note}", d.id));
            p.kind = crate::diag::ProblemKind::Warning;
            out.push(p.help("a smaller --bleed, or none, fits more cards a sheet"));
        }
        if let Err(e) = tts::plan_sheets(d) {
            out.push(at_deck(&d.id, e));
        }
    }
    // The pieces `tokens.pdf` prints: each within a page's room (a piece may be 300 mm).
    let room = sheets::token_room(options.paper);
    for (i, piece) in game.components.pieces.iter().enumerate() {
        let Some(face) = faces.pieces.iter().find(|f| f.id == *piece.id.get_ref()) else {
            continue;
        };
        let (w, h) = face.size;
        if w > room.0 + 1e-9 || h > room.1 + 1e-9 {
            let path = [Key::Name("piece"), Key::At(i), Key::Name("size_mm")];
            let span = crate::diag::spans::value_span(&game.components_file.text, &path);
            let message = format!(
                "piece `{}` is {w:.1} x {h:.1} mm, and a page of tokens.pdf on {} has room \
                 for {:.1} x {:.1} mm: it would run off the paper",
                piece.id.get_ref(),
                options.paper.name(),
                room.0,
                room.1
            );
            out.push(
                in_components(game, span.unwrap_or_else(|| piece.id.span()), message)
                    .help("make the piece smaller, or build on larger paper (--paper a3)"),
            );
        }
    }
    // The boxes stage's own reckoning, on the build's paper with its bleed.
    for (d, b) in tuck_box::printed_boxes(faces) {
        if let Err(e) = tuck_box::fit(&d.id, &b.net, options.bleed, options.paper) {
            let keys: &[&[&str]] = &[&["box", "card_thickness_mm"], &["box"], &["size"]];
            if tuck_box::asked(game, &d.id) {
                out.push(at_keys(&d.id, keys, e).help(tuck_box::TOO_BIG_HELP));
            } else {
                // A box nobody asked for is left out, and the check says so.
                let mut p = at_keys(&d.id, keys, format!("{e}: boxes.pdf has no box for it"));
                p.kind = crate::diag::ProblemKind::Warning;
                out.push(p.help(tuck_box::UNASKED_HELP));
            }
        }
    }
    out
}
