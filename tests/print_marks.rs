//! Cut guides seen as a user sees them: card sheets rendered by pdftoppm, the crop marks and
//! cut lines looked for, pixel by pixel, where the plan's cuts are. Crop marks of both cut
//! directions are full marks (at least 2 mm), not specks; `--marks lines` draws lines along
//! every cut through the gutters between the cards, where `--marks crop` draws none.

mod common;

use printplay::render::sheets::CardPage;
use printplay::render::sheets::layout::{MARK_GAP, MARK_MIN, Rect};
use printplay::render::sheets::layout::{Marks, Paper};
use printplay::render::{self, BuildOptions};

const DPI: f64 = 300.0;

fn have(tool: &str) -> bool {
    std::process::Command::new(tool).arg("-v").output().is_ok()
}

/// A sheet rendered in grey: width, height and pixels.
struct Raster {
    w: usize,
    h: usize,
    px: Vec<u8>,
}

impl Raster {
    /// The darkest pixel within `r` pixels of page millimetres (x, y).
    fn darkest(&self, x: f64, y: f64, r: isize) -> u8 {
        let (cx, cy) = (
            (x / 25.4 * DPI).round() as isize,
            (y / 25.4 * DPI).round() as isize,
        );
        let mut v = 255;
        for j in cy - r..=cy + r {
            for i in cx - r..=cx + r {
                if (0..self.w as isize).contains(&i) && (0..self.h as isize).contains(&j) {
                    v = v.min(self.px[j as usize * self.w + i as usize]);
                }
            }
        }
        v
    }
}

/// The first sheet of the scaffold game's cards with these marks, and its plan.
fn sheet(game: &printplay::model::Game, paper: Paper, marks: Marks) -> (CardPage, Raster) {
    let o = BuildOptions {
        paper,
        marks,
        ..BuildOptions::default()
    };
    let faces = render::draw_faces(game, &o).unwrap();
    let plan = render::card_plan(&faces, &o).unwrap();
    let bytes = render::cards_pdf(game, &faces, &o).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("cards.pdf");
    std::fs::write(&pdf, bytes).unwrap();
    let out = std::process::Command::new("pdftoppm")
        .args(["-r", "300", "-gray", "-f", "1", "-l", "1"])
        .arg(&pdf)
        .output()
        .unwrap();
    assert!(out.status.success());
    let (magic, w, h, px) = common::read_pnm(&out.stdout);
    assert_eq!(magic, "P5");
    (plan[0].clone(), Raster { w, h, px })
}

/// The block of a page's trims, grown by its bleed.
fn bleed_block(page: &CardPage) -> Rect {
    let trims: Vec<Rect> = page.placed.iter().map(|p| p.trim).collect();
    render::sheets::bounds(&trims).grow(page.grid.bleed)
}

/// The gutters between neighbouring cards along one axis: (start, end) of each, from the
/// sorted cut positions (a gutter runs from one card's far edge to the next one's near edge).
fn gutters(cuts: &[f64]) -> Vec<(f64, f64)> {
    cuts.windows(2)
        .skip(1)
        .step_by(2)
        .map(|w| (w[0], w[1]))
        .collect()
}

#[test]
fn crop_marks_of_both_directions_and_cut_lines_are_where_the_cuts_are() {
    if !have("pdftoppm") {
        eprintln!("skipped: pdftoppm is not installed");
        return;
    }
    let data = tempfile::tempdir().unwrap();
    printplay::scaffold::new_game(data.path(), "marks").unwrap();
    let game = printplay::model::load_game(data.path(), "marks").unwrap();
    for paper in [Paper::A4, Paper::Letter] {
        let (page, crop) = sheet(&game, paper, Marks::Crop);
        let (lined_page, lines) = sheet(&game, paper, Marks::Lines);
        assert_eq!(page.placed, lined_page.placed);
        let (xs, ys) = render::sheets::cut_lines(&page.placed);
        let block = bleed_block(&page);
        assert!(xs.len() >= 4 && ys.len() >= 4, "{paper:?}: a full sheet");
        // Each crop mark is dark along its whole least length (2 mm), starting half a
        // millimetre beyond the bleed: above and below every vertical cut, beside every
        // horizontal one.
        let along = |from: f64, dir: f64| {
            (1..=7).map(move |i| from + dir * (MARK_GAP + f64::from(i) * MARK_MIN / 8.0))
        };
        for &x in &xs {
            for y in along(block.y, -1.0).chain(along(block.bottom(), 1.0)) {
                let v = crop.darkest(x, y, 1);
                assert!(v < 100, "{paper:?}: no crop mark at ({x:.1}, {y:.1}): {v}");
            }
        }
        for &y in &ys {
            for x in along(block.x, -1.0).chain(along(block.right(), 1.0)) {
                let v = crop.darkest(x, y, 1);
                assert!(v < 100, "{paper:?}: no crop mark at ({x:.1}, {y:.1}): {v}");
            }
        }
        // Cut lines: in the middle of every gutter, each cut that crosses it is a dark line
        // with `--marks lines` and the card's light bleed art with `--marks crop`.
        let mut seen = 0;
        for &x in &xs {
            for (a, b) in gutters(&ys) {
                let y = (a + b) / 2.0;
                let (with, without) = (lines.darkest(x, y, 1), crop.darkest(x, y, 1));
                assert!(
                    with < 110 && without > 150,
                    "{paper:?}: cut line at x {x:.1} across the gutter at y {y:.1}: {with} with lines, {without} without"
                );
                seen += 1;
            }
        }
        for &y in &ys {
            for (a, b) in gutters(&xs) {
                let x = (a + b) / 2.0;
                let (with, without) = (lines.darkest(x, y, 1), crop.darkest(x, y, 1));
                assert!(
                    with < 110 && without > 150,
                    "{paper:?}: cut line at y {y:.1} across the gutter at x {x:.1}: {with} with lines, {without} without"
                );
                seen += 1;
            }
        }
        assert!(seen >= 8, "{paper:?}: {seen} gutter crossings");
        // No line runs along a card: on each card's edges, halfway along them, the sheet
        // with lines is the sheet without.
        for p in &page.placed {
            let t = p.trim;
            for (x, y) in [
                (t.x, t.y + t.h / 2.0),
                (t.right(), t.y + t.h / 2.0),
                (t.x + t.w / 2.0, t.y),
                (t.x + t.w / 2.0, t.bottom()),
            ] {
                assert!(
                    lines.darkest(x, y, 2).abs_diff(crop.darkest(x, y, 2)) <= 2,
                    "{paper:?}: a line over card {} at ({x:.1}, {y:.1})",
                    p.card
                );
            }
        }
    }
}
