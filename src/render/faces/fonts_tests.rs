//! Tests of [`super`] (fonts.rs).

use super::*;

#[test]
fn bundled_fonts_cover_finnish() {
    let m = Metrics::of(Face::Sans);
    for c in ['ä', 'ö', 'Ä', 'Ö', 'å'] {
        assert!(m.face.glyph_index(c).is_some(), "missing {c}");
    }
    assert_eq!(builtin().len(), 5);
}

#[test]
fn a_character_falls_back_to_the_nearest_style_that_has_it() {
    let faces = GameFaces::bundled();
    // A star: the serif italic lacks it, the italic sans has it.
    assert_eq!(faces.fallback(Face::SerifItalic, '★'), Some(Face::Italic));
    assert_eq!(faces.fallback(Face::BoldItalic, '★'), None);
    // Arabic: only the upright sans faces have it; bold stays bold.
    assert_eq!(faces.fallback(Face::SerifItalic, 'ب'), Some(Face::Sans));
    assert_eq!(faces.fallback(Face::BoldItalic, 'ب'), Some(Face::Bold));
    // No face has a die; a joiner or a variation selector needs no glyph.
    assert_eq!(faces.fallback(Face::Sans, '🎲'), None);
    assert!(!faces.can_draw('🎲') && faces.can_draw('\u{200D}') && faces.can_draw('\u{FE0F}'));
    // A box as wide as the face's own, not half an em.
    let m = Metrics::of(Face::Sans);
    let notdef = f64::from(m.face.glyph_hor_advance(ttf_parser::GlyphId(0)).unwrap());
    assert!((m.width("🎲", 1.0) - notdef / m.units_per_em).abs() < 1e-9);
    assert_eq!(m.width("\u{FE0F}", 1.0), 0.0);
}

/// The faces usvg draws `text` of a template's own `<text>` element in.
fn drawn_in(attrs: &str, text: &str) -> Vec<(String, u16, bool)> {
    let page = crate::render::formats::pdf::svg_page(
        (100.0, 20.0),
        &format!(r#"<text x="1" y="10" font-size="4" {attrs}>{text}</text>"#),
    );
    fn walk(g: &usvg::Group, db: &fontdb::Database, out: &mut Vec<(String, u16, bool)>) {
        for node in g.children() {
            match node {
                usvg::Node::Group(g) => walk(g, db, out),
                usvg::Node::Text(t) => {
                    for g in t.layouted().iter().flat_map(|s| &s.positioned_glyphs) {
                        let f = db.face(g.font).unwrap();
                        out.push((
                            f.families[0].0.clone(),
                            f.weight.0,
                            f.style != fontdb::Style::Normal,
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    let tree = crate::render::formats::pdf::parse(&page, &builtin()).unwrap();
    let mut out = Vec::new();
    walk(tree.root(), tree.fontdb(), &mut out);
    out
}

#[test]
fn a_templates_own_text_falls_back_to_a_face_of_its_weight_and_slant() {
    // usvg's own choice was the first face of the database that has the character and
    // shares one of slant, weight and width: DejaVu Sans Bold Oblique for an italic.
    let italic = r#"font-family="DejaVu Serif" font-style="italic""#;
    let drawn = drawn_in(italic, "Star ★");
    assert_eq!(drawn.len(), 6);
    for (family, weight, italic) in drawn {
        assert_eq!((weight, italic), (400, true), "{family}");
    }
    let bold = r#"font-family="DejaVu Sans" font-style="italic" font-weight="bold""#;
    let drawn = drawn_in(bold, "ب");
    assert!(
        drawn.contains(&("DejaVu Sans".to_string(), 700, false)),
        "{drawn:?}"
    );
}

#[test]
fn wider_text_measures_wider() {
    let m = Metrics::of(Face::Sans);
    assert!(m.width("WWW", 10.0) > m.width("iii", 10.0));
    assert!((m.width("ab", 20.0) - 2.0 * m.width("ab", 10.0)).abs() < 1e-9);
}

#[test]
fn a_font_file_is_named_by_family_and_style_and_loaded_once() {
    let faces = register(BOLD.to_vec()).unwrap();
    assert_eq!(faces.len(), 1);
    assert_eq!(faces[0].0, "DejaVu Sans SemiCondensed Bold");
    let again = register(BOLD.to_vec()).unwrap();
    assert_eq!(faces[0].1, again[0].1);
    assert!(
        Face(faces[0].1.0)
            .svg_attrs()
            .contains(r#"font-weight="700""#)
    );
    assert!(register(b"not a font".to_vec()).is_err());
}
