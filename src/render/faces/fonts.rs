//! Fonts: the bundled DejaVu faces, compiled into the binary from `fonts/` so that nothing
//! depends on the fonts installed on the machine (Bitstream Vera licence, see
//! `fonts/LICENSE-DejaVu.txt`; they cover Finnish and the other Latin languages), and the
//! faces a game ships in its own `fonts/` folder (TTF, OTF, TTC).
//!
//! Templates name a face in `text(face=...)`: `sans`, `bold`, `italic`, `bold-italic` and
//! `serif-italic` for the bundled ones, and a game's own by family and style, as `"Family"`, `"Family Bold"`,
//! `"Family Italic"` or `"Family Bold Italic"` (other weights: `Light`, `Medium`, `Black`...).
//! A game's pages are drawn with its own font database ([`GameFaces::database`]): the bundled
//! faces and the game's own, never another game's, so `font-family="Family"` in a template
//! works too and means the same face whatever else is built in the same process; the PDF
//! embeds the subset of each face that is used.
//!
//! A character a face has no glyph for is drawn in another face of the game's database
//! that has one, of the same weight and slant where one has it ([`GameFaces::fallback`] for
//! `text(...)` boxes, [`usvg_resolver`] for a template's own `<text>`); [`draws_nothing`]
//! lists the characters no face needs a glyph for.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::{Arc, OnceLock, RwLock};

use usvg::fontdb;

use crate::diag::Problem;

/// A font face, as a handle into the faces this process has loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Face(usize);

#[allow(non_upper_case_globals)]
impl Face {
    /// Body text: `font-family="DejaVu Sans"` (condensed cut).
    pub const Sans: Face = Face(0);
    /// Titles and numbers: `font-weight="bold"`.
    pub const Bold: Face = Face(1);
    /// Journal and flavour lines: `font-family="DejaVu Serif" font-style="italic"`.
    pub const SerifItalic: Face = Face(2);
    /// `*italic*` in sans text: DejaVu Sans Condensed Oblique.
    pub const Italic: Face = Face(3);
    /// `***both***` in sans text: DejaVu Sans Condensed Bold Oblique.
    pub const BoldItalic: Face = Face(4);
}

const SANS: &[u8] = include_bytes!("../../../fonts/DejaVuSansCondensed.ttf");
const BOLD: &[u8] = include_bytes!("../../../fonts/DejaVuSansCondensed-Bold.ttf");
const SERIF_ITALIC: &[u8] = include_bytes!("../../../fonts/DejaVuSerifCondensed-Italic.ttf");
const OBLIQUE: &[u8] = include_bytes!("../../../fonts/DejaVuSansCondensed-Oblique.ttf");
const BOLD_OBLIQUE: &[u8] = include_bytes!("../../../fonts/DejaVuSansCondensed-BoldOblique.ttf");

/// The names templates give the bundled faces.
const BUILTIN_NAMES: [&str; 5] = ["sans", "bold", "serif-italic", "italic", "bold-italic"];
const BUILTIN_FACES: [Face; 5] = [
    Face::Sans,
    Face::Bold,
    Face::SerifItalic,
    Face::Italic,
    Face::BoldItalic,
];

/// What a face is, as CSS selects it: family, weight, slant and width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaceStyle {
    pub family: String,
    pub weight: u16,
    pub italic: bool,
    pub stretch: &'static str,
}

/// A loaded face: its bytes (kept for the process's life), metrics and SVG attributes.
struct Entry {
    data: &'static [u8],
    /// The face's index in its file (a collection holds several).
    index: u32,
    attrs: &'static str,
    /// The attributes that select it whatever the element around it selects.
    span_attrs: &'static str,
    style: FaceStyle,
    metrics: Metrics,
}

fn span_attrs(s: &FaceStyle) -> &'static str {
    let attrs = format!(
        r#"font-family="{}" font-weight="{}" font-style="{}" font-stretch="{}""#,
        crate::render::xml_escape(&s.family),
        s.weight,
        if s.italic { "italic" } else { "normal" },
        s.stretch
    );
    Box::leak(attrs.into_boxed_str())
}

struct Registry {
    entries: Vec<&'static Entry>,
    /// Faces already loaded, by (length, hash of the bytes, index in a collection).
    by_content: HashMap<(usize, u64, u32), Face>,
    /// Font databases already built, by the game faces they hold beside the bundled ones.
    databases: HashMap<Vec<Face>, FontDb>,
}

/// The fonts a page is drawn with: the bundled faces and one game's own.
pub type FontDb = Arc<fontdb::Database>;

fn registry() -> &'static RwLock<Registry> {
    static REGISTRY: OnceLock<RwLock<Registry>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let builtin = [
            (
                SANS,
                r#"font-family="DejaVu Sans" font-stretch="condensed""#,
            ),
            (
                BOLD,
                r#"font-family="DejaVu Sans" font-stretch="condensed" font-weight="bold""#,
            ),
            (
                SERIF_ITALIC,
                r#"font-family="DejaVu Serif" font-stretch="condensed" font-style="italic""#,
            ),
            (
                OBLIQUE,
                r#"font-family="DejaVu Sans" font-stretch="condensed" font-style="italic""#,
            ),
            (
                BOLD_OBLIQUE,
                r#"font-family="DejaVu Sans" font-stretch="condensed" font-weight="bold" font-style="italic""#,
            ),
        ];
        let entries = builtin
            .into_iter()
            .map(|(data, attrs)| {
                let metrics =
                    Metrics::parse(data, 0).expect("the bundled fonts are valid TrueType files");
                let parsed = ttf_parser::Face::parse(data, 0).expect("the bundled fonts parse");
                let style = FaceStyle {
                    family: if attrs.contains("Serif") {
                        "DejaVu Serif"
                    } else {
                        "DejaVu Sans"
                    }
                    .to_string(),
                    weight: parsed.weight().to_number(),
                    italic: parsed.is_italic() || parsed.is_oblique(),
                    stretch: "condensed",
                };
                &*Box::leak(Box::new(Entry {
                    data,
                    index: 0,
                    attrs,
                    span_attrs: span_attrs(&style),
                    style,
                    metrics,
                }))
            })
            .collect();
        RwLock::new(Registry {
            entries,
            by_content: HashMap::new(),
            databases: HashMap::new(),
        })
    })
}

fn entry(face: Face) -> &'static Entry {
    let r = registry().read().unwrap_or_else(|e| e.into_inner());
    r.entries.get(face.0).copied().unwrap_or(r.entries[0])
}

impl Face {
    /// SVG attributes selecting this face.
    pub fn svg_attrs(self) -> &'static str {
        entry(self).attrs
    }

    /// SVG attributes selecting this face inside an element that selects another.
    pub fn span_attrs(self) -> &'static str {
        entry(self).span_attrs
    }

    /// Family, weight, slant and width.
    pub fn style(self) -> FaceStyle {
        entry(self).style.clone()
    }

    /// Whether the face has a glyph of its own for `c`.
    pub fn has_char(self, c: char) -> bool {
        Metrics::of(self).has_char(c)
    }

    /// The font file's bytes and the face's index in it (for a PDF that sets text itself).
    pub fn data(self) -> (&'static [u8], u32) {
        let e = entry(self);
        (e.data, e.index)
    }

    /// Whether the face is one of the bundled DejaVu faces.
    pub fn is_builtin(self) -> bool {
        BUILTIN_FACES.contains(&self)
    }

    /// Parses a bundled face's name as templates write it: `sans`, `bold`, `italic`,
    /// `bold-italic` or `serif-italic`.
    pub fn parse(name: &str) -> Option<Face> {
        match name {
            "sans" => Some(Face::Sans),
            "bold" => Some(Face::Bold),
            "serif-italic" | "serif" => Some(Face::SerifItalic),
            "italic" => Some(Face::Italic),
            "bold-italic" => Some(Face::BoldItalic),
            _ => None,
        }
    }
}

/// The font database of pages that show no game's fonts: the bundled faces only.
pub fn builtin() -> FontDb {
    database_of(&[])
}

/// The font database holding the bundled faces and `own` (a game's faces, in the order the
/// game names them; of two faces with the same family and style the first is kept), with
/// DejaVu Sans as every generic family. Built once per set of faces.
fn database_of(own: &[Face]) -> FontDb {
    if let Some(db) = registry()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .databases
        .get(own)
    {
        return db.clone();
    }
    let mut r = registry().write().unwrap_or_else(|e| e.into_inner());
    if let Some(db) = r.databases.get(own) {
        return db.clone();
    }
    let mut db = fontdb::Database::new();
    let mut loaded = std::collections::HashSet::new();
    let mut named = std::collections::HashSet::new();
    // A collection is loaded once, and fontdb reads every face in it. The bundled faces go in
    // last, as they always have: the order decides nothing else.
    let builtin = [
        Face::BoldItalic,
        Face::Italic,
        Face::SerifItalic,
        Face::Bold,
        Face::Sans,
    ];
    for face in own.iter().chain(&builtin) {
        let e = r.entries[face.0];
        if named.insert(e.attrs) && loaded.insert(e.data.as_ptr() as usize) {
            db.load_font_source(fontdb::Source::Binary(Arc::new(e.data)));
        }
    }
    db.set_sans_serif_family("DejaVu Sans");
    db.set_serif_family("DejaVu Serif");
    db.set_monospace_family("DejaVu Sans");
    db.set_cursive_family("DejaVu Sans");
    db.set_fantasy_family("DejaVu Sans");
    let db = Arc::new(db);
    r.databases.insert(own.to_vec(), db.clone());
    db
}

/// The faces a game may name: the bundled ones and those in its `fonts/` folder.
#[derive(Debug, Clone)]
pub struct GameFaces {
    /// Name as templates write it, and the face.
    pub named: Vec<(String, Face)>,
    /// What the game's pages are drawn with: the bundled faces and the game's own only.
    pub database: FontDb,
}

impl GameFaces {
    /// The bundled faces only.
    pub fn bundled() -> GameFaces {
        GameFaces {
            named: BUILTIN_NAMES
                .iter()
                .zip(BUILTIN_FACES)
                .map(|(n, f)| (n.to_string(), f))
                .collect(),
            database: builtin(),
        }
    }

    /// The face of a name (case does not matter).
    pub fn get(&self, name: &str) -> Option<Face> {
        self.named
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
            .map(|(_, f)| *f)
    }

    /// The face `**bold**` or `*italic*` text uses inside text set in `base`: the face of
    /// `base`'s family with that weight and slant added (the game's own first, one of the
    /// same width preferred); for a family of the game's own that lacks the style, the
    /// bundled DejaVu Sans face of the style. `None` when no font provides it (the bundled
    /// DejaVu Serif has its italic only).
    pub fn styled(&self, base: Face, style: crate::render::faces::markup::Style) -> Option<Face> {
        let b = base.style();
        let weight = if style.bold {
            b.weight.max(700)
        } else {
            b.weight
        };
        let italic = b.italic || style.italic;
        if weight == b.weight && italic == b.italic {
            return Some(base);
        }
        let bold = weight >= 600;
        let candidates = || {
            self.named.iter().map(|(_, f)| *f).filter(|f| {
                let s = f.style();
                s.family == b.family && s.italic == italic && (s.weight >= 600) == bold
            })
        };
        let found = candidates()
            .filter(|f| !f.is_builtin())
            .chain(candidates().filter(|f| f.is_builtin()))
            .min_by_key(|f| {
                let s = f.style();
                (s.stretch != b.stretch, s.weight.abs_diff(weight))
            });
        if found.is_some() || base.is_builtin() {
            return found;
        }
        Some(match (bold, italic) {
            (false, false) => Face::Sans,
            (true, false) => Face::Bold,
            (false, true) => Face::Italic,
            (true, true) => Face::BoldItalic,
        })
    }

    /// The face that draws `c` where `base` has no glyph for it: of the faces that have one,
    /// the one of `base`'s slant and weight (bold stays bold, italic italic), then the
    /// nearest weight, then one of `base`'s family and width, then the game's own before the
    /// bundled ones. `None` when no face has it (nor when `base` has it itself).
    pub fn fallback(&self, base: Face, c: char) -> Option<Face> {
        fallback_among(self.named.iter().map(|(_, f)| *f), base, c)
    }

    /// Every face, the game's own first, then the bundled ones.
    pub fn all(&self) -> Vec<Face> {
        let mut out: Vec<Face> = self
            .named
            .iter()
            .map(|(_, f)| *f)
            .filter(|f| !f.is_builtin())
            .collect();
        out.extend(BUILTIN_FACES);
        out
    }

    /// Whether any face, the game's own or a bundled one, can draw `c`: it has a glyph for
    /// it, or it is a character no face needs one for (spaces, controls, joiners, variation
    /// selectors: [`draws_nothing`]).
    pub fn can_draw(&self, c: char) -> bool {
        draws_nothing(c) || self.named.iter().any(|(_, f)| f.has_char(c))
    }

    /// Every name, for the message about an unknown face.
    pub fn names(&self) -> Vec<&str> {
        self.named.iter().map(|(n, _)| n.as_str()).collect()
    }
}

/// Of `faces`, the one that draws `c` in place of `base` (see [`GameFaces::fallback`]).
pub fn fallback_among(faces: impl Iterator<Item = Face>, base: Face, c: char) -> Option<Face> {
    if base.has_char(c) {
        return None;
    }
    let b = base.style();
    faces
        .enumerate()
        .filter(|(_, f)| *f != base && f.has_char(c))
        .min_by_key(|(i, f)| {
            let s = f.style();
            (
                s.italic != b.italic,
                (s.weight >= 600) != (b.weight >= 600),
                s.weight.abs_diff(b.weight),
                s.family != b.family,
                s.stretch != b.stretch,
                f.is_builtin(),
                *i,
            )
        })
        .map(|(_, f)| f)
}

/// Characters no face needs a glyph for: controls, spaces (a shaper sets a space a font
/// lacks as its own space, widened) and the default-ignorable ones a shaper hides (soft
/// hyphen, zero-width spaces and joiners, direction marks, variation selectors, tags).
pub fn draws_nothing(c: char) -> bool {
    c.is_control()
        || c.is_whitespace()
        || matches!(
            c,
            '\u{AD}'
                | '\u{34F}'
                | '\u{61C}'
                | '\u{115F}'..='\u{1160}'
                | '\u{17B4}'..='\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFF8}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// How text in a template's own `<text>` elements falls back, for usvg: as
/// [`GameFaces::fallback`] chooses among the faces of the page's font database, so that a
/// character the face lacks keeps the weight and slant of its text. (usvg still sets a
/// whole `<text>` or `<tspan>` in the fallback face when that face has every character of
/// it; `text(...)` boxes set only the characters their face lacks in another.)
pub fn usvg_resolver() -> usvg::FontResolver<'static> {
    usvg::FontResolver {
        select_font: usvg::FontResolver::default_font_selector(),
        select_fallback: Box::new(|c, used, db| {
            let base = *used.first()?;
            let base_face = db.face(base)?;
            let style = |f: &fontdb::FaceInfo| {
                (
                    f.style != fontdb::Style::Normal,
                    f.weight.0,
                    f.families.first().map(|(n, _)| n.clone()),
                    f.stretch,
                )
            };
            let (italic, weight, family, stretch) = style(base_face);
            db.faces()
                .enumerate()
                .filter(|(_, f)| {
                    !used.contains(&f.id)
                        && db
                            .with_face_data(f.id, |data, index| {
                                ttf_parser::Face::parse(data, index).ok()?.glyph_index(c)
                            })
                            .flatten()
                            .is_some()
                })
                .min_by_key(|(i, f)| {
                    let (fi, fw, ff, fs) = style(f);
                    (
                        fi != italic,
                        (fw >= 600) != (weight >= 600),
                        fw.abs_diff(weight),
                        ff != family,
                        fs != stretch,
                        *i,
                    )
                })
                .map(|(_, f)| f.id)
        }),
    }
}

/// The folder a game keeps its fonts in.
pub fn game_font_dir(game_dir: &Path) -> std::path::PathBuf {
    game_dir.join("fonts")
}

/// Loads the fonts of a game's `fonts/` folder; a file that is not a font is a problem
/// naming it.
pub fn game_faces(game_dir: &Path) -> Result<GameFaces, Problem> {
    let mut named = GameFaces::bundled().named;
    let dir = game_font_dir(game_dir);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(GameFaces::bundled());
    };
    let mut paths: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                ["ttf", "otf", "ttc", "otc"].contains(&e.to_ascii_lowercase().as_str())
            })
        })
        .collect();
    paths.sort();
    for path in paths {
        let real = crate::model::paths::resolve_in(
            game_dir,
            &path
                .strip_prefix(game_dir)
                .unwrap_or(&path)
                .to_string_lossy(),
        )
        .map_err(|e| {
            Problem::data(format!("{}: {e}", path.display()))
                .help("keep the game's fonts inside its folder, as files, not links out of it")
        })?;
        let bytes = std::fs::read(&real).map_err(|e| Problem::io(&path, e))?;
        let faces = register(bytes).map_err(|e| {
            Problem::data(format!("{}: {e}", path.display()))
                .help("a game's fonts/ folder holds TrueType or OpenType fonts (.ttf, .otf, .ttc)")
        })?;
        named.extend(faces);
    }
    let own: Vec<Face> = named[BUILTIN_NAMES.len()..]
        .iter()
        .map(|(_, f)| *f)
        .collect();
    Ok(GameFaces {
        named,
        database: database_of(&own),
    })
}

/// Registers every face of a font file; returns each face's name and handle.
fn register(bytes: Vec<u8>) -> Result<Vec<(String, Face)>, String> {
    ttf_parser::Face::parse(&bytes, 0)
        .map_err(|e| format!("not a font this tool can read ({e})"))?;
    let count = ttf_parser::fonts_in_collection(&bytes).unwrap_or(1);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    let key = (bytes.len(), hasher.finish());
    let data: &'static [u8] = {
        let r = registry().read().unwrap_or_else(|e| e.into_inner());
        match r.by_content.get(&(key.0, key.1, 0)) {
            Some(face) => r.entries[face.0].data,
            None => Box::leak(bytes.into_boxed_slice()),
        }
    };
    let mut out = Vec::new();
    for index in 0..count {
        let parsed = ttf_parser::Face::parse(data, index)
            .map_err(|e| format!("not a font this tool can read ({e})"))?;
        let (name, attrs, style) = describe(&parsed).ok_or("the font names no family")?;
        let mut r = registry().write().unwrap_or_else(|e| e.into_inner());
        if let Some(face) = r.by_content.get(&(key.0, key.1, index)) {
            out.push((name, *face));
            continue;
        }
        let metrics = Metrics::parse(data, index).ok_or("the font has no usable metrics")?;
        let face = Face(r.entries.len());
        r.entries.push(Box::leak(Box::new(Entry {
            data,
            index,
            attrs: Box::leak(attrs.into_boxed_str()),
            span_attrs: span_attrs(&style),
            style,
            metrics,
        })));
        r.by_content.insert((key.0, key.1, index), face);
        out.push((name, face));
    }
    Ok(out)
}

/// The face's name (`Family Bold Italic`), the SVG attributes that select it and its style.
fn describe(face: &ttf_parser::Face) -> Option<(String, String, FaceStyle)> {
    let family = name_of(face, ttf_parser::name_id::TYPOGRAPHIC_FAMILY)
        .or_else(|| name_of(face, ttf_parser::name_id::FAMILY))?;
    let weight = face.weight().to_number();
    let italic = face.is_italic() || face.is_oblique();
    let weight_word = match weight {
        0..=150 => "Thin",
        151..=250 => "ExtraLight",
        251..=350 => "Light",
        351..=450 => "",
        451..=550 => "Medium",
        551..=650 => "SemiBold",
        651..=750 => "Bold",
        751..=850 => "ExtraBold",
        _ => "Black",
    };
    let stretch = stretch_keyword(face.width());
    let stretch_word = match stretch {
        "normal" => String::new(),
        other => other
            .split('-')
            .map(|w| w[..1].to_uppercase() + &w[1..])
            .collect(),
    };
    let mut name = family.clone();
    for word in [
        stretch_word.as_str(),
        weight_word,
        if italic { "Italic" } else { "" },
    ] {
        if !word.is_empty() {
            name.push(' ');
            name.push_str(word);
        }
    }
    let mut attrs = format!(
        r#"font-family="{}" font-weight="{weight}""#,
        crate::render::xml_escape(&family)
    );
    if italic {
        attrs.push_str(r#" font-style="italic""#);
    }
    if stretch != "normal" {
        attrs.push_str(&format!(r#" font-stretch="{stretch}""#));
    }
    let style = FaceStyle {
        family,
        weight,
        italic,
        stretch,
    };
    Some((name, attrs, style))
}

fn name_of(face: &ttf_parser::Face, id: u16) -> Option<String> {
    face.names()
        .into_iter()
        .filter(|n| n.name_id == id && n.is_unicode())
        .find_map(|n| n.to_string())
        .filter(|s| !s.trim().is_empty())
}

fn stretch_keyword(width: ttf_parser::Width) -> &'static str {
    use ttf_parser::Width::*;
    match width {
        UltraCondensed => "ultra-condensed",
        ExtraCondensed => "extra-condensed",
        Condensed => "condensed",
        SemiCondensed => "semi-condensed",
        Normal => "normal",
        SemiExpanded => "semi-expanded",
        Expanded => "expanded",
        ExtraExpanded => "extra-expanded",
        UltraExpanded => "ultra-expanded",
    }
}

/// Advance widths for measuring text before it is laid out.
pub struct Metrics {
    face: ttf_parser::Face<'static>,
    units_per_em: f64,
    /// The advance of the glyph drawn for a character the face lacks (glyph 0, a box).
    notdef: f64,
}

impl Metrics {
    fn parse(data: &'static [u8], index: u32) -> Option<Metrics> {
        let face = ttf_parser::Face::parse(data, index).ok()?;
        let units_per_em = f64::from(face.units_per_em());
        Some(Metrics {
            notdef: face
                .glyph_hor_advance(ttf_parser::GlyphId(0))
                .map_or(units_per_em * 0.5, f64::from),
            units_per_em,
            face,
        })
    }

    /// The metrics of a face (the real ones of whatever face a template chose).
    pub fn of(face: Face) -> &'static Metrics {
        &entry(face).metrics
    }

    /// Width of `text` at `size` (same unit as `size`), without kerning; a character the
    /// face lacks is as wide as the box printed for it.
    pub fn width(&self, text: &str, size: f64) -> f64 {
        let units: f64 = text
            .chars()
            .map(|c| {
                self.face
                    .glyph_index(c)
                    .and_then(|g| self.face.glyph_hor_advance(g))
                    .map(f64::from)
                    .unwrap_or_else(|| self.missing(c))
            })
            .sum();
        units / self.units_per_em * size
    }

    /// Whether the face has a glyph of its own for `c`.
    pub fn has_char(&self, c: char) -> bool {
        self.face.glyph_index(c).is_some()
    }

    /// The advance a shaper gives a character the face has no glyph for: a space's for a
    /// space, nothing for one it hides (a joiner, a variation selector), else the box's.
    fn missing(&self, c: char) -> f64 {
        if c.is_whitespace() {
            self.face
                .glyph_index(' ')
                .and_then(|g| self.face.glyph_hor_advance(g))
                .map_or(self.units_per_em * 0.25, f64::from)
        } else if draws_nothing(c) {
            0.0
        } else {
            self.notdef
        }
    }

    /// Height of capital letters as a fraction of the font size.
    pub fn cap_height(&self) -> f64 {
        self.face
            .capital_height()
            .map(|h| f64::from(h) / self.units_per_em)
            .unwrap_or(0.7)
    }
}

#[cfg(test)]
#[path = "fonts_tests.rs"]
mod tests;
