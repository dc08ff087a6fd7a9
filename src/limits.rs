//! Every bound on a size, count or amount of work a game folder can ask for, in one place:
//! its value and why it is there (a page, a printer, a laptop). `check` refuses a value past
//! its bound at the line that writes it, before anything is drawn, so `build`, `watch` and
//! `simulate` never meet it; the renderer and the template engine keep their own caps behind
//! it. The user's guide lists them ([`ALL`], `printplay reference`).

/// Smallest side of a card, in millimetres.
pub const CARD_MIN_MM: f64 = 10.0;
/// Largest side of a card, in millimetres.
pub const CARD_MAX_MM: f64 = 300.0;
/// Thinnest card a deck's tuck box is sized for (`box.card_thickness_mm`), in millimetres.
pub const CARD_THICKNESS_MIN_MM: f64 = 0.1;
/// Thickest card a tuck box is sized for, in millimetres.
pub const CARD_THICKNESS_MAX_MM: f64 = 2.0;
/// Smallest piece, across, in millimetres.
pub const PIECE_MIN_MM: f64 = 2.0;
/// Largest piece, across, in millimetres.
pub const PIECE_MAX_MM: f64 = 300.0;
/// Smallest hex of a hex board, flat side to flat side, in millimetres.
pub const HEX_MIN_MM: f64 = 5.0;
/// Largest hex of a hex board, in millimetres.
pub const HEX_MAX_MM: f64 = 200.0;
/// Smallest cell of a square grid, in millimetres.
pub const CELL_MIN_MM: f64 = 5.0;
/// Largest cell of a square grid, in millimetres.
pub const CELL_MAX_MM: f64 = 300.0;
/// Most rows, or columns, of a square grid.
pub const GRID_MAX_CELLS: u32 = 100;
/// Most hexes of one hex board.
pub const HEXES_MAX: usize = 2_500;
/// Largest hex coordinate (`q`, `r`), either way from 0.
pub const HEX_COORD_MAX: i32 = 100;
/// Smallest side of a board, in millimetres (an image board's `width_mm` and `height_mm`).
pub const BOARD_MIN_MM: f64 = 10.0;
/// Largest side of a whole board, frame included, in millimetres.
pub const BOARD_MAX_MM: f64 = 1000.0;
/// Most copies of one card or piece.
pub const MAX_COUNT: u32 = 999;
/// Most card designs in one deck (rows of its sheet and `[[deck.card]]` together).
pub const DECK_MAX_DESIGNS: usize = 2_000;
/// Most printed copies of cards in one game, every deck together.
pub const GAME_MAX_CARDS: u64 = 10_000;
/// Most printed copies of pieces in one game.
pub const GAME_MAX_PIECES: u64 = 10_000;
/// Most spaces of one track (`max - min + 1`).
pub const TRACK_MAX_SPACES: i64 = 1_000;
/// Largest text file of a game folder (`game.toml`, `components.toml`, a sheet, a template,
/// `engine.lua`), in bytes.
pub const SOURCE_MAX_BYTES: u64 = 16 << 20;
/// Most items all `range(...)` calls of one face may make together.
pub const TEMPLATE_RANGE_ITEMS: usize = 10_000;
/// Most bytes of SVG one template may write for one face.
pub const TEMPLATE_OUTPUT_BYTES: usize = 8 << 20;
/// Most elements one template may write for one face.
pub const TEMPLATE_ELEMENTS: usize = 100_000;
/// Most pixels the rasteriser allocates for one picture (a face, a board, a sheet).
pub const RASTER_MAX_PIXELS: u64 = 100_000_000;

/// Most pixels of one image of the game's art (a PNG, JPEG or WebP file, or a raster inside
/// SVG art), as its header declares them.
pub const ART_MAX_PIXELS: u64 = 100_000_000;
/// Largest width or height of SVG art (a file, or an SVG inside it), in its own units (px).
pub const SVG_ART_MAX_SIDE: f64 = 100_000.0;

/// Most files of a game's folder read from a git revision (`diff --since`, `--changed-since`).
pub const REVISION_MAX_FILES: usize = 10_000;
/// Most bytes of a game's folder read from a git revision, every file together.
pub const REVISION_MAX_BYTES: u64 = 1 << 30;

/// Most pages of a printed rulebook (`rules --pdf`), on any paper.
pub const RULEBOOK_MAX_PAGES: usize = 500;
/// Longest chat message or note a tester may send at a playtest table, in characters.
pub const VOICE_MAX_CHARS: usize = 500;
/// Most chat messages and notes one playtest table keeps.
pub const VOICE_MAX_PER_TABLE: usize = 2_000;
/// Chat messages and notes one seat (or the spectators) may send at once...
pub const VOICE_BURST: u32 = 5;
/// ...and then one every this many seconds.
pub const VOICE_EVERY_SECONDS: u32 = 2;

/// One bound, as the user's guide lists it.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// What is bounded, as the data writes it.
    pub what: &'static str,
    /// The allowed values, in words.
    pub range: &'static str,
    /// Why: a page, a printer, a laptop.
    pub reason: &'static str,
}

/// Every bound, in the order the guide lists them. A test keeps the `range` column in step
/// with the constants above.
pub const ALL: &[Limit] = &[
    Limit {
        what: "a deck's card `size` (each side)",
        range: "10 to 300 mm",
        reason: "a card is held in the hand and printed on a sheet: 300 mm is the short side of A3",
    },
    Limit {
        what: "a deck's `box.card_thickness_mm`",
        range: "0.1 to 2 mm",
        reason: "thinner is paper, not card; a 2 mm card is a tile, and the box grows by it \
                 per card",
    },
    Limit {
        what: "a piece's `size_mm`",
        range: "2 to 300 mm",
        reason: "below 2 mm no cutter follows the line; above 300 mm it is a board, not a piece",
    },
    Limit {
        what: "a hex board's `hex_mm`",
        range: "5 to 200 mm",
        reason: "a pawn stands on a 5 mm hex at least; a 200 mm hex is a board of its own",
    },
    Limit {
        what: "a square grid's cell `mm`",
        range: "5 to 300 mm",
        reason: "as a hex; a cell is at most as large as a piece",
    },
    Limit {
        what: "a square grid's `rows` and `columns`",
        range: "1 to 100",
        reason: "100 cells of 5 mm fill the largest board",
    },
    Limit {
        what: "hexes of a hex board (`cells`)",
        range: "1 to 2500",
        reason: "a 50 x 50 map; every hex is drawn, checked and laid out on every page",
    },
    Limit {
        what: "a hex's `q` and `r`",
        range: "-100 to 100",
        reason: "the board would be larger than the largest board",
    },
    Limit {
        what: "a board's printed size (a grid with its frame, an image board's `width_mm` and `height_mm`)",
        range: "10 to 1000 mm a side",
        reason: "a table is about a metre wide; a 1000 mm board is 36 A4 pages, and its \
                 Tabletop Simulator image (8 px/mm) 8000 x 8000 pixels, 256 MB of memory",
    },
    Limit {
        what: "a card's or piece's `count`",
        range: "0 to 999",
        reason: "larger counts are typing errors",
    },
    Limit {
        what: "card designs in one deck",
        range: "up to 2000",
        reason: "every design is drawn and checked on each build; larger decks are typing or export errors",
    },
    Limit {
        what: "printed cards of a game (every count together)",
        range: "up to 10000",
        reason: "over 1100 sheets of paper: a print job, not a prototype",
    },
    Limit {
        what: "printed pieces of a game (every count together)",
        range: "up to 10000",
        reason: "as cards",
    },
    Limit {
        what: "a track's spaces (`max - min + 1`)",
        range: "up to 1000",
        reason: "a track is printed and played a space at a time",
    },
    Limit {
        what: "one text file of the game (`game.toml`, `components.toml`, a sheet, a template)",
        range: "up to 16 MB",
        reason: "a laptop reads it whole, and its problems quote it",
    },
    Limit {
        what: "items of `range(...)` in a template, every call of one face together",
        range: "up to 10000",
        reason: "a face is drawn in milliseconds; a loop past this is a mistake that would take the laptop's memory",
    },
    Limit {
        what: "SVG one template writes for one face",
        range: "up to 8 MB and 100000 elements",
        reason: "a face is read, drawn and rasterised whole; the SVG reader stops at a million nodes",
    },
    Limit {
        what: "pixels of one rasterised picture (a PNG face, a board's image)",
        range: "up to 100 million (400 MB)",
        reason: "a laptop's memory, behind the bounds above; a 300 mm card at 300 dpi is 13 million",
    },
    Limit {
        what: "pixels of one image of art (a PNG, JPEG or WebP file, or a raster inside SVG art)",
        range: "up to 100 million (10000 x 10000), read from the file's header",
        reason: "decoded, it takes 400 MB (800 MB at 16 bits a channel); a 1000 mm board at 250 dpi \
                 is 97 million, and a 60000 x 60000 file of one colour is a few megabytes that would \
                 decode to 14 GB",
    },
    Limit {
        what: "`width` and `height` of SVG art",
        range: "up to 100000",
        reason: "art is drawn into a card or a board; a larger drawing is a unit mistake whose \
                 filters and patterns would be rasterised at that size",
    },
    Limit {
        what: "a game's folder read from a git revision (`diff --since`, `build --changed-since`)",
        range: "up to 10000 files and 1024 MB",
        reason: "it is written to a temporary folder and loaded whole, as the folder itself is; \
                 a larger tree is not a game folder",
    },
    Limit {
        what: "pages of a printed rulebook (A4, Letter, the A5 booklet)",
        range: "up to 500",
        reason: "a rules text is read at the table; laying out stops there, so no text can make \
                 the layout run on",
    },
    Limit {
        what: "memory of a Lua engine",
        range: "up to 256 MB",
        reason: "a laptop runs one VM per thread",
    },
    Limit {
        what: "a chat message or note at the playtest table",
        range: "up to 500 characters",
        reason: "a remark, not a document: every connection at the table is sent it",
    },
    Limit {
        what: "chat messages and notes of one playtest table",
        range: "up to 2000",
        reason: "they are stored with the table and sent with its view",
    },
    Limit {
        what: "chat messages and notes one seat sends",
        range: "5 at once, then one every 2 seconds",
        reason: "a tester types; a script flooding the table is refused (429)",
    },
];

/// Whether `v` lies in `min..=max` (false for NaN).
pub fn within(v: f64, min: f64, max: f64) -> bool {
    v.is_finite() && (min..=max).contains(&v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The user's guide lists every bound as this list gives it.
    #[test]
    fn the_guide_lists_every_bound() {
        let page = include_str!("../docs/src/explain/limits.md");
        for l in ALL {
            let row = format!("| {} | {} |", l.what, l.range);
            assert!(page.contains(&row), "the guide lacks `{row}`");
        }
    }

    #[test]
    fn the_listed_ranges_name_the_constants() {
        let range = |what: &str| {
            ALL.iter()
                .find(|l| l.what.starts_with(what))
                .map(|l| l.range)
                .unwrap_or_else(|| panic!("no limit `{what}`"))
        };
        let mm = |a: f64, b: f64| format!("{a} to {b} mm");
        assert!(range("a deck's card").starts_with(&mm(CARD_MIN_MM, CARD_MAX_MM)));
        assert_eq!(range("a piece's"), mm(PIECE_MIN_MM, PIECE_MAX_MM));
        assert_eq!(
            range("a deck's `box"),
            mm(CARD_THICKNESS_MIN_MM, CARD_THICKNESS_MAX_MM)
        );
        assert_eq!(range("a hex board's"), mm(HEX_MIN_MM, HEX_MAX_MM));
        assert_eq!(range("a square grid's cell"), mm(CELL_MIN_MM, CELL_MAX_MM));
        assert_eq!(
            range("a square grid's `rows`"),
            format!("1 to {GRID_MAX_CELLS}")
        );
        assert_eq!(range("hexes"), format!("1 to {HEXES_MAX}"));
        assert_eq!(
            range("a hex's"),
            format!("-{HEX_COORD_MAX} to {HEX_COORD_MAX}")
        );
        assert!(range("a board's printed").starts_with(&mm(BOARD_MIN_MM, BOARD_MAX_MM)));
        assert_eq!(range("a card's or piece's"), format!("0 to {MAX_COUNT}"));
        assert_eq!(range("card designs"), format!("up to {DECK_MAX_DESIGNS}"));
        assert_eq!(range("printed cards"), format!("up to {GAME_MAX_CARDS}"));
        assert_eq!(range("printed pieces"), format!("up to {GAME_MAX_PIECES}"));
        assert_eq!(range("a track's"), format!("up to {TRACK_MAX_SPACES}"));
        assert_eq!(
            range("one text file"),
            format!("up to {} MB", SOURCE_MAX_BYTES >> 20)
        );
        assert_eq!(range("items of"), format!("up to {TEMPLATE_RANGE_ITEMS}"));
        assert_eq!(
            range("SVG one template"),
            format!(
                "up to {} MB and {TEMPLATE_ELEMENTS} elements",
                TEMPLATE_OUTPUT_BYTES >> 20
            )
        );
        assert!(
            range("pixels")
                .starts_with(&format!("up to {} million", RASTER_MAX_PIXELS / 1_000_000))
        );
        assert!(
            range("pixels of one image")
                .starts_with(&format!("up to {} million", ART_MAX_PIXELS / 1_000_000))
        );
        assert_eq!(
            range("`width` and `height` of SVG art"),
            format!("up to {SVG_ART_MAX_SIDE}")
        );
        assert_eq!(
            range("a game's folder read"),
            format!(
                "up to {REVISION_MAX_FILES} files and {} MB",
                REVISION_MAX_BYTES >> 20
            )
        );
        assert_eq!(
            range("pages of a printed"),
            format!("up to {RULEBOOK_MAX_PAGES}")
        );
        assert_eq!(
            range("memory of a Lua"),
            format!("up to {} MB", crate::engine::lua::MEMORY_LIMIT >> 20)
        );
        assert_eq!(
            range("a chat message"),
            format!("up to {VOICE_MAX_CHARS} characters")
        );
        assert_eq!(
            range("chat messages and notes of one"),
            format!("up to {VOICE_MAX_PER_TABLE}")
        );
        assert_eq!(
            range("chat messages and notes one seat"),
            format!("{VOICE_BURST} at once, then one every {VOICE_EVERY_SECONDS} seconds")
        );
    }
}
