//! `printplay calibrate`: a two-sided test sheet. The front carries thin lines; the back,
//! placed where duplex printing should put it, carries fine scales across those lines.
//! Held against the light, the number on the back's scale where the front's line shows
//! through is the offset to pass as `--back-offset X,Y`.

use super::layout::{self, Duplex, PRINTER_MARGIN, Paper};
use super::pdf::{PageSpec, svg_page, write_pdf};

/// Half the length of each scale, in millimetres; ticks every 0.5 mm, numbers every 2 mm.
const RANGE: f64 = 6.0;

/// Where the test lines sit on the front page: the centre and two points towards corners.
fn spots(paper: (f64, f64)) -> Vec<(f64, f64)> {
    let (w, h) = paper;
    vec![
        (w / 2.0, h / 2.0),
        (w * 0.25, h * 0.22),
        (w * 0.75, h * 0.78),
    ]
}

fn mirror(p: (f64, f64), paper: (f64, f64), duplex: Duplex) -> (f64, f64) {
    match duplex {
        Duplex::LongEdge => (paper.0 - p.0, p.1),
        Duplex::ShortEdge => (p.0, paper.1 - p.1),
        Duplex::Off => p,
    }
}

fn front(paper: (f64, f64)) -> String {
    let mut body = String::new();
    for (x, y) in spots(paper) {
        body.push_str(&format!(
            r##"<path d="M{:.3},{y:.3} H{:.3} M{x:.3},{:.3} V{:.3}" stroke="#000000" stroke-width="0.12"/>"##,
            x - 25.0,
            x + 25.0,
            y - 25.0,
            y + 25.0
        ));
        body.push_str(&layout::label(x + 2.0, y - 2.0, 2.0, "start", "front line"));
    }
    body.push_str(&layout::label(
        PRINTER_MARGIN + 4.0,
        PRINTER_MARGIN + 3.0,
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
            labels.push_str(&layout::label(x + v, y + 13.8, 1.6, "middle", &n));
            labels.push_str(&layout::label(x + 12.4, y + v + 0.55, 1.6, "start", &n));
        }
    }
    format!(
        r##"<path d="{d}" stroke="#000000" stroke-width="0.1" fill="none"/>{labels}{}{}"##,
        layout::label(x, y + 17.0, 1.8, "middle", "X (mm)"),
        layout::label(x + 19.0, y - 6.5, 1.8, "start", "Y (mm)")
    )
}

fn back(paper: (f64, f64), duplex: Duplex) -> String {
    let mut body = String::new();
    for p in spots(paper) {
        let (x, y) = mirror(p, paper, duplex);
        body.push_str(&scales(x, y));
    }
    body.push_str(&layout::label(
        PRINTER_MARGIN + 4.0,
        PRINTER_MARGIN + 3.0,
        2.6,
        "start",
        "printplay calibration · side 2 of 2 (back). Where each front line shows through, read X on the lower",
    ));
    body.push_str(&layout::label(
        PRINTER_MARGIN + 4.0,
        PRINTER_MARGIN + 6.5,
        2.6,
        "start",
        "scale and Y on the right scale, then build with --back-offset X,Y (same --paper and --duplex).",
    ));
    body
}

/// The two pages of the calibration sheet; each carries the ruler and actual-size line.
pub fn pages(paper: Paper, duplex: Duplex) -> Vec<PageSpec> {
    let size = paper.mm();
    [front(size), back(size, duplex)]
        .into_iter()
        .map(|mut body| {
            let y = size.1 - PRINTER_MARGIN - 6.0;
            body.push_str(&layout::ruler(size.0 - PRINTER_MARGIN - 55.0, y));
            body.push_str(&layout::label(
                PRINTER_MARGIN + 4.0,
                y + 2.0,
                1.8,
                "start",
                layout::ACTUAL_SIZE,
            ));
            PageSpec {
                svg: svg_page(size, &body),
                size_mm: size,
                trim: None,
                bleed: None,
            }
        })
        .collect()
}

/// The calibration sheet as PDF bytes.
pub fn calibration_pdf(paper: Paper, duplex: Duplex) -> Result<Vec<u8>, String> {
    write_pdf("printplay calibration sheet", &pages(paper, duplex))
}
