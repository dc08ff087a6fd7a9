//! The A5 booklet imposed for saddle stitching: the pages padded with blank ones to a
//! multiple of 4, two to a side of an A4 landscape sheet, in the order a printer prints them
//! so that the sheets, printed on both sides (flipped on the short edge), stacked and folded
//! in the middle, read 1, 2, 3... Creep (the outer pages of a thick booklet standing out
//! after the fold) is ignored: a rules booklet is a few sheets.

use super::draw::Sheets;
use super::layout::{Geometry, PT_PER_MM};

/// The booklet's page count: `pages` padded to a multiple of 4.
pub fn padded(pages: usize) -> usize {
    pages.max(1).div_ceil(4) * 4
}

/// The sides of the sheets in printing order, each with its left and right page (0-based
/// page indices; an index past the last page is a blank page). Sheet `s` has page `n - 2s`
/// and `2s + 1` (1-based) on its front, `2s + 2` and `n - 2s - 1` on its back.
pub fn order(pages: usize) -> Vec<[usize; 2]> {
    let n = padded(pages);
    let mut sides = Vec::with_capacity(n / 2);
    for s in 0..n / 4 {
        sides.push([n - 1 - 2 * s, 2 * s]);
        sides.push([2 * s + 1, n - 2 - 2 * s]);
    }
    sides
}

/// The booklet's PDF pages: A4 landscape sides, each with two A5 pages.
pub fn sheets(pages: usize, a5: &Geometry) -> Sheets {
    let side = (297.0 * PT_PER_MM, 210.0 * PT_PER_MM);
    Sheets {
        sides: order(pages)
            .into_iter()
            .map(|[l, r]| {
                let page = |p: usize| (p < pages).then_some(p);
                (side, vec![(page(l), 0.0), (page(r), a5.width)])
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_in_printers_order() {
        assert_eq!(padded(5), 8);
        assert_eq!(padded(8), 8);
        assert_eq!(padded(0), 4);
        // 8 pages: sheet 1 front 8|1, back 2|7; sheet 2 front 6|3, back 4|5.
        assert_eq!(order(8), vec![[7, 0], [1, 6], [5, 2], [3, 4]]);
        // Every page once, and the two pages of a side add up to n - 1 (a spread across
        // the fold).
        for n in 1..40 {
            let sides = order(n);
            let mut all: Vec<usize> = sides.iter().flatten().copied().collect();
            all.sort();
            assert_eq!(all, (0..padded(n)).collect::<Vec<_>>());
            assert!(sides.iter().all(|[l, r]| l + r == padded(n) - 1));
        }
    }
}
