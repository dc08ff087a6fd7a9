//! `proof.pdf`: every face of a game small on a few pages, for proofreading and sharing. Each
//! card front, card back and deck back, each piece and its back, with its id under it, then
//! each board on a page of its own; then the game's symbols as printed and as simulated side
//! by side, and the same pages again as a reader with deuteranopia, protanopia and
//! tritanopia sees them (the simulation of
//! [`crate::render::faces::vision`], which `check` warns from).
//!
//! The faces come from the one list of faces ([`every_face`]), as `check` reads them; each is
//! placed as a stamp (a document of its own), so that faces sharing ids of clip paths or
//! filters do not disturb each other.

use std::path::PathBuf;
use std::sync::LazyLock;

use krilla::image::Image;
use rayon::prelude::*;
use resvg::tiny_skia::{Pixmap, PremultipliedColorU8};

use crate::model::Game;
use crate::render::faces::drawn::{Face, Kind, draw_boards, every_face};
use crate::render::faces::fonts::FontDb;
use crate::render::faces::marks;
use crate::render::faces::template::Templates;
use crate::render::faces::vision::Vision;
use crate::render::formats::kept::KeptPictures;
use crate::render::formats::pdf::{self, PageSpec, Picture, Stamp};
use crate::render::formats::png;
use crate::render::sheets;
use crate::render::sheets::layout::{self, PAPER_MARGIN, Paper, Rect};
use crate::render::trees::Trees;
use crate::render::{GameBuild, xml_escape};

/// The widest a face is drawn on the proof, in millimetres.
const FACE_W: f64 = 34.0;
/// The tallest a face is drawn.
const FACE_H: f64 = 44.0;
/// Room under a face for its two lines of caption.
const CAPTION: f64 = 7.0;
/// Space between cells.
const GAP: f64 = 3.0;
/// Top of the content, below the page's label row.
const TOP: f64 = PAPER_MARGIN + 8.0;
/// Size of a caption's type (7 pt).
const CAPTION_SIZE: f64 = 2.47;
/// Height of a row of the symbol table.
const SYMBOL_ROW: f64 = 9.0;

/// Writes `proof.pdf` (every game has faces to proof, or boards; a game with neither has
/// none).
pub fn stage(b: &GameBuild) -> Result<Vec<PathBuf>, String> {
    let templates = Templates::new(b.game)?;
    let mut boards = Vec::new();
    // With `--guides`, the boards carry their trim and safe zone as the cards do.
    let guides = b.options.guides.then(|| crate::check::safe_zone(b.game));
    for (job, drawn) in draw_boards(b.game, &templates) {
        let mut drawn = drawn.map_err(|e| format!("board `{}`: {e}", job.board.id.get_ref()))?;
        if let Some(safe) = guides {
            drawn
                .svg
                .push_str(&crate::render::faces::guides::rect_guides(drawn.size, safe));
        }
        boards.push(drawn);
    }
    let title = format!("{}: proof", b.game.info.name);
    let kept = b.options.kept_pages.as_deref();
    let pages = proof_pages(
        b.game,
        &every_face(b.game, Some(&b.faces), &boards),
        b.options.paper,
        &b.faces.fonts,
        Some(&b.faces.trees),
        KeptPictures::pictures(&title, kept),
    )?;
    if pages.is_empty() {
        return Ok(Vec::new());
    }
    let bytes = pdf::write_pdf_keeping(&title, &pages, &b.faces.fonts, kept)?;
    Ok(vec![b.write("proof.pdf", &bytes)?])
}

/// One page before its label: its stamps and what is drawn over them.
struct Draft {
    part: String,
    stamps: Vec<Stamp>,
    pictures: Vec<Picture>,
    body: String,
}

/// How a face is shown in its cell: drawn (as printed), or as pixels (as a vision sees it).
enum Art {
    Drawn(String),
    Pixels(Image),
}

/// Every page of the proof: the faces as printed, then as each [`Vision`] sees them.
pub fn proof_pages(
    game: &Game,
    faces: &[Face],
    paper: Paper,
    fonts: &FontDb,
    trees: Option<&Trees>,
    kept: KeptPictures,
) -> Result<Vec<PageSpec>, String> {
    let shown: Vec<&Face> = faces
        .iter()
        .filter(|f| {
            !matches!(
                f.kind,
                Kind::Thumbnail | Kind::Icon | Kind::Board | Kind::TuckBox
            )
        })
        .collect();
    // Boards and tuck boxes each get a page of their own.
    let boards: Vec<&Face> = faces
        .iter()
        .filter(|f| matches!(f.kind, Kind::Board | Kind::TuckBox))
        .collect();
    if shown.is_empty() && boards.is_empty() {
        return Ok(Vec::new());
    }
    let face_scales: Vec<f64> = shown.iter().map(|f| face_scale(f)).collect();
    let board_scales: Vec<f64> = boards.iter().map(|b| board_scale(b, paper)).collect();
    // Each face drawn once as pixels, at the size the proof shows it, and at once seen as
    // each vision sees it: only the simulations are kept, each compressed as the PDF holds
    // it (here, on every core), not every face's pixels; under `watch`, those of a face
    // that did not change since the last round are taken from it.
    let simulations = |list: &[&Face], scales: &[f64]| -> Result<Vec<Vec<Option<Image>>>, String> {
        list.par_iter()
            .zip(scales)
            .map(|(f, scale)| {
                let doc = sheets::single_face(&body_of(f), f.size);
                let px_per_mm = SIMULATION_PX_PER_MM * scale;
                // The document (which holds the face's size) and the resolution.
                let mut key = blake3::Hasher::new();
                key.update(doc.as_bytes());
                key.update(&px_per_mm.to_bits().to_le_bytes());
                let sims = kept
                    .get_or(&doc, key.finalize(), fonts, || {
                        let px = png::rasterise(&doc, f.size, px_per_mm, fonts, trees)?;
                        let sims = Vision::ALL
                            .iter()
                            .map(|v| simulated_image(&px, *v))
                            .collect::<Result<Vec<_>, _>>();
                        png::recycle(px);
                        sims
                    })
                    .map_err(|e| format!("{}: {e}", f.what))?;
                Ok(sims.into_iter().map(Some).collect())
            })
            .collect()
    };
    let mut face_sims = simulations(&shown, &face_scales)?;
    let mut board_sims = simulations(&boards, &board_scales)?;
    kept.close();
    let mut drafts = Vec::new();
    for vision in std::iter::once(None).chain(Vision::ALL.map(Some)) {
        let part = match vision {
            None => "faces as printed".to_string(),
            Some(v) => format!("as seen with {} (Machado et al. 2009)", v.name()),
        };
        if vision == Some(Vision::ALL[0]) {
            drafts.extend(symbol_pages(game, paper, "colour vision")?);
        }
        let at = vision.and_then(|v| Vision::ALL.iter().position(|a| *a == v));
        let art = |f: &Face, scale: f64, sims: &mut Vec<Option<Image>>| match at {
            None => Ok(Art::Drawn(format!(
                r#"<g transform="scale({scale:.6})">{}</g>"#,
                body_of(f)
            ))),
            Some(i) => sims[i]
                .take()
                .map(Art::Pixels)
                .ok_or_else(|| format!("{}: its simulation was placed twice", f.what)),
        };
        let arts: Vec<Art> = shown
            .iter()
            .zip(&face_scales)
            .zip(&mut face_sims)
            .map(|((f, s), sims)| art(f, *s, sims))
            .collect::<Result<_, _>>()?;
        drafts.extend(face_pages(&shown, &face_scales, arts, paper, &part));
        for ((board, scale), sims) in boards.iter().zip(&board_scales).zip(&mut board_sims) {
            drafts.push(board_page(
                board,
                *scale,
                art(board, *scale, sims)?,
                paper,
                &part,
            ));
        }
    }
    let count = drafts.len();
    let (pw, ph) = paper.mm();
    Ok(drafts
        .into_iter()
        .enumerate()
        .map(|(i, d)| {
            let label = format!(
                "{} · proof · {} · page {} of {count}",
                game.info.name,
                d.part,
                i + 1
            );
            let mut body = layout::top_row((pw, ph), &label, None);
            body.push_str(&d.body);
            PageSpec {
                stamps: d.stamps,
                pictures: d.pictures,
                ..PageSpec::new((pw, ph), body)
            }
        })
        .collect())
}

/// Pixels per millimetre of a simulated face as the proof shows it (about 150 dpi).
const SIMULATION_PX_PER_MM: f64 = 6.0;

/// How much smaller than printed a face is shown: to fit [`FACE_W`] x [`FACE_H`], never
/// larger than printed.
fn face_scale(f: &Face) -> f64 {
    (FACE_W / f.size.0).min(FACE_H / f.size.1).min(1.0)
}

/// Room for a board on a page.
fn board_room(paper: Paper) -> (f64, f64) {
    let (pw, ph) = paper.mm();
    (pw - 2.0 * PAPER_MARGIN, ph - TOP - PAPER_MARGIN - CAPTION)
}

/// How much smaller than printed a board is shown: to fit a page, never larger than printed.
fn board_scale(board: &Face, paper: Paper) -> f64 {
    let (room_w, room_h) = board_room(paper);
    (room_w / board.size.0).min(room_h / board.size.1).min(1.0)
}

/// `pixels` as `vision` sees them, as an image for the PDF (its pixels compressed now, on
/// the calling thread).
fn simulated_image(pixels: &Pixmap, vision: Vision) -> Result<Image, String> {
    let seen = simulated(pixels, vision);
    let size = (pixels.width(), pixels.height());
    Image::from_custom(Channels::new(seen, size), false)
        .map_err(|e| format!("its simulation could not be made: {e}"))
}

/// A picture's colour and alpha bytes, as the PDF holds them (no alpha when every pixel is
/// opaque), known by the hash of both.
#[derive(Clone)]
struct Channels {
    rgb: std::sync::Arc<Vec<u8>>,
    alpha: Option<std::sync::Arc<Vec<u8>>>,
    size: (u32, u32),
    digest: blake3::Hash,
}

impl Channels {
    fn new(seen: Seen, size: (u32, u32)) -> Channels {
        let alpha = seen
            .alpha
            .iter()
            .any(|a| *a != u8::MAX)
            .then_some(seen.alpha);
        let mut h = blake3::Hasher::new();
        h.update(&seen.rgb);
        if let Some(alpha) = &alpha {
            h.update(alpha);
        }
        Channels {
            rgb: std::sync::Arc::new(seen.rgb),
            alpha: alpha.map(std::sync::Arc::new),
            size,
            digest: h.finalize(),
        }
    }
}

impl std::hash::Hash for Channels {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.digest.as_bytes().hash(state);
        self.size.hash(state);
        self.alpha.is_some().hash(state);
    }
}

impl krilla::image::CustomImage for Channels {
    fn color_channel(&self) -> &[u8] {
        &self.rgb
    }
    fn alpha_channel(&self) -> Option<&[u8]> {
        self.alpha.as_deref().map(Vec::as_slice)
    }
    fn bits_per_component(&self) -> krilla::image::BitsPerComponent {
        krilla::image::BitsPerComponent::Eight
    }
    fn size(&self) -> (u32, u32) {
        self.size
    }
    fn icc_profile(&self) -> Option<&[u8]> {
        None
    }
    fn color_space(&self) -> krilla::image::ImageColorspace {
        krilla::image::ImageColorspace::Rgb
    }
}

/// A picture's pixels as straight (not premultiplied) colour and their alpha, apart.
struct Seen {
    rgb: Vec<u8>,
    alpha: Vec<u8>,
}

/// `pixels` as `vision` sees them: each pixel's colour through the Machado matrix, in linear
/// light ([`Vision::simulate`], with tables instead of powers).
fn simulated(pixels: &Pixmap, vision: Vision) -> Seen {
    /// sRGB channel to linear light.
    static TO_LINEAR: LazyLock<[f64; 256]> = LazyLock::new(|| {
        std::array::from_fn(|c| {
            let c = c as f64 / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        })
    });
    const STEPS: usize = 4096;
    /// Linear light, in `STEPS` steps, to an sRGB channel.
    static TO_SRGB: LazyLock<Vec<u8>> = LazyLock::new(|| {
        (0..=STEPS)
            .map(|i| {
                let l = i as f64 / STEPS as f64;
                let c = if l <= 0.003_130_8 {
                    12.92 * l
                } else {
                    1.055 * l.powf(1.0 / 2.4) - 0.055
                };
                (c * 255.0).round().clamp(0.0, 255.0) as u8
            })
            .collect()
    });
    let (to_linear, to_srgb) = (&*TO_LINEAR, &*TO_SRGB);
    let m = vision.matrix();
    let n = pixels.pixels().len();
    let mut out = Seen {
        rgb: Vec::with_capacity(n * 3),
        alpha: Vec::with_capacity(n),
    };
    // Faces are mostly flat colour: a pixel like the one before it is seen like it.
    let mut last: Option<(PremultipliedColorU8, [u8; 3])> = None;
    for &p in pixels.pixels() {
        out.alpha.push(p.alpha());
        if let Some((from, to)) = last
            && from == p
        {
            out.rgb.extend_from_slice(&to);
            continue;
        }
        let c = p.demultiply();
        let v = [
            to_linear[usize::from(c.red())],
            to_linear[usize::from(c.green())],
            to_linear[usize::from(c.blue())],
        ];
        // `l` is in 0..=1, so adding a half and truncating rounds it.
        let ch = |r: [f64; 3]| {
            let l = (r[0] * v[0] + r[1] * v[1] + r[2] * v[2]).clamp(0.0, 1.0);
            to_srgb[(l * STEPS as f64 + 0.5) as usize]
        };
        let seen = [ch(m[0]), ch(m[1]), ch(m[2])];
        out.rgb.extend_from_slice(&seen);
        last = Some((p, seen));
    }
    out
}

/// What a face is, under its id.
fn kind_words(f: &Face) -> String {
    let mut words = match f.kind {
        Kind::CardFront => format!("front · {}", f.deck.unwrap_or_default()),
        Kind::CardBack => "own back".to_string(),
        Kind::DeckBack => "deck back".to_string(),
        Kind::PieceFront => "piece".to_string(),
        Kind::PieceBack => "piece back".to_string(),
        Kind::Board => "board".to_string(),
        Kind::TuckBox => "tuck box".to_string(),
        Kind::Thumbnail | Kind::Icon => String::new(),
    };
    if let Some(lang) = f.lang {
        words.push_str(&format!(" · {lang}"));
    }
    words
}

/// A face's drawing as the build prints it alone: a piece clipped to its outline with its
/// cut line.
fn body_of(f: &Face) -> String {
    match f.outline {
        Some(outline) => format!(
            r##"<clipPath id="cut"><path d="{outline}"/></clipPath><g clip-path="url(#cut)">{}</g><path d="{outline}" fill="none" stroke="#1a1a1a" stroke-width="0.2"/>"##,
            f.svg
        ),
        None => f.svg.to_string(),
    }
}

/// A face's `art` at `scale` with its top-left corner at `at`: a stamp of its drawing, or a
/// picture of its pixels.
fn place(
    stamps: &mut Vec<Stamp>,
    pictures: &mut Vec<Picture>,
    f: &Face,
    scale: f64,
    art: Art,
    at: (f64, f64),
) {
    let (w, h) = (f.size.0 * scale, f.size.1 * scale);
    match art {
        Art::Drawn(art) => stamps.push(Stamp {
            art,
            view: Rect::of_size((w, h)),
            at,
            turn: 0,
        }),
        Art::Pixels(image) => pictures.push(Picture {
            image,
            at,
            size: (w, h),
        }),
    }
}

/// One line of caption centred at `cx`, cut short to `width`.
fn caption(text: &str, cx: f64, y: f64, width: f64, size: f64, colour: &str) -> String {
    let mut t: String = text.to_string();
    if layout::text_width(&t, size) > width {
        while !t.is_empty() && layout::text_width(&format!("{t}…"), size) > width {
            t.pop();
        }
        t.push('…');
    }
    format!(
        r#"<text x="{cx:.3}" y="{y:.3}" font-family="DejaVu Sans" font-size="{size}" text-anchor="middle" fill="{colour}">{}</text>"#,
        xml_escape(&t)
    )
}

/// The faces in a grid of cells, each drawn by its `art` at its `scale` (to fit
/// [`FACE_W`] x [`FACE_H`]), its id and kind under it.
fn face_pages(
    faces: &[&Face],
    scales: &[f64],
    arts: Vec<Art>,
    paper: Paper,
    part: &str,
) -> Vec<Draft> {
    let (pw, ph) = paper.mm();
    let cell_w = FACE_W + GAP;
    let cell_h = FACE_H + CAPTION + GAP;
    let cols = (((pw - 2.0 * PAPER_MARGIN) / cell_w).floor() as usize).max(1);
    let rows = (((ph - TOP - PAPER_MARGIN) / cell_h).floor() as usize).max(1);
    let left = (pw - cols as f64 * cell_w + GAP) / 2.0;
    let mut drafts: Vec<Draft> = Vec::new();
    for (n, ((f, scale), art)) in faces.iter().zip(scales).zip(arts).enumerate() {
        let i = n % (cols * rows);
        if i == 0 {
            drafts.push(Draft {
                part: part.to_string(),
                stamps: Vec::new(),
                pictures: Vec::new(),
                body: String::new(),
            });
        }
        let Some(d) = drafts.last_mut() else { break };
        let (col, row) = (i % cols, i / cols);
        let (x, y) = (left + col as f64 * cell_w, TOP + row as f64 * cell_h);
        let (w, h) = (f.size.0 * scale, f.size.1 * scale);
        let at = (x + (FACE_W - w) / 2.0, y + (FACE_H - h) / 2.0);
        place(&mut d.stamps, &mut d.pictures, f, *scale, art, at);
        // A hairline around a rectangular face shows its edge on white paper.
        if f.outline.is_none() {
            d.body.push_str(&format!(
                r##"<rect x="{:.3}" y="{:.3}" width="{w:.3}" height="{h:.3}" fill="none" stroke="#9a9a9a" stroke-width="0.1"/>"##,
                at.0, at.1
            ));
        }
        let cx = x + FACE_W / 2.0;
        d.body.push_str(&caption(
            f.id,
            cx,
            y + FACE_H + 3.0,
            FACE_W,
            CAPTION_SIZE,
            "#1a1a1a",
        ));
        d.body.push_str(&caption(
            &kind_words(f),
            cx,
            y + FACE_H + 6.0,
            FACE_W,
            CAPTION_SIZE * 0.9,
            "#555555",
        ));
    }
    drafts
}

/// A board alone on a page, drawn by its `art` at its `scale`.
fn board_page(board: &Face, scale: f64, art: Art, paper: Paper, part: &str) -> Draft {
    let (pw, _) = paper.mm();
    let (room_w, _) = board_room(paper);
    let (w, h) = (board.size.0 * scale, board.size.1 * scale);
    let at = ((pw - w) / 2.0, TOP);
    let body = caption(
        &format!("{} · {}", board.id, kind_words(board)),
        pw / 2.0,
        TOP + h + 4.0,
        room_w,
        CAPTION_SIZE,
        "#1a1a1a",
    );
    let (mut stamps, mut pictures) = (Vec::new(), Vec::new());
    place(&mut stamps, &mut pictures, board, scale, art, at);
    Draft {
        part: part.to_string(),
        stamps,
        pictures,
        body,
    }
}

/// The game's symbols, group by group, as printed and as each [`Vision`] sees them, side by
/// side: what `check`'s colour-blind warnings speak of.
fn symbol_pages(game: &Game, paper: Paper, part: &str) -> Result<Vec<Draft>, String> {
    let symbols = &game.components.symbols;
    if symbols.is_empty() {
        return Ok(Vec::new());
    }
    let (_, ph) = paper.mm();
    // A badge has no text: the bundled fonts are enough.
    let fonts = crate::render::faces::fonts::builtin();
    let per_page = (((ph - TOP - PAPER_MARGIN - SYMBOL_ROW) / SYMBOL_ROW).floor() as usize).max(1);
    let x0 = PAPER_MARGIN + 5.0;
    let columns = [("printed", None)]
        .into_iter()
        .chain(Vision::ALL.map(|v| (v.name(), Some(v))))
        .collect::<Vec<_>>();
    let col_x = |i: usize| x0 + 70.0 + i as f64 * 30.0;
    let mut drafts = Vec::new();
    for chunk in symbols.chunks(per_page) {
        let mut body = String::new();
        let head_y = TOP + 3.0;
        for (i, (name, _)) in columns.iter().enumerate() {
            body.push_str(&caption(
                name,
                col_x(i),
                head_y,
                28.0,
                CAPTION_SIZE,
                "#1a1a1a",
            ));
        }
        let (mut stamps, mut pictures) = (Vec::new(), Vec::new());
        for (row, s) in chunk.iter().enumerate() {
            let cy = TOP + SYMBOL_ROW * (row as f64 + 1.0) + SYMBOL_ROW / 2.0;
            body.push_str(&format!(
                r#"<text x="{x0:.3}" y="{:.3}" font-family="DejaVu Sans" font-size="{CAPTION_SIZE}" fill="{}">{}</text>"#,
                cy + 0.9,
                "#1a1a1a",
                xml_escape(&format!("{} · {} · {}", s.group, s.id.get_ref(), s.colour))
            ));
            for (i, (_, vision)) in columns.iter().enumerate() {
                let r = SYMBOL_ROW * 0.42;
                let side = 2.0 * r + 0.6;
                let badge = marks::badge(s, r + 0.3, r + 0.3, r);
                let at = (col_x(i) - r - 0.3, cy - r - 0.3);
                match vision {
                    None => stamps.push(Stamp {
                        art: badge,
                        view: Rect::of_size((side, side)),
                        at,
                        turn: 0,
                    }),
                    Some(v) => {
                        let doc = sheets::single_face(&badge, (side, side));
                        let px = png::rasterise(&doc, (side, side), 24.0, &fonts, None)?;
                        pictures.push(Picture {
                            image: simulated_image(&px, *v)?,
                            at,
                            size: (side, side),
                        });
                    }
                }
            }
        }
        drafts.push(Draft {
            part: format!("{part} · symbols"),
            stamps,
            pictures,
            body,
        });
    }
    Ok(drafts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::faces::vision::{delta_e, parse_hex};

    /// The proof written round after round with what the last round drew (as `watch` does)
    /// is byte for byte the proof written afresh: with every face as before, and with one
    /// face changed, whose pictures are drawn again.
    #[test]
    fn a_proof_from_the_last_rounds_pictures_is_the_proof_drawn_afresh() {
        use crate::render::formats::kept::ReadPages;
        let tmp = tempfile::tempdir().unwrap();
        crate::scaffold::new_game(tmp.path(), "g").unwrap();
        let game = crate::model::load_game(tmp.path(), "g").unwrap();
        let templates = Templates::new(&game).unwrap();
        let faces = crate::render::faces::draw_all(&game, &templates, 3.0).unwrap();
        let fonts = faces.fonts.clone();
        let title = "g: proof";
        let proof = |list: &[Face], store: Option<&ReadPages>| {
            let pages = proof_pages(
                &game,
                list,
                Paper::A4,
                &fonts,
                None,
                KeptPictures::pictures(title, store),
            )
            .unwrap();
            pdf::write_pdf_keeping(title, &pages, &fonts, store).unwrap()
        };
        let list = every_face(&game, Some(&faces), &[]);
        let afresh = proof(&list, None);
        let store = ReadPages::default();
        assert_eq!(proof(&list, Some(&store)), afresh);
        let (_, pictures) = store.kept(title);
        assert!(pictures > 1, "each face's pictures are kept: {pictures}");
        assert_eq!(proof(&list, Some(&store)), afresh, "the second round");
        // One card's colour changed: its pictures are drawn again, the others taken.
        let mut changed = every_face(&game, Some(&faces), &[]);
        let front = changed
            .iter_mut()
            .find(|f| f.kind == Kind::CardFront)
            .unwrap();
        front.svg = format!(
            r##"{}<rect width="20" height="20" fill="#0a7d3b"/>"##,
            front.svg
        )
        .into();
        let changed_afresh = proof(&changed, None);
        assert_ne!(changed_afresh, afresh);
        assert_eq!(proof(&changed, Some(&store)), changed_afresh);
        assert_eq!(
            store.kept(title).1,
            pictures,
            "the last round's worth is kept"
        );
    }

    #[test]
    fn a_face_is_simulated_as_the_check_simulates_its_colours() {
        for colour in ["#c0392b", "#2f6db5", "#7a6f36", "#e8b923", "#ffffff"] {
            let c = parse_hex(colour).unwrap();
            let u: palette::Srgb<u8> = c.into_format();
            let mut px = Pixmap::new(2, 2).unwrap();
            px.fill(resvg::tiny_skia::Color::from_rgba8(
                u.red, u.green, u.blue, 255,
            ));
            for v in Vision::ALL {
                let p = simulated(&px, v);
                assert_eq!((p.rgb.len(), p.alpha.len()), (12, 4));
                assert_eq!(p.alpha[3], 255, "an opaque pixel stays opaque");
                let got = palette::Srgb::new(p.rgb[9], p.rgb[10], p.rgb[11]).into_format();
                assert!(delta_e(got, v.simulate(c)) < 0.5, "{colour} {v:?}");
            }
        }
    }
}
