//! Pages drawn as SVG (millimetre user units) turned into a vector PDF by krilla and
//! krilla-svg, with the bundled fonts embedded and subset, and TrimBox and BleedBox set.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};

use krilla::Document;
use krilla::geom::{Rect as KRect, Size, Transform};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla_svg::{SurfaceExt, SvgSettings};
use rayon::prelude::*;

use crate::render::faces::fonts::FontDb;
use crate::render::formats::kept::{KeptTrees, ReadPages};
use crate::render::sheets::layout::Rect;
use crate::render::xml_escape;

/// Points per millimetre.
pub const PT_PER_MM: f64 = 72.0 / 25.4;

/// One page: the art stamped on it, what is drawn over that, and, for card sheets, the trim
/// and bleed of the block of cards.
pub struct PageSpec {
    /// Art placed on the page (card faces, tokens), drawn first, in order. Art placed more
    /// than once in a PDF is read once.
    pub stamps: Vec<Stamp>,
    /// Pixel pictures made for the page (the proof's colour-vision simulations), drawn over
    /// the stamps and under the body, each compressed once where it was made.
    pub pictures: Vec<Picture>,
    /// Everything else, drawn over the stamps and pictures: SVG content in page millimetres.
    pub body: String,
    pub size_mm: (f64, f64),
    pub trim: Option<Rect>,
    pub bleed: Option<Rect>,
}

impl PageSpec {
    /// A page of `size_mm` that draws `body` alone.
    pub fn new(size_mm: (f64, f64), body: String) -> PageSpec {
        PageSpec {
            stamps: Vec::new(),
            pictures: Vec::new(),
            body,
            size_mm,
            trim: None,
            bleed: None,
        }
    }

    /// The whole page as one SVG document: each stamp nested in its place, then the body
    /// (its [`Picture`]s, pixels made for the PDF alone, are not part of it).
    pub fn svg(&self) -> String {
        let mut body: String = self.stamps.iter().map(Stamp::nested).collect();
        body.push_str(&self.body);
        svg_page(self.size_mm, &body)
    }
}

/// Pixels placed on a page, stretched to `size` millimetres with their top-left corner at
/// `at`. The image is made (and its pixels compressed) by whoever makes the page, on as many
/// threads as they like; writing the PDF only places it.
#[derive(Clone)]
pub struct Picture {
    pub image: krilla::image::Image,
    pub at: (f64, f64),
    pub size: (f64, f64),
}

/// Art placed on a page at its own size: `view` of the art's millimetres lands at `at` on
/// the page, turned `turn` degrees clockwise about its centre, and nothing outside `view`
/// shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Stamp {
    /// SVG content in the art's own millimetres.
    pub art: String,
    pub view: Rect,
    /// The page position of the view's top-left corner, in millimetres.
    pub at: (f64, f64),
    pub turn: u16,
}

impl Stamp {
    /// The art as a document of its own, one user unit a millimetre (what the PDF reads).
    fn document(&self) -> String {
        let v = self.view;
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.4}" height="{h:.4}" viewBox="{x:.4} {y:.4} {w:.4} {h:.4}">{art}</svg>"#,
            x = v.x,
            y = v.y,
            w = v.w,
            h = v.h,
            art = self.art
        )
    }

    /// From the art's view (its top-left corner at the origin, in points) to the page: turned
    /// about the view's centre, then moved to `at`.
    fn transform(&self) -> Transform {
        let k = PT_PER_MM;
        let (cx, cy) = (self.view.w * k / 2.0, self.view.h * k / 2.0);
        let (sin, cos) = f64::from(self.turn).to_radians().sin_cos();
        let (tx, ty) = (self.at.0 * k + cx, self.at.1 * k + cy);
        Transform::from_row(
            cos as f32,
            sin as f32,
            -sin as f32,
            cos as f32,
            (tx - cos * cx + sin * cy) as f32,
            (ty - sin * cx - cos * cy) as f32,
        )
    }

    /// The art nested in a page document, clipped to its view and turned as in the PDF.
    fn nested(&self) -> String {
        let v = self.view;
        let art = if self.turn == 0 {
            self.art.clone()
        } else {
            format!(
                r#"<g transform="rotate({} {:.4} {:.4})">{}</g>"#,
                self.turn,
                v.x + v.w / 2.0,
                v.y + v.h / 2.0,
                self.art
            )
        };
        format!(
            r#"<svg x="{:.4}" y="{:.4}" width="{w:.4}" height="{h:.4}" viewBox="{:.4} {:.4} {w:.4} {h:.4}" overflow="hidden">{art}</svg>"#,
            self.at.0,
            self.at.1,
            v.x,
            v.y,
            w = v.w,
            h = v.h,
        )
    }
}

/// Wraps SVG body content in a root element sized in millimetres.
pub fn svg_page(size_mm: (f64, f64), body: &str) -> String {
    let (w, h) = size_mm;
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">{body}</svg>"#
    )
}

/// usvg options that load fonts only from `fonts` (the bundled faces and one game's own).
pub fn usvg_options(fonts: &FontDb) -> usvg::Options<'static> {
    options(fonts, false)
}

/// The options of a page written to PDF (`raster` false) or drawn as pixels by resvg.
fn options(fonts: &FontDb, raster: bool) -> usvg::Options<'static> {
    usvg::Options {
        fontdb: fonts.clone(),
        font_family: "DejaVu Sans".to_string(),
        // A character its face lacks is drawn in a face of the same weight and slant.
        font_resolver: crate::render::faces::fonts::usvg_resolver(),
        resources_dir: None,
        // Art only from the files the game's data names; never any other file.
        image_href_resolver: crate::render::faces::images::href_resolver(raster),
        ..Default::default()
    }
}

/// Parses an SVG page with `fonts`, for a PDF.
pub fn parse(svg: &str, fonts: &FontDb) -> Result<usvg::Tree, String> {
    usvg::Tree::from_str(svg, &usvg_options(fonts))
        .map_err(|e| format!("SVG could not be read: {e}"))
}

/// Parses an SVG page with `fonts`, to draw it as pixels (CMYK JPEG art as its sRGB pixels).
pub fn parse_raster(svg: &str, fonts: &FontDb) -> Result<usvg::Tree, String> {
    usvg::Tree::from_str(svg, &options(fonts, true))
        .map_err(|e| format!("SVG could not be read: {e}"))
}

/// How far inside `trim` the text of a page comes at its closest, in millimetres: the least
/// distance from any text's box to the trim's edges (negative when text crosses the cut);
/// `None` when the page has no text. `page` is a whole SVG document `size_mm` large (as
/// [`svg_page`] makes), `trim` in its millimetres. The one measurement of a safe zone: the
/// home sheets' warning (`check` and `build`) and the print-shop manifest both use it.
pub fn text_inset(
    page: &str,
    size_mm: (f64, f64),
    trim: Rect,
    fonts: &FontDb,
) -> Result<Option<f64>, String> {
    Ok(read_text(page, fonts)?.and_then(|tree| inset_of(&tree, size_mm, trim)))
}

/// A page read for its text alone: only the text and what places it (the groups around it),
/// as [`text_only`] cuts it; paths, art and patterns have no say in where text lies or what
/// colour it is, and cost most of a page's reading. `None` when the page has no text.
pub fn read_text(page: &str, fonts: &FontDb) -> Result<Option<usvg::Tree>, String> {
    let reduced = text_only(page);
    if reduced.as_deref() == Some("") {
        return Ok(None);
    }
    let options = usvg::Options {
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg_options(fonts)
    };
    usvg::Tree::from_str(reduced.as_deref().unwrap_or(page), &options)
        .map(Some)
        .map_err(|e| format!("SVG could not be read: {e}"))
}

/// [`text_inset`] of a page already read whole (as [`crate::render::trees::Trees`] keeps
/// it): the same measure, without reading the page again.
pub fn inset_of(tree: &usvg::Tree, size_mm: (f64, f64), trim: Rect) -> Option<f64> {
    // usvg measures the canvas in CSS pixels; the page is in millimetres.
    let mm = size_mm.0 / f64::from(tree.size().width());
    let mut closest: Option<f64> = None;
    visit_text(tree.root(), &mut |r| {
        let inset = [
            f64::from(r.left()) * mm - trim.x,
            f64::from(r.top()) * mm - trim.y,
            trim.right() - f64::from(r.right()) * mm,
            trim.bottom() - f64::from(r.bottom()) * mm,
        ];
        let least = inset.into_iter().fold(f64::MAX, f64::min);
        closest = Some(closest.map_or(least, |c| c.min(least)));
    });
    closest
}

/// An SVG document cut down to its texts: every `<text>` (and `<style>`) as written, inside
/// the elements that hold it, whose attributes (a group's transform, font settings) are kept
/// but for clips, masks and filters, which do not move text. `None` when the document does
/// not read, or reuses elements (`<use>`), which could draw text elsewhere: then the whole
/// document is measured.
fn text_only(svg: &str) -> Option<String> {
    let doc = cuttable(svg)?;
    fn has_text(n: usvg::roxmltree::Node) -> bool {
        n.descendants().any(|d| d.has_tag_name("text"))
    }
    fn write(n: usvg::roxmltree::Node, svg: &str, out: &mut String) {
        let name = n.tag_name().name();
        if name == "text" || name == "style" {
            out.push_str(&svg[n.range()]);
            return;
        }
        if !has_text(n) {
            return;
        }
        out.push('<');
        out.push_str(name);
        if n.parent().is_some_and(|p| p.is_root()) {
            out.push_str(
                r#" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#,
            );
        }
        for a in n.attributes() {
            if a.namespace().is_some() || matches!(a.name(), "clip-path" | "mask" | "filter") {
                continue;
            }
            out.push_str(&format!(r#" {}="{}""#, a.name(), xml_escape(a.value())));
        }
        out.push('>');
        for child in n.children().filter(|c| c.is_element()) {
            write(child, svg, out);
        }
        out.push_str(&format!("</{name}>"));
    }
    let mut out = String::new();
    // A document without text is nothing.
    write(doc.root_element(), svg, &mut out);
    Some(out)
}

/// `svg`'s XML, to be cut at its `<text>` elements (down to them, [`text_only`]; without
/// them, the contrast check's ground): `None` when it does not read, or reuses elements
/// (`<use>`), which could draw text anywhere.
pub(crate) fn cuttable(svg: &str) -> Option<usvg::roxmltree::Document<'_>> {
    let options = usvg::roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = usvg::roxmltree::Document::parse_with_options(svg, options).ok()?;
    (!doc.descendants().any(|n| n.has_tag_name("use"))).then_some(doc)
}

/// Calls `f` with the bounding box (canvas pixels) of every text in `group`.
fn visit_text(group: &usvg::Group, f: &mut impl FnMut(usvg::Rect)) {
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => visit_text(g, f),
            usvg::Node::Text(t) => f(t.abs_bounding_box()),
            _ => {}
        }
    }
}

fn to_krilla(r: Rect) -> Option<KRect> {
    let k = PT_PER_MM as f32;
    KRect::from_xywh(
        r.x as f32 * k,
        r.y as f32 * k,
        r.w as f32 * k,
        r.h as f32 * k,
    )
}

/// Writes the pages into one PDF titled `title`, drawn with `fonts`. Same pages, same bytes.
pub fn write_pdf(title: &str, pages: &[PageSpec], fonts: &FontDb) -> Result<Vec<u8>, String> {
    write_pdf_keeping(title, pages, fonts, None)
}

/// [`write_pdf`], taking the documents the last PDF of `title` read from `kept` (those that
/// did not change) and leaving there the documents this one read, for the next.
///
/// Reading SVG (usvg's parse, the larger part of the work) runs on one thread per core while
/// krilla draws the pages on this thread, in order, as soon as what a page needs is read.
/// Each distinct stamp is read once, before the first page that places it, and dropped
/// after the last; every page's body is read in its turn. What is held at once is the
/// stamps later pages still place, plus what the readers got ahead: while this thread draws,
/// they block once [`READ_AHEAD`] documents per reader wait. The readers are threads of their
/// own, not the pool's, whose threads may all be drawing other PDFs. A document that cannot
/// be read is reported as the first such document in order.
pub fn write_pdf_keeping(
    title: &str,
    pages: &[PageSpec],
    fonts: &FontDb,
    kept: Option<&ReadPages>,
) -> Result<Vec<u8>, String> {
    let mut doc = Document::new();
    doc.set_metadata(
        Metadata::new()
            .title(title.to_string())
            .creator("printplay".to_string()),
    );
    let plan = ReadPlan::new(pages);
    let kept = KeptTrees::trees(title, kept);
    let readers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(plan.documents.len().max(1));
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let (sent, received) = mpsc::sync_channel(readers * READ_AHEAD);
        for _ in 0..readers {
            let sent = sent.clone();
            let (next, documents, kept) = (&next, &plan.documents, &kept);
            s.spawn(move || {
                loop {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some((svg, key)) = documents.get(at) else {
                        break;
                    };
                    if sent
                        .send((
                            at,
                            kept.get_or(svg, *key, fonts, || parse(svg, fonts).map(Arc::new)),
                        ))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sent);
        let mut trees: Vec<Option<Arc<usvg::Tree>>> = plan.documents.iter().map(|_| None).collect();
        let mut early = std::collections::BTreeMap::new();
        let (mut read, mut drawn) = (0, 0);
        for (at, tree) in received {
            early.insert(at, tree);
            while let Some(tree) = early.remove(&read) {
                trees[read] = Some(tree?);
                read += 1;
            }
            while drawn < pages.len() && plan.needs[drawn] < read {
                draw_page(&mut doc, &pages[drawn], &plan, drawn, &trees)?;
                for &done in &plan.done_after[drawn] {
                    trees[done] = None;
                }
                drawn += 1;
            }
        }
        if drawn < pages.len() {
            return Err("a page could not be read".to_string());
        }
        Ok(())
    })?;
    kept.close();
    doc.finish()
        .map_err(|e| format!("PDF could not be written: {e:?}"))
}

/// How many read documents per reader may wait to be drawn.
const READ_AHEAD: usize = 2;

/// The SVG documents a PDF's pages need, each distinct one once, in the order the pages
/// first need them.
struct ReadPlan {
    /// Each document with the hash of its text (two documents are the same when their hashes
    /// are, as for the pages kept under `watch`).
    documents: Vec<(String, blake3::Hash)>,
    /// For each page, the document of each of its stamps.
    stamps: Vec<Vec<usize>>,
    /// For each page, the document of its body.
    body: Vec<usize>,
    /// For each page, the last document it draws: once that is read, it can be drawn.
    needs: Vec<usize>,
    /// For each page, the documents no later page needs.
    done_after: Vec<Vec<usize>>,
}

impl ReadPlan {
    fn new(pages: &[PageSpec]) -> ReadPlan {
        // Writing out and hashing every page's documents (a 1,000-card sheet places each
        // back 1,000 times) is shared among the cores; what each page needs is then found in
        // order, by hash.
        let hashed = |svg: String| {
            let key = blake3::hash(svg.as_bytes());
            (svg, key)
        };
        let written: Vec<_> = pages
            .par_iter()
            .map(|page| {
                let stamps: Vec<_> = page.stamps.iter().map(|s| hashed(s.document())).collect();
                (stamps, hashed(svg_page(page.size_mm, &page.body)))
            })
            .collect();
        let mut documents = Vec::new();
        let mut known: HashMap<blake3::Hash, usize> = HashMap::new();
        let mut last_page = Vec::new();
        let mut stamps: Vec<Vec<usize>> = Vec::new();
        let mut body = Vec::new();
        for (n, (placed, page_body)) in written.into_iter().enumerate() {
            let mut add = |(svg, key): (String, blake3::Hash)| {
                let at = *known.entry(key).or_insert_with(|| {
                    documents.push((svg, key));
                    last_page.push(n);
                    documents.len() - 1
                });
                last_page[at] = n;
                at
            };
            stamps.push(placed.into_iter().map(&mut add).collect());
            body.push(add(page_body));
        }
        let needs = stamps
            .iter()
            .zip(&body)
            .map(|(s, &b)| s.iter().copied().fold(b, usize::max))
            .collect();
        let mut done_after = vec![Vec::new(); pages.len()];
        for (document, &page) in last_page.iter().enumerate() {
            done_after[page].push(document);
        }
        ReadPlan {
            documents,
            stamps,
            body,
            needs,
            done_after,
        }
    }
}

/// Draws page `n` onto the end of the document: its stamps, then its body.
fn draw_page(
    doc: &mut Document,
    spec: &PageSpec,
    plan: &ReadPlan,
    n: usize,
    trees: &[Option<Arc<usvg::Tree>>],
) -> Result<(), String> {
    let k = PT_PER_MM as f32;
    let size = Size::from_wh(spec.size_mm.0 as f32 * k, spec.size_mm.1 as f32 * k)
        .ok_or("a page has no size")?;
    let settings = PageSettings::new(size)
        .with_trim_box(spec.trim.and_then(to_krilla))
        .with_bleed_box(spec.bleed.and_then(to_krilla));
    let mut page = doc.start_page_with(settings);
    let mut surface = page.surface();
    let tree = |at: usize| {
        trees[at]
            .as_ref()
            .ok_or("a page was drawn before it was read")
    };
    for (stamp, &at) in spec.stamps.iter().zip(&plan.stamps[n]) {
        let v = stamp.view;
        let size = Size::from_wh(v.w as f32 * k, v.h as f32 * k).ok_or("a stamp has no size")?;
        surface.push_transform(&stamp.transform());
        let drawn = surface.draw_svg(tree(at)?, size, svg_settings());
        surface.pop();
        drawn.ok_or("krilla could not draw a page")?;
    }
    for p in &spec.pictures {
        let size = Size::from_wh(p.size.0 as f32 * k, p.size.1 as f32 * k)
            .ok_or("a picture has no size")?;
        surface.push_transform(&Transform::from_translate(
            p.at.0 as f32 * k,
            p.at.1 as f32 * k,
        ));
        surface.draw_image(p.image.clone(), size);
        surface.pop();
    }
    surface
        .draw_svg(tree(plan.body[n])?, size, svg_settings())
        .ok_or("krilla could not draw a page")?;
    surface.finish();
    page.finish();
    Ok(())
}

/// Text stays text (selectable, searchable, small), in the embedded fonts.
fn svg_settings() -> SvgSettings {
    SvgSettings {
        embed_text: true,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(art: &str, at: (f64, f64), turn: u16) -> Stamp {
        Stamp {
            art: art.to_string(),
            view: Rect {
                x: -3.0,
                y: -3.0,
                w: 69.0,
                h: 94.0,
            },
            at,
            turn,
        }
    }

    fn mapped(t: &Transform, (x, y): (f64, f64)) -> (f64, f64) {
        let k = PT_PER_MM as f32;
        let (x, y) = (x as f32 * k, y as f32 * k);
        let page = (
            t.sx() * x + t.kx() * y + t.tx(),
            t.ky() * x + t.sy() * y + t.ty(),
        );
        (f64::from(page.0 / k), f64::from(page.1 / k))
    }

    fn near(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-3 && (a.1 - b.1).abs() < 1e-3
    }

    #[test]
    fn a_stamp_lands_on_its_place_and_a_turned_one_on_the_same_rectangle() {
        let upright = card("", (10.0, 20.0), 0).transform();
        assert!(near(mapped(&upright, (0.0, 0.0)), (10.0, 20.0)));
        assert!(near(mapped(&upright, (69.0, 94.0)), (79.0, 114.0)));
        // Turned half round: the view's top-left corner lands at the bottom right.
        let turned = card("", (10.0, 20.0), 180).transform();
        assert!(near(mapped(&turned, (0.0, 0.0)), (79.0, 114.0)));
        assert!(near(mapped(&turned, (69.0, 94.0)), (10.0, 20.0)));
    }

    #[test]
    fn art_placed_many_times_is_read_once_and_dropped_after_its_last_page() {
        let page = |stamps: Vec<Stamp>, body: &str| PageSpec {
            stamps,
            ..PageSpec::new((210.0, 297.0), body.to_string())
        };
        let rect = |x| card("<rect/>", (x, 10.0), 0);
        let circle = |x| card("<circle/>", (x, 10.0), 0);
        let pages = [
            page(vec![rect(10.0), rect(80.0)], "<g id=\"1\"/>"),
            page(vec![circle(10.0), rect(80.0)], "<g id=\"2\"/>"),
            page(vec![circle(10.0)], "<g id=\"1\"/>"),
        ];
        let plan = ReadPlan::new(&pages);
        // One rect, one circle and two distinct bodies, in the order pages need them.
        assert_eq!(plan.documents.len(), 4);
        assert_eq!(plan.stamps, vec![vec![0, 0], vec![2, 0], vec![2]]);
        assert_eq!(plan.body, vec![1, 3, 1]);
        assert_eq!(plan.needs, vec![1, 3, 2]);
        assert_eq!(plan.done_after, vec![vec![], vec![0, 3], vec![1, 2]]);
        let fonts = crate::render::faces::fonts::builtin();
        let pdf = write_pdf("t", &pages, &fonts).unwrap();
        assert_eq!(pdf, write_pdf("t", &pages, &fonts).unwrap());
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        assert_eq!(doc.get_pages().len(), 3);
    }

    #[test]
    #[cfg_attr(
        not(krilla_glyph_runs),
        ignore = "krilla-svg as published (a published printplay) draws glyph by glyph"
    )]
    fn a_line_of_text_is_one_glyph_run_and_a_turned_line_too() {
        // krilla-svg as published draws every glyph as its own text object (its own
        // transform, paint and font selection); the vendored one draws a line as one run.
        let fonts = crate::render::faces::fonts::builtin();
        let body = r##"<text x="5" y="10" font-family="DejaVu Sans" font-size="4" fill="#222">Auction House</text><text transform="translate(40 40) rotate(-90)" font-family="DejaVu Sans" font-size="3" fill="blue">Glue here</text>"##;
        let pdf = write_pdf(
            "t",
            &[PageSpec::new((60.0, 60.0), body.to_string())],
            &fonts,
        )
        .unwrap();
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        let page = *doc.get_pages().values().next().unwrap();
        let content = doc.get_and_decode_page_content(page).unwrap();
        let count = |op: &str| {
            content
                .operations
                .iter()
                .filter(|o| o.operator == op)
                .count()
        };
        assert_eq!(count("BT"), 2, "one text object a line");
        // Every glyph is shown, in runs: 13 and 9 glyphs, each line in one TJ or Tj.
        assert_eq!(count("TJ") + count("Tj"), 2);
        let glyphs: usize = content
            .operations
            .iter()
            .filter(|o| o.operator == "TJ")
            .flat_map(|o| o.operands[0].as_array().unwrap())
            .filter_map(|item| item.as_str().ok())
            .map(|s| s.len() / 2)
            .sum();
        assert_eq!(glyphs, "Auction House".len() + "Glue here".len());
    }

    #[test]
    fn the_first_page_that_cannot_be_read_is_the_error() {
        let fonts = crate::render::faces::fonts::builtin();
        let pages = [
            PageSpec::new((50.0, 50.0), "<rect width=\"5\" height=\"5\"/>".to_string()),
            PageSpec::new((50.0, 50.0), "<rect".to_string()),
        ];
        let e = write_pdf("t", &pages, &fonts).expect_err("an error");
        assert!(e.contains("SVG could not be read"), "{e}");
        assert!(write_pdf("t", &pages[..1], &fonts).is_ok());
    }
}
