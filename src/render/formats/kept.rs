//! What the PDFs of one `printplay watch` read and drew, kept for the next round's PDF of the
//! same title, which then reads and draws again only what changed. A round rewrites the same
//! PDFs from mostly the same faces: a one-card edit of a 1,000-card game reads one face of
//! `cards.pdf` instead of 1,000 (usvg's parse: the larger part of writing a vector PDF), and
//! draws, simulates and compresses one face's colour-vision pictures of `proof.pdf` instead of
//! 1,000 (the larger part of writing the proof). A plain build keeps nothing.
//!
//! What is kept is the last PDF's worth per title, by a hash of what made each item (a
//! document's text; for a picture, also its size), with what it depended on besides: the
//! fonts and the art the document's `<image>`s name, as loaded then. Art whose file changed is
//! loaded anew, and what was made from it is made again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use krilla::image::Image;

use crate::render::faces::fonts::FontDb;
use crate::render::faces::images::{self, Art};

/// At most this many items are kept for a PDF (a read card face is about 90 KB: a 1,000-card
/// `cards.pdf` keeps about 90 MB; a face's three compressed pictures on the proof, a few tens
/// of KB); the next PDF makes the others again.
pub const KEPT_PER_PDF: usize = 2000;

/// Items kept by the title of the PDF that made them, each by its key.
type Shelf<T> = Mutex<HashMap<String, HashMap<blake3::Hash, KeptItem<T>>>>;

/// What the PDFs written with it read ([`crate::render::formats::pdf`]: each page's
/// documents) and drew (the proof's pictures), kept until the next PDF of the same title.
#[derive(Default)]
pub struct ReadPages {
    trees: Shelf<Arc<usvg::Tree>>,
    pictures: Shelf<Vec<Image>>,
}

impl std::fmt::Debug for ReadPages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ReadPages({} documents, {} pictures)",
            count(&self.trees, None),
            count(&self.pictures, None)
        )
    }
}

impl ReadPages {
    /// How many documents and pictures are kept for the PDF of `title`.
    pub fn kept(&self, title: &str) -> (usize, usize) {
        (
            count(&self.trees, Some(title)),
            count(&self.pictures, Some(title)),
        )
    }
}

/// How many items a shelf keeps for the PDF of `title`, or for every PDF.
fn count<T>(shelf: &Shelf<T>, title: Option<&str>) -> usize {
    shelf.lock().map_or(0, |k| match title {
        Some(t) => k.get(t).map_or(0, HashMap::len),
        None => k.values().map(HashMap::len).sum(),
    })
}

/// An item with what its making depended on besides the text of its document.
struct KeptItem<T> {
    item: T,
    fonts: FontDb,
    art: Vec<Option<Arc<Art>>>,
}

/// The art a document's `<image>`s name, as loaded now.
fn art_of(svg: &str) -> Vec<Option<Arc<Art>>> {
    crate::render::cache::hrefs(svg)
        .iter()
        .map(|h| images::loaded(h))
        .collect()
}

impl<T> KeptItem<T> {
    /// Whether it was made with these very fonts and art.
    fn still(&self, fonts: &FontDb, art: &[Option<Arc<Art>>]) -> bool {
        Arc::ptr_eq(&self.fonts, fonts)
            && self.art.len() == art.len()
            && self.art.iter().zip(art).all(|(a, b)| match (a, b) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            })
    }
}

/// What one PDF makes of one kind: what the last PDF of its title made, and what it makes
/// itself, which the next one will find; nothing when it keeps nothing.
pub struct Kept<'a, T> {
    store: Option<&'a Shelf<T>>,
    title: String,
    earlier: HashMap<blake3::Hash, KeptItem<T>>,
    now: Mutex<HashMap<blake3::Hash, KeptItem<T>>>,
}

/// The documents one PDF reads.
pub type KeptTrees<'a> = Kept<'a, Arc<usvg::Tree>>;
/// The pictures one PDF draws from documents.
pub type KeptPictures<'a> = Kept<'a, Vec<Image>>;

impl<'a> KeptTrees<'a> {
    /// The documents the PDF of `title` reads, with those the last one read.
    pub fn trees(title: &str, store: Option<&'a ReadPages>) -> KeptTrees<'a> {
        Kept::open(title, store.map(|s| &s.trees))
    }
}

impl<'a> KeptPictures<'a> {
    /// The pictures the PDF of `title` draws, with those the last one drew.
    pub fn pictures(title: &str, store: Option<&'a ReadPages>) -> KeptPictures<'a> {
        Kept::open(title, store.map(|s| &s.pictures))
    }
}

impl<'a, T: Clone> Kept<'a, T> {
    fn open(title: &str, store: Option<&'a Shelf<T>>) -> Kept<'a, T> {
        let earlier = store
            .and_then(|s| s.lock().unwrap_or_else(|e| e.into_inner()).remove(title))
            .unwrap_or_default();
        Kept {
            store,
            title: title.to_string(),
            earlier,
            now: Mutex::new(HashMap::new()),
        }
    }

    /// What `make` makes of `svg` (whose item is known by `key`: its hash, and the hash of
    /// anything else the item depends on) with `fonts`: kept from the last PDF of this title
    /// when nothing it depends on changed.
    pub fn get_or(
        &self,
        svg: &str,
        key: blake3::Hash,
        fonts: &FontDb,
        make: impl FnOnce() -> Result<T, String>,
    ) -> Result<T, String> {
        if self.store.is_none() {
            return make();
        }
        let art = art_of(svg);
        let item = match self.earlier.get(&key).filter(|k| k.still(fonts, &art)) {
            Some(k) => k.item.clone(),
            None => make()?,
        };
        let mut now = self.now.lock().unwrap_or_else(|e| e.into_inner());
        if now.len() < KEPT_PER_PDF {
            now.insert(
                key,
                KeptItem {
                    item: item.clone(),
                    fonts: fonts.clone(),
                    art,
                },
            );
        }
        Ok(item)
    }

    /// Keeps what this PDF made for the next one of its title.
    pub fn close(self) {
        if let Some(store) = self.store {
            let now = self.now.into_inner().unwrap_or_else(|e| e.into_inner());
            store
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(self.title, now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::formats::pdf::{PageSpec, write_pdf, write_pdf_keeping};
    use std::cell::Cell;

    /// `art.svg` in `dir`, a square of `fill`, written and loaded (again) as drawing faces
    /// loads the art it places.
    fn square_art(dir: &std::path::Path, fill: &str) -> Arc<Art> {
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="{fill}"/></svg>"##
        );
        std::fs::write(dir.join("art.svg"), svg).unwrap();
        images::load(dir, "art.svg").unwrap()
    }

    /// An item is made once while its document, fonts and art stay the same, across PDFs of
    /// one title; again when its art file changed, when the fonts are others, or when nothing
    /// is kept; and a PDF of another title keeps its own.
    #[test]
    fn an_item_is_made_again_only_when_what_it_depends_on_changed() {
        let dir = tempfile::tempdir().unwrap();
        let art = square_art(dir.path(), "red");
        let svg = format!(
            r#"<svg><image href="{}" width="10" height="10"/></svg>"#,
            crate::render::xml_escape(&art.href)
        );
        let key = blake3::hash(svg.as_bytes());
        let fonts = crate::render::faces::fonts::builtin();
        let store = ReadPages::default();
        let made = Cell::new(0);
        let round = |title: &str, store: Option<&ReadPages>, fonts: &FontDb| {
            let kept = KeptPictures::pictures(title, store);
            let item = kept.get_or(&svg, key, fonts, || {
                made.set(made.get() + 1);
                Ok(Vec::new())
            });
            kept.close();
            item.unwrap()
        };
        round("proof", Some(&store), &fonts);
        round("proof", Some(&store), &fonts);
        assert_eq!(made.get(), 1, "the second PDF takes the first one's");
        assert_eq!(store.kept("proof"), (0, 1));
        round("other", Some(&store), &fonts);
        assert_eq!(made.get(), 2, "each title keeps its own");
        square_art(dir.path(), "blue");
        round("proof", Some(&store), &fonts);
        assert_eq!(made.get(), 3, "its art changed");
        round("proof", Some(&store), &fonts);
        assert_eq!(made.get(), 3);
        let other_fonts: FontDb = Arc::new(fonts.as_ref().clone());
        round("proof", Some(&store), &other_fonts);
        assert_eq!(made.get(), 4, "other fonts");
        round("proof", None, &other_fonts);
        assert_eq!(made.get(), 5, "nothing is kept without a store");
    }

    #[test]
    fn kept_pages_are_read_again_when_their_art_changes() {
        let dir = tempfile::tempdir().unwrap();
        let art = square_art(dir.path(), "#ff0000");
        let pages = [PageSpec::new(
            (20.0, 20.0),
            format!(
                r#"<image href="{}" width="10" height="10"/>"#,
                crate::render::xml_escape(&art.href)
            ),
        )];
        let fonts = crate::render::faces::fonts::builtin();
        let title = "kept pages and their art";
        let read = write_pdf(title, &pages, &fonts).unwrap();
        let store = ReadPages::default();
        let write_pdf = |title: &str, pages: &[PageSpec], fonts: &FontDb| {
            write_pdf_keeping(title, pages, fonts, Some(&store))
        };
        let first = write_pdf(title, &pages, &fonts).unwrap();
        assert_eq!(first, read, "keeping what was read changes nothing written");
        assert_eq!(
            store.kept(title),
            (1, 0),
            "the page is kept for the next PDF of its title"
        );
        assert_eq!(write_pdf(title, &pages, &fonts).unwrap(), first);
        // The same page, its art changed on disk (and loaded again, as drawing faces does).
        square_art(dir.path(), "blue");
        let changed = write_pdf(title, &pages, &fonts).unwrap();
        assert_ne!(changed, first, "the page was read again with the new art");
        assert_eq!(write_pdf(title, &pages, &fonts).unwrap(), changed);
    }
}
