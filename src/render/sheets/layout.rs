//! Page geometry in millimetres: papers, the card grid, crop marks and the furniture every
//! sheet carries (ruler, "print at 100 %" line, page label, card ids for collation).

use crate::render::xml_escape;

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

/// How cut guides are drawn on card sheets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Marks {
    /// Short crop marks beyond the cards' bleed, at every cut line.
    #[default]
    Crop,
    /// Thin cut lines along every cut, through the gutters, for rotary and guillotine cutters.
    Lines,
    /// Both.
    Both,
}

impl Marks {
    pub fn crop(self) -> bool {
        matches!(self, Marks::Crop | Marks::Both)
    }
    pub fn lines(self) -> bool {
        matches!(self, Marks::Lines | Marks::Both)
    }
}

/// Nothing but crop marks is printed nearer the paper's edge than this: home printers leave
/// 3 to 5 mm of every edge blank.
pub const PAPER_MARGIN: f64 = 5.0;
/// The name the other sheets (tokens, boards, calibration) use for the same margin.
pub const PRINTER_MARGIN: f64 = PAPER_MARGIN;
/// Crop marks, being thin guides, may reach this near the edge (a printer that cannot print
/// there still prints the part beyond [`PAPER_MARGIN`]).
pub const MARK_EDGE: f64 = 3.5;
/// Smallest bleed the grid reduces to so that more cards fit a sheet: a cut 1 mm off still
/// lands on the card's own art.
pub const MIN_BLEED: f64 = 1.5;
/// Gap between the bleed edge and the start of a crop mark.
pub const MARK_GAP: f64 = 0.5;
/// Longest crop mark.
pub const MARK_LEN: f64 = 4.0;
/// Shortest crop mark.
pub const MARK_MIN: f64 = 2.0;
/// Crop mark and cut line width.
pub const MARK_WIDTH: f64 = 0.2;
/// Width of a cut line (`--marks lines`).
pub const LINE_WIDTH: f64 = 0.1;
/// Millimetres per typographic point.
pub const MM_PER_PT: f64 = 25.4 / 72.0;
/// Smallest type printed anywhere, in points (a game may raise it).
pub const MIN_TEXT_PT: f64 = 6.0;
/// Type size of the sheet furniture (labels, ids, ruler numbers), in millimetres: 6.2 pt.
pub const FURNITURE_SIZE: f64 = 2.2;
/// Height of a row of furniture text along the top and bottom edges.
pub const TEXT_ROW: f64 = 2.8;
/// Room a card grid keeps beyond its outer bleed at the left and right: crop marks.
const SIDE_ROOM: f64 = MARK_EDGE + MARK_MIN + MARK_GAP;
/// Room a card grid keeps beyond its outer bleed at the top and bottom: a row of text, and
/// crop marks with the card ids (or the ruler) between them.
const BAND_ROOM: f64 = PAPER_MARGIN + TEXT_ROW + TEXT_ROW + MARK_GAP;

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
    /// True when the two rectangles share more than an edge (by `eps`).
    pub fn overlaps(self, o: Rect, eps: f64) -> bool {
        self.x < o.right() - eps
            && o.x < self.right() - eps
            && self.y < o.bottom() - eps
            && o.y < self.bottom() - eps
    }
    /// True when `o` lies inside this rectangle (by `eps`).
    pub fn contains(self, o: Rect, eps: f64) -> bool {
        o.x >= self.x - eps
            && o.y >= self.y - eps
            && o.right() <= self.right() + eps
            && o.bottom() <= self.bottom() + eps
    }
}

/// The bleed rectangle of a card whose trim is `trim`: what the shop and sheet outputs draw.
pub fn bleed_rect(trim: Rect, bleed: f64) -> Rect {
    trim.grow(bleed)
}

/// A page holding one card of size `card` with `bleed` all round (print-shop files): the
/// page's size, the card's trim on it and its bleed (the whole page).
pub fn card_page(card: (f64, f64), bleed: f64) -> ((f64, f64), Rect, Rect) {
    let trim = Rect {
        x: bleed,
        y: bleed,
        w: card.0,
        h: card.1,
    };
    let page = bleed_rect(trim, bleed);
    ((page.w, page.h), trim, page)
}

/// Cards of one size on a sheet, each with its own bleed on all four sides, so neighbours
/// are `2 * bleed` apart (the gutter holds both bleeds), the block centred on the paper.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub paper: (f64, f64),
    pub cols: usize,
    pub rows: usize,
    pub card: (f64, f64),
    pub bleed: f64,
    /// Top-left corner of the first card's trim.
    pub x0: f64,
    pub y0: f64,
}

/// The largest bleed (to 0.1 mm) with which `n` cards of length `len` fit `page` with `room`
/// kept beyond the outer bleed at each end.
fn bleed_for(n: f64, len: f64, page: f64, room: f64) -> f64 {
    let b = (page - 2.0 * room - n * len) / (2.0 * n);
    (b * 10.0 + 1e-9).floor() / 10.0
}

/// How many cards of length `len` with bleed `bleed` fit `page` with `room` at each end.
fn count_for(len: f64, page: f64, room: f64, bleed: f64) -> usize {
    ((page - 2.0 * room) / (len + 2.0 * bleed) + 1e-9)
        .floor()
        .max(0.0) as usize
}

impl Grid {
    /// The grid with the most cards of `card` size on `paper`: the bleed is `bleed`, or less
    /// (never under [`MIN_BLEED`]) when that fits more cards, as 3 x 3 poker cards on A4.
    /// Every sheet keeps [`PAPER_MARGIN`] clear and room for crop marks and a row of text.
    pub fn new(paper: Paper, card: (f64, f64), bleed: f64) -> Option<Grid> {
        let (pw, ph) = paper.mm();
        let least = bleed.min(MIN_BLEED);
        let cols = count_for(card.0, pw, SIDE_ROOM, least);
        let rows = count_for(card.1, ph, BAND_ROOM, least);
        if cols < 1 || rows < 1 {
            return None;
        }
        let fit_x = bleed_for(cols as f64, card.0, pw, SIDE_ROOM);
        let fit_y = bleed_for(rows as f64, card.1, ph, BAND_ROOM);
        let bleed = bleed.min(fit_x).min(fit_y).max(least);
        let pitch = (card.0 + 2.0 * bleed, card.1 + 2.0 * bleed);
        Some(Grid {
            paper: (pw, ph),
            cols,
            rows,
            card,
            bleed,
            x0: (pw - cols as f64 * pitch.0) / 2.0 + bleed,
            y0: (ph - rows as f64 * pitch.1) / 2.0 + bleed,
        })
    }

    pub fn per_page(&self) -> usize {
        self.cols * self.rows
    }

    /// Distance from one card's trim to the next one's, across and down.
    pub fn pitch(&self) -> (f64, f64) {
        (
            self.card.0 + 2.0 * self.bleed,
            self.card.1 + 2.0 * self.bleed,
        )
    }

    /// The trim of the card in slot `i` (row-major) of a front page.
    pub fn front_cell(&self, i: usize) -> Rect {
        self.cell(i % self.cols, i / self.cols)
    }

    /// The trim of the back of slot `i` and the turn of its face (degrees): mirrored so it
    /// falls behind the front when printed two-sided, turned 180° for short-edge duplex so a
    /// card turned over shows an upright back, and shifted by the measured printer offset.
    /// One-sided back sheets are mirrored like long-edge ones, so that they line up when
    /// glued back to back onto the fronts.
    pub fn back_cell(&self, i: usize, duplex: Duplex, offset: (f64, f64)) -> (Rect, u16) {
        let f = self.front_cell(i);
        let (pw, ph) = self.paper;
        let (mirrored, turn) = match duplex {
            Duplex::LongEdge | Duplex::Off => (
                Rect {
                    x: pw - f.x - f.w,
                    ..f
                },
                0,
            ),
            Duplex::ShortEdge => (
                Rect {
                    y: ph - f.y - f.h,
                    ..f
                },
                180,
            ),
        };
        (
            Rect {
                x: mirrored.x + offset.0,
                y: mirrored.y + offset.1,
                ..mirrored
            },
            turn,
        )
    }

    fn cell(&self, c: usize, r: usize) -> Rect {
        let (px, py) = self.pitch();
        Rect {
            x: self.x0 + c as f64 * px,
            y: self.y0 + r as f64 * py,
            w: self.card.0,
            h: self.card.1,
        }
    }
}

/// Cut lines across one axis: where, and on which side (+1 or -1) the card lies.
pub type Cuts = Vec<(f64, f64)>;

/// The cut lines of cards whose trims are `trims`: every distinct vertical cut (x) and
/// horizontal cut (y), each with the side the card lies on (+1 when the card is to the
/// right or below, -1 when to the left or above).
pub fn cut_positions(trims: &[Rect]) -> (Cuts, Cuts) {
    let mut xs: Vec<(f64, f64)> = Vec::new();
    let mut ys: Vec<(f64, f64)> = Vec::new();
    let add = |v: &mut Vec<(f64, f64)>, at: f64, side: f64| {
        if !v.iter().any(|(p, _)| (p - at).abs() < 1e-6) {
            v.push((at, side));
        }
    };
    for t in trims {
        add(&mut xs, t.x, 1.0);
        add(&mut xs, t.right(), -1.0);
        add(&mut ys, t.y, 1.0);
        add(&mut ys, t.bottom(), -1.0);
    }
    xs.sort_by(|a, b| a.0.total_cmp(&b.0));
    ys.sort_by(|a, b| a.0.total_cmp(&b.0));
    (xs, ys)
}

/// Crop marks and cut lines for cards whose trims are `trims` and whose bleeds fill `bleed`.
/// Crop marks run away from the block beyond its bleed, never over a card's art nor into the
/// rows of text along the top and bottom edges; cut lines run along every cut through the
/// gutters, just outside the trim (on the bleed that is cut away), as far as crop marks reach.
pub fn cut_guides(paper: (f64, f64), trims: &[Rect], bleed: Rect, marks: Marks) -> String {
    let reach = guide_reach(paper, bleed);
    let (xs, ys) = cut_positions(trims);
    let mut out = String::new();
    if marks.crop() {
        let mut d = String::new();
        for &(x, _) in &xs {
            d.push_str(&vertical(x, bleed.y - MARK_GAP, reach.top, -1.0));
            d.push_str(&vertical(x, bleed.bottom() + MARK_GAP, reach.bottom, 1.0));
        }
        for &(y, _) in &ys {
            d.push_str(&horizontal(y, bleed.x - MARK_GAP, reach.left, -1.0));
            d.push_str(&horizontal(y, bleed.right() + MARK_GAP, reach.right, 1.0));
        }
        out.push_str(&stroke(&d, MARK_WIDTH));
    }
    if marks.lines() {
        // Each line is moved off the trim by half its width, away from its card.
        let half = LINE_WIDTH / 2.0;
        let mut d = String::new();
        for &(x, side) in &xs {
            let x = x - side * half;
            d.push_str(&format!("M{x:.3},{:.3} V{:.3} ", reach.top, reach.bottom));
        }
        for &(y, side) in &ys {
            let y = y - side * half;
            d.push_str(&format!("M{:.3},{y:.3} H{:.3} ", reach.left, reach.right));
        }
        out.push_str(&stroke(&d, LINE_WIDTH));
    }
    out
}

/// A crop mark from `from` towards `to` (down when `dir` > 0), at most [`MARK_LEN`] long.
fn vertical(x: f64, from: f64, to: f64, dir: f64) -> String {
    let end = from + dir * MARK_LEN.min((to - from).abs());
    format!("M{x:.3},{from:.3} V{end:.3} ")
}

fn horizontal(y: f64, from: f64, to: f64, dir: f64) -> String {
    let end = from + dir * MARK_LEN.min((to - from).abs());
    format!("M{from:.3},{y:.3} H{end:.3} ")
}

fn stroke(d: &str, width: f64) -> String {
    if d.is_empty() {
        return String::new();
    }
    format!(
        r##"<path d="{}" fill="none" stroke="#000000" stroke-width="{width}" stroke-linecap="butt"/>"##,
        d.trim_end()
    )
}

/// How far cut guides may reach: the page coordinates of their outer ends.
#[derive(Debug, Clone, Copy)]
struct Reach {
    top: f64,
    bottom: f64,
    left: f64,
    right: f64,
}

/// Crop marks end here: below the top row of text, above the bottom one, and at the sides
/// no nearer the edge than [`MARK_EDGE`], unless that would make them shorter than
/// [`MARK_MIN`].
fn guide_reach(paper: (f64, f64), bleed: Rect) -> Reach {
    // A block shifted by `--back-offset` keeps marks of the least length: the printer's own
    // shift, which the offset undoes, moves them back inside the margin.
    let least = MARK_GAP + MARK_MIN;
    let band = PAPER_MARGIN + TEXT_ROW;
    Reach {
        top: band.min(bleed.y - least),
        bottom: (paper.1 - band).max(bleed.bottom() + least),
        left: MARK_EDGE.min(bleed.x - least),
        right: (paper.0 - MARK_EDGE).max(bleed.right() + least),
    }
}

/// A 50 mm ruler with millimetre ticks, its left end at (x, y), ticks going down.
pub fn ruler(x: f64, y: f64) -> String {
    ruler_of(x, y, 50)
}

/// Height of a ruler with its numbers.
pub const RULER_HEIGHT: f64 = 5.2;

/// A ruler `len` millimetres long, numbered every centimetre at furniture size.
pub fn ruler_of(x: f64, y: f64, len: u32) -> String {
    let mut d = format!("M{x:.3},{y:.3} H{:.3} ", x + f64::from(len));
    for mm in 0..=len {
        let tick = match mm % 10 {
            0 => 2.5,
            5 => 1.8,
            _ => 1.0,
        };
        let tx = x + f64::from(mm);
        d.push_str(&format!("M{tx:.3},{y:.3} V{:.3} ", y + tick));
    }
    let mut out = format!(
        r##"<path d="{}" fill="none" stroke="#000000" stroke-width="0.15"/>"##,
        d.trim_end()
    );
    for cm in 0..=len / 10 {
        out.push_str(&label(
            x + f64::from(cm) * 10.0,
            y + RULER_HEIGHT - 0.5,
            FURNITURE_SIZE,
            "middle",
            &(cm * 10).to_string(),
        ));
    }
    out
}

/// A one-line label in the sheet furniture; never smaller than [`MIN_TEXT_PT`].
pub fn label(x: f64, y: f64, size: f64, anchor: &str, text: &str) -> String {
    let size = size.max(MIN_TEXT_PT * MM_PER_PT);
    format!(
        r##"<text x="{x:.3}" y="{y:.3}" font-size="{size:.3}" text-anchor="{anchor}" font-family="DejaVu Sans" font-stretch="condensed" fill="#000000">{}</text>"##,
        xml_escape(text)
    )
}

/// The sentence every sheet carries so that printers do not scale it.
pub const ACTUAL_SIZE: &str =
    "Print at 100 % / actual size (no \"fit to page\"): the ruler must measure 50 mm.";

/// Width of `text` in the furniture's face at `size`.
pub fn text_width(text: &str, size: f64) -> f64 {
    crate::render::fonts::Metrics::of(crate::render::fonts::Face::Sans).width(text, size)
}

/// Furniture of a card sheet. Top edge: the page label in the row of text, and each column's
/// card ids between that column's crop marks. Bottom edge: a ruler inside the column nearest
/// the middle and the actual-size note either side of it. `bleed` is the block of the cards'
/// bleeds; `columns` the span of each column with its ids, top to bottom.
pub fn furniture(
    paper: (f64, f64),
    bleed: Rect,
    page_label: &str,
    columns: &[(f64, f64, Vec<String>)],
) -> String {
    let mut out = label(
        bleed.x,
        PAPER_MARGIN + FURNITURE_SIZE,
        FURNITURE_SIZE,
        "start",
        page_label,
    );
    let ids_y = bleed.y - MARK_GAP - 0.7;
    for (from, to, ids) in columns {
        out.push_str(&id_line((from + to) / 2.0, ids_y, to - from - 2.0, ids));
    }
    let (ruler_x, len) = ruler_place(paper.0, columns);
    let ruler_y = paper.1 - PAPER_MARGIN - RULER_HEIGHT;
    out.push_str(&ruler_of(ruler_x, ruler_y, len));
    let base = paper.1 - PAPER_MARGIN - 0.6;
    let left = "Print at 100 % (actual size),";
    let right = format!("no \"fit to page\": the ruler must measure {len} mm.");
    out.push_str(&fit_label(
        bleed.x,
        base,
        ruler_x - 1.5 - bleed.x,
        "start",
        left,
    ));
    let after = ruler_x + f64::from(len) + 1.5;
    out.push_str(&fit_label(
        bleed.right(),
        base,
        bleed.right() - after,
        "end",
        &right,
    ));
    out
}

/// Where the ruler goes: centred in the column nearest the page's middle, as long (in whole
/// centimetres, at most 50 mm) as that column leaves room for beside its crop marks.
fn ruler_place(page_w: f64, columns: &[(f64, f64, Vec<String>)]) -> (f64, u32) {
    let mid = page_w / 2.0;
    let (from, to) = columns
        .iter()
        .map(|c| (c.0, c.1))
        .min_by(|a, b| {
            let d = |c: &(f64, f64)| ((c.0 + c.1) / 2.0 - mid).abs();
            d(a).total_cmp(&d(b))
        })
        .unwrap_or((mid - 25.0, mid + 25.0));
    let room = to - from - 3.0;
    let len = ((room / 10.0).floor() as u32 * 10).clamp(10, 50);
    ((from + to) / 2.0 - f64::from(len) / 2.0, len)
}

/// A label shrunk to `width` if need be, but not below [`MIN_TEXT_PT`].
fn fit_label(x: f64, y: f64, width: f64, anchor: &str, text: &str) -> String {
    let natural = text_width(text, FURNITURE_SIZE);
    let size = if natural > width {
        FURNITURE_SIZE * width / natural
    } else {
        FURNITURE_SIZE
    };
    label(x, y, size, anchor, text)
}

/// A column's card ids in reading order, centred at `cx`, within `width`: copies of one
/// card in a row read `id ×3`; the line shrinks to 6 pt at the least, then each id is
/// shortened (with "…") until the line fits.
fn id_line(cx: f64, y: f64, width: f64, ids: &[String]) -> String {
    let least = MIN_TEXT_PT * MM_PER_PT;
    let runs = runs_of_copies(ids);
    let line = |keep: usize| {
        let parts: Vec<String> = runs
            .iter()
            .map(|(id, n)| {
                let id = shorten(id, keep);
                if *n > 1 { format!("{id} ×{n}") } else { id }
            })
            .collect();
        format!("↓ {}", parts.join(" · "))
    };
    let mut keep = runs.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    while text_width(&line(keep), least) > width && keep > 12 {
        keep -= 1;
    }
    fit_label(cx, y, width, "middle", &line(keep))
}

/// Copies of one card in a row, counted.
fn runs_of_copies(ids: &[String]) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for id in ids {
        match out.last_mut() {
            Some((last, n)) if last == id => *n += 1,
            _ => out.push((id.clone(), 1)),
        }
    }
    out
}

fn shorten(id: &str, keep: usize) -> String {
    if id.chars().count() <= keep {
        id.to_string()
    } else {
        let mut s: String = id.chars().take(keep - 1).collect();
        s.push('…');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POKER: (f64, f64) = (63.0, 88.0);

    /// Every card's bleed on the paper inside the margins, no bleed over another card's trim.
    fn assert_sound(g: &Grid) {
        let page = Rect {
            x: 0.0,
            y: 0.0,
            w: g.paper.0,
            h: g.paper.1,
        };
        let cells: Vec<Rect> = (0..g.per_page()).map(|i| g.front_cell(i)).collect();
        for (i, a) in cells.iter().enumerate() {
            let b = bleed_rect(*a, g.bleed);
            assert!(
                page.grow(-PAPER_MARGIN).contains(b, 1e-9),
                "{b:?} in margin"
            );
            for (j, other) in cells.iter().enumerate() {
                assert!(i == j || !b.overlaps(*other, 1e-9), "{i} bleeds over {j}");
            }
        }
    }

    #[test]
    fn poker_cards_nine_on_a4_with_reduced_bleed_six_on_letter_with_more() {
        let a4 = Grid::new(Paper::A4, POKER, 3.0).unwrap();
        assert_eq!((a4.cols, a4.rows, a4.bleed), (3, 3, 1.5));
        let letter = Grid::new(Paper::Letter, POKER, 3.0).unwrap();
        assert_eq!((letter.cols, letter.rows), (3, 2));
        assert!(
            letter.bleed >= 2.0 && letter.bleed <= 3.0,
            "{}",
            letter.bleed
        );
        let tarot = Grid::new(Paper::A4, (70.0, 120.0), 3.0).unwrap();
        assert_eq!((tarot.cols, tarot.rows, tarot.bleed), (2, 2, 3.0));
        for g in [a4, letter, tarot] {
            assert_sound(&g);
            assert!(g.bleed >= MIN_BLEED);
        }
        // Asked for less bleed, the grid never gives more.
        let thin = Grid::new(Paper::A4, POKER, 1.0).unwrap();
        assert_eq!(thin.bleed, 1.0);
        assert_sound(&thin);
    }

    #[test]
    fn crop_marks_lie_beyond_the_bleed_and_inside_the_marks_room() {
        for paper in [Paper::A4, Paper::Letter] {
            let g = Grid::new(paper, POKER, 3.0).unwrap();
            let trims: Vec<Rect> = (0..g.per_page()).map(|i| g.front_cell(i)).collect();
            let bleed = bleed_rect(trims[0], g.bleed);
            let block = trims.iter().fold(bleed, |acc, t| {
                let b = bleed_rect(*t, g.bleed);
                let (x, y) = (acc.x.min(b.x), acc.y.min(b.y));
                Rect {
                    x,
                    y,
                    w: acc.right().max(b.right()) - x,
                    h: acc.bottom().max(b.bottom()) - y,
                }
            });
            let reach = guide_reach(g.paper, block);
            assert!(
                block.y - MARK_GAP - reach.top >= MARK_MIN - 1e-9,
                "{paper:?} top"
            );
            assert!(reach.bottom - block.bottom() - MARK_GAP >= MARK_MIN - 1e-9);
            assert!(
                block.x - MARK_GAP - reach.left >= MARK_MIN - 1e-9,
                "{paper:?} side"
            );
            assert!(reach.left >= MARK_EDGE - 1e-9 && reach.top >= PAPER_MARGIN);
            let svg = cut_guides(g.paper, &trims, block, Marks::Crop);
            assert_eq!(svg.matches('M').count(), 2 * (2 * g.cols + 2 * g.rows));
        }
    }

    #[test]
    fn long_edge_backs_mirror_left_to_right_short_edge_backs_turn() {
        let g = Grid::new(Paper::A4, POKER, 3.0).unwrap();
        let front = g.front_cell(0);
        let (back, turn) = g.back_cell(0, Duplex::LongEdge, (0.0, 0.0));
        assert_eq!((back.y, turn), (front.y, 0));
        assert!((back.x - (210.0 - front.right())).abs() < 1e-9);
        assert_eq!(back, g.front_cell(2));
        assert_eq!(g.back_cell(0, Duplex::Off, (0.0, 0.0)), (back, 0));
        let (short, turn) = g.back_cell(0, Duplex::ShortEdge, (0.5, -0.25));
        assert_eq!(turn, 180);
        assert!((short.x - front.x - 0.5).abs() < 1e-9);
        assert!((short.y - (g.front_cell(6).y - 0.25)).abs() < 1e-9);
    }

    /// Boxes of the `<text>` elements of an SVG fragment (no transforms), from their
    /// anchor, size and measured width.
    fn text_boxes(svg: &str) -> Vec<Rect> {
        let attr = |el: &str, name: &str| -> String {
            let key = format!(" {name}=\"");
            let at = el.find(&key).unwrap() + key.len();
            el[at..at + el[at..].find('"').unwrap()].to_string()
        };
        svg.split("<text")
            .skip(1)
            .map(|el| {
                let (x, y): (f64, f64) = (
                    attr(el, "x").parse().unwrap(),
                    attr(el, "y").parse().unwrap(),
                );
                let size: f64 = attr(el, "font-size").parse().unwrap();
                let content = &el[el.find('>').unwrap() + 1..el.find("</text>").unwrap()];
                let w = text_width(content, size);
                let left = match attr(el, "text-anchor").as_str() {
                    "middle" => x - w / 2.0,
                    "end" => x - w,
                    _ => x,
                };
                Rect {
                    x: left,
                    y: y - size * 0.8,
                    w,
                    h: size,
                }
            })
            .collect()
    }

    /// The straight segments of the `d` attributes of an SVG fragment's paths (M, V, H).
    fn path_segments(svg: &str) -> Vec<((f64, f64), (f64, f64))> {
        let mut out = Vec::new();
        for part in svg.split(" d=\"").skip(1) {
            let d = &part[..part.find('"').unwrap()];
            let mut at = (0.0, 0.0);
            for cmd in d.split_whitespace() {
                let (op, rest) = cmd.split_at(1);
                let nums: Vec<f64> = rest.split(',').map(|v| v.parse().unwrap()).collect();
                let next = match op {
                    "M" => {
                        at = (nums[0], nums[1]);
                        continue;
                    }
                    "V" => (at.0, nums[0]),
                    "H" => (nums[0], at.1),
                    _ => panic!("{op}"),
                };
                out.push((at, next));
                at = next;
            }
        }
        out
    }

    #[test]
    fn crop_marks_and_cut_lines_never_cross_the_furniture() {
        for paper in [Paper::A4, Paper::Letter] {
            for card in [POKER, (70.0, 120.0), (44.0, 63.0)] {
                let g = Grid::new(paper, card, 3.0).unwrap();
                let trims: Vec<Rect> = (0..g.per_page()).map(|i| g.front_cell(i)).collect();
                let block = trims.iter().fold(bleed_rect(trims[0], g.bleed), |acc, t| {
                    let b = bleed_rect(*t, g.bleed);
                    let (x, y) = (acc.x.min(b.x), acc.y.min(b.y));
                    Rect {
                        x,
                        y,
                        w: acc.right().max(b.right()) - x,
                        h: acc.bottom().max(b.bottom()) - y,
                    }
                });
                let mut columns: Vec<(f64, f64, Vec<String>)> = Vec::new();
                for t in &trims {
                    if !columns.iter().any(|c| (c.0 - t.x).abs() < 1e-9) {
                        columns.push((t.x, t.right(), vec!["some-card-id".to_string(); g.rows]));
                    }
                }
                let label = "A game · Some cards · sheet 1 of 3 · fronts";
                let texts = text_boxes(&furniture(g.paper, block, label, &columns));
                let guides = path_segments(&cut_guides(g.paper, &trims, block, Marks::Both));
                assert!(texts.len() >= 4 + columns.len() && guides.len() > 8);
                for ((x1, y1), (x2, y2)) in guides {
                    for t in &texts {
                        let seg = Rect {
                            x: x1.min(x2),
                            y: y1.min(y2),
                            w: (x2 - x1).abs(),
                            h: (y2 - y1).abs(),
                        };
                        let hits = seg.x <= t.right()
                            && t.x <= seg.right()
                            && seg.y <= t.bottom()
                            && t.y <= seg.bottom();
                        assert!(
                            !hits,
                            "{paper:?} {card:?}: guide {seg:?} through text {t:?}"
                        );
                    }
                }
                for t in &texts {
                    let page = Rect {
                        x: 0.0,
                        y: 0.0,
                        w: g.paper.0,
                        h: g.paper.1,
                    };
                    assert!(
                        page.grow(-PAPER_MARGIN).contains(*t, 0.05),
                        "{t:?} in the margin"
                    );
                }
            }
        }
    }

    #[test]
    fn a_one_card_page_is_the_card_and_its_bleed() {
        let (size, trim, bleed) = card_page(POKER, 3.0);
        assert_eq!(size, (69.0, 94.0));
        assert_eq!((trim.x, trim.y, trim.w, trim.h), (3.0, 3.0, 63.0, 88.0));
        assert_eq!((bleed.x, bleed.y, bleed.w, bleed.h), (0.0, 0.0, 69.0, 94.0));
    }

    #[test]
    fn furniture_is_never_under_six_points() {
        let ids = [
            "a-very-long-card-identifier",
            "another-long-card-identifier",
            "yet-one-more-identifier",
        ];
        let columns = vec![(10.0, 73.0, ids.iter().map(|s| s.to_string()).collect())];
        let svg = furniture(
            (210.0, 297.0),
            Rect {
                x: 8.0,
                y: 12.0,
                w: 68.0,
                h: 270.0,
            },
            "L",
            &columns,
        );
        for part in svg.split("font-size=\"").skip(1) {
            let size: f64 = part[..part.find('"').unwrap()].parse().unwrap();
            assert!(size >= MIN_TEXT_PT * MM_PER_PT - 1e-3, "{size}");
        }
        assert!(
            svg.contains('…'),
            "ids too long for the column are shortened"
        );
    }
}
