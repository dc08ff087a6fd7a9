//! Page geometry in millimetres: papers, the card grid, crop marks and the furniture every
//! sheet carries (ruler, "print at 100 %" line, page label, card ids for collation).

use super::xml_escape;

/// Paper sizes, portrait, in millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Paper {
    A4,
    Letter,
    A3,
    A2,
}

impl Paper {
    pub fn mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
            Paper::A3 => (297.0, 420.0),
            Paper::A2 => (420.0, 594.0),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "Letter",
            Paper::A3 => "A3",
            Paper::A2 => "A2",
        }
    }
}

/// How the printer turns the sheet for the second side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Duplex {
    /// Flipped over the long edge: backs are mirrored left to right.
    LongEdge,
    /// Flipped over the short edge: backs are mirrored top to bottom.
    ShortEdge,
    /// One-sided: all fronts, then all backs, not mirrored.
    Off,
}

/// Distance a home printer cannot print near the paper edge; nothing is placed there.
pub const PRINTER_MARGIN: f64 = 3.0;
/// Room beyond the bleed that crop marks need at least.
pub const MARK_ROOM: f64 = 4.0;
/// Gap between the bleed edge and the start of a crop mark.
pub const MARK_GAP: f64 = 0.5;
/// Longest crop mark.
pub const MARK_LEN: f64 = 4.0;
/// Crop mark line width.
pub const MARK_WIDTH: f64 = 0.2;
/// Closest a crop mark comes to the trim when it has to start inside the bleed.
pub const MARK_TRIM_GAP: f64 = 1.0;
/// White either side of a crop mark that lies on the bleed.
pub const MARK_HALO: f64 = 0.3;

/// A rectangle in page millimetres, origin top-left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn grow(self, by: f64) -> Rect {
        Rect {
            x: self.x - by,
            y: self.y - by,
            w: self.w + 2.0 * by,
            h: self.h + 2.0 * by,
        }
    }
    pub fn right(self) -> f64 {
        self.x + self.w
    }
    pub fn bottom(self) -> f64 {
        self.y + self.h
    }
}

/// Cards of one size laid out edge to edge, centred on the paper, with the bleed around the
/// block. Cards share their cut lines, which is what lets 3 x 3 poker cards fit on Letter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub paper: (f64, f64),
    pub cols: usize,
    pub rows: usize,
    pub card: (f64, f64),
    pub bleed: f64,
    /// Top-left corner of the block's trim.
    pub x0: f64,
    pub y0: f64,
}

impl Grid {
    /// The most cards of `card` size that fit on `paper` with bleed and crop-mark room.
    pub fn new(paper: Paper, card: (f64, f64), bleed: f64) -> Option<Grid> {
        let (pw, ph) = paper.mm();
        let fit = |page: f64, size: f64| ((page - 2.0 * (bleed + MARK_ROOM)) / size).floor();
        let cols = fit(pw, card.0);
        let rows = fit(ph, card.1);
        if cols < 1.0 || rows < 1.0 {
            return None;
        }
        let (cols, rows) = (cols as usize, rows as usize);
        Some(Grid {
            paper: (pw, ph),
            cols,
            rows,
            card,
            bleed,
            x0: (pw - cols as f64 * card.0) / 2.0,
            y0: (ph - rows as f64 * card.1) / 2.0,
        })
    }

    pub fn per_page(&self) -> usize {
        self.cols * self.rows
    }

    /// The trim of the card in slot `i` (row-major) of a front page.
    pub fn front_cell(&self, i: usize) -> Rect {
        self.cell(i % self.cols, i / self.cols)
    }

    /// The trim of the back of slot `i`: mirrored so it falls behind the front when
    /// printed two-sided, and shifted by the measured printer offset.
    pub fn back_cell(&self, i: usize, duplex: Duplex, offset: (f64, f64)) -> Rect {
        let (c, r) = (i % self.cols, i / self.cols);
        let f = self.cell(c, r);
        let (pw, ph) = self.paper;
        let mirrored = match duplex {
            Duplex::LongEdge => Rect {
                x: pw - f.x - f.w,
                ..f
            },
            Duplex::ShortEdge => Rect {
                y: ph - f.y - f.h,
                ..f
            },
            Duplex::Off => f,
        };
        Rect {
            x: mirrored.x + offset.0,
            y: mirrored.y + offset.1,
            ..mirrored
        }
    }

    fn cell(&self, c: usize, r: usize) -> Rect {
        Rect {
            x: self.x0 + c as f64 * self.card.0,
            y: self.y0 + r as f64 * self.card.1,
            w: self.card.0,
            h: self.card.1,
        }
    }

    /// The trim of the whole block.
    pub fn block(&self) -> Rect {
        Rect {
            x: self.x0,
            y: self.y0,
            w: self.cols as f64 * self.card.0,
            h: self.rows as f64 * self.card.1,
        }
    }
}

/// Crop marks at every cut line of `block`: `xs` are the vertical cut lines, `ys` the
/// horizontal ones. A mark runs away from the block and ends before the printer margin.
/// Where there is room it starts just outside the bleed, [`MARK_LEN`] long. Where there is
/// not (3 x 3 poker cards on Letter leave 7.7 mm above and below the block), it starts
/// inside the bleed, [`MARK_TRIM_GAP`] beyond the trim, so it still reads: that outer strip
/// of bleed is cut away with it, and a white halo keeps the mark visible on the art.
pub fn crop_marks(paper: (f64, f64), block: Rect, bleed: f64, xs: &[f64], ys: &[f64]) -> String {
    let top = mark_span(block.y, bleed);
    let bottom = mark_span(paper.1 - block.bottom(), bleed);
    let left = mark_span(block.x, bleed);
    let right = mark_span(paper.0 - block.right(), bleed);
    let mut ink = String::new();
    let mut halo = String::new();
    for &x in xs {
        for (span, edge, dir) in [(top, block.y, -1.0), (bottom, block.bottom(), 1.0)] {
            let at = |d: f64| edge + dir * d;
            ink.push_str(&format!("M{x:.3},{:.3} V{:.3} ", at(span.0), at(span.1)));
            if span.0 < bleed {
                halo.push_str(&format!("M{x:.3},{:.3} V{:.3} ", at(span.0), at(bleed)));
            }
        }
    }
    for &y in ys {
        for (span, edge, dir) in [(left, block.x, -1.0), (right, block.right(), 1.0)] {
            let at = |d: f64| edge + dir * d;
            ink.push_str(&format!("M{:.3},{y:.3} H{:.3} ", at(span.0), at(span.1)));
            if span.0 < bleed {
                halo.push_str(&format!("M{:.3},{y:.3} H{:.3} ", at(span.0), at(bleed)));
            }
        }
    }
    let mut out = String::new();
    if !halo.is_empty() {
        out.push_str(&format!(
            r##"<path d="{}" fill="none" stroke="#ffffff" stroke-width="{:.2}" stroke-linecap="butt"/>"##,
            halo.trim_end(),
            MARK_WIDTH + 2.0 * MARK_HALO
        ));
    }
    out.push_str(&format!(
        r##"<path d="{}" fill="none" stroke="#000000" stroke-width="{MARK_WIDTH}" stroke-linecap="butt"/>"##,
        ink.trim_end()
    ));
    out
}

/// Where a crop mark lies, as distances from the trim (start, end), given `space` from the
/// trim to the paper's edge on that side.
fn mark_span(space: f64, bleed: f64) -> (f64, f64) {
    let end = space - PRINTER_MARGIN;
    let outside = bleed + MARK_GAP;
    if end - outside >= MARK_LEN {
        (outside, outside + MARK_LEN)
    } else {
        let start = (end - MARK_LEN).clamp(MARK_TRIM_GAP.min(end), outside);
        (start, end.max(start))
    }
}

/// A 50 mm ruler with millimetre ticks, its left end at (x, y), ticks going down.
pub fn ruler(x: f64, y: f64) -> String {
    let mut d = format!("M{x:.3},{y:.3} H{:.3} ", x + 50.0);
    for mm in 0..=50 {
        let len = if mm % 10 == 0 {
            2.5
        } else if mm % 5 == 0 {
            1.8
        } else {
            1.0
        };
        let tx = x + f64::from(mm);
        d.push_str(&format!("M{tx:.3},{y:.3} V{:.3} ", y + len));
    }
    let mut out = format!(
        r##"<path d="{}" fill="none" stroke="#000000" stroke-width="0.15"/>"##,
        d.trim_end()
    );
    for cm in 0..=5 {
        out.push_str(&format!(
            r##"<text x="{:.3}" y="{:.3}" font-size="1.8" text-anchor="middle" font-family="DejaVu Sans" fill="#000000">{}</text>"##,
            x + f64::from(cm) * 10.0,
            y + 4.3,
            cm * 10
        ));
    }
    out
}

/// A one-line label in the sheet furniture.
pub fn label(x: f64, y: f64, size: f64, anchor: &str, text: &str) -> String {
    format!(
        r##"<text x="{x:.3}" y="{y:.3}" font-size="{size:.3}" text-anchor="{anchor}" font-family="DejaVu Sans" font-stretch="condensed" fill="#000000">{}</text>"##,
        xml_escape(text)
    )
}

/// The sentence every sheet carries so that printers do not scale it.
pub const ACTUAL_SIZE: &str =
    "Print at 100 % / actual size (no \"fit to page\"): the ruler must measure 50 mm.";

/// Where the furniture goes: the bands above and below the block, or beside it (rotated)
/// when the sides have more room.
#[derive(Debug, Clone, Copy)]
pub struct Bands {
    /// True when the furniture runs along the top and bottom edges.
    pub horizontal: bool,
}

impl Bands {
    pub fn choose(paper: (f64, f64), block: Rect) -> Bands {
        let vertical_room = block.y.min(paper.1 - block.bottom());
        let side_room = block.x.min(paper.0 - block.right());
        Bands {
            horizontal: vertical_room >= side_room,
        }
    }
}

/// Furniture for a sheet of cells: the page label and each line's card ids in one band,
/// the ruler and the actual-size line in the other. `lines` gives, per column (horizontal
/// bands) or per row (side bands), its span along the band and the ids in it.
pub fn furniture(
    paper: (f64, f64),
    block: Rect,
    bleed: f64,
    page_label: &str,
    lines: &[(f64, f64, String)],
) -> String {
    let bands = Bands::choose(paper, block);
    let mut out = String::new();
    if bands.horizontal {
        let top = PRINTER_MARGIN;
        out.push_str(&label(block.x, top + 2.2, 2.4, "start", page_label));
        let ids_y = (block.y - bleed - MARK_GAP - MARK_LEN).max(top + 4.4);
        for (from, to, ids) in lines {
            out.push_str(&fit_line((from + to) / 2.0, ids_y, to - from, ids));
        }
        let bottom = paper.1 - PRINTER_MARGIN - 4.6;
        let ruler_x = block.x + block.w / 2.0 - 25.0;
        out.push_str(&ruler(ruler_x, bottom));
        out.push_str(&label(
            block.x,
            bottom + 2.0,
            1.9,
            "start",
            "Print at 100 %",
        ));
        out.push_str(&label(block.x, bottom + 4.2, 1.6, "start", "actual size"));
        out.push_str(&label(block.right(), bottom + 2.0, 1.6, "end", ACTUAL_SIZE));
    } else {
        // Left band, read bottom to top: label and ids; right band: ruler and actual size.
        let lx = PRINTER_MARGIN + 2.2;
        let mid = block.y + block.h / 2.0;
        out.push_str(&format!(
            r#"<g transform="translate({lx:.3} {mid:.3}) rotate(-90)">{}</g>"#,
            label(0.0, 0.0, 2.4, "middle", page_label)
        ));
        let ids_x = (block.x - bleed - MARK_GAP - MARK_LEN).max(lx + 2.2);
        for (from, to, ids) in lines {
            let c = (from + to) / 2.0;
            out.push_str(&format!(
                r#"<g transform="translate({ids_x:.3} {c:.3}) rotate(-90)">{}</g>"#,
                fit_line(0.0, 0.0, to - from, ids)
            ));
        }
        let rx = paper.0 - PRINTER_MARGIN - 4.6;
        out.push_str(&format!(
            r#"<g transform="translate({rx:.3} {:.3}) rotate(-90)">{}{}</g>"#,
            mid + 25.0,
            ruler(0.0, 0.0),
            label(55.0, 2.0, 1.8, "start", ACTUAL_SIZE)
        ));
    }
    out
}

/// One line of small text centred at `cx`, shrunk to `width` (down to 1 mm type).
fn fit_line(cx: f64, y: f64, width: f64, text: &str) -> String {
    let m = super::fonts::Metrics::of(super::fonts::Face::Sans);
    let natural = m.width(text, 1.6);
    let size = if natural > width - 2.0 {
        (1.6 * (width - 2.0) / natural).max(1.0)
    } else {
        1.6
    };
    label(cx, y, size, "middle", text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poker_cards_fit_three_by_three_on_a4_and_letter() {
        for paper in [Paper::A4, Paper::Letter] {
            let g = Grid::new(paper, (63.0, 88.0), 3.0).unwrap();
            assert_eq!((g.cols, g.rows), (3, 3), "{paper:?}");
            let b = g.block();
            assert!((b.x - (g.paper.0 - b.right())).abs() < 1e-9, "centred");
            assert!(b.grow(3.0 + MARK_ROOM).y >= 0.0);
        }
    }

    #[test]
    fn crop_marks_are_long_enough_on_a4_and_letter() {
        for paper in [Paper::A4, Paper::Letter] {
            let g = Grid::new(paper, (63.0, 88.0), 3.0).unwrap();
            let b = g.block();
            for space in [b.x, b.y, g.paper.0 - b.right(), g.paper.1 - b.bottom()] {
                let (start, end) = mark_span(space, 3.0);
                assert!(end - start >= 3.5, "{paper:?}: {start}..{end} of {space}");
                assert!(start >= MARK_TRIM_GAP, "outside the trim");
                assert!(end > 3.0, "reaches beyond the bleed");
                assert!(space - end >= PRINTER_MARGIN - 1e-9, "printable");
            }
        }
        // A4 has room outside the bleed; Letter's top and bottom start inside it.
        let a4 = Grid::new(Paper::A4, (63.0, 88.0), 3.0).unwrap().block();
        assert_eq!(
            mark_span(a4.y, 3.0),
            (3.0 + MARK_GAP, 3.0 + MARK_GAP + MARK_LEN)
        );
        let letter = Grid::new(Paper::Letter, (63.0, 88.0), 3.0).unwrap().block();
        assert!(mark_span(letter.y, 3.0).0 < 3.0);
    }

    #[test]
    fn long_edge_backs_mirror_left_to_right() {
        let g = Grid::new(Paper::A4, (63.0, 88.0), 3.0).unwrap();
        let front = g.front_cell(0);
        let back = g.back_cell(0, Duplex::LongEdge, (0.0, 0.0));
        assert_eq!(back.y, front.y);
        assert!((back.x - (210.0 - front.right())).abs() < 1e-9);
        assert_eq!(back, g.front_cell(2));
        let short = g.back_cell(0, Duplex::ShortEdge, (0.5, -0.25));
        assert!((short.x - front.x - 0.5).abs() < 1e-9);
        assert!((short.y - (g.front_cell(6).y - 0.25)).abs() < 1e-9);
    }
}
