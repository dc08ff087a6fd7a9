//! The print stage: `printplay build` and `printplay calibrate`.
//!
//! Everything is laid out in millimetres as SVG: templates in `templates/` draw each card
//! face and piece from the model, [`sheets`] places them on paper with bleed, crop marks and
//! furniture, and [`pdf`] turns pages into a vector PDF with krilla (PNG with resvg).
//!
//! Each output is a [`Stage`]; the list of a game's stages, the rules reference among them, is
//! [`crate::pipeline::stages`], above both.

pub mod cache;
pub mod faces;
pub mod formats;
pub mod sheets;
pub mod svg_clean;
#[cfg(test)]
mod text_cache_tests;
pub mod trees;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::model::Game;
use faces::Faces;
use faces::template::Templates;
use formats::{pdf, png};
use sheets::Sheet;
use sheets::layout::{Duplex, Marks, Paper};
use sheets::sides;

/// Escapes text for SVG/XML content and attributes.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if !xml_char(c) => {}
            _ => out.push(c),
        }
    }
    out
}

/// Whether XML 1.0 allows a character at all, escaped or not: not NUL nor the other C0
/// controls but tab and line breaks, nor U+FFFE and U+FFFF. Text with one of them would make
/// a file no reader opens, so escaping leaves them out; none of them prints.
pub fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// What `printplay build` was asked for.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub paper: Paper,
    pub duplex: Duplex,
    /// Bleed around cards, in millimetres.
    pub bleed: f64,
    /// The bleed was asked for (`--bleed`): card sheets keep it, with fewer cards a sheet
    /// if need be, rather than reducing it to fit more.
    pub exact_bleed: bool,
    /// Shift of every back, in millimetres, to correct a printer's front/back misregistration.
    pub back_offset: (f64, f64),
    /// Output folder; each game writes into `<out>/<slug>/`.
    pub out: PathBuf,
    /// Print a board on one large page of this size instead of tiling it.
    pub board_page: Option<Paper>,
    /// Crop marks, cut lines or both on card sheets.
    pub marks: Marks,
    /// Decks share sheets (`--pack`): those of one card size share a grid, and the last,
    /// part-empty sheets of every size are packed together ([`sheets::mixed`]).
    pub pack: bool,
    /// Trim and safe-zone guides over every face of the proofing outputs (`--guides`; see
    /// [`crate::pipeline::GUIDED_STAGES`]); never on the print-shop files.
    pub guides: bool,
    /// Each card face's bleed shows the strip inside its trim mirrored (`--mirror-bleed`),
    /// for art that stops at the trim ([`faces::bleed`]).
    pub mirror_bleed: bool,
    /// Print-shop files (`--shop`), when asked for.
    pub shop: Option<formats::shop::ShopOptions>,
    /// Where the Tabletop Simulator images are hosted; `None`: `file://` paths.
    pub tts_base_url: Option<String>,
    /// Only these stages (`--only cards,png`); every stage when empty.
    pub only: BTreeSet<String>,
    /// The gallery page (`index.html`) reloads itself: set while `printplay watch` runs.
    pub live_reload: bool,
    /// A stage written before all others, alone (`watch` writes `cards.pdf` first, the file
    /// a designer looks at); `None`: every stage at once.
    pub first: Option<&'static str>,
    /// Faces and images drawn by earlier builds are taken from `<out>/.cache/` when their
    /// inputs did not change, and this build's are kept there ([`cache`]); off for `check`.
    pub cache: bool,
    /// Where the PDFs keep the documents they read and the pictures they drew for the next
    /// build's PDF of the same title (set by `watch`, whose rounds rewrite the same PDFs;
    /// [`formats::kept`]); `None`: nothing is kept.
    pub kept_pages: Option<Arc<formats::kept::ReadPages>>,
    /// The cards `changed.pdf` reprints (`--changed-since`, `--cards`); `None`: no such file.
    pub reprint: Option<Reprint>,
    /// The check is the first step of a build (`build`, `watch`), not the whole of the work
    /// (`check`): what it reads of each face is kept for the stages that draw the faces as
    /// pixels, when the build has one ([`trees::PIXEL_STAGES`]).
    pub builds: bool,
}

/// Which cards `changed.pdf` holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reprint {
    /// Those whose printed face changed since an earlier version (`--changed-since REF`): a
    /// git revision of the game's folder, or another folder.
    Since(String),
    /// These card designs, by id (`--cards ID,...`).
    Cards(Vec<String>),
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            paper: Paper::A4,
            duplex: Duplex::LongEdge,
            bleed: 3.0,
            exact_bleed: false,
            back_offset: (0.0, 0.0),
            out: PathBuf::from("output"),
            board_page: None,
            marks: Marks::Crop,
            pack: false,
            guides: false,
            mirror_bleed: false,
            shop: None,
            tts_base_url: None,
            only: BTreeSet::new(),
            live_reload: false,
            first: None,
            cache: false,
            kept_pages: None,
            reprint: None,
            builds: false,
        }
    }
}

impl BuildOptions {
    /// Whether the stage `name` is to run.
    pub fn wants(&self, stage: &str) -> bool {
        self.only.is_empty() || self.only.contains(stage)
    }

    /// The faces' documents the check reads are kept for the build's stages
    /// ([`trees::Trees::keep`]): a build that draws faces as pixels.
    pub fn keeps_reads(&self) -> bool {
        self.builds && trees::PIXEL_STAGES.iter().any(|s| self.wants(s))
    }

    /// Options that contradict each other: an output asked for (`--shop`) that `--only`
    /// leaves out. Such a build would write nothing of what was asked, so the command
    /// refuses it (exit 2) with this sentence naming both options.
    pub fn conflict(&self) -> Option<String> {
        if self.reprint.is_none() && self.only.contains(CHANGED_STAGE) {
            return Some(
                "--only changed writes changed.pdf, which needs --changed-since REF or \
                 --cards ID,... to say which cards"
                    .to_string(),
            );
        }
        if self.shop.is_some() && !self.wants("shop") {
            let only: Vec<&str> = self.only.iter().map(String::as_str).collect();
            return Some(format!(
                "--shop asks for print-shop files, but --only {} leaves them out: add `shop` \
                 to --only (--only {},shop), or leave out --shop",
                only.join(","),
                only.join(",")
            ));
        }
        None
    }

    pub fn sheet(&self) -> Sheet {
        Sheet {
            paper: self.paper,
            duplex: self.duplex,
            bleed: self.bleed,
            back_offset: self.back_offset,
            marks: self.marks,
            pack: self.pack,
            exact_bleed: self.exact_bleed,
        }
    }
}

/// One game being built: its model, its drawn faces and where its files go.
pub struct GameBuild<'a> {
    pub game: &'a Game,
    pub faces: Faces,
    pub options: &'a BuildOptions,
    /// `<out>/<slug>/`.
    pub dir: PathBuf,
}

impl GameBuild<'_> {
    /// Writes one output file atomically, relative to the game's output folder.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, String> {
        let path = self.dir.join(name);
        crate::output::write_atomic(&path, bytes)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }
}

/// A build stage: writes some of a game's outputs and returns their paths. The list of stages
/// is [`crate::pipeline::stages`].
pub type Stage = fn(&GameBuild) -> Result<Vec<PathBuf>, String>;

/// The name `--only` knows `changed.pdf` by.
pub const CHANGED_STAGE: &str = "changed";

/// Tiles must be this much smaller than the board's hexes to fit when cut by hand.
pub const TILE_CLEARANCE_MM: f64 = 0.5;

/// Draws a game's faces with the build's bleed (for callers outside a build, such as tests).
pub fn draw_faces(game: &Game, options: &BuildOptions) -> Result<Faces, String> {
    let templates = Templates::new(game)?;
    faces::draw_all(game, &templates, options.bleed).map_err(|errs| {
        errs.into_iter()
            .map(|e| e.message)
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// Where every face of `cards.pdf` goes, page by page, as the PDF is drawn from it (of the
/// first card file of a game printing its cards in several languages: every language's
/// file holds the same cards, so is laid out alike).
pub fn card_plan(faces: &Faces, options: &BuildOptions) -> Result<Vec<sheets::CardPage>, String> {
    sheets::plan_cards(&faces.decks, &options.sheet())
}

/// `tokens.pdf` bytes, if the game has printable pieces.
pub fn tokens_pdf(
    game: &Game,
    faces: &Faces,
    options: &BuildOptions,
) -> Result<Option<Vec<u8>>, String> {
    if faces.pieces.is_empty() {
        return Ok(None);
    }
    let (pages, _) = sides::token_pages(&game.info.name, &faces.pieces, &options.sheet());
    pdf::write_pdf_keeping(
        &format!("{}: tokens", game.info.name),
        &pages,
        &faces.fonts,
        options.kept_pages.as_deref(),
    )
    .map(Some)
}

/// `cards.pdf` (of a game printing its cards in one language; the first language's file
/// otherwise): every card `count` times, fronts and backs.
pub fn cards_pdf(game: &Game, faces: &Faces, options: &BuildOptions) -> Result<Vec<u8>, String> {
    let sets = faces.card_sets(game);
    cards_pdf_of(game, &sets[0], &faces.fonts, options)
}

/// The PDF of one card file ([`faces::languages::CardSet`]).
pub fn cards_pdf_of(
    game: &Game,
    set: &faces::languages::CardSet,
    fonts: &faces::fonts::FontDb,
    options: &BuildOptions,
) -> Result<Vec<u8>, String> {
    let pages = card_pages_of(game, &set.decks, options)?;
    let title = match set.lang {
        Some(l) => format!("{}: cards ({l})", game.info.name),
        None => format!("{}: cards", game.info.name),
    };
    pdf::write_pdf_keeping(&title, &pages, fonts, options.kept_pages.as_deref())
}

/// The planned and drawn pages of `cards.pdf` (of the first language's file).
pub fn card_pages(
    game: &Game,
    faces: &Faces,
    options: &BuildOptions,
) -> Result<Vec<pdf::PageSpec>, String> {
    card_pages_of(game, &faces.decks, options)
}

/// The planned and drawn pages of the card file of `decks`.
fn card_pages_of(
    game: &Game,
    decks: &[faces::DeckFaces],
    options: &BuildOptions,
) -> Result<Vec<pdf::PageSpec>, String> {
    let plan = sheets::plan_cards(decks, &options.sheet())?;
    Ok(plan
        .par_iter()
        .map(|page| {
            sheets::draw_card_page(&game.info.name, decks, page, options.marks, options.duplex)
        })
        .collect())
}

/// `cards.pdf`, when the game has cards; a game published in several languages prints
/// `cards.<lang>.pdf` for each instead.
pub fn cards_stage(b: &GameBuild) -> Result<Vec<PathBuf>, String> {
    if b.faces.decks.iter().all(|d| d.cards.is_empty()) {
        return Ok(Vec::new());
    }
    b.faces
        .card_sets(b.game)
        .iter()
        .map(|set| {
            let bytes = cards_pdf_of(b.game, set, &b.faces.fonts, b.options)?;
            b.write(&set.file(), &bytes)
        })
        .collect()
}

/// `tokens.pdf`, when the game has printable pieces.
pub fn tokens_stage(b: &GameBuild) -> Result<Vec<PathBuf>, String> {
    if b.faces.pieces.is_empty() {
        return Ok(Vec::new());
    }
    match tokens_pdf(b.game, &b.faces, b.options)? {
        Some(bytes) => Ok(vec![b.write("tokens.pdf", &bytes)?]),
        None => Ok(Vec::new()),
    }
}

/// Every face of a game at trim size, for the standalone SVG exports below.
fn draw_faces_without_bleed(game: &Game) -> Result<faces::Faces, String> {
    let templates = Templates::new(game)?;
    faces::draw_all(game, &templates, 0.0).map_err(|errs| {
        errs.into_iter()
            .map(|e| e.message)
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// A card face as a standalone SVG document at its trim size (for diagrams elsewhere).
pub fn card_svg(game: &Game, card_id: &str) -> Result<String, String> {
    let faces = draw_faces_without_bleed(game)?;
    faces
        .decks
        .iter()
        .find_map(|d| {
            d.cards
                .iter()
                .find(|c| c.id == card_id)
                .map(|c| sheets::single_face(&c.svg, d.size))
        })
        .ok_or_else(|| format!("{} has no card `{card_id}`", game.slug))
}

/// A piece as a standalone SVG document, clipped to its outline.
pub fn piece_svg(game: &Game, piece_id: &str) -> Result<String, String> {
    let faces = draw_faces_without_bleed(game)?;
    faces
        .pieces
        .iter()
        .find(|p| p.id == piece_id)
        .map(piece_document)
        .ok_or_else(|| format!("{} has no printed piece `{piece_id}`", game.slug))
}

/// A piece alone, clipped to its outline with the cut line drawn, as an SVG document.
pub(crate) fn piece_document(p: &faces::PieceFace) -> String {
    faces::drawn::clipped_document(&p.svg, &p.outline, p.size)
}

/// The gallery's image of a card's or piece's own back (`lang`: the language of a card drawn
/// once per language).
pub fn back_image(id: &str, lang: Option<&str>) -> String {
    match lang {
        Some(l) => format!("png/backs/{l}/{id}.png"),
        None => format!("png/backs/{id}.png"),
    }
}

/// The gallery's image of a deck's back (`lang`: the language of a deck drawn once per
/// language).
pub fn deck_back_image(deck: &str, lang: Option<&str>) -> String {
    match lang {
        Some(l) => format!("png/backs/{l}/deck-{deck}.png"),
        None => format!("png/backs/deck-{deck}.png"),
    }
}

/// The gallery's image of a board (`suffix`: its language, when the game prints its boards
/// in several).
pub fn board_image(id: &str, suffix: Option<&str>) -> String {
    match suffix {
        Some(lang) => format!("png/boards/{id}.{lang}.png"),
        None => format!("png/boards/{id}.png"),
    }
}

/// The widest a board's gallery image is, in pixels: a board a metre across is not drawn at
/// 300 dpi for a web page.
const BOARD_IMAGE_PX: f64 = 1600.0;

/// The gallery's images: `png/<id>.png` (the thumbnails of the one list of faces;
/// `png/<lang>/<id>.png` for a card drawn once per language), the backs
/// (`png/backs/`: each deck's, and each card's or piece's own) and the boards
/// (`png/boards/`), which `index.html` shows.
pub fn png_stage(b: &GameBuild) -> Result<Vec<PathBuf>, String> {
    use faces::drawn::Kind;
    let mut jobs: Vec<(String, String, (f64, f64), f64)> =
        faces::drawn::every_face(b.game, Some(&b.faces), &[])
            .into_iter()
            .filter_map(|f| {
                let file = match f.kind {
                    Kind::Thumbnail => faces::languages::image_file(f.id, f.lang),
                    Kind::CardBack | Kind::PieceBack => back_image(f.id, f.lang),
                    Kind::DeckBack => deck_back_image(f.id, f.lang),
                    Kind::CardFront
                    | Kind::PieceFront
                    | Kind::Board
                    | Kind::Icon
                    | Kind::TuckBox => return None,
                };
                Some((file, f.document(), f.size, png::PX_PER_MM_300DPI))
            })
            .collect();
    if !b.game.components.boards.is_empty() {
        let templates = Templates::new(b.game)?;
        for (job, drawn) in faces::drawn::draw_boards(b.game, &templates) {
            let drawn = drawn.map_err(|e| format!("board `{}`: {e}", job.board.id.get_ref()))?;
            let px = png::PX_PER_MM_300DPI.min(BOARD_IMAGE_PX / drawn.size.0.max(1.0));
            jobs.push((
                board_image(&drawn.id, job.suffix),
                sheets::single_face(&drawn.svg, drawn.size),
                drawn.size,
                px,
            ));
        }
    }
    jobs.par_iter()
        .map(|(file, svg, size, px)| {
            let bytes = b
                .png(svg, *size, *px)
                .map_err(|e| format!("`{file}`: {e}"))?;
            b.write(file, &bytes)
        })
        .collect()
}

/// Where a game's files go.
pub fn game_dir(out: &Path, game: &Game) -> PathBuf {
    out.join(&game.slug)
}

#[cfg(test)]
mod escape_tests {
    use super::*;

    #[test]
    fn escaped_text_is_always_xml() {
        let text = "a\0b\u{1}c\u{b}d\u{c}e\u{1f}f\u{fffe}g\u{ffff}h\t\n\r<&>\"'👍🏽ä";
        let escaped = xml_escape(text);
        assert_eq!(escaped, "abcdefgh\t\n\r&lt;&amp;&gt;&quot;&apos;👍🏽ä");
        let doc = format!("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>{escaped}</text></svg>");
        assert!(usvg::Tree::from_str(&doc, &usvg::Options::default()).is_ok());
    }
}
