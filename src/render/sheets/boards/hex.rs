//! Hex boards: cells in axial coordinates drawn at `hex_mm` around a frame for the title and
//! the corner decorations.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::{Board, Game, HexGrid, HexOrientation};
use crate::render::faces::hex_path;
use crate::render::faces::marks;
use crate::render::faces::template::{Templates, base_context};
use crate::render::xml_escape;

/// Margin around the board's hexes, room for the title and the corner decorations.
pub const FRAME: f64 = 12.0;

/// Centre of the cell (q, r), corner radius `size`.
fn centre(q: i32, r: i32, size: f64, o: HexOrientation) -> (f64, f64) {
    let (q, r) = (f64::from(q), f64::from(r));
    let s3 = 3f64.sqrt();
    match o {
        HexOrientation::Flat => (size * 1.5 * q, size * s3 * (r + q / 2.0)),
        HexOrientation::Pointy => (size * s3 * (q + r / 2.0), size * 1.5 * r),
    }
}

/// A hex board's printed size in millimetres, its frame included (as [`board_svg`] draws
/// it); `None` without hexes.
pub fn hex_board_size(hex: &HexGrid) -> Option<(f64, f64)> {
    let size = hex.hex_mm / 3f64.sqrt();
    let o = hex.orientation;
    let (half_w, half_h) = match o {
        HexOrientation::Flat => (size, hex.hex_mm / 2.0),
        HexOrientation::Pointy => (hex.hex_mm / 2.0, size),
    };
    let centres = hex.cells.iter().map(|c| centre(c.q, c.r, size, o));
    let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
    for (x, y) in centres {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    let size = (
        hi.0 - lo.0 + 2.0 * (half_w + FRAME),
        hi.1 - lo.1 + 2.0 * (half_h + FRAME),
    );
    (!hex.cells.is_empty()).then_some(size)
}

/// Where a hex board's cells lie on its drawing ([`board_svg`]).
#[derive(Debug, Clone, PartialEq)]
pub struct HexLayout {
    /// Each cell's centre before `shift`, in data order.
    pub centres: Vec<(f64, f64)>,
    /// What moves the centres onto the drawing (its frame).
    pub shift: (f64, f64),
    /// The drawing's size in millimetres.
    pub size: (f64, f64),
}

/// The layout of a hex board's cells on its drawing: the browser table places pieces on
/// the cells of the board the build draws by it.
pub fn hex_layout(hex: &HexGrid) -> HexLayout {
    let size = hex.hex_mm / 3f64.sqrt();
    let o = hex.orientation;
    let centres: Vec<(f64, f64)> = hex
        .cells
        .iter()
        .map(|c| centre(c.q, c.r, size, o))
        .collect();
    let (half_w, half_h) = match o {
        HexOrientation::Flat => (size, hex.hex_mm / 2.0),
        HexOrientation::Pointy => (hex.hex_mm / 2.0, size),
    };
    let min_x = centres.iter().map(|c| c.0).fold(f64::MAX, f64::min) - half_w;
    let min_y = centres.iter().map(|c| c.1).fold(f64::MAX, f64::min) - half_h;
    let max_x = centres.iter().map(|c| c.0).fold(f64::MIN, f64::max) + half_w;
    let max_y = centres.iter().map(|c| c.1).fold(f64::MIN, f64::max) + half_h;
    HexLayout {
        centres,
        shift: (FRAME - min_x, FRAME - min_y),
        size: (max_x - min_x + 2.0 * FRAME, max_y - min_y + 2.0 * FRAME),
    }
}

/// Each cell's axial coordinates, kind and centre on the drawing, for a template that labels
/// the hexes as the engines name them.
fn hex_labels(
    cells: &[crate::model::Cell],
    centres: &[(f64, f64)],
    shift: (f64, f64),
) -> Vec<Value> {
    cells
        .iter()
        .zip(centres)
        .map(|(c, (x, y))| {
            serde_json::json!({ "q": c.q, "r": c.r, "kind": c.kind.get_ref(),
                                "x": x + shift.0, "y": y + shift.1 })
        })
        .collect()
}

/// A hex board as one SVG body in millimetres and its size, drawn by its template (`board`
/// unless it names another) with `title` and the printed `labels` of `lang`.
pub fn board_svg(
    game: &Game,
    board: &Board,
    hex: &HexGrid,
    templates: &Templates,
    title: &str,
    lang: &str,
    labels: &BTreeMap<String, String>,
) -> Result<(String, (f64, f64)), super::BoardError> {
    let size = hex.hex_mm / 3f64.sqrt();
    let o = hex.orientation;
    let HexLayout {
        centres,
        shift: (dx, dy),
        size: (w, h),
    } = hex_layout(hex);
    let mut cells = String::new();
    for (cell, (cx, cy)) in hex.cells.iter().zip(&centres) {
        let (cx, cy) = (cx + dx, cy + dy);
        let kind = cell.kind.get_ref();
        let sym = game
            .symbol(kind)
            .ok_or_else(|| format!("board `{}`: no symbol `{kind}`", board.id.get_ref()))?;
        let path = hex_path(cx, cy, size, o);
        cells.push_str(&format!(
            r##"<path d="{path}" fill="{}" stroke="#1a1a1a" stroke-width="0.5"/>"##,
            sym.colour
        ));
        if let Some(piece) = cell.piece.as_deref().and_then(|p| game.piece(p)) {
            let value = piece
                .int("value")
                .map(|v| v.to_string())
                .or_else(|| piece.label.clone());
            cells.push_str(&marks::mark(
                sym,
                cx,
                cy - hex.hex_mm * 0.18,
                hex.hex_mm * 0.16,
            ));
            if let Some(v) = value {
                cells.push_str(&format!(
                    r##"<text x="{cx:.3}" y="{:.3}" font-size="{:.3}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" fill="{}">{}</text>"##,
                    cy + hex.hex_mm * 0.25,
                    hex.hex_mm * 0.3,
                    marks::ink_on(&sym.colour),
                    xml_escape(&v)
                ));
            }
        } else {
            cells.push_str(&marks::mark(sym, cx, cy, hex.hex_mm * 0.18));
        }
    }
    let mut ctx = base_context(game, w, h, 0.0, "board_");
    ctx.insert("cells", &cells);
    ctx.insert("hexes", &hex_labels(&hex.cells, &centres, (dx, dy)));
    ctx.insert(
        "board",
        &serde_json::json!({ "id": board.id.get_ref(), "name": board.name, "names": board.names,
                             "title": title,
                             "hex_mm": hex.hex_mm, "frame": FRAME,
                             "image": board.image.as_ref().map(|i| i.get_ref()) }),
    );
    ctx.insert("lang", lang);
    ctx.insert("labels", labels);
    let name = board.template.as_deref().unwrap_or("board");
    let (svg, overflows) = templates.render(name, &ctx)?;
    if let Some(o) = overflows.first() {
        return Err(format!("board `{}`: {o}", board.id.get_ref()).into());
    }
    Ok((svg, (w, h)))
}
