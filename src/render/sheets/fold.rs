//! Fold-over ("gutterfold") card sheets, `--duplex fold`, for printers without duplex: each
//! page holds fronts on its left half and their backs on its right half, each back at its
//! front's place mirrored across a fold line in the middle of the page. Folded along that
//! line, printed sides out, each back lands behind its front (the fold turns the right half
//! over a vertical line, as a long-edge duplex printer turns the sheet, so backs stand
//! upright). Between the two halves a [`FOLD_GAP`] keeps the dashed fold line off every
//! card's bleed; crop marks stay beyond the block of cards as on every sheet.
//!
//! The page is landscape or portrait, whichever holds more cards (then more bleed, then
//! landscape): poker cards go 2 x 2 a side on a landscape page, 4 cards a page on both A4
//! and Letter (a portrait page holds 1 x 3 a side); mini cards go 2 x 4 a side on a
//! portrait A4 page, 2 x 3 on Letter.

use crate::render::sheets::layout::{
    self, BAND_ROOM, Grid, MARK_WIDTH, MIN_BLEED, Paper, Rect, SIDE_ROOM,
};

/// Gap between the bleeds either side of the fold; the fold line runs down its middle.
pub const FOLD_GAP: f64 = 3.0;

/// The cards of one side of a page of size `page` (width, height) with `bleed`: columns on
/// one half, rows.
fn count(page: (f64, f64), card: (f64, f64), bleed: f64) -> (usize, usize) {
    let per = |room: f64, len: f64| ((room / (len + 2.0 * bleed)) + 1e-9).floor().max(0.0) as usize;
    (
        per(half_width(page), card.0),
        per(page.1 - 2.0 * BAND_ROOM, card.1),
    )
}

/// Room for cards with their bleeds on one half of the page.
fn half_width(page: (f64, f64)) -> f64 {
    page.0 / 2.0 - FOLD_GAP / 2.0 - SIDE_ROOM
}

/// The fold-over grid for cards of `card` size on `paper`: its `paper` is the page (turned
/// to landscape when that holds more), `cols` the columns of fronts on the left half, `x0`
/// and `y0` the first front's trim; backs are the fronts mirrored across the page's middle
/// ([`Grid::back_cell`]). The bleed is `bleed` (`exact`), or reduced to fit more cards (to
/// [`MIN_BLEED`] at the least) and then widened as far as the room allows, up to `bleed`.
pub fn grid(paper: Paper, card: (f64, f64), bleed: f64, exact: bool) -> Option<Grid> {
    let least = if exact { bleed } else { bleed.min(MIN_BLEED) };
    let (pw, ph) = paper.mm();
    [(ph, pw), (pw, ph)]
        .into_iter()
        .filter_map(|page| {
            let (cols, rows) = count(page, card, least);
            if cols < 1 || rows < 1 {
                return None;
            }
            let fit = |room: f64, n: usize, len: f64| {
                let b = (room / n as f64 - len) / 2.0;
                (b * 10.0 + 1e-9).floor() / 10.0
            };
            let widest = fit(half_width(page), cols, card.0).min(fit(
                page.1 - 2.0 * BAND_ROOM,
                rows,
                card.1,
            ));
            let bleed = if exact {
                bleed
            } else {
                bleed.min(widest).max(least)
            };
            let (px, py) = (card.0 + 2.0 * bleed, card.1 + 2.0 * bleed);
            Some(Grid {
                paper: page,
                cols,
                rows,
                card,
                bleed,
                x0: page.0 / 2.0 - FOLD_GAP / 2.0 - cols as f64 * px + bleed,
                y0: (page.1 - rows as f64 * py) / 2.0 + bleed,
                turned: false,
            })
        })
        .reduce(|best, g| {
            let key = |g: &Grid| (g.per_page(), g.bleed);
            if key(&g) > key(&best) { g } else { best }
        })
}

/// What a fold-over page tells the user.
pub const FOLD_NOTE: &str =
    "Fold along the dashed middle line, printed sides out; glue; cut at the crop marks.";

/// The dashed fold line down the middle of a fold-over page whose cards' bleeds fill
/// `bleeds`, as far up and down as the crop marks reach.
pub fn fold_line(paper: (f64, f64), bleeds: Rect) -> String {
    let reach = layout::guide_reach(paper, bleeds);
    let x = paper.0 / 2.0;
    format!(
        r##"<path d="M{x:.3},{:.3} V{:.3}" fill="none" stroke="#000000" stroke-width="{MARK_WIDTH}" stroke-dasharray="2 1.5"/>"##,
        reach.top, reach.bottom
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::sheets::layout::Duplex;

    #[test]
    fn poker_cards_four_a_landscape_page_on_a4_and_letter_backs_mirrored_across_the_gap() {
        for paper in [Paper::A4, Paper::Letter] {
            let g = grid(paper, (63.0, 88.0), 3.0, false).unwrap();
            let (pw, ph) = paper.mm();
            assert_eq!(g.paper, (ph, pw), "{paper:?}: landscape");
            assert_eq!((g.cols, g.rows), (2, 2), "{paper:?}");
            assert!(g.bleed >= MIN_BLEED, "{paper:?}: {}", g.bleed);
            let mid = g.paper.0 / 2.0;
            for i in 0..g.per_page() {
                let (f, _) = g.front_cell(i);
                let (b, turn) = g.back_cell(i, Duplex::Fold, (2.0, 1.0));
                assert_eq!(turn, 0);
                assert!((b.x - (2.0 * mid - f.right())).abs() < 1e-9 && b.y == f.y);
                assert!(f.grow(g.bleed).right() <= mid - FOLD_GAP / 2.0 + 1e-9);
                assert!(b.grow(g.bleed).x >= mid + FOLD_GAP / 2.0 - 1e-9);
                let page = Rect::of_size(g.paper);
                assert!(
                    page.grow(-layout::PAPER_MARGIN)
                        .contains(b.grow(g.bleed), 1e-9)
                );
            }
        }
        // Mini cards stand more to a portrait page: 2 x 4 a side on A4, 2 x 3 on Letter.
        let mini = grid(Paper::A4, (44.0, 63.0), 3.0, false).unwrap();
        assert_eq!((mini.paper, mini.cols, mini.rows), ((210.0, 297.0), 2, 4));
        let mini = grid(Paper::Letter, (44.0, 63.0), 3.0, false).unwrap();
        assert_eq!((mini.paper, mini.cols, mini.rows), ((215.9, 279.4), 2, 3));
        // An asked bleed is kept.
        assert_eq!(grid(Paper::A4, (63.0, 88.0), 3.0, true).unwrap().bleed, 3.0);
    }
}
