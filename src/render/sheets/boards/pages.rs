//! A drawn board on paper: one page when it fits (or on a large sheet), else tiles with
//! overlapping glue flaps and alignment marks; `board.pdf` (or one per language).

use std::path::PathBuf;

use super::{PageWords, board_file, board_svg_in, board_title, fill_holes, first_language};
use crate::model::Game;
use crate::render::GameBuild;
use crate::render::faces::template::Templates;
use crate::render::formats::pdf::{PageSpec, write_pdf_keeping};
use crate::render::sheets::layout::{self, PRINTER_MARGIN, Paper, Rect};

/// Width of the strip two neighbouring tiles share.
const OVERLAP: f64 = 12.0;

/// Pages of a board: one page when it fits (or on `big` paper), else tiles with overlaps.
pub fn board_pages(
    game_name: &str,
    board_name: &str,
    svg: &str,
    size: (f64, f64),
    paper: (Paper, Option<Paper>),
    words: &PageWords,
) -> Vec<PageSpec> {
    let (paper, big) = paper;
    let margin = PRINTER_MARGIN + 7.0;
    let paper_to_use = big.unwrap_or(paper);
    for (pw, ph) in orientations(paper_to_use) {
        if size.0 <= pw - 2.0 * margin && size.1 <= ph - 2.0 * margin {
            let (x, y) = ((pw - size.0) / 2.0, (ph - size.1) / 2.0);
            let mut body = format!(r#"<g transform="translate({x:.3} {y:.3})">{svg}</g>"#);
            body.push_str(&furniture(
                (pw, ph),
                &format!("{game_name} · {board_name} · {}", words.one_page),
                words,
            ));
            return vec![PageSpec::new((pw, ph), body)];
        }
    }
    // Tile: pick the orientation that needs fewer pages.
    let best = orientations(paper_to_use)
        .into_iter()
        .min_by_key(|&(pw, ph)| {
            let (c, r) = tiles(size, (pw - 2.0 * margin, ph - 2.0 * margin));
            c * r
        })
        .expect("two orientations");
    let (pw, ph) = best;
    let area = (pw - 2.0 * margin, ph - 2.0 * margin);
    let (cols, rows) = tiles(size, area);
    let step = (area.0 - OVERLAP, area.1 - OVERLAP);
    let mut pages = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let ox = c as f64 * step.0;
            let oy = r as f64 * step.1;
            let win = Rect {
                x: ox,
                y: oy,
                w: area.0.min(size.0 - ox),
                h: area.1.min(size.1 - oy),
            };
            pages.push(tile_page(
                (pw, ph),
                margin,
                svg,
                win,
                (c, r),
                (cols, rows),
                &format!("{game_name} · {board_name}"),
                words,
            ));
        }
    }
    pages
}

fn orientations(p: Paper) -> [(f64, f64); 2] {
    let (w, h) = p.mm();
    [(w, h), (h, w)]
}

fn tiles(size: (f64, f64), area: (f64, f64)) -> (usize, usize) {
    let n = |len: f64, a: f64| {
        if len <= a {
            1
        } else {
            ((len - OVERLAP) / (a - OVERLAP)).ceil() as usize
        }
    };
    (n(size.0, area.0), n(size.1, area.1))
}

fn tile_name(c: usize, r: usize) -> String {
    format!("{}{}", (b'A' + (r as u8 % 26)) as char, c + 1)
}

#[allow(clippy::too_many_arguments)]
fn tile_page(
    paper: (f64, f64),
    margin: f64,
    svg: &str,
    win: Rect,
    at: (usize, usize),
    of: (usize, usize),
    title: &str,
    words: &PageWords,
) -> PageSpec {
    let (c, r) = at;
    let (x0, y0) = (margin, margin);
    let flaps = glue_flaps(win, of, at);
    // The art stops at the glue flaps: the next tile, glued over them, carries the same art,
    // and a flap's own words stay clear of its label.
    let art_w = win.w
        - if flaps.iter().any(|f| f.vertical) {
            OVERLAP
        } else {
            0.0
        };
    let art_h = win.h
        - if flaps.iter().any(|f| !f.vertical) {
            OVERLAP
        } else {
            0.0
        };
    let art = Rect {
        w: art_w,
        h: art_h,
        ..win
    };
    // Words wholly outside the window are left out: clipped, they would still be in the
    // page's text, under its furniture.
    let art_words = text_boxes(svg);
    let svg = without_words_outside(svg, &art_words, art);
    let mut body = format!(
        r#"<svg x="{x0:.3}" y="{y0:.3}" width="{w:.3}" height="{h:.3}" viewBox="{vx:.3} {vy:.3} {w:.3} {h:.3}" overflow="hidden">{svg}</svg>"#,
        w = art_w,
        h = art_h,
        vx = win.x,
        vy = win.y
    );
    // Glue flaps: this tile's right and bottom strips lie under the next tiles. They are
    // grey, and every alignment mark lies in them, never on the playing area.
    for flap in flaps {
        let page = Rect {
            x: x0 + flap.rect.x - win.x,
            y: y0 + flap.rect.y - win.y,
            ..flap.rect
        };
        let text = fill_holes(&words.glue_flap, &[tile_name(flap.under.0, flap.under.1)]);
        // Words of the art that run into the flap from the window, on the page.
        let clear: Vec<Rect> = art_words
            .iter()
            .map(|(_, r)| Rect {
                x: x0 + r.x - win.x,
                y: y0 + r.y - win.y,
                ..*r
            })
            .filter(|r| r.overlaps(page, 0.0) && r.overlaps(art_on_page(art, win, (x0, y0)), 0.0))
            .collect();
        body.push_str(&flap_svg(page, flap.vertical, &text, &clear));
    }
    body.push_str(&format!(
        r##"<rect x="{x0:.3}" y="{y0:.3}" width="{:.3}" height="{:.3}" fill="none" stroke="#000000" stroke-width="0.2"/>"##,
        win.w, win.h
    ));
    let tile = fill_holes(
        &words.tile,
        &[
            tile_name(c, r),
            (r + 1).to_string(),
            (c + 1).to_string(),
            of.1.to_string(),
            of.0.to_string(),
        ],
    );
    body.push_str(&furniture(paper, &format!("{title} · {tile}"), words));
    PageSpec::new(paper, body)
}

/// A strip of a tile that the next tile is glued over.
#[derive(Debug, Clone, Copy)]
pub struct Flap {
    /// In board coordinates.
    pub rect: Rect,
    /// True for the strip along the right edge (the next tile's left edge lies on its inner
    /// edge), false for the bottom one.
    pub vertical: bool,
    /// The tile glued over it (column, row).
    pub under: (usize, usize),
}

/// The glue flaps of tile `at` whose window on the board is `win`.
pub fn glue_flaps(win: Rect, of: (usize, usize), at: (usize, usize)) -> Vec<Flap> {
    let (c, r) = at;
    let mut out = Vec::new();
    if c + 1 < of.0 {
        out.push(Flap {
            rect: Rect {
                x: win.right() - OVERLAP,
                w: OVERLAP,
                ..win
            },
            vertical: true,
            under: (c + 1, r),
        });
    }
    if r + 1 < of.1 {
        out.push(Flap {
            rect: Rect {
                y: win.bottom() - OVERLAP,
                h: OVERLAP,
                ..win
            },
            vertical: false,
            under: (c, r + 1),
        });
    }
    out
}

/// Alignment marks of a flap (page coordinates): the line the next tile's edge goes on (the
/// flap's inner edge, drawn a mark's width inside the flap) and arrows pointing at it.
pub fn flap_marks(flap: Rect, vertical: bool) -> Vec<((f64, f64), (f64, f64))> {
    let inset = 0.3;
    let mut segs = Vec::new();
    if vertical {
        let x = flap.x + inset;
        segs.push(((x, flap.y), (x, flap.bottom())));
        for f in [0.25, 0.75] {
            let y = flap.y + flap.h * f;
            segs.push(((x + 1.0, y), (x + 5.0, y)));
            segs.push(((x + 1.0, y), (x + 3.0, y - 1.5)));
            segs.push(((x + 1.0, y), (x + 3.0, y + 1.5)));
        }
    } else {
        let y = flap.y + inset;
        segs.push(((flap.x, y), (flap.right(), y)));
        for f in [0.25, 0.75] {
            let x = flap.x + flap.w * f;
            segs.push(((x, y + 1.0), (x, y + 5.0)));
            segs.push(((x, y + 1.0), (x - 1.5, y + 3.0)));
            segs.push(((x, y + 1.0), (x + 1.5, y + 3.0)));
        }
    }
    segs
}

/// A flap drawn on the page: a grey strip, its alignment marks and `text`, what to glue
/// there, along the strip beside the marks ([`flap_label`]).
fn flap_svg(flap: Rect, vertical: bool, text: &str, clear: &[Rect]) -> String {
    let mut out = format!(
        r##"<rect x="{:.3}" y="{:.3}" width="{:.3}" height="{:.3}" fill="#e4e4e4"/>"##,
        flap.x, flap.y, flap.w, flap.h
    );
    let d: String = flap_marks(flap, vertical)
        .iter()
        .map(|((x1, y1), (x2, y2))| format!("M{x1:.3},{y1:.3} L{x2:.3},{y2:.3} "))
        .collect();
    out.push_str(&format!(
        r##"<path d="{}" fill="none" stroke="#000000" stroke-width="0.3"/>"##,
        d.trim_end()
    ));
    let along = if vertical { flap.h } else { flap.w };
    // The label's middle line lies between the arrows' tips and the outer edge; along the
    // flap, at the middle, or the place nearest it clear of the art's words that run in.
    // Where no place is clear, the label is made shorter until one is.
    let across = FLAP_LABEL_ACROSS;
    let label_at = |room: f64| {
        let (lines, size) = flap_label(text, room);
        let long = lines
            .iter()
            .map(|l| layout::text_width(l, size))
            .fold(0.0, f64::max);
        let thick = FLAP_LINE_STEP * (lines.len() as f64 - 1.0) + size * 1.3;
        let label_box = |mid: f64| {
            if vertical {
                Rect {
                    x: flap.x + across - thick / 2.0,
                    y: flap.y + mid - long / 2.0,
                    w: thick,
                    h: long,
                }
            } else {
                Rect {
                    x: flap.x + mid - long / 2.0,
                    y: flap.y + across - thick / 2.0,
                    w: long,
                    h: thick,
                }
            }
        };
        let (lo, hi) = (
            FLAP_LABEL_END + long / 2.0,
            along - FLAP_LABEL_END - long / 2.0,
        );
        let mid = (0..=400)
            .map(|i| along / 2.0 + f64::from(i / 2) * 0.5 * if i % 2 == 0 { 1.0 } else { -1.0 })
            .filter(|m| *m >= lo - 1e-9 && *m <= hi + 1e-9)
            .find(|m| clear.iter().all(|w| !w.overlaps(label_box(*m), 0.0)));
        (lines, size, mid)
    };
    let full = along - 2.0 * FLAP_LABEL_END;
    let (lines, size, mid) = (0..)
        .map(|i| full - 2.0 * f64::from(i))
        .take_while(|room| *room >= 6.0)
        .map(label_at)
        .find(|(_, _, mid)| mid.is_some())
        .unwrap_or_else(|| label_at(full));
    let mid = mid.unwrap_or(along / 2.0);
    let (cx, cy, rot) = if vertical {
        (flap.x + across, flap.y + mid, -90)
    } else {
        (flap.x + mid, flap.y + across, 0)
    };
    let step = FLAP_LINE_STEP;
    let first = -(lines.len() as f64 - 1.0) * step / 2.0;
    let mut labels = String::new();
    for (i, line) in lines.iter().enumerate() {
        let base = first + i as f64 * step + size * 0.36;
        labels.push_str(&layout::label(0.0, base, size, "middle", line));
    }
    out.push_str(&format!(
        r#"<g transform="translate({cx:.3} {cy:.3}) rotate({rot})">{labels}</g>"#
    ));
    out
}

/// The art's window `art` (board coordinates) of the tile whose window is `win`, placed at
/// `at` on the page.
fn art_on_page(art: Rect, win: Rect, at: (f64, f64)) -> Rect {
    Rect {
        x: at.0 + art.x - win.x,
        y: at.1 + art.y - win.y,
        ..art
    }
}

/// Every `<text>` element of a drawing without a transform: where its markup lies in `svg`
/// and its box, from its anchor, size and measured width (generously: bold type is wider).
fn text_boxes(svg: &str) -> Vec<(std::ops::Range<usize>, Rect)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = svg[from..].find("<text ").map(|i| i + from) {
        let Some(end) = svg[at..].find("</text>").map(|i| i + at + "</text>".len()) else {
            break;
        };
        from = end;
        let el = &svg[at..end];
        let Some(open) = el.find('>') else { continue };
        let tag = &el[..open];
        if tag.contains("transform") {
            continue;
        }
        let attr = |name: &str| -> Option<String> {
            let key = format!(" {name}=\"");
            let i = tag.find(&key)? + key.len();
            Some(tag[i..i + tag[i..].find('"')?].to_string())
        };
        let num = |name: &str| attr(name).and_then(|v| v.trim().parse::<f64>().ok());
        let (Some(x), Some(y), Some(size)) = (num("x"), num("y"), num("font-size")) else {
            continue;
        };
        let mut content = String::new();
        let mut in_tag = false;
        for c in el[open + 1..el.len() - "</text>".len()].chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                _ if !in_tag => content.push(c),
                _ => {}
            }
        }
        let content = content
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        let w = layout::text_width(&content, size) * 1.15;
        let left = match attr("text-anchor").as_deref() {
            Some("middle") => x - w / 2.0,
            Some("end") => x - w,
            _ => x,
        };
        out.push((
            at..end,
            Rect {
                x: left,
                y: y - size,
                w,
                h: size * 1.3,
            },
        ));
    }
    out
}

/// `svg` without the text elements of `words` that lie wholly outside `keep`.
fn without_words_outside(
    svg: &str,
    words: &[(std::ops::Range<usize>, Rect)],
    keep: Rect,
) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut from = 0;
    for (range, rect) in words {
        if !rect.overlaps(keep, 0.0) {
            out.push_str(&svg[from..range.start]);
            from = range.end;
        }
    }
    out.push_str(&svg[from..]);
    out
}

/// Room kept free at each end of a flap's label.
const FLAP_LABEL_END: f64 = 2.0;
/// Where the middle of a flap's label lies across the flap, from its inner edge: beyond the
/// alignment arrows (which reach 5.3 mm in).
const FLAP_LABEL_ACROSS: f64 = 8.6;
/// Distance between the two lines of a flap's label.
const FLAP_LINE_STEP: f64 = 2.5;

/// A flap's label in lines of at most `room` mm: one line at furniture size if it fits, else
/// two lines (split at the space that balances them) at the largest size down to 6 pt that
/// fits, else one line shortened with "…". Never longer than the strip.
pub fn flap_label(text: &str, room: f64) -> (Vec<String>, f64) {
    if layout::text_width(text, layout::FURNITURE_SIZE) <= room {
        return (vec![text.to_string()], layout::FURNITURE_SIZE);
    }
    let least = layout::MIN_TEXT_PT * layout::MM_PER_PT;
    let split = text
        .match_indices(' ')
        .map(|(i, _)| (text[..i].to_string(), text[i + 1..].to_string()))
        .min_by(|a, b| {
            let w = |p: &(String, String)| {
                layout::text_width(&p.0, 1.0).max(layout::text_width(&p.1, 1.0))
            };
            w(a).total_cmp(&w(b))
        });
    if let Some((a, b)) = split {
        let widest = layout::text_width(&a, 1.0).max(layout::text_width(&b, 1.0));
        let size = (room / widest).min(layout::FURNITURE_SIZE);
        if size >= least - 1e-9 {
            return (vec![a, b], size);
        }
    }
    let (size, line) = layout::fit_text(text, room);
    (vec![line], size)
}

/// A board page's furniture, laid out as every sheet's: its label along the top, the ruler
/// and the actual-size sentence (in the board's language) along the bottom.
fn furniture(paper: (f64, f64), label: &str, words: &PageWords) -> String {
    let mut out = layout::top_row(paper, label, None);
    out.push_str(&layout::bottom_row(paper, None, Some(&words.actual_size)));
    out
}

/// `board.pdf` bytes: every board of the game with its words in the game's first language,
/// or `None` when it has no board.
pub fn board_pdf(game: &Game, paper: Paper, big: Option<Paper>) -> Result<Option<Vec<u8>>, String> {
    board_pdf_in(game, first_language(game), (paper, big), None, None)
}

/// The board PDF of one language: every board of the game, its words and the page's in
/// `lang`, or `None` when the game has no board; with `guides` (`build --guides`, the safe
/// zone in millimetres) each board's trim and safe zone drawn over it, on its one page or
/// across its tiles; `kept` as for [`crate::render::formats::pdf::write_pdf_keeping`].
pub fn board_pdf_in(
    game: &Game,
    lang: &str,
    (paper, big): (Paper, Option<Paper>),
    guides: Option<f64>,
    kept: Option<&crate::render::formats::kept::ReadPages>,
) -> Result<Option<Vec<u8>>, String> {
    if game.components.boards.is_empty() {
        return Ok(None);
    }
    let templates = Templates::new(game)?;
    let words = PageWords::load(lang)?;
    let game_name = game.name_in(lang);
    let mut pages = Vec::new();
    for board in &game.components.boards {
        let (mut svg, size) = board_svg_in(game, board, &templates, lang)?;
        if let Some(safe) = guides {
            svg.push_str(&crate::render::faces::guides::rect_guides(size, safe));
        }
        // A single-sheet board (a player mat) prints on its own paper.
        let paper = match board.kind {
            crate::model::BoardKind::Sheet { size } => (
                crate::render::sheets::boards::non_hex::sheet_paper(size),
                None,
            ),
            _ => (paper, big),
        };
        pages.extend(board_pages(
            game_name,
            board_title(game, board, lang),
            &svg,
            size,
            paper,
            &words,
        ));
    }
    write_pdf_keeping(
        &format!("{game_name}: {}", words.file),
        &pages,
        &templates.faces.database,
        kept,
    )
    .map(Some)
}

/// The build stage writing `board.pdf`, or `board.<lang>.pdf` in each of the game's
/// languages when it has several.
pub fn board_stage(b: &GameBuild) -> Result<Vec<PathBuf>, String> {
    // One file per language the one list of faces draws the boards in.
    let mut files: Vec<(&str, Option<&str>)> = Vec::new();
    for job in crate::render::faces::drawn::board_jobs(b.game) {
        if !files.contains(&(job.lang, job.suffix)) {
            files.push((job.lang, job.suffix));
        }
    }
    let guides = b.options.guides.then(|| crate::check::safe_zone(b.game));
    let mut written = Vec::new();
    for (lang, suffix) in files {
        if let Some(bytes) = board_pdf_in(
            b.game,
            lang,
            (b.options.paper, b.options.board_page),
            guides,
            b.options.kept_pages.as_deref(),
        )? {
            written.push(b.write(&board_file(suffix), &bytes)?);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::sheets::boards::label_names;

    #[test]
    fn label_names_are_the_words_a_template_takes_from_print_labels() {
        let template = "{{ text(text=labels.pit) }} {{ labels.beats }}{{ labels.pit }} \
                        [print_labels] my_labels.x board.title";
        assert_eq!(label_names(template), ["beats", "pit"]);
        assert!(label_names("{{ board.title }}").is_empty());
    }

    #[test]
    fn a_flap_label_fits_its_strip_in_two_lines_or_shortened() {
        let text = "liimakaista: pala B2 tulee tämän kaistan päälle, reuna viivalle";
        for room in [80.0, 34.0, 20.0, 8.0] {
            let (lines, size) = flap_label(text, room);
            assert!(lines.len() <= 2 && size >= layout::MIN_TEXT_PT * layout::MM_PER_PT - 1e-9);
            for l in &lines {
                assert!(layout::text_width(l, size) <= room + 1e-9, "{room}: {l}");
            }
            let joined = lines.join(" ");
            assert!(joined == text || joined.ends_with('…'), "{room}: {joined}");
        }
        assert_eq!(flap_label(text, 80.0).0.len(), 1);
        assert_eq!(flap_label(text, 34.0).0.len(), 2);
    }

    #[test]
    fn holes_are_filled_in_order() {
        let filled = fill_holes(
            "tile {} (row {}) of {}",
            &["A1".into(), "1".into(), "4".into()],
        );
        assert_eq!(filled, "tile A1 (row 1) of 4");
    }

    #[test]
    fn alignment_marks_lie_in_the_glue_flaps_under_the_next_tiles() {
        let size = (420.0, 330.0);
        let area = (186.0, 273.0);
        let of = tiles(size, area);
        assert_eq!(of, (3, 2));
        let step = (area.0 - OVERLAP, area.1 - OVERLAP);
        let window = |c: usize, r: usize| {
            let (x, y) = (c as f64 * step.0, r as f64 * step.1);
            Rect {
                x,
                y,
                w: area.0.min(size.0 - x),
                h: area.1.min(size.1 - y),
            }
        };
        let mut flaps_seen = 0;
        for r in 0..of.1 {
            for c in 0..of.0 {
                let win = window(c, r);
                for flap in glue_flaps(win, of, (c, r)) {
                    flaps_seen += 1;
                    assert!(win.contains(flap.rect, 1e-9), "a flap is part of its tile");
                    // The tile glued over it covers the whole flap.
                    let over = window(flap.under.0, flap.under.1);
                    assert!(over.contains(flap.rect, 1e-9), "{flap:?} not covered");
                    for (a, b) in flap_marks(flap.rect, flap.vertical) {
                        for (x, y) in [a, b] {
                            assert!(
                                x >= flap.rect.x - 1e-9
                                    && x <= flap.rect.right() + 1e-9
                                    && y >= flap.rect.y - 1e-9
                                    && y <= flap.rect.bottom() + 1e-9,
                                "mark ({x}, {y}) outside {flap:?}"
                            );
                        }
                    }
                }
            }
        }
        // Two seams across, one down: 2 x 2 right flaps and 3 bottom flaps.
        assert_eq!(flaps_seen, 7);
    }
}
