//! Mirrored bleed (`build --mirror-bleed`): for art that stops at the trim, each card face is
//! cut at its trim and its bleed filled with the strip just inside each edge, mirrored across
//! that edge (the corners mirrored across both), as print-and-play tools offer. A cut a
//! little outside the trim then shows the art's own edge colours, never white.

use super::{DeckFaces, Faces};

/// Ids the mirrored face uses; a face's own ids are its template's (and never start so).
const FACE_ID: &str = "printplay-mirror-face";
const CLIP_ID: &str = "printplay-mirror-clip";

/// The face `svg` (trim millimetres, `size` its trim) cut at its trim, with the `bleed` beyond
/// every edge showing the face mirrored across that edge: the point `d` millimetres outside
/// an edge shows the point `d` millimetres inside it.
pub fn mirror(svg: &str, size: (f64, f64), bleed: f64) -> String {
    let (w, h) = size;
    let b = bleed;
    if b <= 0.0 {
        return svg.to_string();
    }
    // Per axis: the stretch outside the trim (before, inside, after) and the mirror that
    // maps it onto the face (scale, shift).
    let axis = |len: f64| {
        [
            (-b, b, -1.0, 0.0),
            (0.0, len, 1.0, 0.0),
            (len, b, -1.0, 2.0 * len),
        ]
    };
    let mut defs = format!(
        r#"<clipPath id="{CLIP_ID}"><rect x="0" y="0" width="{w:.4}" height="{h:.4}"/></clipPath>"#
    );
    let mut copies = String::new();
    let mut n = 0;
    for (i, &(x, cw, sx, tx)) in axis(w).iter().enumerate() {
        for (j, &(y, ch, sy, ty)) in axis(h).iter().enumerate() {
            if i == 1 && j == 1 {
                continue;
            }
            n += 1;
            defs.push_str(&format!(
                r#"<clipPath id="{CLIP_ID}-{n}"><rect x="{x:.4}" y="{y:.4}" width="{cw:.4}" height="{ch:.4}"/></clipPath>"#
            ));
            copies.push_str(&format!(
                r##"<g clip-path="url(#{CLIP_ID}-{n})"><use href="#{FACE_ID}" transform="matrix({sx} 0 0 {sy} {tx:.4} {ty:.4})"/></g>"##
            ));
        }
    }
    format!(r#"<defs>{defs}</defs><g id="{FACE_ID}" clip-path="url(#{CLIP_ID})">{svg}</g>{copies}"#)
}

/// Every card face and back of `faces` with its bleed mirrored ([`mirror`]), drawn with
/// `bleed`.
pub fn mirror_faces(mut faces: Faces, bleed: f64) -> Faces {
    let translated = faces
        .translations
        .iter_mut()
        .flat_map(|t| t.decks.iter_mut());
    for deck in faces.decks.iter_mut().chain(translated) {
        let DeckFaces {
            size, cards, back, ..
        } = deck;
        *back = mirror(back, *size, bleed);
        for card in cards {
            card.svg = mirror(&card.svg, *size, bleed);
            if let Some(own) = &mut card.back {
                own.svg = mirror(&own.svg, *size, bleed);
            }
        }
    }
    faces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::faces::fonts;
    use crate::render::formats::png;

    /// Ten pixels a millimetre: the trim and the bleed fall on whole pixels.
    const PX: f64 = 10.0;

    /// A face 6 x 4 mm of 1 mm squares, each its own colour, that stops at the trim: what
    /// lies beyond it is white.
    fn checker() -> String {
        let mut svg = String::new();
        for x in 0..6 {
            for y in 0..4 {
                svg.push_str(&format!(
                    r##"<rect x="{x}" y="{y}" width="1" height="1" fill="#{:02x}{:02x}{:02x}"/>"##,
                    40 * x + 10,
                    60 * y + 5,
                    (7 * x + 13 * y) * 5
                ));
            }
        }
        svg
    }

    /// The face with its bleed, rasterised: the view from `-bleed` to the far bleed edge on
    /// white.
    fn raster(art: &str, bleed: f64) -> (Vec<[u8; 4]>, usize) {
        let (w, h) = (6.0 + 2.0 * bleed, 4.0 + 2.0 * bleed);
        let doc = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="{v} {v} {w} {h}"><rect x="{v}" y="{v}" width="{w}" height="{h}" fill="#ffffff"/>{art}</svg>"##,
            v = -bleed
        );
        let pix = png::rasterise(&doc, (w, h), PX, &fonts::builtin(), None).unwrap();
        let px: Vec<[u8; 4]> = pix
            .pixels()
            .iter()
            .map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect();
        (px, pix.width() as usize)
    }

    #[test]
    fn every_bleed_pixel_is_the_trim_pixel_mirrored_across_the_nearest_edges() {
        let bleed = 2.0;
        let (px, stride) = raster(&mirror(&checker(), (6.0, 4.0), bleed), bleed);
        let b = (bleed * PX) as i64;
        let (w, h) = ((6.0 * PX) as i64, (4.0 * PX) as i64);
        // A pixel column or row outside the trim, mirrored onto the one inside.
        let fold = |i: i64, len: i64| {
            if i < 0 {
                -1 - i
            } else if i >= len {
                2 * len - 1 - i
            } else {
                i
            }
        };
        let at = |x: i64, y: i64| px[((y + b) as usize) * stride + (x + b) as usize];
        let mut outside = 0;
        for y in -b..h + b {
            for x in -b..w + b {
                let inside = (fold(x, w), fold(y, h));
                if inside != (x, y) {
                    outside += 1;
                    assert_eq!(at(x, y), at(inside.0, inside.1), "pixel {x},{y}");
                }
            }
        }
        assert_eq!(outside, (w + 2 * b) * (h + 2 * b) - w * h);
        // Without the option the same art leaves its bleed white.
        let (plain, _) = raster(&checker(), bleed);
        assert_eq!(plain[0], [255, 255, 255, 255]);
        assert_ne!(at(-b, -b), [255, 255, 255, 255]);
        // Inside the trim the face is unchanged.
        let (mirrored, _) = raster(&mirror(&checker(), (6.0, 4.0), bleed), bleed);
        for y in 0..h {
            for x in 0..w {
                let i = ((y + b) as usize) * stride + (x + b) as usize;
                assert_eq!(mirrored[i], plain[i], "trim pixel {x},{y}");
            }
        }
    }

    #[test]
    fn art_running_into_the_bleed_is_cut_at_the_trim_and_no_bleed_changes_nothing() {
        let face = r##"<rect x="-3" y="-3" width="12" height="10" fill="#ff0000"/><rect x="0" y="0" width="6" height="4" fill="#0000ff"/>"##;
        let (px, stride) = raster(&mirror(face, (6.0, 4.0), 3.0), 3.0);
        // The red beyond the trim is gone: the blue inside fills the bleed.
        assert!(px.iter().all(|p| *p == [0, 0, 255, 255]), "{:?}", px[0]);
        assert!(stride > 0);
        assert_eq!(mirror(face, (6.0, 4.0), 0.0), face);
    }
}
