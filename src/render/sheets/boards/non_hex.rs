//! Boards that are not hex grids: square grids, the designer's own art, and single sheets
//! drawn by a template (player mats). Each is drawn as one SVG body in millimetres, which
//! [`super::pages`] prints on one page or tiles with glue flaps and alignment marks, and the
//! Tabletop Simulator export turns into a custom board.

use serde_json::json;

use crate::model::{Board, BoardKind, Game, SheetSize, SquareGrid};
use crate::render::faces::images::{self, Fit};
use crate::render::faces::marks;
use crate::render::faces::template::{Placement, Templates, base_context};
use crate::render::sheets::layout::{PRINTER_MARGIN, Paper};
use crate::render::xml_escape;

/// Margin around a square grid, room for the title (as around a hex board).
pub const FRAME: f64 = 12.0;

/// Margin the board pages keep inside the paper (the printer's, and the page's labels).
pub const PAGE_MARGIN: f64 = PRINTER_MARGIN + 7.0;

/// The template a board is drawn with: its own, else the built-in `board`; none for the
/// designer's art without a template (the art is the board).
pub fn template_of(board: &Board) -> Option<String> {
    match (&board.kind, &board.template) {
        (_, Some(t)) => Some(t.clone()),
        (BoardKind::Image { .. }, None) => None,
        _ => Some("board".to_string()),
    }
}

/// The paper of a single-sheet board.
pub fn sheet_paper(size: SheetSize) -> Paper {
    match size {
        SheetSize::A4 => Paper::A4,
        SheetSize::Letter => Paper::Letter,
        SheetSize::A3 => Paper::A3,
    }
}

/// The board's size in millimetres, when it is not a hex grid.
pub fn size_of(board: &Board) -> Option<(f64, f64)> {
    match &board.kind {
        BoardKind::Hex(_) => None,
        BoardKind::Square(g) => Some((
            f64::from(g.columns) * g.mm + 2.0 * FRAME,
            f64::from(g.rows) * g.mm + 2.0 * FRAME,
        )),
        BoardKind::Image {
            width_mm,
            height_mm,
        } => Some((*width_mm, *height_mm)),
        BoardKind::Sheet { size } => {
            let (w, h) = size.mm();
            Some((w - 2.0 * PAGE_MARGIN, h - 2.0 * PAGE_MARGIN))
        }
    }
}

/// The art an image board prints, at its print resolution (for the 200 dpi warning).
pub fn placements(game: &Game, board: &Board) -> Vec<Placement> {
    let (BoardKind::Image { .. }, Some(src), Some((w, h))) =
        (&board.kind, &board.image, size_of(board))
    else {
        return Vec::new();
    };
    match images::load(&game.dir, src.get_ref()) {
        Ok(art) => vec![Placement {
            src: src.get_ref().clone(),
            dpi: images::print_dpi(&art, Fit::Cover, w, h),
        }],
        Err(_) => Vec::new(),
    }
}

/// A board that is not a hex grid as one SVG body and its size, its words in `lang`.
pub fn board_svg_in(
    game: &Game,
    board: &Board,
    templates: &Templates,
    title: &str,
    lang: &str,
    labels: &std::collections::BTreeMap<String, String>,
) -> Result<(String, (f64, f64)), super::BoardError> {
    let id = board.id.get_ref();
    let (w, h) = size_of(board).ok_or_else(|| format!("board `{id}` is a hex grid"))?;
    if !(w > 0.0 && h > 0.0 && w.is_finite() && h.is_finite()) {
        return Err(format!("board `{id}` has no size to draw").into());
    }
    let (cells, squares) = match &board.kind {
        BoardKind::Square(grid) => square_cells(game, board, grid)?,
        _ => (String::new(), Vec::new()),
    };
    let Some(name) = template_of(board) else {
        // The designer's art is the board.
        let src = board.image.as_ref().map(|s| s.get_ref().as_str());
        let art = images::load(&game.dir, src.unwrap_or_default())
            .map_err(|e| format!("board `{id}`: image {e}"))?;
        let aspect = images::aspect(Fit::Cover, "center").unwrap_or_default();
        return Ok((images::element(&art, 0.0, 0.0, w, h, &aspect), (w, h)));
    };
    let mut ctx = base_context(game, w, h, 0.0, "board_");
    ctx.insert("cells", &cells);
    ctx.insert("squares", &squares);
    ctx.insert("hexes", &Vec::<serde_json::Value>::new());
    // The margin a template keeps for the title (the square grid starts inside it).
    let frame = FRAME;
    ctx.insert(
        "board",
        &json!({ "id": id, "name": board.name, "names": board.names, "title": title,
                 "kind": board.kind_name(), "frame": frame,
                 "image": board.image.as_ref().map(|i| i.get_ref()) }),
    );
    ctx.insert("lang", lang);
    ctx.insert("labels", labels);
    let (svg, overflows) = templates.render(&name, &ctx)?;
    if let Some(o) = overflows.first() {
        return Err(format!("board `{id}`: {o}").into());
    }
    Ok((svg, (w, h)))
}

/// A square grid's cells drawn (grounds in their symbol's colour with its mark, labels,
/// every cell outlined), and each cell's row, column, ground, label and centre for a
/// template.
fn square_cells(
    game: &Game,
    board: &Board,
    grid: &SquareGrid,
) -> Result<(String, Vec<serde_json::Value>), String> {
    let id = board.id.get_ref();
    if grid.rows == 0 || grid.columns == 0 || !(grid.mm > 0.0 && grid.mm.is_finite()) {
        return Err(format!(
            "board `{id}` has no cells: give it at least one row and one column of cells more than 0 mm wide"
        ));
    }
    let s = grid.mm;
    let mut out = String::new();
    let mut squares = Vec::new();
    for row in 1..=grid.rows {
        for column in 1..=grid.columns {
            let own = grid.at.iter().find(|c| c.row == row && c.column == column);
            let ground = own
                .and_then(|c| c.ground.as_ref())
                .or(grid.ground.as_ref())
                .map(|g| g.get_ref().as_str());
            let label = own.and_then(|c| c.label.as_deref());
            let (x, y) = (
                FRAME + f64::from(column - 1) * s,
                FRAME + f64::from(row - 1) * s,
            );
            let (cx, cy) = (x + s / 2.0, y + s / 2.0);
            let symbol = match ground {
                Some(g) => Some(
                    game.symbol(g)
                        .ok_or_else(|| format!("board `{id}`: no symbol `{g}`"))?,
                ),
                None => None,
            };
            let fill = symbol.map_or("none", |sym| sym.colour.as_str());
            out.push_str(&format!(
                r##"<rect x="{x:.3}" y="{y:.3}" width="{s:.3}" height="{s:.3}" fill="{fill}" stroke="#1a1a1a" stroke-width="0.4"/>"##
            ));
            if let Some(sym) = symbol {
                let (my, r) = if label.is_some() {
                    (cy - s * 0.12, s * 0.14)
                } else {
                    (cy, s * 0.18)
                };
                out.push_str(&marks::mark(sym, cx, my, r));
            }
            if let Some(text) = label {
                let ink = symbol.map_or("#1a1a1a", |sym| marks::ink_on(&sym.colour));
                out.push_str(&format!(
                    r##"<text x="{cx:.3}" y="{:.3}" font-size="{:.3}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" fill="{ink}">{}</text>"##,
                    cy + s * (if symbol.is_some() { 0.28 } else { 0.06 }),
                    (s * 0.16).min(6.0),
                    xml_escape(text)
                ));
            }
            squares.push(json!({ "row": row, "column": column, "ground": ground,
                                 "label": label, "x": cx, "y": cy, "mm": s }));
        }
    }
    Ok((out, squares))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(toml_text: &str) -> Result<Board, String> {
        toml::from_str::<Board>(toml_text).map_err(|e| e.to_string())
    }

    #[test]
    fn each_kind_is_told_by_its_keys_with_an_error_naming_what_is_missing() {
        let square = board(
            "id = \"m\"\nname = \"M\"\ngrid = \"square\"\ncells = { rows = 2, columns = 3, mm = 20 }",
        )
        .unwrap();
        assert_eq!(
            size_of(&square),
            Some((60.0 + 2.0 * FRAME, 40.0 + 2.0 * FRAME))
        );
        let art = board(
            "id = \"a\"\nname = \"A\"\nimage = \"art/b.png\"\nwidth_mm = 400\nheight_mm = 300",
        )
        .unwrap();
        assert_eq!(size_of(&art), Some((400.0, 300.0)));
        assert_eq!(template_of(&art), None);
        let mat = board("id = \"p\"\nname = \"P\"\nsize = \"a4\"\ntemplate = \"mat\"").unwrap();
        let (w, h) = size_of(&mat).unwrap();
        assert!(w + 2.0 * PAGE_MARGIN <= 210.0 + 1e-9 && h + 2.0 * PAGE_MARGIN <= 297.0 + 1e-9);
        let e = board("id = \"x\"\nname = \"X\"\nimage = \"art/b.png\"").unwrap_err();
        assert!(e.contains("`width_mm`"), "{e}");
        let e = board("id = \"x\"\nname = \"X\"\ngrid = \"square\"").unwrap_err();
        assert!(e.contains("cells = { rows"), "{e}");
        let e = board("id = \"x\"\nname = \"X\"\nhex_mm = 30").unwrap_err();
        assert!(
            e.contains("`orientation`") && !e.contains("missing field"),
            "{e}"
        );
        let e = board("id = \"x\"\nname = \"X\"").unwrap_err();
        assert!(
            e.contains("square grid") && e.contains("single sheet"),
            "{e}"
        );
    }
}
