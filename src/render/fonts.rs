//! The fonts every sheet uses, compiled into the binary from `fonts/` so that nothing
//! depends on the fonts installed on the machine. DejaVu (Bitstream Vera licence, see
//! `fonts/LICENSE-DejaVu.txt`) covers Finnish and the other Latin languages.

use std::sync::{Arc, OnceLock};

use usvg::fontdb;

/// A font face the templates may name with `font-family` (and weight or style).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// Body text: `font-family="DejaVu Sans"` (condensed cut).
    Sans,
    /// Titles and numbers: `font-weight="bold"`.
    Bold,
    /// Journal and flavour lines: `font-family="DejaVu Serif" font-style="italic"`.
    SerifItalic,
}

const SANS: &[u8] = include_bytes!("../../fonts/DejaVuSansCondensed.ttf");
const BOLD: &[u8] = include_bytes!("../../fonts/DejaVuSansCondensed-Bold.ttf");
const SERIF_ITALIC: &[u8] = include_bytes!("../../fonts/DejaVuSerifCondensed-Italic.ttf");

impl Face {
    fn data(self) -> &'static [u8] {
        match self {
            Face::Sans => SANS,
            Face::Bold => BOLD,
            Face::SerifItalic => SERIF_ITALIC,
        }
    }

    /// SVG attributes selecting this face.
    pub fn svg_attrs(self) -> &'static str {
        match self {
            Face::Sans => r#"font-family="DejaVu Sans" font-stretch="condensed""#,
            Face::Bold => {
                r#"font-family="DejaVu Sans" font-stretch="condensed" font-weight="bold""#
            }
            Face::SerifItalic => {
                r#"font-family="DejaVu Serif" font-stretch="condensed" font-style="italic""#
            }
        }
    }

    /// Parses a face name as templates write it: `sans`, `bold` or `serif-italic`.
    pub fn parse(name: &str) -> Option<Face> {
        match name {
            "sans" => Some(Face::Sans),
            "bold" => Some(Face::Bold),
            "serif-italic" | "serif" => Some(Face::SerifItalic),
            _ => None,
        }
    }
}

/// The font database usvg uses: only the bundled fonts, with DejaVu Sans as every generic family.
pub fn database() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        for face in [Face::Sans, Face::Bold, Face::SerifItalic] {
            db.load_font_data(face.data().to_vec());
        }
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Serif");
        db.set_monospace_family("DejaVu Sans");
        db.set_cursive_family("DejaVu Sans");
        db.set_fantasy_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// Advance widths for measuring text before it is laid out.
pub struct Metrics {
    face: ttf_parser::Face<'static>,
    units_per_em: f64,
}

impl Metrics {
    pub fn of(face: Face) -> &'static Metrics {
        static SANS_M: OnceLock<Metrics> = OnceLock::new();
        static BOLD_M: OnceLock<Metrics> = OnceLock::new();
        static SERIF_M: OnceLock<Metrics> = OnceLock::new();
        let cell = match face {
            Face::Sans => &SANS_M,
            Face::Bold => &BOLD_M,
            Face::SerifItalic => &SERIF_M,
        };
        cell.get_or_init(|| {
            let parsed = ttf_parser::Face::parse(face.data(), 0)
                .expect("the bundled fonts are valid TrueType files");
            Metrics {
                units_per_em: f64::from(parsed.units_per_em()),
                face: parsed,
            }
        })
    }

    /// Width of `text` at `size` (same unit as `size`), without kerning.
    pub fn width(&self, text: &str, size: f64) -> f64 {
        let units: f64 = text
            .chars()
            .map(|c| {
                self.face
                    .glyph_index(c)
                    .and_then(|g| self.face.glyph_hor_advance(g))
                    .map(f64::from)
                    .unwrap_or(self.units_per_em * 0.5)
            })
            .sum();
        units / self.units_per_em * size
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
mod tests {
    use super::*;

    #[test]
    fn bundled_fonts_cover_finnish() {
        let m = Metrics::of(Face::Sans);
        for c in ['ä', 'ö', 'Ä', 'Ö', 'å'] {
            assert!(m.face.glyph_index(c).is_some(), "missing {c}");
        }
        assert_eq!(database().len(), 3);
    }

    #[test]
    fn wider_text_measures_wider() {
        let m = Metrics::of(Face::Sans);
        assert!(m.width("WWW", 10.0) > m.width("iii", 10.0));
        assert!((m.width("ab", 20.0) - 2.0 * m.width("ab", 10.0)).abs() < 1e-9);
    }
}
