//! `printplay calibrate`: a two-sided test sheet. The front carries thin lines; the back,
//! placed where duplex printing should put it, carries fine scales across those lines.
//! Held against the light, the number on the back's scale where the front's line shows
//! through is the offset to pass as `--back-offset X,Y`.

use crate::render::formats::pdf::{PageSpec, write_pdf};
use crate::render::sheets::layout::{self, Duplex, PRINTER_MARGIN, Paper};

/// Half the length of each scale, in millimetres; ticks every 0.5 mm, numbers every 2 mm.
const RANGE: f64 = 6.0;

/// Where the test lines sit on the front page, each with its letter. No two are mirror
/// images or half-turns of each other (nor of themselves), so a back printed with the wrong
/// flip mode puts its scales where no front line is.
fn spots(paper: (f64, f64)) -> Vec<(char, (f64, f64))> {
    let (w, h) = paper;
    vec![
        ('A', (w * 0.5, h * 0.42)),
        ('B', (w * 0.27, h * 0.2)),
        ('C', (w * 0.7, h * 0.68)),
    ]
}

fn mirror(p: (f64, f64), paper: (f64, f64), duplex: Duplex) -> (f64, f64) {
    match duplex {
        Duplex::LongEdge | Duplex::Off | Duplex::Fold => (paper.0 - p.0, p.1),
        Duplex::ShortEdge => (p.0, paper.1 - p.1),
    }
}

/// Size of the letter beside each front line.
const LETTER: f64 = 5.0;

/// Centre of the letter beside the front line at `p`: up and to the left, far enough that
/// its box on the back clears the scales whichever way the back is mirrored.
fn letter_centre(p: (f64, f64)) -> (f64, f64) {
    (p.0 - 14.0, p.1 - 14.0)
}

/// Where the arrow marking a side's top edge sits on the front: below the back's lines of
/// instructions (which the back's arrow must not cover), clear of the test lines.
fn arrow_at(paper: (f64, f64)) -> (f64, f64) {
    (paper.0 * 0.62, LINES_TOP + LINE_STEP * 7.0 + 5.0)
}

/// Baseline of the first line of instructions, and the distance between lines.
const LINES_TOP: f64 = PRINTER_MARGIN + 3.0;
const LINE_STEP: f64 = 3.2;

fn arrow(at: (f64, f64), turn: u16, text: &str) -> String {
    format!(
        r#"<g transform="translate({:.3} {:.3}) rotate({turn})">{}</g>"#,
        at.0,
        at.1,
        layout::label(0.0, 0.0, 4.0, "middle", text)
    )
}

fn front(paper: (f64, f64)) -> String {
    let mut body = String::new();
    for (letter, (x, y)) in spots(paper) {
        body.push_str(&format!(
            r##"<path d="M{:.3},{y:.3} H{:.3} M{x:.3},{:.3} V{:.3}" stroke="#000000" stroke-width="0.12"/>"##,
            x - 25.0,
            x + 25.0,
            y - 25.0,
            y + 25.0
        ));
        let (lx, ly) = letter_centre((x, y));
        body.push_str(&layout::label(
            lx,
            ly + LETTER * 0.36,
            LETTER,
            "middle",
            &letter.to_string(),
        ));
    }
    body.push_str(&arrow(arrow_at(paper), 0, "↑ top of side 1"));
    body.push_str(&layout::label(
        PRINTER_MARGIN + 4.0,
        LINES_TOP,
        2.6,
        "start",
        "printplay calibration · side 1 of 2 (front). Print both sides, then hold the sheet against a light.",
    ));
    body
}

/// A scale of ticks every 0.5 mm across `RANGE` either side of the line's expected place,
/// numbered with the offset that moves the back onto the front.
fn scales(x: f64, y: f64) -> String {
    let mut d = String::new();
    let mut labels = String::new();
    let steps = (RANGE * 2.0) as i32;
    for i in -steps..=steps {
        let v = f64::from(i) / 2.0;
        let len = if i % 4 == 0 {
            3.4
        } else if i % 2 == 0 {
            2.4
        } else {
            1.4
        };
        // Horizontal offsets: ticks across the front's vertical line, below the centre.
        d.push_str(&format!("M{:.3},{:.3} v{len} ", x + v, y + 8.0));
        // Vertical offsets: ticks across the front's horizontal line, right of the centre.
        d.push_str(&format!("M{:.3},{:.3} h{len} ", x + 8.0, y + v));
        if i % 4 == 0 {
            let n = format!("{}", v as i32);
            // Numbers 2 mm apart alternate between two rows so that they never touch.
            let row = if (i / 4) % 2 == 0 { 14.2 } else { 16.6 };
            labels.push_str(&layout::label(x + v, y + row, 2.2, "middle", &n));
            labels.push_str(&layout::label(
                x + 12.4,
                y + v + 0.75,
                layout::MIN_TEXT_PT * layout::MM_PER_PT,
                "start",
                &n,
            ));
        }
    }
    format!(
        r##"<path d="{d}" stroke="#000000" stroke-width="0.1" fill="none"/>{labels}{}{}"##,
        layout::label(x, y + 19.6, 2.2, "middle", "X (mm)"),
        layout::label(x + 19.0, y - 6.5, 2.2, "start", "Y (mm)")
    )
}

fn back(paper: (f64, f64), duplex: Duplex) -> String {
    let mut body = String::new();
    for (letter, p) in spots(paper) {
        let (x, y) = mirror(p, paper, duplex);
        body.push_str(&scales(x, y));
        // A box where the front's letter shows through when the flip mode is right.
        let (lx, ly) = mirror(letter_centre(p), paper, duplex);
        body.push_str(&format!(
            r##"<rect x="{:.3}" y="{:.3}" width="9" height="9" fill="none" stroke="#000000" stroke-width="0.2" stroke-dasharray="1 0.7"/>"##,
            lx - 4.5,
            ly - 4.5
        ));
        // Above the box: below it the scales' numbers run.
        body.push_str(&layout::label(
            lx,
            ly - 5.7,
            2.4,
            "middle",
            &format!("{letter} here"),
        ));
    }
    let turn = if duplex == Duplex::ShortEdge { 180 } else { 0 };
    let at = mirror(arrow_at(paper), paper, duplex);
    body.push_str(&arrow(at, turn, "↑ top of side 2"));
    let mut lines = vec![
        "printplay calibration · side 2 of 2 (back). Hold the sheet against a light.",
        "Right flip mode: each front letter A, B, C shows through inside its own dashed box, and the two",
        "\"top\" arrows point to the same edge. A letter elsewhere or arrows pointing apart: the printer",
        "turns the sheet the other way; print again with the other --duplex (long-edge or short-edge).",
        "Then, where each front line shows through, read X on the lower scale and Y on the right one,",
        "and build with --back-offset X,Y (same --paper and --duplex).",
    ];
    if duplex == Duplex::Off {
        lines.insert(
            1,
            "One-sided (--duplex off): print this side on the back of side 1, turned over its long edge.",
        );
    }
    for (i, line) in lines.iter().enumerate() {
        body.push_str(&layout::label(
            PRINTER_MARGIN + 4.0,
            LINES_TOP + LINE_STEP * i as f64,
            2.5,
            "start",
            line,
        ));
    }
    body
}

/// The two pages of the calibration sheet; each carries the ruler and actual-size line.
pub fn pages(paper: Paper, duplex: Duplex) -> Vec<PageSpec> {
    let size = paper.mm();
    [front(size), back(size, duplex)]
        .into_iter()
        .map(|mut body| {
            body.push_str(&layout::bottom_row(size, None, None));
            PageSpec::new(size, body)
        })
        .collect()
}

/// Why there is no calibration sheet for `--duplex fold`.
pub const FOLD_NEEDS_NONE: &str = "fold-over sheets need no calibration: fronts and backs \
     are printed on the same side of one page and the fold lines them up (--back-offset does \
     not apply); print at 100 % and fold along the dashed line";

/// The calibration sheet as PDF bytes (none for `--duplex fold`: [`FOLD_NEEDS_NONE`]).
pub fn calibration_pdf(paper: Paper, duplex: Duplex) -> Result<Vec<u8>, String> {
    if duplex == Duplex::Fold {
        return Err(FOLD_NEEDS_NONE.to_string());
    }
    write_pdf(
        "printplay calibration sheet",
        &pages(paper, duplex),
        &crate::render::faces::fonts::builtin(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_flip_mode_puts_every_scale_away_from_every_front_line() {
        for paper in [Paper::A4, Paper::Letter] {
            let size = paper.mm();
            let fronts: Vec<(f64, f64)> = spots(size).into_iter().map(|s| s.1).collect();
            for (printed, flipped) in [
                (Duplex::LongEdge, Duplex::ShortEdge),
                (Duplex::ShortEdge, Duplex::LongEdge),
            ] {
                for &p in &fronts {
                    // Drawn for one mode, turned over the other way, a scale lands here.
                    let right = mirror(mirror(p, size, printed), size, printed);
                    assert!((right.0 - p.0).abs() < 1e-9 && (right.1 - p.1).abs() < 1e-9);
                    let wrong = mirror(mirror(p, size, printed), size, flipped);
                    for &q in &fronts {
                        let d = ((wrong.0 - q.0).powi(2) + (wrong.1 - q.1).powi(2)).sqrt();
                        assert!(d > 2.0 * RANGE + 10.0, "{paper:?}: {d:.1} mm from a line");
                    }
                }
            }
        }
    }

    #[test]
    fn the_back_says_how_to_read_it() {
        let back = &pages(Paper::A4, Duplex::LongEdge)[1].body;
        assert!(back.contains("A here") && back.contains("C here"));
        assert!(back.contains("the other --duplex"));
        assert!(back.contains("top of side 2"));
    }
}
