//! Pages drawn as SVG (millimetre user units) turned into a vector PDF by krilla and
//! krilla-svg, with the bundled fonts embedded and subset, and TrimBox and BleedBox set.

use krilla::Document;
use krilla::geom::{Rect as KRect, Size};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla_svg::{SurfaceExt, SvgSettings};

use super::fonts::FontDb;
use super::layout::Rect;

/// Points per millimetre.
pub const PT_PER_MM: f64 = 72.0 / 25.4;

/// One page: its SVG and, for card sheets, the trim and bleed of the block of cards.
pub struct PageSpec {
    pub svg: String,
    pub size_mm: (f64, f64),
    pub trim: Option<Rect>,
    pub bleed: Option<Rect>,
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
    usvg::Options {
        fontdb: fonts.clone(),
        font_family: "DejaVu Sans".to_string(),
        resources_dir: None,
        // Art only from the files the game's data names; never any other file.
        image_href_resolver: super::images::href_resolver(),
        ..Default::default()
    }
}

/// Parses an SVG page with `fonts`.
pub fn parse(svg: &str, fonts: &FontDb) -> Result<usvg::Tree, String> {
    usvg::Tree::from_str(svg, &usvg_options(fonts))
        .map_err(|e| format!("SVG could not be read: {e}"))
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
///
/// Pages are read a batch at a time (one page per core, each on a thread of its own, not the
/// thread pool's, whose threads may all be drawing other PDFs) while krilla draws the batch
/// before on this thread: reading, the larger part, and drawing overlap, and only two batches
/// of parsed pages are held at once.
pub fn write_pdf(title: &str, pages: &[PageSpec], fonts: &FontDb) -> Result<Vec<u8>, String> {
    let mut doc = Document::new();
    doc.set_metadata(
        Metadata::new()
            .title(title.to_string())
            .creator("printplay".to_string()),
    );
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut batches = pages.chunks(cores);
    let mut current = match batches.next() {
        Some(specs) => Some((specs, std::thread::scope(|s| read_pages(s, specs, fonts))?)),
        None => None,
    };
    while let Some((specs, trees)) = current.take() {
        let next = batches.next();
        let (drawn, read) = std::thread::scope(|s| {
            let reading = next.map(|specs| (specs, read_pages_later(s, specs, fonts)));
            let drawn = draw_pages(&mut doc, specs, &trees);
            (drawn, reading.map(|(specs, wait)| (specs, wait())))
        });
        drawn?;
        current = match read {
            Some((specs, trees)) => Some((specs, trees?)),
            None => None,
        };
    }
    doc.finish()
        .map_err(|e| format!("PDF could not be written: {e:?}"))
}

/// Parses pages, each on a thread of its own, and waits for them.
fn read_pages<'s>(
    scope: &'s std::thread::Scope<'s, '_>,
    specs: &'s [PageSpec],
    fonts: &'s FontDb,
) -> Result<Vec<usvg::Tree>, String> {
    read_pages_later(scope, specs, fonts)()
}

/// Starts parsing pages, each on a thread of its own; the returned function waits for them.
fn read_pages_later<'s>(
    scope: &'s std::thread::Scope<'s, '_>,
    specs: &'s [PageSpec],
    fonts: &'s FontDb,
) -> impl FnOnce() -> Result<Vec<usvg::Tree>, String> + 's {
    let readers: Vec<_> = specs
        .iter()
        .map(|spec| scope.spawn(move || parse(&spec.svg, fonts)))
        .collect();
    move || {
        readers
            .into_iter()
            .map(|r| {
                r.join()
                    .unwrap_or_else(|_| Err("a page could not be read".to_string()))
            })
            .collect()
    }
}

/// Draws parsed pages onto the end of the document, in order.
fn draw_pages(doc: &mut Document, specs: &[PageSpec], trees: &[usvg::Tree]) -> Result<(), String> {
    for (spec, tree) in specs.iter().zip(trees) {
        let k = PT_PER_MM as f32;
        let size = Size::from_wh(spec.size_mm.0 as f32 * k, spec.size_mm.1 as f32 * k)
            .ok_or("a page has no size")?;
        let settings = PageSettings::new(size)
            .with_trim_box(spec.trim.and_then(to_krilla))
            .with_bleed_box(spec.bleed.and_then(to_krilla));
        let mut page = doc.start_page_with(settings);
        let mut surface = page.surface();
        let settings = SvgSettings {
            embed_text: true,
            ..Default::default()
        };
        surface
            .draw_svg(tree, size, settings)
            .ok_or("krilla could not draw a page")?;
        surface.finish();
        page.finish();
    }
    Ok(())
}
