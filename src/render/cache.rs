//! Incremental builds: what a build drew and rasterised is kept in a content-addressed cache
//! under `<out>/.cache/<slug>/`, so the next build draws and rasterises only what changed.
//!
//! - A face (a card's front, a card's own back, a deck's back, a piece and its back) is keyed
//!   by everything its drawing reads: the code that draws ([`CODE`], a fingerprint of the
//!   sources `build.rs` makes), the game's templates as loaded, the font files the faces are
//!   set in (their bytes), `game.toml` (game-wide settings such as the smallest type), the
//!   game folder (art is placed by its path), the symbols and icons the template functions
//!   draw (with the icons' bytes), the template's name and the whole template context (the
//!   card's data, and for a card's own back the back's values; the deck, the parameters, the
//!   bleed). The entry holds the SVG, the art it placed (for
//!   the resolution warnings) and the hash of each art file's bytes: art that changed since is
//!   a miss. A face with a problem (text that overflows, art that cannot be used) is never
//!   kept, so the check sees every problem again.
//! - A raster image (a face at 300 dpi, a Tabletop Simulator sheet or tile) is keyed by the
//!   SVG documents it draws, the size and resolution, the fonts' bytes and the bytes of every
//!   art file the documents name.
//! - How far inside the trim a page's text comes (the print-shop manifest's safe-zone
//!   measurement, [`text_inset`]) is keyed by the page, its size and trim, and the fonts'
//!   bytes. A face's own measurement, which the contrast check takes from the reading it
//!   makes anyway, is not kept.
//!
//! Entries are files named by their key; each holds the hash of its own bytes, and one whose
//! bytes do not match (a write cut short, a disk error) is removed and drawn again. Entries
//! are written under a temporary name and renamed into place. After a full build the entries
//! that build did not use are removed, so the cache holds one build's worth.
//!
//! The cache sits beside the games' folders, never in one: a game's folder holds only what
//! is published (its gallery lists nothing of the cache).

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use tera::Context;

use super::{BuildOptions, GameBuild, png};
use crate::model::Game;
use crate::render::faces::fonts::FontDb;
use crate::render::faces::images::{self, Art};
use crate::render::faces::template::{Placement, Rendered, TemplateError, Templates, min_text_mm};

/// The cache's folder inside the output folder.
pub const CACHE_DIR: &str = ".cache";

/// A fingerprint of the code that draws and rasterises (see `build.rs`).
pub const CODE: &str = env!("PRINTPLAY_CODE_HASH");

/// The first bytes of every entry; a format change changes them.
const MAGIC: &[u8; 8] = b"ppcache1";

/// Kinds of entries, each a folder of the game's cache.
const FACE: &str = "face";
const RASTER: &str = "raster";
const INSET: &str = "inset";

/// One game's cache for one build.
pub struct Cache {
    /// `<out>/.cache/<slug>/`.
    dir: PathBuf,
    game_dir: PathBuf,
    /// What every face of this build depends on besides its context.
    face_salt: blake3::Hash,
    /// The entries this build read or wrote, which a sweep keeps.
    used: Mutex<HashSet<PathBuf>>,
    /// Faces drawn but not yet kept: they are written once the game passed its check
    /// ([`Cache::commit`]), so that a game that does not build leaves no files.
    pending: Mutex<Vec<(PathBuf, Vec<u8>)>>,
    /// The folders this build made (or found) for its entries: each is made once, not once
    /// an entry.
    made: Mutex<HashSet<PathBuf>>,
}

impl fmt::Debug for Cache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cache").field("dir", &self.dir).finish()
    }
}

impl Cache {
    /// The cache of `game`'s build with `options` and the game's loaded `templates`; `None`
    /// when the build does not keep one (`options.cache` off: `check`, tests).
    pub fn open(options: &BuildOptions, game: &Game, templates: &Templates) -> Option<Arc<Cache>> {
        if !options.cache {
            return None;
        }
        let mut h = blake3::Hasher::new();
        h.update(CODE.as_bytes());
        h.update(fonts_digest(&templates.faces.database).as_bytes());
        templates.digest(&mut h);
        field(&mut h, game.game_file.text.as_bytes());
        // Art is placed by its real path: the same folder reached another way is the same.
        let dir = std::fs::canonicalize(&game.dir).unwrap_or_else(|_| game.dir.clone());
        field(&mut h, dir.to_string_lossy().as_bytes());
        h.update(&min_text_mm(game).to_bits().to_le_bytes());
        // What the template functions read of the components besides the context: the
        // symbols (`badge`, `mark`, `texture`, text's `[id]`) and the game's icons, with
        // their images' bytes.
        for part in [
            serde_json::to_vec(&game.components.symbols),
            serde_json::to_vec(&game.components.icons),
        ] {
            field(&mut h, &part.unwrap_or_default());
        }
        for icon in &game.components.icons {
            match images::load(&game.dir, icon.image.get_ref()) {
                Ok(art) => h.update(art_digest(&art).as_bytes()),
                Err(_) => h.update(&[0; blake3::OUT_LEN]),
            };
        }
        Some(Arc::new(Cache {
            dir: options.out.join(CACHE_DIR).join(&game.slug),
            game_dir: game.dir.clone(),
            face_salt: h.finalize(),
            used: Mutex::new(HashSet::new()),
            pending: Mutex::new(Vec::new()),
            made: Mutex::new(HashSet::new()),
        }))
    }

    fn path(&self, kind: &str, key: &blake3::Hash) -> PathBuf {
        self.dir.join(kind).join(key.to_hex().as_str())
    }

    fn mark(&self, path: PathBuf) {
        self.used
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path);
    }

    /// The payload of an entry whose bytes are whole; a damaged entry is removed.
    fn get(&self, kind: &str, key: &blake3::Hash) -> Option<Vec<u8>> {
        let path = self.path(kind, key);
        let bytes = std::fs::read(&path).ok()?;
        match verified(&bytes) {
            Some(payload) => {
                self.mark(path);
                Some(payload.to_vec())
            }
            None => {
                let _ = std::fs::remove_file(&path);
                None
            }
        }
    }

    /// Keeps an entry. A cache that cannot be written only makes the next build slower, so
    /// a failure is not an error of the build.
    fn put(&self, kind: &str, key: &blake3::Hash, payload: &[u8]) {
        let path = self.path(kind, key);
        if self.write(&path, &entry(payload)).is_ok() {
            self.mark(path);
        }
    }

    /// Keeps an entry once [`Cache::commit`] is called.
    fn put_later(&self, kind: &str, key: &blake3::Hash, payload: &[u8]) {
        let path = self.path(kind, key);
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((path, entry(payload)));
    }

    /// Writes the faces drawn by this build: called once the game passed its check.
    pub fn commit(&self) {
        let pending = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        let written: Vec<PathBuf> = pending
            .into_par_iter()
            .filter_map(|(path, bytes)| self.write(&path, &bytes).is_ok().then_some(path))
            .collect();
        self.used
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(written);
    }

    /// [`write_entry`] in a folder made once a build.
    fn write(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let known = self
            .made
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(dir);
        if !known {
            std::fs::create_dir_all(dir)?;
            self.made
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(dir.to_path_buf());
        }
        write_entry(path, bytes)
    }

    /// Removes every entry (and stray temporary file) this build did not use.
    pub fn sweep(&self) {
        let used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        for kind in [FACE, RASTER, INSET] {
            let Ok(entries) = std::fs::read_dir(self.dir.join(kind)) else {
                continue;
            };
            for path in entries.flatten().map(|e| e.path()) {
                if !used.contains(&path) {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
    }

    /// How many entries this build used (read or written).
    pub fn used(&self) -> usize {
        self.used.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// An entry's bytes: the magic, the payload's hash, the payload.
fn entry(payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(MAGIC.len() + blake3::OUT_LEN + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(blake3::hash(payload).as_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

/// The payload of an entry, when its stored hash matches its bytes.
fn verified(bytes: &[u8]) -> Option<&[u8]> {
    let rest = bytes.strip_prefix(MAGIC)?;
    if rest.len() < blake3::OUT_LEN {
        return None;
    }
    let (stored, payload) = rest.split_at(blake3::OUT_LEN);
    let stored: [u8; blake3::OUT_LEN] = stored.try_into().ok()?;
    (blake3::Hash::from_bytes(stored) == blake3::hash(payload)).then_some(payload)
}

/// Writes an entry under a temporary name of its own and renames it into place (two
/// threads may write the same entry at once; either copy is whole).
fn write_entry(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Hashes a variable-length field so that two fields cannot run into each other.
fn field(h: &mut blake3::Hasher, bytes: &[u8]) {
    h.update(&(bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// The hash of every font's bytes in `fonts` (the bundled faces and the game's own),
/// computed once per font database.
pub fn fonts_digest(fonts: &FontDb) -> blake3::Hash {
    static MEMO: OnceLock<Mutex<Vec<(FontDb, blake3::Hash)>>> = OnceLock::new();
    let memo = MEMO.get_or_init(Default::default);
    if let Some((_, h)) = memo
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(db, _)| Arc::ptr_eq(db, fonts))
    {
        return *h;
    }
    let mut h = blake3::Hasher::new();
    for face in fonts.faces() {
        fonts.with_face_data(face.id, |data, index| {
            field(&mut h, data);
            h.update(&index.to_le_bytes());
        });
    }
    let digest = h.finalize();
    memo.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((fonts.clone(), digest));
    digest
}

/// The hash of a loaded art file's bytes, computed once per version of the file.
fn art_digest(art: &Arc<Art>) -> blake3::Hash {
    type ByHref = HashMap<String, (Arc<Art>, blake3::Hash)>;
    static MEMO: OnceLock<Mutex<ByHref>> = OnceLock::new();
    let memo = MEMO.get_or_init(Default::default);
    if let Some((a, h)) = memo
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&art.href)
        && Arc::ptr_eq(a, art)
    {
        return *h;
    }
    let digest = blake3::hash(art.bytes());
    memo.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(art.href.clone(), (art.clone(), digest));
    digest
}

/// What a face entry holds.
#[derive(Serialize, Deserialize)]
struct FaceEntry {
    svg: String,
    /// Each image placed: its path as the data gave it and its resolution (as `f64` bits).
    placed: Vec<(String, Option<u64>)>,
    /// The hash of each placed image's bytes when the face was drawn.
    art: Vec<String>,
}

/// Draws a face with `templates`, or takes it from the cache when nothing it reads changed.
pub fn render_face(
    cache: Option<&Cache>,
    templates: &Templates,
    name: &str,
    ctx: &Context,
) -> Result<Rendered, TemplateError> {
    let Some(cache) = cache else {
        return templates.render_face(name, ctx);
    };
    let mut h = blake3::Hasher::new();
    h.update(cache.face_salt.as_bytes());
    field(&mut h, name.as_bytes());
    // The context is everything the template reads of the data.
    if serde_json::to_writer(&mut h, &ctx.clone().into_json()).is_err() {
        return templates.render_face(name, ctx);
    }
    let key = h.finalize();
    if let Some(r) = cache
        .get(FACE, &key)
        .and_then(|payload| cache.face_from(name, &payload))
    {
        return Ok(r);
    }
    let r = templates.render_face(name, ctx)?;
    if r.overflows.is_empty() && r.art_errors.is_empty() {
        let art: Option<Vec<String>> = r
            .placed
            .iter()
            .map(|p| {
                images::load(&cache.game_dir, &p.src)
                    .ok()
                    .map(|a| art_digest(&a).to_hex().to_string())
            })
            .collect();
        if let Some(art) = art {
            let entry = FaceEntry {
                svg: r.svg.clone(),
                placed: r
                    .placed
                    .iter()
                    .map(|p| (p.src.clone(), p.dpi.map(f64::to_bits)))
                    .collect(),
                art,
            };
            if let Ok(payload) = serde_json::to_vec(&entry) {
                cache.put_later(FACE, &key, &payload);
            }
        }
    }
    Ok(r)
}

impl Cache {
    /// A face from its entry, when every image it placed still has the bytes it had (each
    /// is loaded again, as drawing would, so that pages find it).
    fn face_from(&self, name: &str, payload: &[u8]) -> Option<Rendered> {
        let entry: FaceEntry = serde_json::from_slice(payload).ok()?;
        if entry.art.len() != entry.placed.len() {
            return None;
        }
        for ((src, _), digest) in entry.placed.iter().zip(&entry.art) {
            let art = images::load(&self.game_dir, src).ok()?;
            if art_digest(&art).to_hex().as_str() != digest {
                return None;
            }
        }
        Some(Rendered {
            template: name.to_string(),
            svg: entry.svg,
            overflows: Vec::new(),
            art_errors: Vec::new(),
            placed: entry
                .placed
                .into_iter()
                .map(|(src, dpi)| Placement {
                    src,
                    dpi: dpi.map(f64::from_bits),
                })
                .collect(),
        })
    }
}

/// [`crate::render::formats::pdf::text_inset`], through the cache: how far inside `trim` the text of `page` comes,
/// kept by everything the measurement reads (the code, the fonts' bytes, the document, its
/// size and the trim; art has no say in where text lies). Kept once the game passed its
/// check, as faces are. A document that does not read is not kept.
pub fn text_inset(
    cache: Option<&Cache>,
    page: &str,
    size_mm: (f64, f64),
    trim: crate::render::sheets::layout::Rect,
    fonts: &FontDb,
    trees: Option<&crate::render::trees::Trees>,
) -> Result<Option<f64>, String> {
    use crate::render::formats::pdf;
    // Through the build's trees, the page is read whole once for every use of it; alone, it
    // is read cut down to its text.
    let measure = || match trees {
        Some(t) => t.inset(page, size_mm, trim, fonts),
        None => pdf::text_inset(page, size_mm, trim, fonts),
    };
    // What this build already measured (the contrast check notes each face's inset from
    // its reading) is neither looked up nor kept: a file an entry costs more than the
    // measurement it would save.
    if let Some(inset) = trees.and_then(|t| t.noted_inset(page, size_mm, trim)) {
        return Ok(inset);
    }
    let Some(cache) = cache else {
        return measure();
    };
    let mut h = blake3::Hasher::new();
    h.update(CODE.as_bytes());
    h.update(fonts_digest(fonts).as_bytes());
    for n in [size_mm.0, size_mm.1, trim.x, trim.y, trim.w, trim.h] {
        h.update(&n.to_bits().to_le_bytes());
    }
    field(&mut h, page.as_bytes());
    let key = h.finalize();
    // No text: nothing; else the inset's bits.
    let kept = cache
        .get(INSET, &key)
        .and_then(|payload| match payload[..] {
            [] => Some(None),
            _ => Some(Some(f64::from_bits(u64::from_le_bytes(
                payload.try_into().ok()?,
            )))),
        });
    if let Some(inset) = kept {
        return Ok(inset);
    }
    let inset = measure()?;
    let payload = inset.map_or(Vec::new(), |i| i.to_bits().to_le_bytes().to_vec());
    cache.put_later(INSET, &key, &payload);
    Ok(inset)
}

/// The key of a raster image: what `kind` draws, at what size, the documents, the fonts
/// and the bytes of every art file the documents name.
fn raster_key(kind: &str, numbers: &[f64], docs: &[&str], fonts: &FontDb) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(CODE.as_bytes());
    field(&mut h, kind.as_bytes());
    h.update(fonts_digest(fonts).as_bytes());
    for n in numbers {
        h.update(&n.to_bits().to_le_bytes());
    }
    for doc in docs {
        field(&mut h, doc.as_bytes());
        for href in hrefs(doc) {
            match images::loaded(&href) {
                Some(art) => h.update(art_digest(&art).as_bytes()),
                None => h.update(&[0; blake3::OUT_LEN]),
            };
        }
    }
    h.finalize()
}

/// The file hrefs of a document's `<image>`s (art placed by path), unescaped.
pub(crate) fn hrefs(doc: &str) -> Vec<String> {
    doc.match_indices("<image")
        .filter_map(|(at, _)| {
            let tag = &doc[at..at + doc[at..].find('>')?];
            let start = tag.find("href=\"")? + 6;
            let href = &tag[start..start + tag[start..].find('"')?];
            (!href.starts_with("data:")).then(|| href.replace("&amp;", "&"))
        })
        .collect()
}

/// Takes a raster image from the cache, or makes it and keeps it.
fn raster(
    cache: Option<&Cache>,
    key: impl FnOnce() -> blake3::Hash,
    make: impl FnOnce() -> Result<Vec<u8>, String>,
) -> Result<Vec<u8>, String> {
    let Some(cache) = cache else {
        return make();
    };
    let key = key();
    if let Some(bytes) = cache.get(RASTER, &key) {
        return Ok(bytes);
    }
    let bytes = make()?;
    cache.put(RASTER, &key, &bytes);
    Ok(bytes)
}

impl GameBuild<'_> {
    fn cache(&self) -> Option<&Cache> {
        self.faces.cache.as_deref()
    }

    /// [`png::render_png`] with the game's fonts, through the cache, of a face's document
    /// (read once a build, [`crate::render::trees`]).
    pub fn png(&self, svg: &str, size_mm: (f64, f64), px_per_mm: f64) -> Result<Vec<u8>, String> {
        self.png_read(svg, size_mm, px_per_mm, Some(&self.faces.trees))
    }

    /// [`GameBuild::png`] of a document no other stage draws (a print-shop page): read for
    /// this picture alone, and not kept.
    pub fn png_alone(
        &self,
        svg: &str,
        size_mm: (f64, f64),
        px_per_mm: f64,
    ) -> Result<Vec<u8>, String> {
        self.png_read(svg, size_mm, px_per_mm, None)
    }

    fn png_read(
        &self,
        svg: &str,
        size_mm: (f64, f64),
        px_per_mm: f64,
        trees: Option<&crate::render::trees::Trees>,
    ) -> Result<Vec<u8>, String> {
        let fonts = &self.faces.fonts;
        raster(
            self.cache(),
            || raster_key("png", &[size_mm.0, size_mm.1, px_per_mm], &[svg], fonts),
            || png::render_png(svg, size_mm, px_per_mm, fonts, trees),
        )
    }

    /// A document as a PNG without a stated resolution (`png::encode` of
    /// `png::rasterise`), through the cache.
    pub fn screen_png(
        &self,
        svg: &str,
        size_mm: (f64, f64),
        px_per_mm: f64,
    ) -> Result<Vec<u8>, String> {
        let fonts = &self.faces.fonts;
        raster(
            self.cache(),
            || raster_key("screen", &[size_mm.0, size_mm.1, px_per_mm], &[svg], fonts),
            || {
                png::encode(&png::rasterise(
                    svg,
                    size_mm,
                    px_per_mm,
                    fonts,
                    Some(&self.faces.trees),
                )?)
            },
        )
    }

    /// [`png::grid_png`], through the cache.
    pub fn grid_png(
        &self,
        faces: &[String],
        last: Option<&str>,
        grid: (u32, u32),
        size_mm: (f64, f64),
        px_per_mm: f64,
    ) -> Result<Vec<u8>, String> {
        let fonts = &self.faces.fonts;
        let key = || {
            let docs: Vec<&str> = faces.iter().map(String::as_str).collect();
            let mut h = blake3::Hasher::new();
            h.update(
                raster_key(
                    "grid",
                    &[
                        f64::from(grid.0),
                        f64::from(grid.1),
                        size_mm.0,
                        size_mm.1,
                        px_per_mm,
                    ],
                    &docs,
                    fonts,
                )
                .as_bytes(),
            );
            h.update(
                raster_key("last", &[], &last.into_iter().collect::<Vec<_>>(), fonts).as_bytes(),
            );
            h.finalize()
        };
        raster(self.cache(), key, || {
            png::grid_png(
                faces,
                last,
                grid,
                size_mm,
                px_per_mm,
                fonts,
                Some(&self.faces.trees),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_whole_entry_is_read() {
        let whole = entry(b"payload");
        assert_eq!(verified(&whole), Some(&b"payload"[..]));
        assert_eq!(verified(&entry(b"")), Some(&b""[..]));
        let mut damaged = whole.clone();
        *damaged.last_mut().unwrap() ^= 1;
        assert_eq!(verified(&damaged), None);
        assert_eq!(verified(&whole[..whole.len() - 1]), None);
        assert_eq!(verified(&whole[..20]), None);
        let mut other_format = whole.clone();
        other_format[7] = b'0';
        assert_eq!(verified(&other_format), None);
    }

    #[test]
    fn the_art_a_document_names_is_found_and_data_urls_are_not_files() {
        let doc = r##"<svg><use href="#a"/><image href="/g/art/a&amp;b.png" x="1"/><image x="0" href="data:image/png;base64,AA"/><image href="/g/art/c.svg"></image></svg>"##;
        assert_eq!(hrefs(doc), vec!["/g/art/a&b.png", "/g/art/c.svg"]);
    }
}
