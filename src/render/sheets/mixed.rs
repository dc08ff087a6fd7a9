//! Sheets of mixed card sizes (`--pack`): decks of one size fill that size's grid, and the
//! last, part-empty sheet of each size is not printed alone: those cards are packed together,
//! each size in a band of its own across the sheet (rows of one size, centred, or against the
//! fold on a fold-over page), the bands stacked down the sheet with [`BAND_GAP`] between them.
//!
//! Every card keeps its own bleed on every side, as on any sheet. Each band is cut like a
//! sheet of its own: its crop marks (vertical cuts) run out of its own bleed into the gap
//! above and below it, never across another band; the gap between two bands is first cut
//! through its middle, at the crop marks beside it (a cut that touches no card), which parts
//! the sheet into strips of one size. Backs lie behind their fronts by the same mirror as on
//! every sheet (long edge, short edge, one-sided, fold), card by card: the bands of a back
//! page are the front's bands mirrored.

use crate::render::sheets::layout::{
    self, BAND_ROOM, Duplex, MARK_GAP, MARK_LEN, MARK_MIN, MARK_WIDTH, Marks, Reach, Rect,
    SIDE_ROOM,
};
use crate::render::sheets::{Placed, Sheet, fold};

/// Gap between the bleeds of two bands: the upper band's crop marks, the cut through the
/// middle, and the lower band's crop marks with its card ids between them.
pub const BAND_GAP: f64 = 7.0;

/// Cards of one size waiting for a mixed sheet: their size and each copy's deck and card.
pub type Leftover<'a> = ((f64, f64), Vec<(&'a str, &'a str)>);

/// One band: cards of one size in rows, its first trim's top-left corner, on a frame.
#[derive(Debug, Clone)]
struct Band<'a> {
    size: (f64, f64),
    cols: usize,
    rows: usize,
    copies: Vec<(&'a str, &'a str)>,
}

impl Band<'_> {
    fn height(&self, bleed: f64) -> f64 {
        self.rows as f64 * (self.size.1 + 2.0 * bleed)
    }
}

/// Mixed sheets: the page they are printed on (portrait, or landscape for a fold-over page
/// that holds more so), their bleed, and each sheet's fronts (trims on the page).
#[derive(Debug, Clone)]
pub struct Packed<'a> {
    pub paper: (f64, f64),
    pub bleed: f64,
    pub sheets: Vec<Vec<(&'a str, &'a str, Rect)>>,
}

/// Where the bands of a page go across: from `from` to `to` (the cards' bleeds), centred or
/// (fold-over) against `to`.
#[derive(Debug, Clone, Copy)]
struct Room {
    page: (f64, f64),
    from: f64,
    to: f64,
    against_fold: bool,
}

impl Room {
    fn width(&self) -> f64 {
        self.to - self.from
    }
    fn height(&self) -> f64 {
        self.page.1 - 2.0 * BAND_ROOM
    }
}

/// The rooms a sheet offers: the portrait paper, or for fold-over pages the left half of a
/// portrait or a landscape page.
fn rooms(sheet: &Sheet) -> Vec<Room> {
    let (pw, ph) = sheet.paper.mm();
    if sheet.duplex == Duplex::Fold {
        [(pw, ph), (ph, pw)]
            .into_iter()
            .map(|page| Room {
                page,
                from: SIDE_ROOM,
                to: page.0 / 2.0 - fold::FOLD_GAP / 2.0,
                against_fold: true,
            })
            .collect()
    } else {
        vec![Room {
            page: (pw, ph),
            from: SIDE_ROOM,
            to: pw - SIDE_ROOM,
            against_fold: false,
        }]
    }
}

/// Packs `leftovers` (the cards of each size that do not fill a sheet) onto as few mixed
/// sheets as the bands allow (first fit, tallest band first), trying each room and bleed;
/// `None` when some size does not fit a band upright.
pub fn pack<'a>(leftovers: &[Leftover<'a>], sheet: &Sheet) -> Option<Packed<'a>> {
    let bleeds = if sheet.exact_bleed {
        vec![sheet.bleed]
    } else {
        vec![sheet.bleed, sheet.bleed.min(layout::MIN_BLEED)]
    };
    let mut best: Option<Packed<'a>> = None;
    for room in rooms(sheet) {
        for &bleed in &bleeds {
            let Some(p) = pack_in(leftovers, room, bleed) else {
                continue;
            };
            let better = best
                .as_ref()
                .is_none_or(|b| (p.sheets.len(), -p.bleed) < (b.sheets.len(), -b.bleed));
            if better {
                best = Some(p);
            }
        }
    }
    best
}

fn pack_in<'a>(leftovers: &[Leftover<'a>], room: Room, bleed: f64) -> Option<Packed<'a>> {
    let per = |room_len: f64, len: f64| ((room_len / (len + 2.0 * bleed)) + 1e-9).floor() as usize;
    // Each size as bands no taller than a sheet.
    let mut bands: Vec<Band<'a>> = Vec::new();
    for (size, copies) in leftovers {
        let cols = per(room.width(), size.0);
        let most_rows = per(room.height(), size.1);
        if cols == 0 || most_rows == 0 {
            return None;
        }
        for chunk in copies.chunks(cols * most_rows) {
            bands.push(Band {
                size: *size,
                cols,
                rows: chunk.len().div_ceil(cols),
                copies: chunk.to_vec(),
            });
        }
    }
    // Tallest first (a stable sort keeps the decks' order among equals), each into the first
    // sheet with room.
    bands.sort_by(|a, b| b.height(bleed).total_cmp(&a.height(bleed)));
    let mut sheets: Vec<(f64, Vec<Band<'a>>)> = Vec::new();
    for band in bands {
        let h = band.height(bleed);
        match sheets
            .iter_mut()
            .find(|(used, _)| used + BAND_GAP + h <= room.height() + 1e-9)
        {
            Some((used, list)) => {
                *used += BAND_GAP + h;
                list.push(band);
            }
            None => sheets.push((h, vec![band])),
        }
    }
    let placed = sheets
        .into_iter()
        .map(|(used, list)| {
            let mut out = Vec::new();
            let mut y = (room.page.1 - used) / 2.0;
            for band in list {
                let pitch = (band.size.0 + 2.0 * bleed, band.size.1 + 2.0 * bleed);
                let width = band.cols as f64 * pitch.0;
                let x = if room.against_fold {
                    room.to - width
                } else {
                    (room.page.0 - width) / 2.0
                };
                for (i, (deck, card)) in band.copies.iter().enumerate() {
                    let (c, r) = (i % band.cols, i / band.cols);
                    out.push((
                        *deck,
                        *card,
                        Rect {
                            x: x + bleed + c as f64 * pitch.0,
                            y: y + bleed + r as f64 * pitch.1,
                            w: band.size.0,
                            h: band.size.1,
                        },
                    ));
                }
                y += band.height(bleed) + BAND_GAP;
            }
            out
        })
        .collect();
    Some(Packed {
        paper: room.page,
        bleed,
        sheets: placed,
    })
}

/// Where the back of the upright card whose front's trim is `front` lies on the page of size
/// `paper`, and its turn: mirrored as [`layout::Grid::back_cell`] mirrors a grid's cards.
pub fn back_of(front: Rect, paper: (f64, f64), duplex: Duplex, offset: (f64, f64)) -> (Rect, u16) {
    let (pw, ph) = paper;
    let (r, turn) = match duplex {
        Duplex::LongEdge | Duplex::Off | Duplex::Fold => (
            Rect {
                x: pw - front.x - front.w,
                ..front
            },
            0,
        ),
        Duplex::ShortEdge => (
            Rect {
                y: ph - front.y - front.h,
                ..front
            },
            180,
        ),
    };
    let offset = if duplex == Duplex::Fold {
        (0.0, 0.0)
    } else {
        offset
    };
    (
        Rect {
            x: r.x + offset.0,
            y: r.y + offset.1,
            ..r
        },
        turn,
    )
}

/// A page's cards in bands, top to bottom: the cards of each size (the bands of a mixed
/// sheet; one band on any other sheet). On a fold-over page the fronts and the backs of a
/// size are one band, either side of the fold.
pub fn bands(placed: &[Placed]) -> Vec<Vec<&Placed>> {
    let mut out: Vec<Vec<&Placed>> = Vec::new();
    for p in placed {
        let same =
            |q: &&Placed| (q.trim.w - p.trim.w).abs() < 1e-6 && (q.trim.h - p.trim.h).abs() < 1e-6;
        match out.iter_mut().find(|b| b.first().is_some_and(same)) {
            Some(b) => b.push(p),
            None => out.push(vec![p]),
        }
    }
    out.sort_by(|a, b| top(a).total_cmp(&top(b)));
    out
}

fn top(band: &[&Placed]) -> f64 {
    band.iter().map(|p| p.trim.y).fold(f64::MAX, f64::min)
}

/// The bleeds of each band of `bands`.
fn band_bleeds(bands: &[Vec<&Placed>], bleed: f64) -> Vec<Rect> {
    bands
        .iter()
        .map(|b| {
            let trims: Vec<Rect> = b.iter().map(|p| p.trim).collect();
            super::bounds(&trims).grow(bleed)
        })
        .collect()
}

/// Cut guides of a mixed page (in its frame `paper`): each band's crop marks and cut lines
/// as on a sheet of its own, reaching into the gaps beside it as far as the middle of each
/// gap less [`MARK_GAP`]; and a cut through the middle of every gap, marked beside the bands
/// (and drawn across the sheet for cut lines).
pub fn cut_guides(paper: (f64, f64), bands: &[Vec<&Placed>], bleed: f64, marks: Marks) -> String {
    let blocks = band_bleeds(bands, bleed);
    let mids: Vec<f64> = blocks
        .windows(2)
        .map(|w| (w[0].bottom() + w[1].y) / 2.0)
        .collect();
    let mut out = String::new();
    for (k, band) in bands.iter().enumerate() {
        let trims: Vec<Rect> = band.iter().map(|p| p.trim).collect();
        let mut reach = layout::guide_reach(paper, blocks[k]);
        if k > 0 {
            reach.top = mids[k - 1] + MARK_GAP;
        }
        if k + 1 < bands.len() {
            reach.bottom = mids[k] - MARK_GAP;
        }
        out.push_str(&layout::cut_guides_within(reach, &trims, blocks[k], marks));
    }
    // The cuts between bands.
    let whole = super::bounds(&blocks);
    let reach: Reach = layout::guide_reach(paper, whole);
    let mut d = String::new();
    for (k, &y) in mids.iter().enumerate() {
        let left = blocks[k].x.min(blocks[k + 1].x) - MARK_GAP;
        let right = blocks[k].right().max(blocks[k + 1].right()) + MARK_GAP;
        if marks.crop() {
            let l = MARK_LEN
                .min(left - reach.left)
                .max(MARK_MIN.min(left - reach.left));
            let r = MARK_LEN
                .min(reach.right - right)
                .max(MARK_MIN.min(reach.right - right));
            d.push_str(&format!("M{left:.3},{y:.3} H{:.3} ", left - l));
            d.push_str(&format!("M{right:.3},{y:.3} H{:.3} ", right + r));
        }
        if marks.lines() {
            d.push_str(&format!("M{:.3},{y:.3} H{:.3} ", reach.left, reach.right));
        }
    }
    if !d.is_empty() {
        let width = if marks.crop() {
            MARK_WIDTH
        } else {
            layout::LINE_WIDTH
        };
        out.push_str(&format!(
            r##"<path d="{}" fill="none" stroke="#000000" stroke-width="{width}" stroke-linecap="butt"/>"##,
            d.trim_end()
        ));
    }
    out
}

/// Furniture of a mixed page (in its frame): the top row, each band's card ids above it
/// (between its crop marks), and the bottom row with the ruler in the lowest band's column
/// nearest the middle.
pub fn furniture(
    paper: (f64, f64),
    bands: &[Vec<&Placed>],
    bleed: f64,
    page_label: &str,
    note: Option<&str>,
) -> String {
    let blocks = band_bleeds(bands, bleed);
    let mut out = layout::top_row(paper, page_label, note);
    let mut lowest = Vec::new();
    for (band, block) in bands.iter().zip(&blocks) {
        let owned: Vec<Placed> = band.iter().map(|p| (*p).clone()).collect();
        let columns = super::id_columns(&owned);
        let ids_y = block.y - MARK_GAP - 0.7;
        for (from, to, ids) in &columns {
            out.push_str(&layout::id_line(
                (from + to) / 2.0,
                ids_y,
                to - from - 2.0,
                ids,
            ));
        }
        lowest = columns;
    }
    out.push_str(&layout::bottom_row(
        paper,
        Some(layout::ruler_place(paper.0, &lowest)),
        None,
    ));
    out
}
