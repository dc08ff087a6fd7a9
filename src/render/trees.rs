//! SVG documents read once a build. A card face is drawn as pixels by several stages (its
//! PNG at 300 dpi, its Tabletop Simulator tile, its simulations on the proof) and read by
//! `check` for its text (the contrast and safe-zone warnings), each from the very same
//! document; reading one (usvg: XML, text layout, glyph outlines) costs about as much as
//! drawing it. [`Trees`] keeps what was read for the build's [`Faces`], which every stage and
//! the check before it share, so that each document is read once.
//!
//! Trees are kept only for a build that draws faces as pixels ([`PIXEL_STAGES`]; a tree of a
//! card face is about 70 KB): for `check` alone or `--only cards` each reading is let go, and
//! what is kept of a face is the measure of its text's distance to the trim, which both of
//! the check's text measures take from one reading. What is kept is bounded ([`MAX_TREES`]
//! documents, [`MAX_TEXT`] bytes of their text): past it a document is read each time it is
//! asked for, as without a memo.
//!
//! [`Faces`]: crate::render::faces::Faces

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::render::faces::fonts::FontDb;
use crate::render::formats::pdf::parse_raster;
use crate::render::sheets::layout::Rect;

/// The build stages that draw the faces as pixels from the documents the check read: a build
/// with one of them keeps the trees ([`Trees::keep`]).
pub const PIXEL_STAGES: &[&str] = &["png", "tts", "proof"];

/// At most this many documents are kept (a card face's tree is about 70 KB).
pub const MAX_TREES: usize = 2000;
/// At most this many bytes of document text are kept (a tree is a few times its text).
pub const MAX_TEXT: usize = 48 << 20;

type Read = Result<Arc<usvg::Tree>, String>;

/// The documents a build read as pixels would be drawn from ([`parse_raster`]), by the hash
/// of their text and the fonts they were set in.
#[derive(Default)]
pub struct Trees {
    /// Trees are kept (set for a build with [`PIXEL_STAGES`]); else each is read and let go.
    keeping: AtomicBool,
    kept: Mutex<Kept>,
    /// How far inside its trim each document's text comes, by document, size and trim: a
    /// few bytes a face, kept whether or not the trees are.
    insets: Mutex<HashMap<InsetKey, Option<f64>>>,
}

#[derive(Default)]
struct Kept {
    cells: HashMap<(blake3::Hash, usize), Arc<OnceLock<Read>>>,
    text: usize,
    /// The fonts of the kept documents, held so that no other fonts take their address.
    fonts: Vec<FontDb>,
}

impl std::fmt::Debug for Trees {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.kept.lock().map_or(0, |k| k.cells.len());
        write!(f, "Trees({n} documents)")
    }
}

impl Trees {
    pub fn new() -> Trees {
        Trees::default()
    }

    /// Keeps the trees read from now on (or, `false`, lets every one go).
    pub fn keep(&self, keeping: bool) {
        self.keeping.store(keeping, Ordering::Relaxed);
        if !keeping {
            self.clear();
        }
    }

    /// Remembers how far inside `trim` the text of `svg` (`size_mm` large) comes.
    pub fn note_inset(&self, svg: &str, size_mm: (f64, f64), trim: Rect, inset: Option<f64>) {
        self.insets
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(inset_key(svg, size_mm, trim), inset);
    }

    /// The inset of `svg` when it is known without reading anything (noted, or no text).
    pub fn noted_inset(&self, svg: &str, size_mm: (f64, f64), trim: Rect) -> Option<Option<f64>> {
        if !svg.contains("<text") {
            return Some(None);
        }
        self.insets
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&inset_key(svg, size_mm, trim))
            .copied()
    }

    /// [`crate::render::formats::pdf::text_inset`] of `svg`: remembered, or measured on its
    /// tree (read whole, as the stages read it).
    pub fn inset(
        &self,
        svg: &str,
        size_mm: (f64, f64),
        trim: Rect,
        fonts: &FontDb,
    ) -> Result<Option<f64>, String> {
        if let Some(inset) = self.noted_inset(svg, size_mm, trim) {
            return Ok(inset);
        }
        let tree = self.raster(svg, fonts)?;
        let inset = crate::render::formats::pdf::inset_of(&tree, size_mm, trim);
        self.note_inset(svg, size_mm, trim, inset);
        Ok(inset)
    }

    /// `svg` read with `fonts` as [`parse_raster`] reads it: once, when kept; two threads
    /// asking for the same document at once wait for one reading.
    pub fn raster(&self, svg: &str, fonts: &FontDb) -> Read {
        if !self.keeping.load(Ordering::Relaxed) {
            return parse_raster(svg, fonts).map(Arc::new);
        }
        let key = (blake3::hash(svg.as_bytes()), Arc::as_ptr(fonts) as usize);
        let cell = {
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            match kept.cells.get(&key) {
                Some(cell) => Some(cell.clone()),
                None if kept.cells.len() < MAX_TREES && kept.text + svg.len() <= MAX_TEXT => {
                    kept.text += svg.len();
                    if !kept.fonts.iter().any(|f| Arc::ptr_eq(f, fonts)) {
                        kept.fonts.push(fonts.clone());
                    }
                    let cell = Arc::new(OnceLock::new());
                    kept.cells.insert(key, cell.clone());
                    Some(cell)
                }
                None => None,
            }
        };
        match cell {
            Some(cell) => cell
                .get_or_init(|| parse_raster(svg, fonts).map(Arc::new))
                .clone(),
            None => parse_raster(svg, fonts).map(Arc::new),
        }
    }

    /// `svg` read for its text (what it says, in which colour, where): the whole tree when
    /// trees are kept (the stages after the check draw it), else the document cut down to
    /// its text, read and let go ([`crate::render::formats::pdf::read_text`]: a fraction of
    /// the whole reading). `None` when it has no text.
    pub fn text(&self, svg: &str, fonts: &FontDb) -> Result<Option<Arc<usvg::Tree>>, String> {
        if !svg.contains("<text") {
            return Ok(None);
        }
        if self.keeping.load(Ordering::Relaxed) {
            return self.raster(svg, fonts).map(Some);
        }
        text_alone(svg, fonts)
    }

    /// Lets go of every document kept.
    fn clear(&self) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        *kept = Kept::default();
    }

    /// How many documents are kept.
    pub fn len(&self) -> usize {
        self.kept.lock().map_or(0, |k| k.cells.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A document's hash, and its size and trim (their bits).
type InsetKey = (blake3::Hash, [u64; 6]);

/// The key of a document's inset: its hash, size and trim.
fn inset_key(svg: &str, size_mm: (f64, f64), trim: Rect) -> InsetKey {
    let numbers = [size_mm.0, size_mm.1, trim.x, trim.y, trim.w, trim.h].map(f64::to_bits);
    (blake3::hash(svg.as_bytes()), numbers)
}

/// `svg` read for its text ([`Trees::text`]), through `trees` when given; alone, cut down to
/// its text.
pub fn text(
    trees: Option<&Trees>,
    svg: &str,
    fonts: &FontDb,
) -> Result<Option<Arc<usvg::Tree>>, String> {
    match trees {
        Some(t) => t.text(svg, fonts),
        None => text_alone(svg, fonts),
    }
}

/// `svg` cut down to its text, read and let go.
fn text_alone(svg: &str, fonts: &FontDb) -> Result<Option<Arc<usvg::Tree>>, String> {
    Ok(crate::render::formats::pdf::read_text(svg, fonts)?.map(Arc::new))
}

/// `svg` read as [`parse_raster`] reads it, through `trees` when given.
pub fn raster(trees: Option<&Trees>, svg: &str, fonts: &FontDb) -> Read {
    match trees {
        Some(t) => t.raster(svg, fonts),
        None => parse_raster(svg, fonts).map(Arc::new),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::faces::fonts::builtin;
    use crate::render::sheets::layout::Rect;

    fn doc(n: usize) -> String {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10"><text x="1" y="5" font-size="3">{n}</text></svg>"#
        )
    }

    #[test]
    fn a_document_is_read_once_and_is_the_tree_it_would_be_read_as() {
        let trees = Trees::new();
        trees.keep(true);
        let fonts = builtin();
        let a = trees.raster(&doc(1), &fonts).unwrap();
        let b = trees.raster(&doc(1), &fonts).unwrap();
        assert!(Arc::ptr_eq(&a, &b), "the second asking reads nothing");
        assert_eq!(trees.len(), 1);
        let c = trees.raster(&doc(2), &fonts).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        // The kept tree draws what a fresh reading draws.
        let fresh = parse_raster(&doc(1), &fonts).unwrap();
        let draw = |t: &usvg::Tree| {
            let mut p = resvg::tiny_skia::Pixmap::new(40, 40).unwrap();
            resvg::render(
                t,
                resvg::tiny_skia::Transform::from_scale(4.0 / 3.78, 4.0 / 3.78),
                &mut p.as_mut(),
            );
            p.take()
        };
        assert_eq!(draw(&a), draw(&fresh));
        assert!(draw(&a) != draw(&c));
    }

    #[test]
    fn past_its_bound_a_document_is_read_each_time_and_not_kept() {
        let trees = Trees::new();
        trees.keep(true);
        let fonts = builtin();
        for n in 0..MAX_TREES + 5 {
            trees
                .raster(
                    &format!("<svg xmlns=\"http://www.w3.org/2000/svg\"><!--{n}--></svg>"),
                    &fonts,
                )
                .ok();
        }
        assert_eq!(trees.len(), MAX_TREES);
        let past = doc(MAX_TREES + 7);
        let a = trees.raster(&past, &fonts).unwrap();
        let b = trees.raster(&past, &fonts).unwrap();
        assert!(!Arc::ptr_eq(&a, &b), "read again, not kept");
        assert_eq!(trees.len(), MAX_TREES);
    }

    #[test]
    fn without_keeping_each_reading_is_let_go_and_an_inset_is_remembered() {
        let trees = Trees::new();
        let fonts = builtin();
        let a = trees.raster(&doc(1), &fonts).unwrap();
        let b = trees.raster(&doc(1), &fonts).unwrap();
        assert!(!Arc::ptr_eq(&a, &b), "read again, not kept");
        assert!(trees.is_empty());
        let trim = Rect::of_size((10.0, 10.0));
        // Measured on the tree: the text begins 1 mm from the left edge.
        let inset = trees.inset(&doc(1), (10.0, 10.0), trim, &fonts).unwrap();
        assert!(inset.is_some_and(|i| i > 0.0 && i <= 1.0), "{inset:?}");
        // A noted inset is taken as noted, without reading the document.
        trees.note_inset(&doc(2), (10.0, 10.0), trim, Some(42.0));
        assert_eq!(
            trees.inset(&doc(2), (10.0, 10.0), trim, &fonts).unwrap(),
            Some(42.0)
        );
        // Another trim is another measure.
        let wider = Rect { w: 20.0, ..trim };
        assert_ne!(
            trees.inset(&doc(2), (10.0, 10.0), wider, &fonts).unwrap(),
            Some(42.0)
        );
        // Kept from now on; and let go again.
        trees.keep(true);
        trees.raster(&doc(3), &fonts).unwrap();
        assert_eq!(trees.len(), 1);
        trees.keep(false);
        assert!(trees.is_empty());
    }

    #[test]
    fn the_same_text_in_other_fonts_is_another_document() {
        let trees = Trees::new();
        trees.keep(true);
        let one = builtin();
        let other: FontDb = Arc::new((*one).clone());
        let a = trees.raster(&doc(1), &one).unwrap();
        let b = trees.raster(&doc(1), &other).unwrap();
        assert!(!Arc::ptr_eq(&a, &b));
    }
}

#[cfg(test)]
mod shipped {
    use std::path::Path;

    use crate::render::faces::drawn::every_face;
    use crate::render::faces::template::Templates;
    use crate::render::formats::pdf;
    use crate::render::sheets;
    use crate::render::sheets::layout::Rect;

    /// The safe-zone measure taken from a face read whole (as the check now takes it, from
    /// the tree the stages draw) is the one taken from the face cut down to its text (as the
    /// print-shop manifest takes it), on every face of the shipped games.
    #[test]
    fn a_face_read_whole_measures_its_text_as_the_face_cut_to_its_text() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let mut measured = 0;
        for slug in crate::model::game_slugs(&data).unwrap() {
            let game = crate::model::load_game(&data, &slug).unwrap();
            let templates = Templates::new(&game).unwrap();
            let faces = crate::render::faces::draw_all(&game, &templates, 3.0).unwrap();
            for f in every_face(&game, Some(&faces), &[]) {
                let page = sheets::single_face(&f.svg, f.size);
                let trim = Rect::of_size(f.size);
                let cut = pdf::text_inset(&page, f.size, trim, &faces.fonts).unwrap();
                let tree = faces.trees.raster(&page, &faces.fonts).unwrap();
                let whole = pdf::inset_of(&tree, f.size, trim);
                assert_eq!(cut, whole, "{slug}: {}", f.what);
                measured += usize::from(cut.is_some());
            }
        }
        assert!(measured > 100, "{measured} faces with text");
    }
}
