//! Two-sided pieces on token sheets: each sheet that holds one is followed by a back page
//! on which every two-sided copy's back lies behind its front, mirrored like a card sheet's
//! backs (left to right for long-edge duplex, top to bottom and turned 180° for short-edge,
//! shifted by the printer's measured offset). One-sided printing (`--duplex off`) puts the
//! back pages after every front, mirrored the same way, to be glued behind them; so does
//! `--duplex fold`, whose fold-over layout is for cards.

use crate::render::faces::{PIECE_BLEED, PieceFace};
use crate::render::formats::pdf::{PageSpec, Stamp};
use crate::render::sheets::layout::{self, Duplex, MARK_WIDTH, Rect};
use crate::render::sheets::{self, Sheet};

/// One copy of a two-sided piece: the front's place and the back's, on their pages.
#[derive(Debug, Clone, PartialEq)]
pub struct Sides {
    pub piece: String,
    /// Index of the front's page and of the back's in the PDF.
    pub pages: (usize, usize),
    /// The piece's box on the front page and on the back page, in millimetres.
    pub front: Rect,
    pub back: Rect,
    /// Turn of the back (degrees clockwise): 180 for short-edge duplex.
    pub turn: u16,
}

/// One two-sided copy on a sheet: the piece's index, its front's box, its back's box and turn.
type TwoSidedCopy = (usize, Rect, Rect, u16);

/// The pieces in the order the sheets hold them: one-sided first, then two-sided, so that
/// back pages cover as few sheets as can be.
fn ordered(pieces: &[PieceFace]) -> Vec<PieceFace> {
    let (two, one): (Vec<&PieceFace>, Vec<&PieceFace>) =
        pieces.iter().partition(|p| p.back.is_some());
    one.into_iter().chain(two).cloned().collect()
}

/// Where a piece box at `front` lies on the back page.
fn mirrored(front: Rect, paper: (f64, f64), sheet: &Sheet) -> (Rect, u16) {
    let (pw, ph) = paper;
    let (r, turn) = match sheet.duplex {
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
    (
        Rect {
            x: r.x + sheet.back_offset.0,
            y: r.y + sheet.back_offset.1,
            ..r
        },
        turn,
    )
}

/// The token sheets' pages: as [`sheets::token_pages`] when no piece has two sides; else
/// with the back pages placed as `sheet.duplex` asks, and where every copy's sides lie.
pub fn token_pages(
    game_name: &str,
    pieces: &[PieceFace],
    sheet: &Sheet,
) -> (Vec<PageSpec>, Vec<Sides>) {
    let paper = sheet.paper;
    if pieces.iter().all(|p| p.back.is_none()) {
        return (sheets::token_pages(game_name, pieces, paper), Vec::new());
    }
    let pieces = ordered(pieces);
    let fronts = sheets::token_pages(game_name, &pieces, paper);
    let placed = sheets::token_layout(&pieces, paper);
    let (pw, ph) = paper.mm();
    let reach = PIECE_BLEED + MARK_WIDTH;
    let count = fronts.len();
    // Each front page's back page, when it has two-sided copies (or duplex needs one).
    let mut backs: Vec<Option<(Vec<Stamp>, Vec<TwoSidedCopy>)>> = vec![None; count];
    for &(page, i, x, y) in &placed {
        let piece = &pieces[i];
        let Some(art) = &piece.back else {
            continue;
        };
        let front = Rect {
            x,
            y,
            w: piece.size.0,
            h: piece.size.1,
        };
        let (back, turn) = mirrored(front, (pw, ph), sheet);
        let entry = backs[page].get_or_insert_with(Default::default);
        entry.0.push(Stamp {
            art: format!(
                r#"<clipPath id="b{i}"><path d="{b}"/></clipPath><g clip-path="url(#b{i})">{art}</g>"#,
                b = piece.bleed_outline,
            ),
            view: Rect {
                x: -reach,
                y: -reach,
                w: piece.size.0 + 2.0 * reach,
                h: piece.size.1 + 2.0 * reach,
            },
            at: (back.x - reach, back.y - reach),
            turn,
        });
        entry.1.push((i, front, back, turn));
    }
    // Fold-over card sheets leave token backs to be glued, as one-sided printing does.
    let duplex = !matches!(sheet.duplex, Duplex::Off | Duplex::Fold);
    let back_page = |n: usize, stamps: Vec<Stamp>| {
        let side = if stamps.is_empty() {
            "no backs on this sheet"
        } else {
            "backs"
        };
        let label = format!("{game_name} · tokens · sheet {} of {count} · {side}", n + 1);
        let body = layout::top_row((pw, ph), &label, None);
        PageSpec {
            stamps,
            ..PageSpec::new((pw, ph), body)
        }
    };
    let mut pages = Vec::new();
    let mut later = Vec::new();
    // Where each back page goes: its index among the pages (duplex) or among the back pages
    // printed after every front (one-sided).
    let mut back_at: Vec<(usize, Result<usize, usize>, Vec<TwoSidedCopy>)> = Vec::new();
    for (n, (front, back)) in fronts.into_iter().zip(backs).enumerate() {
        pages.push(front);
        let front_index = pages.len() - 1;
        match back {
            Some((stamps, copies)) if duplex => {
                pages.push(back_page(n, stamps));
                back_at.push((front_index, Ok(pages.len() - 1), copies));
            }
            Some((stamps, copies)) => {
                later.push(back_page(n, stamps));
                back_at.push((front_index, Err(later.len() - 1), copies));
            }
            None if duplex => pages.push(back_page(n, Vec::new())),
            None => {}
        }
    }
    let fronts_end = pages.len();
    pages.extend(later);
    let mut sides = Vec::new();
    for (front_page, back_page, copies) in back_at {
        let back_page = back_page.unwrap_or_else(|k| fronts_end + k);
        for (i, front, back, turn) in copies {
            sides.push(Sides {
                piece: pieces[i].id.clone(),
                pages: (front_page, back_page),
                front,
                back,
                turn,
            });
        }
    }
    (pages, sides)
}
