//! Card sheets (fronts and mirrored backs with bleed and crop marks) and token sheets.

use super::faces::{DeckFaces, PieceFace};
use super::layout::{self, Duplex, Grid, PRINTER_MARGIN, Paper, Rect};
use super::pdf::{PageSpec, svg_page};

/// Print settings shared by every sheet.
#[derive(Debug, Clone, Copy)]
pub struct Sheet {
    pub paper: Paper,
    pub duplex: Duplex,
    pub bleed: f64,
    pub back_offset: (f64, f64),
}

/// One card of a sheet: which design, placed where.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub card: String,
    pub trim: Rect,
}

/// Where every face of a card PDF sits, page by page; the PDF is drawn from this and the
/// tests compare the PDF against it.
#[derive(Debug, Clone)]
pub struct CardPage {
    pub deck: String,
    pub back: bool,
    pub sheet: usize,
    pub sheets: usize,
    pub grid: Grid,
    pub placed: Vec<Placed>,
}

/// Plans every page of `cards.pdf`: deck by deck, each sheet's fronts followed (duplex) by
/// its backs, or (one-sided) every front sheet of every deck, then every back sheet.
pub fn plan_cards(decks: &[DeckFaces], sheet: &Sheet) -> Result<Vec<CardPage>, String> {
    let mut all_fronts = Vec::new();
    let mut all_backs = Vec::new();
    let mut interleaved = Vec::new();
    for deck in decks {
        let grid = Grid::new(sheet.paper, deck.size, sheet.bleed).ok_or_else(|| {
            format!(
                "cards of deck `{}` ({} x {} mm) do not fit on {} with {} mm bleed",
                deck.id,
                deck.size.0,
                deck.size.1,
                sheet.paper.name(),
                sheet.bleed
            )
        })?;
        let copies: Vec<&str> = deck
            .cards
            .iter()
            .flat_map(|c| std::iter::repeat_n(c.id.as_str(), c.count as usize))
            .collect();
        let sheets = copies.len().div_ceil(grid.per_page());
        let mut fronts = Vec::new();
        let mut backs = Vec::new();
        for (n, chunk) in copies.chunks(grid.per_page()).enumerate() {
            let page = |back: bool| CardPage {
                deck: deck.id.clone(),
                back,
                sheet: n + 1,
                sheets,
                grid,
                placed: chunk
                    .iter()
                    .enumerate()
                    .map(|(i, id)| Placed {
                        card: id.to_string(),
                        trim: if back {
                            grid.back_cell(i, sheet.duplex, sheet.back_offset)
                        } else {
                            grid.front_cell(i)
                        },
                    })
                    .collect(),
            };
            fronts.push(page(false));
            backs.push(page(true));
        }
        for (f, b) in fronts.iter().zip(&backs) {
            interleaved.push(f.clone());
            interleaved.push(b.clone());
        }
        all_fronts.extend(fronts);
        all_backs.extend(backs);
    }
    if sheet.duplex == Duplex::Off {
        all_fronts.extend(all_backs);
        Ok(all_fronts)
    } else {
        Ok(interleaved)
    }
}

/// A face placed with its trim at `trim`, the art running into the bleed on the sides that
/// face the outside of the block (inner sides are shared cut lines).
fn place(svg: &str, trim: Rect, block: Rect, bleed: f64) -> String {
    let near = |a: f64, b: f64| (a - b).abs() < 1e-6;
    let l = if near(trim.x, block.x) { bleed } else { 0.0 };
    let t = if near(trim.y, block.y) { bleed } else { 0.0 };
    let r = if near(trim.right(), block.right()) {
        bleed
    } else {
        0.0
    };
    let b = if near(trim.bottom(), block.bottom()) {
        bleed
    } else {
        0.0
    };
    let (w, h) = (trim.w + l + r, trim.h + t + b);
    format!(
        r#"<svg x="{x:.4}" y="{y:.4}" width="{w:.4}" height="{h:.4}" viewBox="{vx:.4} {vy:.4} {w:.4} {h:.4}" overflow="hidden">{svg}</svg>"#,
        x = trim.x - l,
        y = trim.y - t,
        vx = -l,
        vy = -t
    )
}

/// The cut lines of a page's cards: every distinct left/right and top/bottom edge.
pub fn cut_lines(placed: &[Placed]) -> (Vec<f64>, Vec<f64>) {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for p in placed {
        for x in [p.trim.x, p.trim.right()] {
            if !xs.iter().any(|v: &f64| (v - x).abs() < 1e-6) {
                xs.push(x);
            }
        }
        for y in [p.trim.y, p.trim.bottom()] {
            if !ys.iter().any(|v: &f64| (v - y).abs() < 1e-6) {
                ys.push(y);
            }
        }
    }
    xs.sort_by(f64::total_cmp);
    ys.sort_by(f64::total_cmp);
    (xs, ys)
}

fn bounds(placed: &[Placed]) -> Rect {
    let x = placed.iter().map(|p| p.trim.x).fold(f64::MAX, f64::min);
    let y = placed.iter().map(|p| p.trim.y).fold(f64::MAX, f64::min);
    let r = placed
        .iter()
        .map(|p| p.trim.right())
        .fold(f64::MIN, f64::max);
    let b = placed
        .iter()
        .map(|p| p.trim.bottom())
        .fold(f64::MIN, f64::max);
    Rect {
        x,
        y,
        w: r - x,
        h: b - y,
    }
}

/// Draws one planned page.
pub fn draw_card_page(game_name: &str, deck: &DeckFaces, page: &CardPage, bleed: f64) -> PageSpec {
    let block = bounds(&page.placed);
    let mut body = String::new();
    let paper = page.grid.paper;
    for p in &page.placed {
        let svg = if page.back {
            deck.back.as_str()
        } else {
            deck.cards
                .iter()
                .find(|c| c.id == p.card)
                .map(|c| c.svg.as_str())
                .unwrap_or("")
        };
        body.push_str(&place(svg, p.trim, block, bleed));
    }
    let (xs, ys) = cut_lines(&page.placed);
    body.push_str(&layout::crop_marks(paper, block, bleed, &xs, &ys));
    let side = if page.back { "backs" } else { "fronts" };
    let label = format!(
        "{game_name} · {} · sheet {} of {} · {side}",
        deck.name, page.sheet, page.sheets
    );
    let bands = layout::Bands::choose(paper, block);
    let lines = id_lines(&page.placed, bands.horizontal);
    body.push_str(&layout::furniture(paper, block, bleed, &label, &lines));
    PageSpec {
        svg: svg_page(paper, &body),
        size_mm: paper,
        trim: Some(block),
        bleed: Some(block.grow(bleed)),
    }
}

/// A column (or row) of cards: its span and the ids with their position along it.
type IdLine = (f64, f64, Vec<(f64, String)>);

/// Card ids per column (or per row), in reading order, for the furniture band.
fn id_lines(placed: &[Placed], by_column: bool) -> Vec<(f64, f64, String)> {
    let mut lines: Vec<IdLine> = Vec::new();
    for p in placed {
        let (from, to, along) = if by_column {
            (p.trim.x, p.trim.right(), p.trim.y)
        } else {
            (p.trim.y, p.trim.bottom(), p.trim.x)
        };
        match lines.iter_mut().find(|l| (l.0 - from).abs() < 1e-6) {
            Some(l) => l.2.push((along, p.card.clone())),
            None => lines.push((from, to, vec![(along, p.card.clone())])),
        }
    }
    lines
        .into_iter()
        .map(|(from, to, mut ids)| {
            ids.sort_by(|a, b| a.0.total_cmp(&b.0));
            let arrow = if by_column { "↓" } else { "→" };
            let list: Vec<String> = ids.into_iter().map(|(_, id)| id).collect();
            (from, to, format!("{arrow} {}", list.join(" · ")))
        })
        .collect()
}

/// Lays out pieces on token sheets, row by row, each copy with its cut outline.
pub fn token_pages(game_name: &str, pieces: &[PieceFace], paper: Paper) -> Vec<PageSpec> {
    const GAP: f64 = 3.0;
    let (pw, ph) = paper.mm();
    let left = PRINTER_MARGIN + 7.0;
    let top = PRINTER_MARGIN + 8.0;
    let right = pw - left;
    let bottom = ph - PRINTER_MARGIN - 9.0;
    let mut pages: Vec<Vec<String>> = vec![Vec::new()];
    let (mut x, mut y, mut row_h) = (left, top, 0.0f64);
    let mut n = 0usize;
    for piece in pieces {
        for _ in 0..piece.count {
            let (w, h) = piece.size;
            if x + w > right {
                x = left;
                y += row_h + GAP;
                row_h = 0.0;
            }
            if y + h > bottom {
                pages.push(Vec::new());
                x = left;
                y = top;
                row_h = 0.0;
            }
            n += 1;
            pages.last_mut().expect("one page at least").push(format!(
                r##"<g transform="translate({x:.3} {y:.3})"><clipPath id="t{n}"><path d="{o}"/></clipPath><g clip-path="url(#t{n})">{svg}</g><path d="{o}" fill="none" stroke="#000000" stroke-width="0.2"/></g>"##,
                o = piece.outline,
                svg = piece.svg
            ));
            x += w + GAP;
            row_h = row_h.max(h);
        }
        // Each kind of piece starts a new row, so the sheet reads as a list.
        x = left;
        y += row_h + GAP;
        row_h = 0.0;
    }
    let count = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(i, items)| {
            let label = format!("{game_name} · tokens · sheet {} of {count}", i + 1);
            let mut body = items.concat();
            body.push_str(&layout::label(
                left,
                PRINTER_MARGIN + 3.0,
                2.4,
                "start",
                &label,
            ));
            body.push_str(&layout::label(
                left,
                PRINTER_MARGIN + 6.0,
                1.8,
                "start",
                "Cut along the black outlines.",
            ));
            let ry = ph - PRINTER_MARGIN - 6.0;
            body.push_str(&layout::ruler(right - 50.0, ry));
            body.push_str(&layout::label(
                left,
                ry + 2.0,
                1.8,
                "start",
                layout::ACTUAL_SIZE,
            ));
            PageSpec {
                svg: svg_page((pw, ph), &body),
                size_mm: (pw, ph),
                trim: None,
                bleed: None,
            }
        })
        .collect()
}

/// A face alone at its trim size, as a complete SVG document (for PNG export and for
/// diagrams in other outputs).
pub fn single_face(svg: &str, size: (f64, f64)) -> String {
    let (w, h) = size;
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">{svg}</svg>"#
    )
}
