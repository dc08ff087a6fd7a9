//! Proofing guides (`build --guides`): the trim (where the cut falls) and the safe zone (where
//! text stays clear of a cut that lands off the line) drawn over every card face, back and
//! piece, and over every board, as Squib's cut and safe zones. Off by default; the build
//! draws them on the proofing outputs only (`cards.pdf`, `tokens.pdf`, `board.pdf`,
//! `proof.pdf`: see [`crate::pipeline::GUIDED_STAGES`]), never on the print-shop files or
//! the Tabletop Simulator images.

use super::languages::LangDecks;
use super::{DeckFaces, Faces, OwnBack, PieceFace};

/// Colour of the trim line: magenta, as Squib and most print templates draw the cut.
pub const TRIM_COLOUR: &str = "#e6007e";
/// Colour of the safe-zone line: cyan.
pub const SAFE_COLOUR: &str = "#0096d6";
/// Width of both lines, in millimetres.
const LINE: f64 = 0.25;

/// The two guides of a rectangular face `size` large, `safe` millimetres apart: the trim
/// along the face's edge and the safe zone inside it (none when the face is too small for
/// it).
pub fn rect_guides(size: (f64, f64), safe: f64) -> String {
    let (w, h) = size;
    let mut out = format!(
        r#"<g fill="none" stroke-width="{LINE}" stroke-dasharray="1.2 0.8"><rect x="0" y="0" width="{w}" height="{h}" stroke="{TRIM_COLOUR}"/>"#
    );
    if w > 2.0 * safe && h > 2.0 * safe && safe > 0.0 {
        out.push_str(&format!(
            r#"<rect x="{safe}" y="{safe}" width="{}" height="{}" stroke="{SAFE_COLOUR}"/>"#,
            w - 2.0 * safe,
            h - 2.0 * safe
        ));
    }
    out.push_str("</g>");
    out
}

/// The guides of a piece cut along `outline` (path data in its box `size`): the outline
/// itself, and the outline drawn `safe` millimetres smaller each way about the box's centre.
pub fn outline_guides(outline: &str, size: (f64, f64), safe: f64) -> String {
    let (w, h) = size;
    let mut out = format!(
        r#"<g fill="none" stroke-dasharray="1.2 0.8"><path d="{outline}" stroke="{TRIM_COLOUR}" stroke-width="{LINE}"/>"#
    );
    if w > 2.0 * safe && h > 2.0 * safe && safe > 0.0 {
        let (sx, sy) = ((w - 2.0 * safe) / w, (h - 2.0 * safe) / h);
        let (cx, cy) = (w / 2.0, h / 2.0);
        out.push_str(&format!(
            r#"<path d="{outline}" stroke="{SAFE_COLOUR}" stroke-width="{:.4}" transform="translate({cx} {cy}) scale({sx:.6} {sy:.6}) translate({} {})"/>"#,
            LINE / sx.min(sy),
            -cx,
            -cy
        ));
    }
    out.push_str("</g>");
    out
}

/// `faces` with the guides drawn over every card front, card back, deck back, piece and
/// piece back, the safe zone `safe` millimetres inside the trim.
pub fn guided(faces: &Faces, safe: f64) -> Faces {
    let guided_decks = |decks: &[DeckFaces]| -> Vec<DeckFaces> {
        decks
            .iter()
            .map(|d| {
                let over = rect_guides(d.size, safe);
                DeckFaces {
                    cards: d
                        .cards
                        .iter()
                        .map(|c| {
                            let mut c = c.clone();
                            c.svg.push_str(&over);
                            c.back = c.back.map(|b| OwnBack {
                                svg: format!("{}{over}", b.svg),
                                ..b
                            });
                            c
                        })
                        .collect(),
                    back: format!("{}{over}", d.back),
                    ..d.clone()
                }
            })
            .collect()
    };
    let decks = guided_decks(&faces.decks);
    let translations = faces
        .translations
        .iter()
        .map(|t| LangDecks {
            lang: t.lang.clone(),
            decks: guided_decks(&t.decks),
        })
        .collect();
    let pieces = faces
        .pieces
        .iter()
        .map(|p| {
            let over = outline_guides(&p.outline, p.size, safe);
            PieceFace {
                svg: format!("{}{over}", p.svg),
                back: p.back.as_ref().map(|b| format!("{b}{over}")),
                ..p.clone()
            }
        })
        .collect();
    Faces {
        decks,
        translations,
        pieces,
        placed: faces.placed.clone(),
        fonts: faces.fonts.clone(),
        cache: faces.cache.clone(),
        trees: faces.trees.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guides_are_the_trim_and_the_safe_zone_inside_it() {
        let g = rect_guides((63.0, 88.0), 3.0);
        assert!(g.contains(r#"x="0" y="0" width="63" height="88""#), "{g}");
        assert!(g.contains(r#"x="3" y="3" width="57" height="82""#), "{g}");
        // A face smaller than twice the safe zone has only its trim.
        assert!(!rect_guides((5.0, 5.0), 3.0).contains(SAFE_COLOUR));
        let doc = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">{}</svg>"#,
            outline_guides("M0,0 H20 V20 H0 Z", (20.0, 20.0), 3.0)
        );
        let tree = usvg::Tree::from_str(&doc, &usvg::Options::default()).unwrap();
        // The safe outline is 14 mm across, centred: its box runs from 3 to 17.
        let b = tree.root().abs_bounding_box();
        assert!((b.left() - 0.0).abs() < 1e-3 && (b.right() - 20.0).abs() < 1e-3);
        let inner = match &tree.root().children()[0] {
            usvg::Node::Group(g) => g.children()[1].abs_bounding_box(),
            _ => unreachable!(),
        };
        assert!((inner.left() - 3.0).abs() < 1e-3, "{inner:?}");
        assert!((inner.right() - 17.0).abs() < 1e-3, "{inner:?}");
    }
}
