//! The bounds of [`crate::limits`] that join several values (a board's size from its cells,
//! a game's printed copies): checked before any face is drawn, each at the value to change.
//! Bounds on one value are kept while the data is read (`model::bounded`).

use crate::diag::Problem;
use crate::diag::spans::{Key, at_value};
use crate::limits;
use crate::model::{BoardKind, Game};
use crate::render::sheets::boards;
use crate::render::sheets::boards::non_hex;

/// Every bound that joins several values, broken.
pub fn check(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    let c = &game.components;
    let file = &game.components_file;
    for (i, b) in c.boards.iter().enumerate() {
        let id = b.id.get_ref();
        let (size, key) = match &b.kind {
            BoardKind::Hex(h) => {
                if h.cells.len() > limits::HEXES_MAX {
                    out.push(at_value(
                        Problem::data(format!(
                            "board `{id}` has {} hexes; a board has at most {} (a 50 x 50 map)",
                            h.cells.len(),
                            limits::HEXES_MAX
                        )),
                        file,
                        &[Key::Name("board"), Key::At(i), Key::Name("cells")],
                        "here",
                    ));
                    continue;
                }
                (boards::hex::hex_board_size(h), "hex_mm")
            }
            BoardKind::Square(_) => (non_hex::size_of(b), "cells"),
            _ => continue,
        };
        if let Some((w, h)) = size
            && w.max(h) > limits::BOARD_MAX_MM
        {
            let mut path = vec![Key::Name("board"), Key::At(i), Key::Name(key)];
            if key == "cells" {
                path.push(Key::Name("mm"));
            }
            out.push(
                at_value(
                    Problem::data(format!(
                        "board `{id}` prints {w:.0} x {h:.0} mm; a board is at most {} mm a side \
                         (a table is about a metre wide)",
                        limits::BOARD_MAX_MM
                    )),
                    file,
                    &path,
                    "here",
                )
                .help("make its cells smaller, or split it into boards that lie side by side"),
            );
        }
    }
    let mut cards: u64 = 0;
    for (i, d) in c.decks.iter().enumerate() {
        let id = d.id.get_ref();
        if d.cards.len() > limits::DECK_MAX_DESIGNS {
            let key = if d.sheet.is_some() { "cards" } else { "id" };
            out.push(at_value(
                Problem::data(format!(
                    "deck `{id}` has {} card designs; a deck has at most {}",
                    d.cards.len(),
                    limits::DECK_MAX_DESIGNS
                )),
                file,
                &[Key::Name("deck"), Key::At(i), Key::Name(key)],
                "here",
            ));
        }
        if !d.print {
            continue;
        }
        let before = cards;
        cards += d.cards.iter().map(|c| u64::from(c.count.0)).sum::<u64>();
        if before <= limits::GAME_MAX_CARDS && cards > limits::GAME_MAX_CARDS {
            out.push(at_value(
                Problem::data(format!(
                    "with deck `{id}` the game prints {cards} cards; a game prints at most {} \
                     (over 1100 sheets)",
                    limits::GAME_MAX_CARDS
                )),
                file,
                &[Key::Name("deck"), Key::At(i), Key::Name("id")],
                "here",
            ));
        }
    }
    let mut pieces: u64 = 0;
    for (i, p) in c.pieces.iter().enumerate().filter(|(_, p)| p.print) {
        let before = pieces;
        pieces += u64::from(p.count.0);
        if before <= limits::GAME_MAX_PIECES && pieces > limits::GAME_MAX_PIECES {
            out.push(at_value(
                Problem::data(format!(
                    "with piece `{}` the game prints {pieces} pieces; a game prints at most {}",
                    p.id.get_ref(),
                    limits::GAME_MAX_PIECES
                )),
                file,
                &[Key::Name("piece"), Key::At(i), Key::Name("count")],
                "here",
            ));
        }
    }
    for (i, t) in c.tracks.iter().enumerate() {
        let spaces = i128::from(t.max) - i128::from(t.min) + 1;
        if spaces > i128::from(limits::TRACK_MAX_SPACES) {
            out.push(at_value(
                Problem::data(format!(
                    "track `{}` has {spaces} spaces; a track has at most {}",
                    t.id.get_ref(),
                    limits::TRACK_MAX_SPACES
                )),
                file,
                &[Key::Name("track"), Key::At(i), Key::Name("max")],
                "here",
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scaffold's game with `from` replaced by `to` in its `components.toml`: the
    /// problems of this check, and the line `to` starts on.
    fn checked(from: &str, to: &str) -> (Vec<Problem>, usize) {
        let dir = tempfile::tempdir().unwrap();
        crate::scaffold::new_game(dir.path(), "g").unwrap();
        let path = dir.path().join("g/components.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        let at = text.find(from).unwrap_or_else(|| panic!("no `{from}`"));
        let line = text[..at].matches('\n').count() + 1;
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let game = crate::model::load_game(dir.path(), "g").expect("loads");
        (check(&game), line)
    }

    fn line_of(p: &Problem) -> usize {
        p.location()
            .and_then(|l| l.rsplit(':').nth(1).and_then(|n| n.parse().ok()))
            .unwrap_or(0)
    }

    #[test]
    fn the_scaffold_is_within_every_bound() {
        assert!(checked("hex_mm = 30", "hex_mm = 30").0.is_empty());
    }

    #[test]
    fn a_hex_board_larger_than_a_table_is_refused_at_hex_mm() {
        let (problems, line) = checked(
            "  { q = 0, r = 0, kind = \"lake\" },",
            "  { q = 0, r = 0, kind = \"lake\" }, { q = 40, r = 0, kind = \"lake\" },",
        );
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].message.contains("at most 1000 mm"),
            "{problems:?}"
        );
        assert_eq!(line_of(&problems[0]), line - 4, "{problems:?}");
    }

    #[test]
    fn a_square_grid_larger_than_a_table_is_refused_at_its_cell_size() {
        let (problems, line) = checked("\nmm = 30", "\nmm = 300");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].message.contains("prints 1224 x 924 mm"),
            "{problems:?}"
        );
        assert_eq!(line_of(&problems[0]), line + 1, "{problems:?}");
    }

    #[test]
    fn a_game_of_too_many_pieces_is_refused_at_the_count_past_it() {
        let piece = "[[piece]]\nid = \"marker\"";
        let more: String = (0..11)
            .map(|i| format!("[[piece]]\nid = \"m{i}\"\nname = \"M\"\nkind = \"m\"\ncount = 999\nshape = \"cube\"\nsize_mm = 8\nprint = true\n\n"))
            .collect();
        let (problems, line) = checked(piece, &format!("{more}{piece}"));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].message.contains("m10"), "{problems:?}");
        assert_eq!(line_of(&problems[0]), line + 10 * 9 + 4, "{problems:?}");
    }

    #[test]
    fn a_long_track_is_refused_at_its_max() {
        let (problems, line) = checked(
            "[[piece]]",
            "[[track]]\nid = \"t\"\nname = \"T\"\nmin = 0\nmax = 100000000\nstart = 0\n\n[[piece]]",
        );
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(line_of(&problems[0]), line + 4, "{problems:?}");
    }
}
