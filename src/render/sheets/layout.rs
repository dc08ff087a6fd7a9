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
    /// One-sided: all fronts, then all backs, mirrored left to right like long-edge ones:
    /// glue each back sheet behind its front sheet, turned over its long edge.
    Off,
    /// Fold-over ("gutterfold"), for printers without duplex: each page holds fronts on its
    /// left half and their backs on the right, mirrored across a dashed fold line in the
    /// middle (no --back-offset): fold along it, printed sides out, glue, then cut.
    Fold,
}

/// How cut guides are drawn on card sheets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Marks {
    /// Short crop marks beyond the cards' bleed, at every cut line.
    #[default]
    Crop,
    /// Thin cut lines along every cut, across the sheet and through the gutters between
    /// cards (stopping half a millimetre short of every card), for rotary and guillotine
    /// cutters.
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
/// Smallest bleed the grid reduces to so that more cards fit a sheet: a cut 1 mm off still
/// lands on the card's own art.
pub const MIN_BLEED: f64 = 1.5;
/// How far inside the trim a card's text stays unless the game sets its own `safe_zone_mm`:
/// a cut that lands that far inside still leaves the text whole.
pub const DEFAULT_SAFE_ZONE: f64 = 3.0;
/// Text this little (mm) inside a safe zone's edge still counts as inside it: what a text's
/// box and the drawing's rounding disagree by.
pub const SAFE_ZONE_SLACK: f64 = 0.05;
/// Gap between the bleed edge and the start of a crop mark.
pub const MARK_GAP: f64 = 0.5;
/// Longest crop mark.
pub const MARK_LEN: f64 = 4.0;
/// Shortest crop mark above and below the cards.
pub const MARK_MIN: f64 = 2.0;
/// Room a card grid keeps for crop marks beside the cards, inside the [`PAPER_MARGIN`]:
/// three poker cards across A4 with 1.5 mm bleed leave 6 mm beside them. The marks there
/// reach on into the margin to be [`MARK_MIN`] long (see [`MARK_EDGE`]); only a block
/// shifted by `--back-offset` towards the edge keeps marks this short.
pub const SIDE_MARK_MIN: f64 = 0.5;
/// Crop marks beside the cards reach into the [`PAPER_MARGIN`] when that is what makes them
/// [`MARK_MIN`] long, never nearer the paper's edge than this: most home printers print to
/// 3 mm of the edge (a mark the printer cuts off still keeps its inner part).
pub const MARK_EDGE: f64 = 3.0;
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
pub const TEXT_ROW: f64 = 2.7;
/// Room a card grid keeps beyond its outer bleed at the left and right: the margin and
/// crop marks.
pub(crate) const SIDE_ROOM: f64 = PAPER_MARGIN + SIDE_MARK_MIN + MARK_GAP;
/// Room a card grid keeps beyond its outer bleed at the top and bottom: a row of text, and
/// crop marks with the card ids (or the ruler) between them.
pub(crate) const BAND_ROOM: f64 = PAPER_MARGIN + TEXT_ROW + TEXT_ROW + MARK_GAP;

/// A rectangle in page millimetres, origin top-left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    /// A rectangle of `(w, h)` at the origin: a face's trim in its own document, a page.
    pub fn of_size((w, h): (f64, f64)) -> Rect {
        Rect {
            x: 0.0,
            y: 0.0,
            w,
            h,
        }
    }
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
///
/// The grid is laid out in a *frame*: the paper itself, or (`turned`) the paper turned a
/// quarter to the left, so that cards stand across a portrait sheet, as 4 x 2 poker cards
/// on Letter. The page stays portrait either way: the printer turns nothing, and backs
/// register with fronts by the same mirror as on any other sheet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub paper: (f64, f64),
    pub cols: usize,
    pub rows: usize,
    pub card: (f64, f64),
    pub bleed: f64,
    /// Top-left corner of the first card's trim, in the frame.
    pub x0: f64,
    pub y0: f64,
    /// The cards stand across the paper: the frame is the paper turned a quarter.
    pub turned: bool,
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
    /// The grid with the most cards of `card` size on `paper`, upright or across: the bleed
    /// is `bleed`, or less (never under [`MIN_BLEED`]) when that fits more cards, as 3 x 3
    /// poker cards on A4. Every sheet keeps [`PAPER_MARGIN`] clear and room for crop marks
    /// and the rows of text.
    pub fn new(paper: Paper, card: (f64, f64), bleed: f64) -> Option<Grid> {
        let least = bleed.min(MIN_BLEED);
        [false, true]
            .into_iter()
            .filter_map(|turned| Grid::fit(paper, card, least, turned))
            .map(|g| g.widened(bleed))
            .reduce(|best, g| if g.better_than(&best) { g } else { best })
    }

    /// The grid with the most cards that keeps exactly `bleed` (`--bleed` asked for it):
    /// the densest grid when that one has room for it, else the next with fewer cards.
    pub fn exact(paper: Paper, card: (f64, f64), bleed: f64) -> Option<Grid> {
        [false, true]
            .into_iter()
            .filter_map(|turned| Grid::fit(paper, card, bleed, turned))
            .reduce(|best, g| if g.better_than(&best) { g } else { best })
    }

    /// More cards; as many with more bleed; else upright before turned.
    fn better_than(&self, other: &Grid) -> bool {
        (self.per_page(), self.bleed, !self.turned)
            .partial_cmp(&(other.per_page(), other.bleed, !other.turned))
            .is_some_and(|o| o == std::cmp::Ordering::Greater)
    }

    /// The frame's size: the paper, or the paper turned a quarter.
    pub fn frame(&self) -> (f64, f64) {
        if self.turned {
            (self.paper.1, self.paper.0)
        } else {
            self.paper
        }
    }

    /// As many cards as fit with `bleed` in the frame (upright or turned), centred.
    fn fit(paper: Paper, card: (f64, f64), bleed: f64, turned: bool) -> Option<Grid> {
        let (pw, ph) = paper.mm();
        let (fw, fh) = if turned { (ph, pw) } else { (pw, ph) };
        let cols = count_for(card.0, fw, SIDE_ROOM, bleed);
        let rows = count_for(card.1, fh, BAND_ROOM, bleed);
        if cols < 1 || rows < 1 {
            return None;
        }
        Some(
            Grid {
                paper: (pw, ph),
                cols,
                rows,
                card,
                bleed,
                x0: 0.0,
                y0: 0.0,
                turned,
            }
            .centred(),
        )
    }

    /// The same cards with as much of `bleed` as the frame has room for (never less than
    /// the grid has).
    fn widened(self, bleed: f64) -> Grid {
        let (fw, fh) = self.frame();
        let fit_x = bleed_for(self.cols as f64, self.card.0, fw, SIDE_ROOM);
        let fit_y = bleed_for(self.rows as f64, self.card.1, fh, BAND_ROOM);
        Grid {
            bleed: bleed.min(fit_x).min(fit_y).max(self.bleed),
            ..self
        }
        .centred()
    }

    fn centred(self) -> Grid {
        let (fw, fh) = self.frame();
        let pitch = self.pitch();
        Grid {
            x0: (fw - self.cols as f64 * pitch.0) / 2.0 + self.bleed,
            y0: (fh - self.rows as f64 * pitch.1) / 2.0 + self.bleed,
            ..self
        }
    }

    pub fn per_page(&self) -> usize {
        self.cols * self.rows
    }

    /// Distance from one card's trim to the next one's, across and down (in the frame).
    pub fn pitch(&self) -> (f64, f64) {
        (
            self.card.0 + 2.0 * self.bleed,
            self.card.1 + 2.0 * self.bleed,
        )
    }

    /// A rectangle of the frame on the page: the frame turned a quarter to the right
    /// (its top edge along the paper's right edge) when the grid is turned.
    pub fn to_page(&self, r: Rect) -> Rect {
        if !self.turned {
            return r;
        }
        Rect {
            x: self.paper.0 - r.y - r.h,
            y: r.x,
            w: r.h,
            h: r.w,
        }
    }

    /// A rectangle of the page in the frame (the inverse of [`Grid::to_page`]).
    pub fn to_frame(&self, r: Rect) -> Rect {
        if !self.turned {
            return r;
        }
        Rect {
            x: r.y,
            y: self.paper.0 - r.x - r.w,
            w: r.h,
            h: r.w,
        }
    }

    /// The SVG transform that draws the frame on the page (empty when it is the page).
    pub fn frame_transform(&self) -> Option<String> {
        self.turned
            .then(|| format!("matrix(0 1 -1 0 {:.4} 0)", self.paper.0))
    }

    /// The trim of the card in slot `i` (row-major in the frame) of a front page, on the
    /// page, and the clockwise turn of its face: 90° when the cards stand across.
    pub fn front_cell(&self, i: usize) -> (Rect, u16) {
        let turn = if self.turned { 90 } else { 0 };
        (self.to_page(self.cell(i % self.cols, i / self.cols)), turn)
    }

    /// The trim of the back of slot `i` and the turn of its face (degrees): mirrored so it
    /// falls behind the front when printed two-sided, turned so that a card turned over
    /// shows an upright back (180° for short-edge duplex), and shifted by the measured
    /// printer offset. One-sided back sheets are mirrored like long-edge ones, so that they
    /// line up when glued back to back onto the fronts (the sheet turned over its long edge).
    /// A fold-over page's back lies on the other half of the same page, mirrored across the
    /// fold in its middle (see [`crate::render::sheets::fold`]): no printer offset applies.
    pub fn back_cell(&self, i: usize, duplex: Duplex, offset: (f64, f64)) -> (Rect, u16) {
        let (f, front_turn) = self.front_cell(i);
        let (pw, ph) = self.paper;
        let offset = if duplex == Duplex::Fold {
            (0.0, 0.0)
        } else {
            offset
        };
        // A flip over the long (vertical) edge mirrors a direction `t` degrees clockwise
        // from up to `-t`; over the short edge, to `180 - t`.
        let (mirrored, turn) = match duplex {
            Duplex::LongEdge | Duplex::Off | Duplex::Fold => (
                Rect {
                    x: pw - f.x - f.w,
                    ..f
                },
                (360 - front_turn) % 360,
            ),
            Duplex::ShortEdge => (
                Rect {
                    y: ph - f.y - f.h,
                    ..f
                },
                (540 - front_turn) % 360,
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
/// rows of text along the top and bottom edges. Cut lines run along every cut as far as the
/// crop marks reach, across the gutters between the cards (the bleed art that is cut away)
/// and stopping [`MARK_GAP`] short of every card's trim, so that no line runs along the edge
/// of a card, where a cut a little outward would leave it showing.
pub fn cut_guides(paper: (f64, f64), trims: &[Rect], bleed: Rect, marks: Marks) -> String {
    cut_guides_within(guide_reach(paper, bleed), trims, bleed, marks)
}

/// [`cut_guides`] reaching as far as `reach` (a band of a mixed sheet reaches into the gaps
/// beside it only as far as their middles).
pub(crate) fn cut_guides_within(reach: Reach, trims: &[Rect], bleed: Rect, marks: Marks) -> String {
    let (xs, ys) = cut_positions(trims);
    let mut out = String::new();
    if marks.lines() {
        let mut d = String::new();
        for &(x, _) in &xs {
            let cards = trims
                .iter()
                .filter(|t| t.x - MARK_GAP < x && x < t.right() + MARK_GAP)
                .map(|t| (t.y - MARK_GAP, t.bottom() + MARK_GAP));
            for (from, to) in spans(reach.top, reach.bottom, cards) {
                d.push_str(&format!("M{x:.3},{from:.3} V{to:.3} "));
            }
        }
        for &(y, _) in &ys {
            let cards = trims
                .iter()
                .filter(|t| t.y - MARK_GAP < y && y < t.bottom() + MARK_GAP)
                .map(|t| (t.x - MARK_GAP, t.right() + MARK_GAP));
            for (from, to) in spans(reach.left, reach.right, cards) {
                d.push_str(&format!("M{from:.3},{y:.3} H{to:.3} "));
            }
        }
        out.push_str(&stroke(&d, LINE_WIDTH));
    }
    if marks.crop() {
        let len = MARK_LEN;
        let mut d = String::new();
        for &(x, _) in &xs {
            d.push_str(&vertical(x, bleed.y - MARK_GAP, reach.top, -1.0, len));
            d.push_str(&vertical(
                x,
                bleed.bottom() + MARK_GAP,
                reach.bottom,
                1.0,
                len,
            ));
        }
        for &(y, _) in &ys {
            d.push_str(&horizontal(y, bleed.x - MARK_GAP, reach.left, -1.0, len));
            d.push_str(&horizontal(
                y,
                bleed.right() + MARK_GAP,
                reach.right,
                1.0,
                len,
            ));
        }
        out.push_str(&stroke(&d, MARK_WIDTH));
    }
    out
}

/// The stretches of `from..to` outside every one of `holes` (each `(start, end)`), in order;
/// none shorter than a tenth of a millimetre.
fn spans(from: f64, to: f64, holes: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    let mut holes: Vec<(f64, f64)> = holes.collect();
    holes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::new();
    let mut at = from;
    for (start, end) in holes {
        if start > at {
            out.push((at, start.min(to)));
        }
        at = at.max(end);
    }
    out.push((at, to));
    out.retain(|(a, b)| b - a >= 0.1);
    out
}

/// A guide from `from` towards `to` (down when `dir` > 0), at most `len` long; nothing when
/// there is no room.
fn vertical(x: f64, from: f64, to: f64, dir: f64, len: f64) -> String {
    if (to - from) * dir <= 1e-9 {
        return String::new();
    }
    let end = from + dir * len.min((to - from).abs());
    format!("M{x:.3},{from:.3} V{end:.3} ")
}

fn horizontal(y: f64, from: f64, to: f64, dir: f64, len: f64) -> String {
    if (to - from) * dir <= 1e-9 {
        return String::new();
    }
    let end = from + dir * len.min((to - from).abs());
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
pub(crate) struct Reach {
    pub top: f64,
    pub bottom: f64,
    pub left: f64,
    pub right: f64,
}

/// Crop marks end here: below the top row of text, above the bottom one, and at the sides
/// at the [`PAPER_MARGIN`], unless that would make them shorter than [`MARK_MIN`]: then
/// they reach nearer the edge, at the sides never nearer than [`MARK_EDGE`].
pub(crate) fn guide_reach(paper: (f64, f64), bleed: Rect) -> Reach {
    // A block shifted by `--back-offset` keeps marks of the least length: the printer's own
    // shift, which the offset undoes, moves them back inside the margin.
    let least = MARK_GAP + MARK_MIN;
    let band = PAPER_MARGIN + TEXT_ROW;
    // How far from the paper's edge a side mark ends, with `room` beside the bleed.
    let side = |room: f64| {
        PAPER_MARGIN
            .min(room - least)
            .max(MARK_EDGE)
            .min(room - MARK_GAP - SIDE_MARK_MIN)
    };
    Reach {
        top: band.min(bleed.y - least),
        bottom: (paper.1 - band).max(bleed.bottom() + least),
        left: side(bleed.x),
        right: paper.0 - side(paper.0 - bleed.right()),
    }
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

/// Length of the ruler on sheets whose ruler is not fitted into a column of cards.
pub const RULER_LEN: u32 = 50;

/// The sentence every sheet carries so that printers do not scale it, for a ruler `len` mm
/// long.
pub fn actual_size(len: u32) -> String {
    format!("Print at 100 % (actual size), no \"fit to page\": the ruler must measure {len} mm.")
}

/// Width of `text` in the furniture's face at `size`.
pub fn text_width(text: &str, size: f64) -> f64 {
    crate::render::faces::fonts::Metrics::of(crate::render::faces::fonts::Face::Sans)
        .width(text, size)
}

/// Furniture of a card sheet (in its frame, see [`Grid`]): the [`top_row`] with the page
/// label (and `note`), each column's card ids between that column's crop marks, and the
/// [`bottom_row`] with a ruler inside the column nearest the middle. `bleed` is the block of
/// the cards' bleeds; `columns` the span of each column with its ids, top to bottom.
pub fn furniture(
    paper: (f64, f64),
    bleed: Rect,
    page_label: &str,
    note: Option<&str>,
    columns: &[(f64, f64, Vec<String>)],
) -> String {
    let mut out = top_row(paper, page_label, note);
    let ids_y = bleed.y - MARK_GAP - 0.7;
    for (from, to, ids) in columns {
        out.push_str(&id_line((from + to) / 2.0, ids_y, to - from - 2.0, ids));
    }
    out.push_str(&bottom_row(
        paper,
        Some(ruler_place(paper.0, columns)),
        None,
    ));
    out
}

/// The row of text along the top edge of every sheet, inside the [`PAPER_MARGIN`]: the page
/// label at the left and, when given, `note` at the right end. The note keeps its words; the
/// label gives up what the row lacks (smaller type, then shortened).
pub fn top_row(paper: (f64, f64), page_label: &str, note: Option<&str>) -> String {
    let row = margin_row(paper);
    let top = PAPER_MARGIN + FURNITURE_SIZE;
    let mut out = String::new();
    let mut room = row.width();
    if let Some(note) = note {
        let (size, note) = fit_text(note, row.width() * 0.6);
        room -= text_width(&note, size) + 3.0;
        out.push_str(&label(row.to, top, size, "end", &note));
    }
    let (size, text) = fit_text(page_label, room);
    out.push_str(&label(row.from, top, size, "start", &text));
    out
}

/// A row of text across the paper inside the [`PAPER_MARGIN`].
fn margin_row(paper: (f64, f64)) -> Span {
    Span {
        from: PAPER_MARGIN,
        to: paper.0 - PAPER_MARGIN,
    }
}

/// A stretch of a row of text, in millimetres across.
#[derive(Debug, Clone, Copy)]
pub struct Span {
    pub from: f64,
    pub to: f64,
}

impl Span {
    pub fn width(self) -> f64 {
        self.to - self.from
    }
}

/// Room kept between a ruler's end ticks and text beside it: half of its widest number and
/// a gap.
const RULER_CLEAR: f64 = 2.5;

/// The row along the bottom edge of every sheet, inside the [`PAPER_MARGIN`]: a ruler
/// (`ruler`: its left end and length; `None`, [`RULER_LEN`] at the row's right end) and the
/// actual-size sentence beside it (`note`, in the sheet's language; `None`, [`actual_size`]).
/// The sentence is split either side of the ruler, at a word, when both halves fit, else set
/// whole on the wider side, shrunk to [`MIN_TEXT_PT`] at the least and then shortened: it
/// never runs over the ruler's numbers.
pub fn bottom_row(paper: (f64, f64), ruler: Option<(f64, u32)>, note: Option<&str>) -> String {
    let row = margin_row(paper);
    let (ruler_x, len) = ruler.unwrap_or((row.to - f64::from(RULER_LEN) - RULER_CLEAR, RULER_LEN));
    let ruler_y = paper.1 - PAPER_MARGIN - RULER_HEIGHT;
    let mut out = ruler_of(ruler_x, ruler_y, len);
    let base = paper.1 - PAPER_MARGIN - 0.6;
    let left = Span {
        from: row.from,
        to: ruler_x - RULER_CLEAR,
    };
    let right = Span {
        from: ruler_x + f64::from(len) + RULER_CLEAR,
        to: row.to,
    };
    let whole = note.map_or_else(|| actual_size(len), str::to_string);
    let least = MIN_TEXT_PT * MM_PER_PT;
    let fits = |text: &str, span: Span, size: f64| text_width(text, size) <= span.width();
    for size in [FURNITURE_SIZE, least] {
        if let Some((first, second)) = halves(&whole)
            .into_iter()
            .find(|(a, b)| fits(a, left, size) && fits(b, right, size))
        {
            out.push_str(&label(left.to, base, size, "end", &first));
            out.push_str(&label(right.from, base, size, "start", &second));
            return out;
        }
        for span in [right, left] {
            if fits(&whole, span, size) {
                let (x, anchor) = if span.from > ruler_x {
                    (span.from, "start")
                } else {
                    (span.to, "end")
                };
                out.push_str(&label(x, base, size, anchor, &whole));
                return out;
            }
        }
    }
    let wider = if right.width() >= left.width() {
        right
    } else {
        left
    };
    let (size, text) = fit_text(&whole, wider.width());
    out.push_str(&label(wider.from, base, size, "start", &text));
    out
}

/// The ways to split a sentence in two where it pauses (after a comma, colon, semicolon or
/// full stop), halves of the most even length first: a sentence is never broken elsewhere.
fn halves(text: &str) -> Vec<(String, String)> {
    let words: Vec<&str> = text.split(' ').collect();
    let mut out: Vec<(usize, String, String)> = (1..words.len())
        .filter(|&i| words[i - 1].ends_with([',', ':', '.', ';']))
        .map(|i| {
            let (a, b) = (words[..i].join(" "), words[i..].join(" "));
            (a.len().abs_diff(b.len()), a, b)
        })
        .collect();
    out.sort();
    out.into_iter().map(|(_, a, b)| (a, b)).collect()
}

/// `text` at furniture size if it fits `width`, else shrunk to [`MIN_TEXT_PT`] at the least,
/// and then shortened (ending in "…") until it fits.
pub fn fit_text(text: &str, width: f64) -> (f64, String) {
    let least = MIN_TEXT_PT * MM_PER_PT;
    let natural = text_width(text, FURNITURE_SIZE);
    if natural <= width {
        return (FURNITURE_SIZE, text.to_string());
    }
    let size = (FURNITURE_SIZE * width / natural).max(least);
    if text_width(text, size) <= width {
        return (size, text.to_string());
    }
    let chars: Vec<char> = text.chars().collect();
    let mut keep = chars.len();
    while keep > 1 {
        keep -= 1;
        let short: String = chars[..keep]
            .iter()
            .collect::<String>()
            .trim_end()
            .to_string()
            + "…";
        if text_width(&short, size) <= width {
            return (size, short);
        }
    }
    (size, "…".to_string())
}

/// Where the ruler goes: centred in the column nearest the page's middle, as long (in whole
/// centimetres, at most 50 mm) as that column leaves room for beside its crop marks.
pub(crate) fn ruler_place(page_w: f64, columns: &[(f64, f64, Vec<String>)]) -> (f64, u32) {
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
pub(crate) fn id_line(cx: f64, y: f64, width: f64, ids: &[String]) -> String {
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

    /// Every card's bleed on the paper inside the margins, no bleed over another card's trim,
    /// room for side crop marks beyond the margin.
    fn assert_sound(g: &Grid) {
        let page = Rect::of_size(g.paper);
        let cells: Vec<Rect> = (0..g.per_page()).map(|i| g.front_cell(i).0).collect();
        for (i, a) in cells.iter().enumerate() {
            let b = bleed_rect(*a, g.bleed);
            assert!(
                page.grow(-PAPER_MARGIN - MARK_GAP - SIDE_MARK_MIN)
                    .contains(b, 1e-9),
                "{b:?} in margin"
            );
            for (j, other) in cells.iter().enumerate() {
                assert!(i == j || !b.overlaps(*other, 1e-9), "{i} bleeds over {j}");
            }
        }
    }

    #[test]
    fn poker_cards_nine_on_a4_with_reduced_bleed_eight_across_letter() {
        let a4 = Grid::new(Paper::A4, POKER, 3.0).unwrap();
        assert_eq!((a4.cols, a4.rows, a4.bleed, a4.turned), (3, 3, 1.5, false));
        let letter = Grid::new(Paper::Letter, POKER, 3.0).unwrap();
        assert_eq!((letter.cols, letter.rows, letter.turned), (4, 2, true));
        assert!(
            letter.bleed >= MIN_BLEED && letter.bleed <= 3.0,
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
            let trims: Vec<Rect> = (0..g.per_page())
                .map(|i| g.to_frame(g.front_cell(i).0))
                .collect();
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
            let reach = guide_reach(g.frame(), block);
            assert!(
                block.y - MARK_GAP - reach.top >= MARK_MIN - 1e-9,
                "{paper:?} top"
            );
            assert!(reach.bottom - block.bottom() - MARK_GAP >= MARK_MIN - 1e-9);
            // Side marks too are crop marks of their full least length, not specks.
            assert!(
                block.x - MARK_GAP - reach.left >= MARK_MIN - 1e-9,
                "{paper:?} side"
            );
            assert!(reach.right - block.right() - MARK_GAP >= MARK_MIN - 1e-9);
            assert!(reach.left >= MARK_EDGE - 1e-9 && reach.top >= PAPER_MARGIN - 1e-9);
            let svg = cut_guides(g.frame(), &trims, block, Marks::Crop);
            assert_eq!(svg.matches('M').count(), 2 * (2 * g.cols + 2 * g.rows));
        }
    }

    #[test]
    fn long_edge_backs_mirror_left_to_right_short_edge_backs_turn() {
        let g = Grid::new(Paper::A4, POKER, 3.0).unwrap();
        let (front, _) = g.front_cell(0);
        let (back, turn) = g.back_cell(0, Duplex::LongEdge, (0.0, 0.0));
        assert_eq!((back.y, turn), (front.y, 0));
        assert!((back.x - (210.0 - front.right())).abs() < 1e-9);
        assert_eq!(back, g.front_cell(2).0);
        assert_eq!(g.back_cell(0, Duplex::Off, (0.0, 0.0)), (back, 0));
        let (short, turn) = g.back_cell(0, Duplex::ShortEdge, (0.5, -0.25));
        assert_eq!(turn, 180);
        assert!((short.x - front.x - 0.5).abs() < 1e-9);
        assert!((short.y - (g.front_cell(6).0.y - 0.25)).abs() < 1e-9);
    }

    #[test]
    fn cards_standing_across_turn_a_quarter_and_their_backs_the_other_way() {
        let g = Grid::new(Paper::Letter, POKER, 3.0).unwrap();
        assert!(g.turned);
        let (pw, ph) = g.paper;
        for i in 0..g.per_page() {
            let (front, turn) = g.front_cell(i);
            assert_eq!((front.w, front.h, turn), (88.0, 63.0, 90));
            let near = |a: Rect, b: Rect| {
                (a.x - b.x).abs() + (a.y - b.y).abs() + (a.w - b.w).abs() + (a.h - b.h).abs() < 1e-9
            };
            assert!(near(g.to_frame(front), g.cell(i % g.cols, i / g.cols)));
            assert!(near(g.to_page(g.to_frame(front)), front));
            // Over the long edge the card's top, at the page's right, comes out at its left.
            let (long, turn) = g.back_cell(i, Duplex::LongEdge, (0.0, 0.0));
            assert_eq!(turn, 270);
            assert!((long.x - (pw - front.right())).abs() < 1e-9 && long.y == front.y);
            let (short, turn) = g.back_cell(i, Duplex::ShortEdge, (0.0, 0.0));
            assert_eq!(turn, 90);
            assert!((short.y - (ph - front.bottom())).abs() < 1e-9 && short.x == front.x);
        }
    }

    #[test]
    fn the_most_cards_that_fit_every_card_size_on_both_papers() {
        // Cards a sheet (the README's table), and the bleed never under the least.
        let want = [
            (Paper::A4, POKER, 9),
            (Paper::Letter, POKER, 8),
            (Paper::A4, (70.0, 120.0), 4),
            (Paper::Letter, (70.0, 120.0), 4),
            (Paper::A4, (44.0, 63.0), 16),
            (Paper::Letter, (44.0, 63.0), 12),
        ];
        for (paper, card, n) in want {
            let g = Grid::new(paper, card, 3.0).unwrap();
            assert_eq!(g.per_page(), n, "{paper:?} {card:?}: {g:?}");
            assert!(g.bleed >= MIN_BLEED, "{paper:?} {card:?}");
            assert_sound(&g);
        }
    }

    #[test]
    fn an_asked_bleed_is_kept_with_fewer_cards() {
        let g = Grid::exact(Paper::A4, POKER, 3.0).unwrap();
        assert_eq!((g.bleed, g.per_page(), g.turned), (3.0, 8, true));
        assert_sound(&g);
        // A bleed the densest grid has room for changes nothing.
        let thin = Grid::exact(Paper::A4, POKER, 1.5).unwrap();
        assert_eq!((thin.per_page(), thin.bleed), (9, 1.5));
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
                let content = el[el.find('>').unwrap() + 1..el.find("</text>").unwrap()]
                    .replace("&quot;", "\"")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&");
                let content = content.as_str();
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
                let trims: Vec<Rect> = (0..g.per_page())
                    .map(|i| g.to_frame(g.front_cell(i).0))
                    .collect();
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
                let svg = furniture(g.frame(), block, label, Some("Backs: glue them"), &columns);
                let texts = text_boxes(&svg);
                // No two texts overlap (the ruler's numbers are texts too).
                for (i, a) in texts.iter().enumerate() {
                    for b in &texts[i + 1..] {
                        assert!(
                            !a.overlaps(*b, 0.05),
                            "{paper:?} {card:?}: {a:?} over {b:?}"
                        );
                    }
                }
                let guides = path_segments(&cut_guides(g.frame(), &trims, block, Marks::Both));
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
                    let page = Rect::of_size(g.frame());
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
            None,
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

    #[test]
    fn the_actual_size_sentence_is_split_only_where_it_pauses() {
        for sentence in [
            actual_size(RULER_LEN),
            "Tulosta 100 %:n koossa (ei ”sovita sivulle”): viivaimen on oltava 50 mm.".to_string(),
        ] {
            let splits = halves(&sentence);
            assert!(!splits.is_empty(), "{sentence}");
            for (a, b) in splits {
                assert!(a.ends_with([',', ':']), "{a} | {b}");
                assert_eq!(format!("{a} {b}"), sentence);
            }
        }
        // A narrow stretch left of the ruler: the sentence goes whole to the right.
        let paper = Paper::A4.mm();
        let svg = bottom_row(paper, Some((20.0, 50)), None);
        assert!(svg.contains(&xml_escape(&actual_size(50))), "{svg}");
    }
}
