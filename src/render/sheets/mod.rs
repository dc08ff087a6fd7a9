//! Card sheets (fronts and mirrored backs, each card with its own bleed, crop marks or cut
//! lines) and token sheets.

//!
//! This folder holds the page geometry in millimetres: [`layout`] (paper, grids, bleed,
//! marks), the card and token sheets here, [`boards`] (boards drawn and tiled over pages) and
//! [`calibrate`] (the duplex test sheet) and [`fold`] (fold-over pages: fronts and backs
//! either side of a fold line).

pub mod boards;
pub mod calibrate;
pub mod fold;
pub mod layout;
pub mod mixed;
pub mod sides;
pub mod tuck_box;

use crate::render::faces::{DeckFaces, PieceFace};
use crate::render::formats::pdf::{PageSpec, Stamp};
use crate::render::sheets::layout::{Duplex, Grid, Marks, PRINTER_MARGIN, Paper, Rect};

/// Print settings shared by every sheet.
#[derive(Debug, Clone, Copy)]
pub struct Sheet {
    pub paper: Paper,
    pub duplex: Duplex,
    pub bleed: f64,
    pub back_offset: (f64, f64),
    pub marks: Marks,
    /// Decks share sheets: those of one card size a grid, and the last, part-empty sheets
    /// of every size are packed together ([`mixed`]).
    pub pack: bool,
    /// `bleed` was asked for (`--bleed`): keep it, with fewer cards a sheet if need be;
    /// else the bleed is reduced (to [`layout::MIN_BLEED`] at the least) to fit more cards.
    pub exact_bleed: bool,
}

impl Sheet {
    /// The grid cards of `size` are laid out in with these settings.
    pub fn grid(&self, size: (f64, f64)) -> Option<Grid> {
        if self.duplex == Duplex::Fold {
            fold::grid(self.paper, size, self.bleed, self.exact_bleed)
        } else if self.exact_bleed {
            Grid::exact(self.paper, size, self.bleed)
        } else {
            Grid::new(self.paper, size, self.bleed)
        }
    }

    /// What the build says about the sheets of cards of `size`: when an asked bleed leaves
    /// fewer cards a sheet than the densest grid ("3 mm bleed: 6 cards a sheet instead of
    /// 9"), else nothing.
    pub fn grid_note(&self, size: (f64, f64)) -> Option<String> {
        let got = self.grid(size)?;
        let densest = if self.duplex == Duplex::Fold {
            fold::grid(self.paper, size, self.bleed, false)?
        } else {
            Grid::new(self.paper, size, self.bleed)?
        };
        (got.per_page() < densest.per_page()).then(|| {
            format!(
                "{} mm bleed: {} cards a sheet instead of {} ({} x {} mm cards on {}; \
                 {} mm bleed fits {})",
                got.bleed,
                got.per_page(),
                densest.per_page(),
                size.0,
                size.1,
                self.paper.name(),
                densest.bleed,
                densest.per_page()
            )
        })
    }
}

/// One card of a sheet: which design of which deck, placed where, turned how far.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub deck: String,
    pub card: String,
    pub trim: Rect,
    /// Clockwise turn of the face within its trim, in degrees (180 for short-edge backs).
    pub turn: u16,
    /// The card's back is printed here (else its front).
    pub back: bool,
}

/// Where every face of a card PDF sits, page by page; the PDF is drawn from this and the
/// tests compare the PDF against it.
#[derive(Debug, Clone)]
pub struct CardPage {
    /// The decks on this sheet, in order.
    pub decks: Vec<String>,
    /// A page of backs (else of fronts, or, fold-over, of both: see [`Placed::back`]).
    pub back: bool,
    pub sheet: usize,
    pub sheets: usize,
    /// The cards' grid; on a mixed sheet ([`mixed`]) it has no cells (`cols` and `rows` 0)
    /// and gives the page's paper and bleed only.
    pub grid: Grid,
    pub placed: Vec<Placed>,
}

impl CardPage {
    /// The bleed rectangle of every card on the page.
    pub fn bleeds(&self) -> Vec<Rect> {
        self.placed
            .iter()
            .map(|p| layout::bleed_rect(p.trim, self.grid.bleed))
            .collect()
    }
}

/// Decks printed together: one deck, or (`--pack`) every deck of one card size, in the order
/// they first appear (each card's back is its own or its deck's, whichever template drew it).
fn sheet_groups(decks: &[DeckFaces], pack: bool) -> Vec<Vec<&DeckFaces>> {
    let mut groups: Vec<Vec<&DeckFaces>> = Vec::new();
    for deck in decks.iter().filter(|d| !d.cards.is_empty()) {
        let joins = groups.iter_mut().find(|g| pack && g[0].size == deck.size);
        match joins {
            Some(g) => g.push(deck),
            None => groups.push(vec![deck]),
        }
    }
    groups
}

/// Plans every page of `cards.pdf`: group by group, each sheet's fronts followed (duplex) by
/// its backs, or (one-sided) every front sheet, then every back sheet, or (fold-over) each
/// sheet's fronts and backs on one page. With `--pack`, the last, part-empty sheet of each
/// card size goes onto mixed sheets after the others ([`mixed`]) when that takes fewer
/// sheets.
pub fn plan_cards(decks: &[DeckFaces], sheet: &Sheet) -> Result<Vec<CardPage>, String> {
    let mut fronts = Vec::new();
    let mut backs = Vec::new();
    let mut leftovers: Vec<mixed::Leftover> = Vec::new();
    // Where each group's last sheet went among the pages, when it is part-empty.
    let mut last_sheets: Vec<usize> = Vec::new();
    for group in sheet_groups(decks, sheet.pack) {
        let first = group[0];
        let grid = sheet.grid(first.size).ok_or_else(|| {
            format!(
                "cards of deck `{}` ({} x {} mm) do not fit on {} with {} mm bleed",
                first.id,
                first.size.0,
                first.size.1,
                sheet.paper.name(),
                sheet.bleed.min(layout::MIN_BLEED)
            )
        })?;
        let copies: Vec<(&str, &str)> = group
            .iter()
            .flat_map(|d| {
                d.cards.iter().flat_map(|c| {
                    std::iter::repeat_n((d.id.as_str(), c.id.as_str()), c.count as usize)
                })
            })
            .collect();
        let names: Vec<String> = group.iter().map(|d| d.id.clone()).collect();
        let sheets = copies.len().div_ceil(grid.per_page());
        for (n, chunk) in copies.chunks(grid.per_page()).enumerate() {
            let page = |back: bool| CardPage {
                decks: names.clone(),
                back,
                sheet: n + 1,
                sheets,
                grid,
                placed: chunk
                    .iter()
                    .enumerate()
                    .map(|(i, (deck, card))| {
                        let (trim, turn) = if back {
                            grid.back_cell(i, sheet.duplex, sheet.back_offset)
                        } else {
                            grid.front_cell(i)
                        };
                        Placed {
                            deck: deck.to_string(),
                            card: card.to_string(),
                            trim,
                            turn,
                            back,
                        }
                    })
                    .collect(),
            };
            if chunk.len() < grid.per_page() {
                leftovers.push((first.size, chunk.to_vec()));
                last_sheets.push(fronts.len());
            }
            fronts.push(page(false));
            backs.push(page(true));
        }
    }
    if sheet.pack
        && leftovers.len() > 1
        && let Some(packed) = mixed::pack(&leftovers, sheet)
        && packed.sheets.len() < leftovers.len()
    {
        for &at in last_sheets.iter().rev() {
            fronts.remove(at);
            backs.remove(at);
            // The group's other sheets count one fewer.
            for pages in [&mut fronts, &mut backs] {
                for page in pages[..at].iter_mut().rev() {
                    if page.sheet >= page.sheets {
                        break;
                    }
                    page.sheets -= 1;
                }
            }
        }
        let count = packed.sheets.len();
        for (n, cards) in packed.sheets.iter().enumerate() {
            let mut names: Vec<String> = Vec::new();
            for (deck, ..) in cards {
                if !names.iter().any(|d| d == deck) {
                    names.push(deck.to_string());
                }
            }
            // The page's paper and bleed; a mixed page has no one grid of cards (no cells).
            let grid = Grid {
                paper: packed.paper,
                cols: 0,
                rows: 0,
                card: (cards[0].2.w, cards[0].2.h),
                bleed: packed.bleed,
                x0: cards[0].2.x,
                y0: cards[0].2.y,
                turned: false,
            };
            let page = |back: bool| CardPage {
                decks: names.clone(),
                back,
                sheet: n + 1,
                sheets: count,
                grid,
                placed: cards
                    .iter()
                    .map(|&(deck, card, front)| {
                        let (trim, turn) = if back {
                            mixed::back_of(front, packed.paper, sheet.duplex, sheet.back_offset)
                        } else {
                            (front, 0)
                        };
                        Placed {
                            deck: deck.to_string(),
                            card: card.to_string(),
                            trim,
                            turn,
                            back,
                        }
                    })
                    .collect(),
            };
            fronts.push(page(false));
            backs.push(page(true));
        }
    }
    if sheet.duplex == Duplex::Off {
        fronts.extend(backs);
        Ok(fronts)
    } else if sheet.duplex == Duplex::Fold {
        Ok(fronts
            .into_iter()
            .zip(backs)
            .map(|(mut f, b)| {
                f.placed.extend(b.placed);
                f
            })
            .collect())
    } else {
        Ok(fronts
            .into_iter()
            .zip(backs)
            .flat_map(|(f, b)| [f, b])
            .collect())
    }
}

/// A face with its trim at `trim` on the page, its art running `bleed` beyond every edge,
/// turned by `turn` degrees about its centre (sheets and one-card pages draw faces so); a
/// quarter turn stands the face across `trim`.
pub fn stamp(svg: &str, trim: Rect, bleed: f64, turn: u16) -> Stamp {
    let outer = trim.grow(bleed);
    let (w, h) = if turn % 180 == 90 {
        (outer.h, outer.w)
    } else {
        (outer.w, outer.h)
    };
    // Turned about its centre, the view covers `outer`.
    let (cx, cy) = (outer.x + outer.w / 2.0, outer.y + outer.h / 2.0);
    Stamp {
        art: svg.to_string(),
        view: Rect {
            x: -bleed,
            y: -bleed,
            w,
            h,
        },
        at: (cx - w / 2.0, cy - h / 2.0),
        turn,
    }
}

/// The cut lines of a page's cards: every distinct left/right and top/bottom edge.
pub fn cut_lines(placed: &[Placed]) -> (Vec<f64>, Vec<f64>) {
    let trims: Vec<Rect> = placed.iter().map(|p| p.trim).collect();
    let (xs, ys) = layout::cut_positions(&trims);
    (
        xs.into_iter().map(|p| p.0).collect(),
        ys.into_iter().map(|p| p.0).collect(),
    )
}

/// The smallest rectangle holding every one of `rects`.
pub fn bounds(rects: &[Rect]) -> Rect {
    let x = rects.iter().map(|r| r.x).fold(f64::MAX, f64::min);
    let y = rects.iter().map(|r| r.y).fold(f64::MAX, f64::min);
    let r = rects.iter().map(|r| r.right()).fold(f64::MIN, f64::max);
    let b = rects.iter().map(|r| r.bottom()).fold(f64::MIN, f64::max);
    Rect {
        x,
        y,
        w: r - x,
        h: b - y,
    }
}

/// What a one-sided back sheet tells the user: how it goes behind its fronts.
pub const GLUE_BACKS: &str =
    "Backs: glue behind the fronts of the same sheet, turned over its long edge (left to right).";

/// Draws one planned page; `decks` are the game's decks (the page names those it holds).
/// Marks and furniture are laid out in the grid's frame and turned with it onto the page.
pub fn draw_card_page(
    game_name: &str,
    decks: &[DeckFaces],
    page: &CardPage,
    marks: Marks,
    duplex: Duplex,
) -> PageSpec {
    let grid = page.grid;
    let bleed = grid.bleed;
    let trims: Vec<Rect> = page.placed.iter().map(|p| p.trim).collect();
    let block = bounds(&trims);
    let bleeds = block.grow(bleed);
    let paper = grid.paper;
    let deck_of = |id: &str| decks.iter().find(|d| d.id == id);
    let mut stamps = Vec::new();
    for p in &page.placed {
        let Some(deck) = deck_of(&p.deck) else {
            continue;
        };
        let card = deck.cards.iter().find(|c| c.id == p.card);
        let svg = if p.back {
            // The card's own back, else its deck's.
            card.map_or(deck.back.as_str(), |c| c.back_or(&deck.back))
        } else {
            card.map(|c| c.svg.as_str()).unwrap_or("")
        };
        stamps.push(stamp(svg, p.trim, bleed, p.turn));
    }
    // The same page in the frame.
    let framed: Vec<Placed> = page
        .placed
        .iter()
        .map(|p| Placed {
            trim: grid.to_frame(p.trim),
            ..p.clone()
        })
        .collect();
    let frame_trims: Vec<Rect> = framed.iter().map(|p| p.trim).collect();
    let frame_bleeds = bounds(&frame_trims).grow(bleed);
    let frame = grid.frame();
    let bands = mixed::bands(&framed);
    let mut body = String::new();
    if bands.len() > 1 {
        body.push_str(&mixed::cut_guides(frame, &bands, bleed, marks));
    } else {
        body.push_str(&layout::cut_guides(
            frame,
            &frame_trims,
            frame_bleeds,
            marks,
        ));
    }
    let fold = duplex == Duplex::Fold;
    if fold {
        body.push_str(&fold::fold_line(frame, frame_bleeds));
    }
    let side = match (fold, page.back) {
        (true, _) => "fronts | backs",
        (false, true) => "backs",
        (false, false) => "fronts",
    };
    let names: Vec<&str> = page
        .decks
        .iter()
        .filter_map(|id| deck_of(id).map(|d| d.name.as_str()))
        .collect();
    let sheet_of = match grid.per_page() {
        0 => "mixed sheet",
        _ => "sheet",
    };
    let label = format!(
        "{game_name} · {} · {sheet_of} {} of {} · {side}",
        names.join(" + "),
        page.sheet,
        page.sheets
    );
    let note = if fold {
        Some(fold::FOLD_NOTE)
    } else {
        (page.back && duplex == Duplex::Off).then_some(GLUE_BACKS)
    };
    if bands.len() > 1 {
        body.push_str(&mixed::furniture(frame, &bands, bleed, &label, note));
    } else {
        let columns = id_columns(&framed);
        body.push_str(&layout::furniture(
            frame,
            frame_bleeds,
            &label,
            note,
            &columns,
        ));
    }
    if let Some(t) = grid.frame_transform() {
        body = format!(r#"<g transform="{t}">{body}</g>"#);
    }
    PageSpec {
        stamps,
        trim: Some(block),
        bleed: Some(bleeds),
        ..PageSpec::new(paper, body)
    }
}

/// Card ids per column, top to bottom, with the column's span.
fn id_columns(placed: &[Placed]) -> Vec<(f64, f64, Vec<String>)> {
    // Each column's span and its ids with their places down the column.
    type Column = (f64, f64, Vec<(f64, String)>);
    let mut columns: Vec<Column> = Vec::new();
    for p in placed {
        let entry = (p.trim.y, p.card.clone());
        match columns.iter_mut().find(|c| (c.0 - p.trim.x).abs() < 1e-6) {
            Some(c) => c.2.push(entry),
            None => columns.push((p.trim.x, p.trim.right(), vec![entry])),
        }
    }
    columns.sort_by(|a, b| a.0.total_cmp(&b.0));
    columns
        .into_iter()
        .map(|(from, to, mut ids)| {
            ids.sort_by(|a, b| a.0.total_cmp(&b.0));
            (from, to, ids.into_iter().map(|(_, id)| id).collect())
        })
        .collect()
}

/// Gap between tokens' cut outlines on a token sheet, in millimetres: each token's bleed
/// fills half of it.
pub const TOKEN_GAP: f64 = 2.0 * crate::render::faces::PIECE_BLEED;

/// Where each copy of each piece goes on token sheets: `(page, piece index, x, y)` of the
/// piece's box. Each kind of piece starts a new row (the sheet reads as a list); rows of
/// the same round or pointy-hex piece nest like a honeycomb, every other row shifted by half
/// a step and tucked into the row above, [`TOKEN_GAP`] apart all round.
/// The room a piece has on a page of `tokens.pdf` ([`token_layout`]'s margins): a larger
/// piece would run off the paper, and `check` refuses it.
pub fn token_room(paper: Paper) -> (f64, f64) {
    let (pw, ph) = paper.mm();
    (pw - 2.0 * TOKEN_LEFT, ph - TOKEN_TOP - TOKEN_BOTTOM)
}

pub fn token_layout(pieces: &[PieceFace], paper: Paper) -> Vec<(usize, usize, f64, f64)> {
    let (pw, ph) = paper.mm();
    let right = pw - TOKEN_LEFT;
    let bottom = ph - TOKEN_BOTTOM;
    let mut out: Vec<(usize, usize, f64, f64)> = Vec::new();
    let (mut page, mut x, mut y) = (0, TOKEN_LEFT, TOKEN_TOP);
    let mut row: Option<TokenRow> = None;
    for (i, piece) in pieces.iter().enumerate() {
        let (w, h) = piece.size;
        let step = w + TOKEN_GAP;
        for _ in 0..piece.count {
            let same = row.is_some_and(|r| r.kind == piece.kind && r.size == piece.size);
            if !same || x + w > right + 1e-9 {
                let shifted = match row {
                    Some(r) if r.nests && piece.nests && r.size == piece.size => {
                        y += step * 3f64.sqrt() / 2.0;
                        !r.shifted
                    }
                    Some(r) => {
                        y += r.size.1 + TOKEN_GAP;
                        false
                    }
                    None => false,
                };
                // A row that does not fit starts the next page (unless the page is empty).
                let overflows = y + h > bottom + 1e-9;
                let page_used = out.last().is_some_and(|&(p, ..)| p == page);
                let shifted = shifted && !(overflows && page_used);
                if overflows && page_used {
                    page += 1;
                    y = TOKEN_TOP;
                }
                x = TOKEN_LEFT + if shifted { step / 2.0 } else { 0.0 };
                row = Some(TokenRow {
                    kind: &piece.kind,
                    size: piece.size,
                    nests: piece.nests,
                    shifted,
                });
            }
            out.push((page, i, x, y));
            x += step;
        }
    }
    out
}

/// The row of tokens being filled.
#[derive(Clone, Copy)]
struct TokenRow<'a> {
    kind: &'a str,
    size: (f64, f64),
    nests: bool,
    shifted: bool,
}

/// Left and right margin of a token sheet (the printer margin, the bleed and a little more).
const TOKEN_LEFT: f64 = PRINTER_MARGIN + 5.0;
/// Top margin of a token sheet (below the page label).
const TOKEN_TOP: f64 = PRINTER_MARGIN + 6.0;
/// Bottom margin of a token sheet (above the ruler).
const TOKEN_BOTTOM: f64 = PRINTER_MARGIN + layout::RULER_HEIGHT + 2.5;

/// Lays out pieces on token sheets ([`token_layout`]): each copy's art runs into its bleed,
/// and its cut outline is drawn over it.
pub fn token_pages(game_name: &str, pieces: &[PieceFace], paper: Paper) -> Vec<PageSpec> {
    let (pw, ph) = paper.mm();
    let placed = token_layout(pieces, paper);
    let mut pages: Vec<Vec<Stamp>> =
        vec![Vec::new(); placed.last().map_or(1, |(page, ..)| page + 1)];
    // Every copy of a piece is the same stamp; its art reaches the bleed outline, and the cut
    // outline's stroke half a line beyond the box's bleed.
    let reach = crate::render::faces::PIECE_BLEED + layout::MARK_WIDTH;
    for &(page, i, x, y) in &placed {
        let piece = &pieces[i];
        pages[page].push(Stamp {
            art: format!(
                r##"<clipPath id="t{i}"><path d="{b}"/></clipPath><g clip-path="url(#t{i})">{svg}</g><path d="{o}" fill="none" stroke="#000000" stroke-width="{w}"/>"##,
                b = piece.bleed_outline,
                o = piece.outline,
                svg = piece.svg,
                w = layout::MARK_WIDTH
            ),
            view: Rect {
                x: -reach,
                y: -reach,
                w: piece.size.0 + 2.0 * reach,
                h: piece.size.1 + 2.0 * reach,
            },
            at: (x - reach, y - reach),
            turn: 0,
        });
    }
    let count = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(i, stamps)| {
            let label = format!(
                "{game_name} · tokens · sheet {} of {count} · cut along the black outlines",
                i + 1
            );
            let mut body = layout::top_row((pw, ph), &label, None);
            body.push_str(&layout::bottom_row((pw, ph), None, None));
            PageSpec {
                stamps,
                ..PageSpec::new((pw, ph), body)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Pointy hexes `s` flat to flat, or circles of diameter `s` (box only; no drawing).
    fn piece(kind: &str, count: u32, s: f64, hex: bool) -> PieceFace {
        PieceFace {
            id: format!("{kind}-{count}"),
            name: kind.to_string(),
            kind: kind.to_string(),
            count,
            size: if hex {
                (s, s * 2.0 / 3f64.sqrt())
            } else {
                (s, s)
            },
            outline: String::new(),
            bleed_outline: String::new(),
            svg: String::new(),
            nests: true,
            template: String::new(),
            back: None,
            back_template: None,
        }
    }

    /// Gap between two placed pieces of the test set: circles by their centres, pointy
    /// hexes along their three edge normals, anything else by boxes.
    fn gap(a: (&PieceFace, f64, f64), b: (&PieceFace, f64, f64)) -> f64 {
        let centre = |(p, x, y): (&PieceFace, f64, f64)| (x + p.size.0 / 2.0, y + p.size.1 / 2.0);
        let ((ax, ay), (bx, by)) = (centre(a), centre(b));
        let (dx, dy) = (bx - ax, by - ay);
        let (pa, pb) = (a.0, b.0);
        let round = |p: &PieceFace| p.size.0 == p.size.1;
        if round(pa) && round(pb) {
            return (dx * dx + dy * dy).sqrt() - (pa.size.0 + pb.size.0) / 2.0;
        }
        if !round(pa) && !round(pb) && pa.size == pb.size {
            return [0f64, 60.0, 120.0]
                .iter()
                .map(|deg| {
                    let (s, c) = deg.to_radians().sin_cos();
                    (dx * c + dy * s).abs() - pa.size.0
                })
                .fold(f64::MIN, f64::max);
        }
        let gx = dx.abs() - (pa.size.0 + pb.size.0) / 2.0;
        let gy = dy.abs() - (pa.size.1 + pb.size.1) / 2.0;
        gx.max(gy)
    }

    #[test]
    fn hexes_and_circles_nest_apart_inside_the_page_and_kinds_start_rows() {
        // Aether's printed pieces: 4 x 23 element tiles, 14 aether tiles, 4 x 14 elementals.
        let mut pieces: Vec<PieceFace> = ["earth", "air", "water", "fire"]
            .iter()
            .map(|k| piece(k, 23, 28.0, true))
            .collect();
        pieces.extend((0..14).map(|_| piece("aether", 1, 28.0, true)));
        pieces.extend(
            ["y", "r", "b", "g"]
                .iter()
                .map(|k| piece(k, 14, 16.0, false)),
        );
        let placed = token_layout(&pieces, Paper::A4);
        let total: u32 = pieces.iter().map(|p| p.count).sum();
        assert_eq!(placed.len(), total as usize, "every copy placed once");
        assert_eq!(placed.last().unwrap().0 + 1, 3, "three sheets, not five");
        let (pw, ph) = Paper::A4.mm();
        for &(_, i, x, y) in &placed {
            let (w, h) = pieces[i].size;
            assert!(x >= TOKEN_LEFT - 1e-9 && x + w <= pw - TOKEN_LEFT + 1e-9);
            assert!(y >= TOKEN_TOP - 1e-9 && y + h <= ph - TOKEN_BOTTOM + 1e-9);
        }
        for (n, &(pa, ia, xa, ya)) in placed.iter().enumerate() {
            for &(pb, ib, xb, yb) in &placed[n + 1..] {
                if pa == pb {
                    let g = gap((&pieces[ia], xa, ya), (&pieces[ib], xb, yb));
                    assert!(g >= TOKEN_GAP - 1e-6, "{ia} and {ib} only {g:.2} mm apart");
                }
            }
        }
        for pair in placed.windows(2) {
            let ((pa, ia, _, ya), (pb, ib, _, yb)) = (pair[0], pair[1]);
            if pa == pb && pieces[ia].kind != pieces[ib].kind {
                assert!(yb > ya + 1.0, "a new kind starts a new row");
            }
        }
        // Honeycomb: the second row of hexes is shifted by half a step and tucked in.
        let row2 = placed.iter().find(|p| p.3 > TOKEN_TOP).unwrap();
        assert!((row2.2 - (TOKEN_LEFT + (28.0 + TOKEN_GAP) / 2.0)).abs() < 1e-9);
        assert!(row2.3 - TOKEN_TOP < 28.0 * 2.0 / 3f64.sqrt());
    }

    #[test]
    fn squares_do_not_nest_and_a_lone_tall_piece_gets_a_page() {
        let mut square = piece("statue", 3, 20.0, false);
        square.nests = false;
        let mut huge = piece("board", 1, 300.0, false);
        huge.nests = false;
        let placed = token_layout(&[square, huge], Paper::A4);
        assert_eq!(placed[0].2, placed[1].2 - 23.0, "side by side, 3 mm apart");
        assert_eq!(
            placed[3].0, 1,
            "the oversized piece goes alone on the next sheet"
        );
    }
}
