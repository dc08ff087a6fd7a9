//! Colour-blind safety (warnings): two symbols of one group whose colours a reader with
//! deuteranopia, protanopia or tritanopia can hardly tell apart, and text on a drawn face
//! whose contrast with what it is printed on is below 4.5:1 (WCAG 2's level for body text).
//!
//! The rule for symbols: every symbol is drawn as its colour with its mark
//! ([`crate::render::faces::marks`]), but a large colour field (a card's band, a board's hex)
//! carries the mark only as a faint texture, so colour still has to tell symbols apart at a
//! glance. Two symbols of a group are warned of, once per pair and deficiency, where the
//! simulated colours ([`Vision::simulate`], Machado et al. 2009) come closer than
//! [`APART_SAME_MARK`] (CIEDE2000) when their marks are the same (both `none` included), or
//! closer than [`APART_OTHER_MARK`] when their marks differ (a mark against no mark
//! included: the mark tells them apart up close, so only colours that all but merge are
//! said), and the two colours were further apart than that to normal vision (what the
//! deficiency makes hard, not what already was).

use std::ops::Range;

use palette::Srgb;
use rayon::prelude::*;

use crate::diag::Problem;
use crate::model::Game;
use crate::render::faces::Faces;
use crate::render::faces::drawn::{Face, Kind, every_face};
use crate::render::faces::vision::{Vision, contrast, delta_e, parse_hex};
use crate::render::formats::{pdf, png};
use crate::render::sheets::layout::Rect;
use crate::render::trees::{self, Trees};

/// The least CIEDE2000 difference two symbols of a group with the same mark (or one without
/// a mark) need to be told apart by colour at a glance.
pub const APART_SAME_MARK: f64 = 10.0;

/// The least CIEDE2000 difference two symbols of a group with different marks need: below
/// it their colour fields look the same and only the mark tells them apart.
pub const APART_OTHER_MARK: f64 = 5.0;

/// The least contrast text needs with what it is printed on (WCAG 2, level AA body text).
pub const TEXT_CONTRAST: f64 = 4.5;

/// Pairs of symbols of one group that a colour vision deficiency brings together: one
/// warning per pair and deficiency, at the second symbol's `id` in `components.toml`.
pub fn symbol_warnings(game: &Game) -> Vec<Problem> {
    let symbols = &game.components.symbols;
    let mut out = Vec::new();
    for (i, a) in symbols.iter().enumerate() {
        for b in &symbols[i + 1..] {
            if a.group != b.group {
                continue;
            }
            let (Some(ca), Some(cb)) = (parse_hex(&a.colour), parse_hex(&b.colour)) else {
                continue;
            };
            let same_mark = a.mark == b.mark;
            let apart = if same_mark {
                APART_SAME_MARK
            } else {
                APART_OTHER_MARK
            };
            if delta_e(ca, cb) < apart {
                continue;
            }
            for v in Vision::ALL {
                let seen = delta_e(v.simulate(ca), v.simulate(cb));
                if seen >= apart {
                    continue;
                }
                let marks = if same_mark {
                    match a.mark.as_str() {
                        "none" => "neither has a mark".to_string(),
                        m => format!("both are marked `{m}`"),
                    }
                } else {
                    format!("their marks (`{}`, `{}`) differ", a.mark, b.mark)
                };
                let message = format!(
                    "symbols `{}` ({}) and `{}` ({}) of group `{}` look alike with {}: \
                     their colours differ by ΔE {seen:.1} (CIEDE2000) as simulated, less than \
                     {apart:.0}, and {marks}",
                    a.id.get_ref(),
                    a.colour,
                    b.id.get_ref(),
                    b.colour,
                    a.group,
                    v.name()
                );
                let help = if same_mark {
                    "give one of them another mark, or a colour lighter or darker than the other"
                } else {
                    "make one of the colours lighter or darker than the other: lightness \
                     survives every colour vision deficiency"
                };
                out.push(Problem::warning(message).help(help).at(
                    &game.components_file,
                    b.id.span(),
                    "this symbol",
                ));
            }
        }
    }
    out
}

/// Pixels per millimetre the background under text is sampled at.
const SAMPLE_PX_PER_MM: f64 = 2.0;

/// More faces of one deck than this with low-contrast text are one warning on the deck.
const PER_CARD: usize = 3;

/// One text of a face whose contrast is too low.
#[derive(Debug, Clone)]
struct LowText {
    text: String,
    fill: String,
    ground: String,
    ratio: f64,
}

/// The printed faces (card fronts and backs, deck backs, pieces and their backs) with text
/// whose colour contrasts less than [`TEXT_CONTRAST`] with what is drawn under it: each
/// text's fill, read from the drawn face, against the face drawn without its text, sampled
/// under the text's box (the median contrast, so that a texture or a thin line under a word
/// does not decide). Warned at the card (its file and row) or, for a deck's back or a piece,
/// at the deck or piece; many cards of a deck are one warning at the deck.
pub fn text_contrast_warnings(game: &Game, faces: &Faces) -> Vec<Problem> {
    let every = every_face(game, Some(faces), &[]);
    let list: Vec<&Face> = every
        .iter()
        .filter(|f| {
            matches!(
                f.kind,
                Kind::CardFront
                    | Kind::CardBack
                    | Kind::DeckBack
                    | Kind::PieceFront
                    | Kind::PieceBack
            )
        })
        .collect();
    let found: Vec<Option<LowText>> = list
        .par_iter()
        .map(|f| lowest_text(f, &faces.fonts, Some(&faces.trees)))
        .collect();
    let mut per_deck: Vec<(&str, Vec<(&Face, LowText)>)> = Vec::new();
    let mut single: Vec<(&Face, LowText)> = Vec::new();
    for (f, low) in list.iter().zip(found) {
        let Some(low) = low else { continue };
        match (f.kind, f.deck) {
            (Kind::CardFront | Kind::CardBack, Some(deck)) => {
                match per_deck.iter_mut().find(|(d, _)| *d == deck) {
                    Some((_, v)) => v.push((f, low)),
                    None => per_deck.push((deck, vec![(f, low)])),
                }
            }
            _ => single.push((f, low)),
        }
    }
    let help = "darken or lighten the text or what it is printed on (its template's colours), \
                or give the text a backing of its own";
    let mut out = Vec::new();
    let say = |f: &Face, low: &LowText| {
        format!(
            "{}: text “{}” ({}) on {} contrasts {:.1}:1, less than the {TEXT_CONTRAST}:1 \
             text needs to be read by every eye",
            f.what, low.text, low.fill, low.ground, low.ratio
        )
    };
    for (deck, cards) in per_deck {
        if cards.len() > PER_CARD {
            let (f, low) = cards
                .iter()
                .min_by(|a, b| a.1.ratio.total_cmp(&b.1.ratio))
                .expect("not empty");
            let named: Vec<&str> = cards.iter().take(PER_CARD).map(|(f, _)| f.id).collect();
            let message = format!(
                "{} faces of deck `{deck}` (`{}`, ...) have text below {TEXT_CONTRAST}:1 \
                 contrast; the lowest: {}",
                cards.len(),
                named.join("`, `"),
                say(f, low)
            );
            let span = game.deck(deck).map(|d| d.id.span()).unwrap_or(0..0);
            out.push(Problem::warning(message).help(help).at(
                &game.components_file,
                span,
                "this deck's cards",
            ));
            continue;
        }
        for (f, low) in cards {
            let problem = Problem::warning(say(f, &low)).help(help);
            let card = game
                .deck(deck)
                .and_then(|d| d.cards.iter().find(|c| c.id.get_ref() == f.id));
            out.push(match card {
                Some(card) => problem.at(game.card_file(card), card.id.span(), "this card"),
                None => problem.in_file(&game.components_file),
            });
        }
    }
    for (f, low) in single {
        let problem = Problem::warning(say(f, &low)).help(help);
        let span: Option<Range<usize>> = match f.kind {
            Kind::DeckBack => game.deck(f.id).map(|d| d.id.span()),
            _ => game
                .components
                .pieces
                .iter()
                .find(|p| p.id.get_ref() == f.id)
                .map(|p| p.id.span()),
        };
        let label = if f.kind == Kind::DeckBack {
            "this deck"
        } else {
            "this piece"
        };
        out.push(match span {
            Some(span) => problem.at(&game.components_file, span, label),
            None => problem.in_file(&game.components_file),
        });
    }
    out
}

/// The text of a face with the lowest contrast, when it is below [`TEXT_CONTRAST`]; `None`
/// when every text reads (or the face has none, or does not read: the face checks say so).
fn lowest_text(
    face: &Face,
    fonts: &crate::render::faces::fonts::FontDb,
    trees: Option<&Trees>,
) -> Option<LowText> {
    let document = face.document();
    if !document.contains("<text") {
        return None;
    }
    let tree = trees::text(trees, &document, fonts).ok()??;
    if let Some(t) = trees {
        // The safe-zone check measures this very document (the face alone at its trim).
        let trim = Rect::of_size(face.size);
        t.note_inset(
            &document,
            face.size,
            trim,
            pdf::inset_of(&tree, face.size, trim),
        );
    }
    let mut texts = Vec::new();
    collect_texts(tree.root(), &mut texts);
    if texts.is_empty() {
        return None;
    }
    let ground = without_text(&document)?;
    // What the text is printed on is read once, here: it is kept by no one. Only the part of
    // the face under some text is drawn (art elsewhere costs nothing); its pixels are those
    // of the whole face drawn at this resolution.
    let (w, h) = png::pixels(face.size, SAMPLE_PX_PER_MM);
    // Text boxes are in the tree's own units (its size, not millimetres).
    let scale = f64::from(w) / f64::from(tree.size().width()).max(1e-9);
    let in_pixels = |bbox: &usvg::Rect| {
        let x0 = (f64::from(bbox.left()) * scale).floor().max(0.0) as u32;
        let y0 = (f64::from(bbox.top()) * scale).floor().max(0.0) as u32;
        let x1 = ((f64::from(bbox.right()) * scale).ceil() as u32).min(w);
        let y1 = ((f64::from(bbox.bottom()) * scale).ceil() as u32).min(h);
        (x0, y0, x1, y1)
    };
    let part = texts
        .iter()
        .map(|(_, _, bbox)| in_pixels(bbox))
        .filter(|(x0, y0, x1, y1)| x0 < x1 && y0 < y1)
        .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)))?;
    let pixmap = png::rasterise_part(&ground, (w, h), part, fonts, None).ok()?;
    let mut lowest: Option<LowText> = None;
    for (text, fill, bbox) in texts {
        // The pixels under the text's box (its ink lies there), in the drawn part's pixels.
        let (x0, y0, x1, y1) = in_pixels(&bbox);
        let (x0, x1) = (x0.saturating_sub(part.0), x1.saturating_sub(part.0));
        let (y0, y1) = (y0.saturating_sub(part.1), y1.saturating_sub(part.1));
        let mut under: Vec<(f64, [u8; 3])> = Vec::new();
        // What is printed under text is mostly flat colour: a pixel like the one before it
        // contrasts like it.
        let mut last: Option<(resvg::tiny_skia::PremultipliedColorU8, (f64, [u8; 3]))> = None;
        for y in y0..y1 {
            for x in x0..x1 {
                let Some(p) = pixmap.pixel(x, y) else {
                    continue;
                };
                if let Some((seen, found)) = last
                    && seen == p
                {
                    under.push(found);
                    continue;
                }
                let premultiplied = p;
                let p = p.demultiply();
                // What shows through a transparent face is the paper.
                let a = f64::from(p.alpha()) / 255.0;
                let c = |v: u8| f64::from(v) / 255.0 * a + (1.0 - a);
                let rgb = Srgb::new(c(p.red()), c(p.green()), c(p.blue()));
                let bytes: Srgb<u8> = rgb.into_format();
                let found = (contrast(fill, rgb), [bytes.red, bytes.green, bytes.blue]);
                under.push(found);
                last = Some((premultiplied, found));
            }
        }
        if under.is_empty() {
            continue;
        }
        // The median, as the sorted list's middle (found without sorting the rest).
        let middle = under.len() / 2;
        let (_, &mut (ratio, ground), _) =
            under.select_nth_unstable_by(middle, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        if ratio >= TEXT_CONTRAST || lowest.as_ref().is_some_and(|l| l.ratio <= ratio) {
            continue;
        }
        let fill: Srgb<u8> = fill.into_format();
        lowest = Some(LowText {
            text,
            fill: format!("#{:02x}{:02x}{:02x}", fill.red, fill.green, fill.blue),
            ground: format!("#{:02x}{:02x}{:02x}", ground[0], ground[1], ground[2]),
            ratio,
        });
    }
    lowest
}

/// An SVG document without its `<text>` elements: what each text is printed on. `None` when
/// the document does not read, or reuses elements (`<use>`), which could draw text anywhere.
fn without_text(svg: &str) -> Option<String> {
    let doc = crate::render::formats::pdf::cuttable(svg)?;
    let mut out = String::with_capacity(svg.len());
    let mut from = 0;
    for n in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let r = n.range();
        // A text inside a text already cut out.
        if r.start < from {
            continue;
        }
        out.push_str(&svg[from..r.start]);
        from = r.end;
    }
    out.push_str(&svg[from..]);
    Some(out)
}

/// Every text of a drawn face with a solid fill: its words (cut short), its fill, and its
/// box in the tree's units.
fn collect_texts(group: &usvg::Group, out: &mut Vec<(String, Srgb<f64>, usvg::Rect)>) {
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => collect_texts(g, out),
            usvg::Node::Text(t) => {
                let Some(bbox) = t
                    .abs_bounding_box()
                    .width()
                    .gt(&0.0)
                    .then(|| t.abs_bounding_box())
                else {
                    continue;
                };
                for chunk in t.chunks() {
                    let words = chunk.text().trim();
                    let Some(span) = chunk.spans().first() else {
                        continue;
                    };
                    let Some(fill) = span.fill() else { continue };
                    let usvg::Paint::Color(c) = fill.paint() else {
                        continue;
                    };
                    if words.is_empty() || fill.opacity().get() < 0.5 {
                        continue;
                    }
                    // A text outlined in another colour reads against its outline.
                    if span
                        .stroke()
                        .is_some_and(|s| s.width().get() >= span.font_size().get() * 0.08)
                    {
                        continue;
                    }
                    let short: String = words.chars().take(40).collect();
                    let rgb = Srgb::new(
                        f64::from(c.red) / 255.0,
                        f64::from(c.green) / 255.0,
                        f64::from(c.blue) / 255.0,
                    );
                    out.push((short, rgb, bbox));
                }
            }
            _ => {}
        }
    }
}

/// A card front drawn from `svg`, for the tests below.
#[cfg(test)]
fn first_face(svg: &str, size: (f64, f64)) -> Face<'_> {
    Face {
        kind: Kind::CardFront,
        id: "x",
        deck: Some("d"),
        template: Some("t"),
        what: "card `x` of deck `d`".to_string(),
        size,
        svg: std::borrow::Cow::Borrowed(svg),
        outline: None,
        lang: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grey_text_on_white_is_low_and_black_text_is_not() {
        let fonts = crate::render::faces::fonts::builtin();
        let grey = r##"<rect width="60" height="40" fill="#ffffff"/><text x="5" y="20" font-size="5" fill="#aaaaaa">Draw pile</text>"##;
        let low = lowest_text(&first_face(grey, (60.0, 40.0)), &fonts, None).unwrap();
        assert_eq!(low.text, "Draw pile");
        assert_eq!(low.ground, "#ffffff");
        assert!((low.ratio - 2.32).abs() < 0.05, "{low:?}");
        let black = grey.replace("#aaaaaa", "#1a1a1a");
        assert!(lowest_text(&first_face(&black, (60.0, 40.0)), &fonts, None).is_none());
        // White text on a dark band above a white card reads: the ground is under the text.
        let band = r##"<rect width="60" height="40" fill="#ffffff"/><rect y="14" width="60" height="8" fill="#2b2b2b"/><text x="5" y="20" font-size="5" fill="#ffffff">Draw pile</text>"##;
        assert!(lowest_text(&first_face(band, (60.0, 40.0)), &fonts, None).is_none());
        // Dark text on that band does not, though the card around the band is white.
        let dark = band.replace(r##"fill="#ffffff">Draw"##, r##"fill="#000000">Draw"##);
        let low = lowest_text(&first_face(&dark, (60.0, 40.0)), &fonts, None).unwrap();
        assert_eq!(low.ground, "#2b2b2b", "{low:?}");
        assert!(low.ratio < 1.5, "{low:?}");
    }

    /// Only what lies under some text is drawn (the part spanning every text), and a face is
    /// read for its text alone unless the build keeps its whole reading: each way finds the
    /// same text on the same ground, and notes the same distance to the trim.
    #[test]
    fn each_reading_finds_the_same_lowest_text_on_the_same_ground() {
        use crate::render::trees::Trees;
        let fonts = crate::render::faces::fonts::builtin();
        // Art at the top (never under text), a pale band under the lower text, a dark band
        // under the upper one; a rotated group places the upper text.
        let svg = r##"<rect width="60" height="80" fill="#ffffff"/><path d="M2 2 C 20 30, 40 -10, 58 12 L 58 2 Z" fill="#d33"/><rect y="28" width="60" height="10" fill="#202020"/><rect y="62" width="60" height="10" fill="#e8e8e0"/><g transform="rotate(3 30 34)"><text x="4" y="35" font-size="5" fill="#3a3a3a">Upper</text></g><text x="8" y="69" font-size="5" fill="#b0b0b0">Lower line</text>"##;
        let face = first_face(svg, (60.0, 80.0));
        let alone = lowest_text(&face, &fonts, None).unwrap();
        assert_eq!(alone.text, "Upper", "{alone:?}");
        assert_eq!(alone.ground, "#202020", "{alone:?}");
        let mut insets = Vec::new();
        for keeping in [false, true] {
            let trees = Trees::new();
            trees.keep(keeping);
            let low = lowest_text(&face, &fonts, Some(&trees)).unwrap();
            assert_eq!(
                (&low.text, &low.fill, &low.ground),
                (&alone.text, &alone.fill, &alone.ground),
                "keeping {keeping}"
            );
            assert!((low.ratio - alone.ratio).abs() < 1e-9, "keeping {keeping}");
            let trim = Rect::of_size(face.size);
            insets.push(trees.noted_inset(&face.document(), face.size, trim));
        }
        assert!(insets[0].is_some_and(|i| i.is_some()), "{insets:?}");
        assert_eq!(insets[0], insets[1]);
    }
}
