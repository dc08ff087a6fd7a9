//! Tuck boxes (`boxes.pdf`): one box per printed deck, drawn flat as a net to cut out, fold and
//! glue. Its inside is a card's width and height and the deck's thickness (every copy's count
//! times the deck's `box.card_thickness_mm`), each with [`SLACK`] to slide the cards in.
//!
//! The net, printed side up, left to right: the back, a side, the front, the other side and
//! the glue flap (glued inside the back's free edge). Above the back its lid and the tuck tab
//! that slides down inside the front (whose top edge has a thumb notch); above and below each
//! side a dust flap; below the back and the front a bottom flap each, glued together. The
//! deck's template (`box.template`, default `tuck-box`) draws the faces over the whole net,
//! with bleed; this module adds the cut outline (solid), the fold lines (dashed) and the glue
//! areas (grey) over them.

use crate::render::faces::DeckFaces;
use crate::render::formats::pdf::{PageSpec, Stamp};
use crate::render::sheets::layout::{self, MARK_WIDTH, PAPER_MARGIN, Paper, Rect};

/// Room added to the cards' width, height and stack, in millimetres, so they slide in.
pub const SLACK: f64 = 1.0;
/// Longest tuck tab, in millimetres (it never reaches more than a third down the front).
pub const TAB_MAX: f64 = 15.0;
/// Widest glue flap, in millimetres (never more than a third of the back).
pub const GLUE_MAX: f64 = 8.0;
/// Room between the net's bleed and the paper's margin, above and below, for the rows of text.
const TEXT_ROOM: f64 = 2.0 * layout::TEXT_ROW + layout::RULER_HEIGHT;

/// A tuck box's net, in millimetres from the top-left corner of its outline's bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Net {
    /// The inside: the cards' width and height with slack, and the stack's depth with slack.
    pub inner: (f64, f64, f64),
    pub tab: f64,
    pub glue: f64,
    pub notch: f64,
}

impl Net {
    /// The net of a box for `count` cards of `card` size, each `thickness` thick.
    pub fn new(card: (f64, f64), count: u32, thickness: f64) -> Net {
        let (w, h) = (card.0 + SLACK, card.1 + SLACK);
        let d = f64::from(count) * thickness + SLACK;
        Net {
            inner: (w, h, d),
            tab: TAB_MAX.min(h / 3.0),
            glue: GLUE_MAX.min(w / 3.0),
            notch: 10.0f64.min(w / 5.0).min(h / 8.0),
        }
    }

    /// The outline's bounds.
    pub fn size(&self) -> (f64, f64) {
        let (w, h, d) = self.inner;
        (2.0 * w + 2.0 * d + self.glue, self.tab + d + h + d)
    }

    /// Top and bottom of the body (the four walls and the glue flap).
    fn body_y(&self) -> (f64, f64) {
        let (_, h, d) = self.inner;
        (self.tab + d, self.tab + d + h)
    }

    /// Every panel by name: the walls (`back`, `left`, `front`, `right`), the `glue` flap,
    /// the `lid` and its `tab`, the `bottom` flaps of the back and the front
    /// (`bottom_back`, `bottom_front`) and the dust flaps' boxes (`dust_left_top`, ...).
    pub fn panels(&self) -> Vec<(&'static str, Rect)> {
        let (w, h, d) = self.inner;
        let (top, bottom) = self.body_y();
        let r = |x: f64, y: f64, rw: f64, rh: f64| Rect { x, y, w: rw, h: rh };
        let dust = self.dust();
        vec![
            ("back", r(0.0, top, w, h)),
            ("left", r(w, top, d, h)),
            ("front", r(w + d, top, w, h)),
            ("right", r(2.0 * w + d, top, d, h)),
            ("glue", r(2.0 * w + 2.0 * d, top, self.glue, h)),
            ("lid", r(0.0, self.tab, w, d)),
            ("tab", r(0.0, 0.0, w, self.tab)),
            ("bottom_back", r(0.0, bottom, w, d)),
            ("bottom_front", r(w + d, bottom, w, d)),
            ("dust_left_top", r(w, top - dust, d, dust)),
            ("dust_right_top", r(2.0 * w + d, top - dust, d, dust)),
            ("dust_left_bottom", r(w, bottom, d, dust)),
            ("dust_right_bottom", r(2.0 * w + d, bottom, d, dust)),
        ]
    }

    /// A panel by name.
    pub fn panel(&self, name: &str) -> Rect {
        self.panels()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, r)| r)
            .unwrap_or(Rect::of_size((0.0, 0.0)))
    }

    /// How far a dust flap reaches: the box's depth, but never past the middle of the
    /// opening it folds over.
    fn dust(&self) -> f64 {
        let (w, _, d) = self.inner;
        d.min(w / 2.0)
    }

    /// The fold lines, each from one end to the other: between the walls, the glue flap's
    /// hinge, the lid's and the tab's hinges, and the bottom and dust flaps' hinges.
    pub fn folds(&self) -> Vec<((f64, f64), (f64, f64))> {
        let (w, _, d) = self.inner;
        let (top, bottom) = self.body_y();
        let mut out: Vec<((f64, f64), (f64, f64))> = [w, w + d, 2.0 * w + d, 2.0 * w + 2.0 * d]
            .into_iter()
            .map(|x| ((x, top), (x, bottom)))
            .collect();
        // The lid's hinge and the sides' dust flaps along the top (the front's top is cut).
        out.push(((0.0, top), (w, top)));
        out.push(((w, top), (w + d, top)));
        out.push(((2.0 * w + d, top), (2.0 * w + 2.0 * d, top)));
        out.push(((0.0, self.tab), (w, self.tab)));
        // The bottom: every wall's flap.
        out.push(((0.0, bottom), (2.0 * w + 2.0 * d, bottom)));
        out
    }

    /// The areas glue goes on: the glue flap, and the front's bottom flap (glued to the
    /// back's).
    pub fn glue_areas(&self) -> Vec<Rect> {
        vec![self.panel("glue"), self.panel("bottom_front")]
    }

    /// The cut outline as SVG path data, clockwise from the back's bottom-left corner.
    pub fn outline(&self) -> String {
        let (w, _, d) = self.inner;
        let (top, bottom) = self.body_y();
        let t = self.tab;
        let f = self.dust();
        // The tab's corners are rounded, and it is a millimetre narrower each side so that it
        // slides into the box.
        let inset = 1.0f64.min(w / 10.0);
        let round = (t / 2.0).min(5.0);
        let chamfer = (f / 3.0).min(3.0);
        let g = self.glue;
        let gc = (g * 0.75).min(bottom - top);
        let (cx, r) = (w + d + w / 2.0, self.notch);
        let mut p = String::new();
        let mut at = |cmd: &str| {
            p.push_str(cmd);
            p.push(' ');
        };
        at(&format!("M0,{:.4}", bottom + d));
        at(&format!("V{t:.4}"));
        at(&format!("H{inset:.4}"));
        at(&format!("V{round:.4}"));
        at(&format!(
            "A{round:.4},{round:.4} 0 0 1 {:.4},0",
            inset + round
        ));
        at(&format!("H{:.4}", w - inset - round));
        at(&format!(
            "A{round:.4},{round:.4} 0 0 1 {:.4},{round:.4}",
            w - inset
        ));
        at(&format!("V{t:.4}"));
        at(&format!("H{w:.4}"));
        at(&format!("V{top:.4}"));
        // The left side's dust flap, slanted away from the lid.
        at(&format!("L{:.4},{:.4}", w + chamfer, top - f));
        at(&format!("H{:.4}", w + d - chamfer));
        at(&format!("L{:.4},{top:.4}", w + d));
        // The front's top with its thumb notch.
        at(&format!("H{:.4}", cx - r));
        at(&format!("A{r:.4},{r:.4} 0 0 0 {:.4},{top:.4}", cx + r));
        at(&format!("H{:.4}", 2.0 * w + d));
        // The right side's dust flap.
        at(&format!("L{:.4},{:.4}", 2.0 * w + d + chamfer, top - f));
        at(&format!("H{:.4}", 2.0 * w + 2.0 * d - chamfer));
        at(&format!("L{:.4},{top:.4}", 2.0 * w + 2.0 * d));
        // The glue flap.
        at(&format!("L{:.4},{:.4}", 2.0 * w + 2.0 * d + g, top + gc));
        at(&format!("V{:.4}", bottom - gc));
        at(&format!("L{:.4},{bottom:.4}", 2.0 * w + 2.0 * d));
        // Below the right side, the front and the left side: their flaps.
        at(&format!(
            "L{:.4},{:.4}",
            2.0 * w + 2.0 * d - chamfer,
            bottom + f
        ));
        at(&format!("H{:.4}", 2.0 * w + d + chamfer));
        at(&format!("L{:.4},{bottom:.4}", 2.0 * w + d));
        at(&format!("V{:.4}", bottom + d));
        at(&format!("H{:.4}", w + d));
        at(&format!("V{bottom:.4}"));
        at(&format!("L{:.4},{:.4}", w + d - chamfer, bottom + f));
        at(&format!("H{:.4}", w + chamfer));
        at(&format!("L{w:.4},{bottom:.4}"));
        at(&format!("V{:.4}", bottom + d));
        p.push('Z');
        p
    }

    /// What a template sees of the box: its inside, the card count and thickness, and every
    /// panel's rectangle.
    pub fn json(&self, count: u32, thickness: f64) -> serde_json::Value {
        let (w, h, d) = self.inner;
        let panels: serde_json::Map<String, serde_json::Value> = self
            .panels()
            .into_iter()
            .map(|(name, r)| {
                (
                    name.to_string(),
                    serde_json::json!({ "x": r.x, "y": r.y, "w": r.w, "h": r.h }),
                )
            })
            .collect();
        serde_json::json!({ "width": w, "height": h, "depth": d, "cards": count,
                            "card_thickness": thickness, "panels": panels })
    }
}

/// Where a net of `size` (with `bleed`) goes on `paper`: its top-left corner and whether it is
/// turned a quarter (when only so it fits); `None` when it fits neither way.
pub fn place(size: (f64, f64), bleed: f64, paper: Paper) -> Option<((f64, f64), bool)> {
    let (pw, ph) = paper.mm();
    let room = (
        pw - 2.0 * (PAPER_MARGIN + bleed),
        ph - 2.0 * (PAPER_MARGIN + bleed + TEXT_ROOM),
    );
    [false, true].into_iter().find_map(|turned| {
        let (w, h) = if turned { (size.1, size.0) } else { size };
        (w <= room.0 + 1e-9 && h <= room.1 + 1e-9)
            .then(|| (((pw - w) / 2.0, (ph - h) / 2.0), turned))
    })
}

/// What to change when a box fits no page: the words `check` and the stage both give.
pub const TOO_BIG_HELP: &str = "a box holds every copy of the deck's cards: make them thinner \
     (`box.card_thickness_mm`), fewer or smaller, or build on larger paper (--paper a3)";

/// Where the box of deck `deck_id` goes on `paper` (as [`place`]), or the sentence saying
/// that it fits neither upright nor turned: the one reckoning both `check` and the `boxes`
/// stage make, so that what the check passes the stage prints.
pub fn fit(
    deck_id: &str,
    net: &Net,
    bleed: f64,
    paper: Paper,
) -> Result<((f64, f64), bool), String> {
    let size = net.size();
    place(size, bleed, paper).ok_or_else(|| {
        let (w, h, d) = net.inner;
        format!(
            "the tuck box of deck `{deck_id}` (inside {w:.1} x {h:.1} x {d:.1} mm) is \
             {:.1} x {:.1} mm flat and fits on {} with {bleed} mm bleed neither upright nor \
             turned",
            size.0,
            size.1,
            paper.name()
        )
    })
}

/// Whether deck `deck_id` writes its `box` ([`crate::model::TuckBox::asked`]); a deck that
/// does not gets a box only where one fits the paper.
pub fn asked(game: &crate::model::Game, deck_id: &str) -> bool {
    game.deck(deck_id).is_some_and(|d| d.tuck_box.asked)
}

/// Why a deck that does not ask for a box has none, and how to get one.
pub const UNASKED_HELP: &str = "the deck writes no `box`, so its box is left out where it \
     does not fit; to have one, print on larger paper (--paper a3), or split the deck, or \
     write `box = { card_thickness_mm = ... }` to have a box that does not fit refused";

/// The decks `boxes.pdf` prints a box for, with their boxes: every deck with cards whose box
/// could be drawn, in order.
pub fn printed_boxes(
    faces: &crate::render::faces::Faces,
) -> impl Iterator<Item = (&DeckFaces, &crate::render::faces::BoxFace)> {
    faces
        .decks
        .iter()
        .filter(|d| !d.cards.is_empty())
        .filter_map(|d| d.tuck_box.as_ref().map(|b| (d, b)))
}

/// The number of cards a deck's box holds: every copy of every card.
pub fn cards_in(deck: &DeckFaces) -> u32 {
    deck.cards.iter().map(|c| c.count).sum()
}

/// One page of `boxes.pdf`: the deck's net, its art (drawn with `bleed`, clipped to the
/// outline's bounds grown by the bleed), the cut outline, folds and glue areas, and the rows of
/// text. `svg` is the box face the template drew.
pub fn box_page(
    game_name: &str,
    deck: &DeckFaces,
    net: &Net,
    svg: &str,
    bleed: f64,
    paper: Paper,
) -> Result<PageSpec, String> {
    let size = net.size();
    let (pw, ph) = paper.mm();
    let ((x, y), turned) = fit(&deck.id, net, bleed, paper)?;
    let mut guides = String::new();
    for g in net.glue_areas() {
        guides.push_str(&format!(
            r##"<rect x="{:.4}" y="{:.4}" width="{:.4}" height="{:.4}" fill="#d0d0d0"/>"##,
            g.x, g.y, g.w, g.h
        ));
        // The word where it fits.
        if g.h < 4.0 || g.w < 8.0 {
            continue;
        }
        guides.push_str(&layout::label(
            g.x + g.w / 2.0,
            g.y + g.h / 2.0 + layout::FURNITURE_SIZE / 3.0,
            layout::FURNITURE_SIZE,
            "middle",
            "glue",
        ));
    }
    let mut d = String::new();
    for ((x1, y1), (x2, y2)) in net.folds() {
        d.push_str(&format!("M{x1:.4},{y1:.4} L{x2:.4},{y2:.4} "));
    }
    guides.push_str(&format!(
        r##"<path d="{}" fill="none" stroke="#000000" stroke-width="{MARK_WIDTH}" stroke-dasharray="2 1.5"/>"##,
        d.trim_end()
    ));
    guides.push_str(&format!(
        r##"<path d="{}" fill="none" stroke="#000000" stroke-width="{MARK_WIDTH}"/>"##,
        net.outline()
    ));
    let reach = bleed + MARK_WIDTH;
    // The art runs `bleed` beyond every panel, and no further (the rest is cut away).
    let bleeds: String = net
        .panels()
        .into_iter()
        .map(|(_, r)| {
            let g = r.grow(bleed);
            format!(
                r#"<rect x="{:.4}" y="{:.4}" width="{:.4}" height="{:.4}"/>"#,
                g.x, g.y, g.w, g.h
            )
        })
        .collect();
    let art = format!(
        r#"<clipPath id="box-bleed">{bleeds}</clipPath><g clip-path="url(#box-bleed)">{svg}</g>{guides}"#
    );
    let (vw, vh) = (size.0 + 2.0 * reach, size.1 + 2.0 * reach);
    let (tw, th) = if turned { (size.1, size.0) } else { size };
    let stamp = Stamp {
        art,
        view: Rect {
            x: -reach,
            y: -reach,
            w: vw,
            h: vh,
        },
        // Turned about its centre, the view's centre stays the net's on the page.
        at: (x + tw / 2.0 - vw / 2.0, y + th / 2.0 - vh / 2.0),
        turn: if turned { 90 } else { 0 },
    };
    let (w, h, depth) = net.inner;
    let label = format!(
        "{game_name} · {} · tuck box, inside {w:.1} x {h:.1} x {depth:.1} mm · cut the solid \
         line, fold the dashed ones, glue the grey",
        deck.name
    );
    let mut body = layout::top_row((pw, ph), &label, None);
    body.push_str(&layout::bottom_row((pw, ph), None, None));
    Ok(PageSpec {
        stamps: vec![stamp],
        ..PageSpec::new((pw, ph), body)
    })
}

/// `boxes.pdf`: a tuck box for every printed deck with cards, one a page; a box that fits
/// no page is refused at its deck's place in `components.toml`.
pub fn boxes_pdf(
    game: &crate::model::Game,
    faces: &crate::render::faces::Faces,
    bleed: f64,
    paper: Paper,
    kept: Option<&crate::render::formats::kept::ReadPages>,
) -> Result<Option<Vec<u8>>, String> {
    let game_name = &game.info.name;
    let pages: Vec<PageSpec> = printed_boxes(faces)
        // A box the deck does not ask for is printed only where it fits (`check` warns).
        .filter(|(d, b)| asked(game, &d.id) || fit(&d.id, &b.net, bleed, paper).is_ok())
        .map(|(d, b)| {
            box_page(game_name, d, &b.net, &b.svg, bleed, paper).map_err(|e| {
                match game.deck(&d.id) {
                    Some(deck) => format!(
                        "{}: {e} ({TOO_BIG_HELP})",
                        game.components_file.place(deck.id.span().start)
                    ),
                    None => format!("{e} ({TOO_BIG_HELP})"),
                }
            })
        })
        .collect::<Result<_, _>>()?;
    if pages.is_empty() {
        return Ok(None);
    }
    crate::render::formats::pdf::write_pdf_keeping(
        &format!("{game_name}: tuck boxes"),
        &pages,
        &faces.fonts,
        kept,
    )
    .map(Some)
}

/// The `boxes` stage: `boxes.pdf`, when the game prints cards.
pub fn stage(b: &crate::render::GameBuild) -> Result<Vec<std::path::PathBuf>, String> {
    let o = b.options;
    match boxes_pdf(b.game, &b.faces, o.bleed, o.paper, o.kept_pages.as_deref())? {
        Some(bytes) => Ok(vec![b.write("boxes.pdf", &bytes)?]),
        None => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poker_deck_of_54_gets_a_box_of_its_cards_and_their_stack() {
        let net = Net::new((63.0, 88.0), 54, 0.3);
        let (w, h, d) = net.inner;
        assert_eq!((w, h), (64.0, 89.0));
        assert!((d - (54.0 * 0.3 + SLACK)).abs() < 1e-9);
        let p = |n: &str| net.panel(n);
        // The walls: back and front the cards' size, sides the stack's depth, side by side.
        for (name, pw) in [("back", w), ("left", d), ("front", w), ("right", d)] {
            assert!(
                (p(name).w - pw).abs() < 1e-9 && (p(name).h - h).abs() < 1e-9,
                "{name}"
            );
        }
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(p("left").x, p("back").right()));
        assert!(close(p("front").x, p("left").right()));
        assert!(close(p("right").x, p("front").right()));
        assert!(close(p("glue").x, p("right").right()));
        // The lid closes the top (w x d) and its tab tucks a third of the front at most.
        assert_eq!((p("lid").w, p("lid").h), (w, d));
        assert!(close(p("lid").bottom(), p("back").y));
        assert!(close(p("tab").bottom(), p("lid").y));
        assert!(p("tab").h <= h / 3.0 + 1e-9 && p("tab").y == 0.0);
        assert_eq!((p("bottom_back").h, p("bottom_front").h), (d, d));
        // Every fold lies along an edge of two panels (sampled at a quarter, half and three
        // quarters of its length), the one folded against the other.
        let on_edge = |r: Rect, (x, y): (f64, f64)| {
            let within = |v: f64, a: f64, b: f64| v >= a - 1e-9 && v <= b + 1e-9;
            ((x - r.x).abs() < 1e-9 || (x - r.right()).abs() < 1e-9) && within(y, r.y, r.bottom())
                || ((y - r.y).abs() < 1e-9 || (y - r.bottom()).abs() < 1e-9)
                    && within(x, r.x, r.right())
        };
        assert_eq!(net.folds().len(), 9);
        for (a, b) in net.folds() {
            for t in [0.25, 0.5, 0.75] {
                let at = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                let n = net.panels().iter().filter(|(_, r)| on_edge(*r, at)).count();
                assert!(n >= 2, "fold {a:?}-{b:?} at {at:?}: {n} panel(s)");
            }
        }
        // Folded, the walls go round the stack: back + side + front + side.
        let around: f64 = ["back", "left", "front", "right"]
            .iter()
            .map(|n| p(n).w)
            .sum();
        assert!((around - 2.0 * (w + d)).abs() < 1e-9);
        assert_eq!(
            net.size(),
            (2.0 * w + 2.0 * d + net.glue, net.tab + 2.0 * d + h)
        );
        // A poker box fits A4 upright; a tarot deck of 78 only turned; a huge one not at all.
        assert_eq!(place(net.size(), 3.0, Paper::A4).map(|p| p.1), Some(false));
        let tarot = Net::new((70.0, 120.0), 78, 0.3);
        assert_eq!(place(tarot.size(), 3.0, Paper::A4).map(|p| p.1), Some(true));
        let big = Net::new((120.0, 180.0), 300, 0.5);
        assert_eq!(place(big.size(), 3.0, Paper::A4), None);
    }
}
