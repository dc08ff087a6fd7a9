//! Raster exports with resvg: single faces at 300 dpi and Tabletop Simulator deck sheets.
//!
//! PNG encoding, not rasterising, was most of the build's time (zlib level 6 with adaptive
//! filters over 3 MB per card). Faces are flat colour, so the `png` crate's fastest setting
//! (fdeflate with the Up row filter) encodes them ten times faster; the files are about
//! three times larger (about 140 KB for a poker card at 300 dpi).

use std::borrow::Cow;
use std::io::Cursor;

use rayon::prelude::*;
use resvg::tiny_skia;

use crate::render::faces::fonts::FontDb;
use crate::render::trees::{self, Trees};

/// Pixels per millimetre at 300 dpi.
pub const PX_PER_MM_300DPI: f64 = 300.0 / 25.4;

/// Renders an SVG whose size is `size_mm` to PNG at `px_per_mm`, with its resolution in a
/// pHYs chunk so image editors and print shops read the intended size. Text is set in
/// `fonts` (as everywhere below); a document is read through `trees` when given (the build's,
/// which reads each document once).
pub fn render_png(
    svg: &str,
    size_mm: (f64, f64),
    px_per_mm: f64,
    fonts: &FontDb,
    trees: Option<&Trees>,
) -> Result<Vec<u8>, String> {
    let pixmap = rasterise(svg, size_mm, px_per_mm, fonts, trees)?;
    let png = encode_at(&pixmap, Some(px_per_mm));
    recycle(pixmap);
    png
}

/// Renders an SVG whose size is `size_mm` to a pixmap at `px_per_mm`.
pub fn rasterise(
    svg: &str,
    size_mm: (f64, f64),
    px_per_mm: f64,
    fonts: &FontDb,
    trees: Option<&Trees>,
) -> Result<tiny_skia::Pixmap, String> {
    rasterise_to(svg, pixels(size_mm, px_per_mm), fonts, trees)
}

/// The part `(x0, y0, x1, y1)` (pixels, end exclusive) of an SVG document drawn to fill
/// `full` pixels: the pixels [`rasterise`] would draw there, without drawing the rest. The
/// document is read through `trees` when given.
pub fn rasterise_part(
    svg: &str,
    full: (u32, u32),
    (x0, y0, x1, y1): (u32, u32, u32, u32),
    fonts: &FontDb,
    trees: Option<&Trees>,
) -> Result<tiny_skia::Pixmap, String> {
    within_cap(full.0, full.1)?;
    let (w, h) = (x1.saturating_sub(x0), y1.saturating_sub(y0));
    let tree = trees::raster(trees, svg, fonts)?;
    let mut pixmap = blank(w, h).ok_or_else(|| format!("cannot allocate {w} x {h} pixels"))?;
    let sx = full.0 as f32 / tree.size().width();
    let sy = full.1 as f32 / tree.size().height();
    resvg::render(
        &tree,
        tiny_skia::Transform::from_row(sx, 0.0, 0.0, sy, -(x0 as f32), -(y0 as f32)),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// Whole pixels covering `size_mm` at `px_per_mm`.
pub fn pixels(size_mm: (f64, f64), px_per_mm: f64) -> (u32, u32) {
    let w = (size_mm.0 * px_per_mm).round().max(1.0) as u32;
    let h = (size_mm.1 * px_per_mm).round().max(1.0) as u32;
    (w, h)
}

/// A picture of `w` x `h` pixels is refused past [`crate::limits::RASTER_MAX_PIXELS`] rather
/// than asked of the allocator (the checks keep every size below it; this is the guard behind
/// them).
pub fn within_cap(w: u32, h: u32) -> Result<(), String> {
    let cap = crate::limits::RASTER_MAX_PIXELS;
    if u64::from(w) * u64::from(h) > cap {
        return Err(format!(
            "its picture would be {w} x {h} pixels, past the cap of {} million pixels",
            cap / 1_000_000
        ));
    }
    Ok(())
}

thread_local! {
    /// The pixels of the last picture this thread drew and encoded ([`recycle`]), reused for
    /// the next: a new picture's memory is written once (zeroed) instead of being mapped
    /// page by page (a 300 dpi face is 3.6 MB; faulting its pages in cost more than drawing
    /// some faces).
    static SPARE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A transparent picture of `w` x `h` pixels, in this thread's spare memory when it has some.
fn blank(w: u32, h: u32) -> Option<tiny_skia::Pixmap> {
    let size = tiny_skia::IntSize::from_wh(w, h)?;
    let len = (w as usize).checked_mul(h as usize)?.checked_mul(4)?;
    let mut data = SPARE.with(|s| std::mem::take(&mut *s.borrow_mut()));
    if data.capacity() < len {
        return tiny_skia::Pixmap::new(w, h);
    }
    data.clear();
    data.resize(len, 0);
    tiny_skia::Pixmap::from_vec(data, size)
}

/// Gives a picture's memory back to this thread for the next [`blank`] (the larger of the
/// two is kept).
pub fn recycle(pixmap: tiny_skia::Pixmap) {
    let data = pixmap.take();
    SPARE.with(|s| {
        let mut spare = s.borrow_mut();
        if data.capacity() > spare.capacity() {
            *spare = data;
        }
    });
}

/// Renders an SVG document scaled to fill `w` x `h` pixels.
fn rasterise_to(
    svg: &str,
    (w, h): (u32, u32),
    fonts: &FontDb,
    trees: Option<&Trees>,
) -> Result<tiny_skia::Pixmap, String> {
    rasterise_part(svg, (w, h), (0, 0, w, h), fonts, trees)
}

/// A grid of `cols` x `rows` equal slots of whole pixels, each slot holding one SVG document
/// of `size_mm` at `px_per_mm`: `faces[i]` in slot `i`, and `last` (if any) in the final slot.
/// Each face is rendered on its own (in parallel) and copied in, so nothing needs clipping.
pub fn grid(
    faces: &[String],
    last: Option<&str>,
    grid: (u32, u32),
    size_mm: (f64, f64),
    px_per_mm: f64,
    fonts: &FontDb,
    trees: Option<&Trees>,
) -> Result<tiny_skia::Pixmap, String> {
    let bands = GridBands::new(faces, last, grid, size_mm, px_per_mm, fonts, trees)?;
    let mut sheet = tiny_skia::Pixmap::new(bands.width(), bands.height())
        .ok_or_else(|| format!("cannot allocate a {} x {} sheet", grid.0, grid.1))?;
    let band_len = bands.band_len();
    for (i, chunk) in sheet.data_mut().chunks_exact_mut(band_len).enumerate() {
        chunk.copy_from_slice(&bands.band(i)?);
    }
    Ok(sheet)
}

/// [`grid`] encoded as a PNG without a stated resolution, as [`encode`] would encode it,
/// byte for byte, but drawn and encoded a row of the grid at a time: a whole sheet (up to
/// 4096 x 4096 pixels, 64 MB) is never held.
pub fn grid_png(
    faces: &[String],
    last: Option<&str>,
    grid: (u32, u32),
    size_mm: (f64, f64),
    px_per_mm: f64,
    fonts: &FontDb,
    trees: Option<&Trees>,
) -> Result<Vec<u8>, String> {
    encode_bands(
        &GridBands::new(faces, last, grid, size_mm, px_per_mm, fonts, trees)?,
        None,
    )
}

/// A picture handed to the encoder a band of whole pixel rows at a time (premultiplied
/// RGBA, as tiny-skia holds it), from the top, as often as the encoder asks.
trait Bands {
    fn width(&self) -> u32;
    fn height(&self) -> u32;
    fn count(&self) -> usize;
    fn band(&self, i: usize) -> Result<Cow<'_, [u8]>, String>;
    /// Whether some pixel is known not to be opaque before any band is drawn (a grid with
    /// empty slots): such a picture is encoded as RGBA straight away, instead of being drawn
    /// once as RGB until the first such pixel and then again.
    fn surely_translucent(&self) -> bool {
        false
    }
    /// A band's memory, done with: kept for the next band when the picture has a use for it.
    fn give_back(&self, _band: Vec<u8>) {}
}

impl Bands for tiny_skia::Pixmap {
    fn width(&self) -> u32 {
        tiny_skia::Pixmap::width(self)
    }
    fn height(&self) -> u32 {
        tiny_skia::Pixmap::height(self)
    }
    fn count(&self) -> usize {
        1
    }
    fn band(&self, _: usize) -> Result<Cow<'_, [u8]>, String> {
        Ok(Cow::Borrowed(self.data()))
    }
}

/// A grid of faces, a row of slots per band.
struct GridBands<'a> {
    /// The faces of each row of the grid: (column, document).
    rows: Vec<Vec<(u32, &'a str)>>,
    cols: u32,
    /// Some slot holds no face (and stays transparent).
    empty_slots: bool,
    /// One slot's pixels.
    slot: (u32, u32),
    fonts: &'a FontDb,
    trees: Option<&'a Trees>,
    /// The memory of the last band encoded, for the next.
    spare: std::sync::Mutex<Vec<u8>>,
}

impl<'a> GridBands<'a> {
    fn new(
        faces: &'a [String],
        last: Option<&'a str>,
        (cols, rows): (u32, u32),
        size_mm: (f64, f64),
        px_per_mm: f64,
        fonts: &'a FontDb,
        trees: Option<&'a Trees>,
    ) -> Result<GridBands<'a>, String> {
        let slots = cols * rows;
        if faces.len() + usize::from(last.is_some()) > slots as usize {
            return Err(format!("{} faces do not fit {slots} slots", faces.len()));
        }
        let (w, h) = pixels(size_mm, px_per_mm);
        let (sheet_w, sheet_h) = (
            u64::from(w) * u64::from(cols),
            u64::from(h) * u64::from(rows),
        );
        let cap = crate::limits::RASTER_MAX_PIXELS;
        if sheet_w.saturating_mul(sheet_h) > cap {
            return Err(format!(
                "its sheet would be {sheet_w} x {sheet_h} pixels, past the cap of {} million pixels",
                cap / 1_000_000
            ));
        }
        if tiny_skia::IntSize::from_wh(w * cols, h * rows).is_none() {
            return Err(format!(
                "cannot allocate a {cols} x {rows} sheet of {w} x {h} pixels"
            ));
        }
        let mut by_row = vec![Vec::new(); rows as usize];
        for (slot, svg) in (0..)
            .zip(faces.iter().map(String::as_str))
            .chain(last.map(|l| (slots - 1, l)))
        {
            by_row[(slot / cols) as usize].push((slot % cols, svg));
        }
        Ok(GridBands {
            rows: by_row,
            cols,
            empty_slots: faces.len() + usize::from(last.is_some()) < slots as usize,
            slot: (w, h),
            fonts,
            trees,
            spare: std::sync::Mutex::new(Vec::new()),
        })
    }

    /// Bytes of one band: a row of slots.
    fn band_len(&self) -> usize {
        (self.slot.0 * self.cols * 4 * self.slot.1) as usize
    }
}

impl Bands for GridBands<'_> {
    fn width(&self) -> u32 {
        self.slot.0 * self.cols
    }
    fn height(&self) -> u32 {
        self.slot.1 * self.rows.len() as u32
    }
    fn count(&self) -> usize {
        self.rows.len()
    }
    fn surely_translucent(&self) -> bool {
        self.empty_slots
    }
    fn give_back(&self, band: Vec<u8>) {
        *self.spare.lock().unwrap_or_else(|e| e.into_inner()) = band;
    }
    fn band(&self, i: usize) -> Result<Cow<'_, [u8]>, String> {
        let (w, h) = self.slot;
        let rendered: Vec<(u32, tiny_skia::Pixmap)> = self.rows[i]
            .par_iter()
            .map(|&(col, svg)| rasterise_to(svg, (w, h), self.fonts, self.trees).map(|p| (col, p)))
            .collect::<Result<_, _>>()?;
        // Empty slots stay transparent. The memory of the row before is used again (a row of
        // ten faces is 9 MB: mapping it in anew each row cost more than drawing some faces).
        let mut band = std::mem::take(&mut *self.spare.lock().unwrap_or_else(|e| e.into_inner()));
        band.clear();
        band.resize(self.band_len(), 0);
        let stride = (w * self.cols * 4) as usize;
        let row_bytes = (w * 4) as usize;
        for (col, face) in rendered {
            let x = (col * w) as usize * 4;
            for (r, line) in face.data().chunks_exact(row_bytes).enumerate() {
                let start = r * stride + x;
                band[start..start + row_bytes].copy_from_slice(line);
            }
            recycle(face);
        }
        Ok(Cow::Owned(band))
    }
}

/// Encodes a pixmap as PNG without a stated resolution (screen images such as Tabletop
/// Simulator sheets). Same pixels, same bytes.
pub fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, String> {
    encode_at(pixmap, None)
}

/// Pixels per metre, as the PNG pHYs chunk states resolution.
fn pixels_per_metre(px_per_mm: f64) -> u32 {
    (px_per_mm * 1000.0).round() as u32
}

/// Encodes a pixmap as PNG, stating `px_per_mm` (when given) in a pHYs chunk: RGB when
/// every pixel is opaque, else RGBA (straight colour), and always marked sRGB (an sRGB
/// chunk, perceptual intent), the colour space everything is drawn in.
pub fn encode_at(pixmap: &tiny_skia::Pixmap, px_per_mm: Option<f64>) -> Result<Vec<u8>, String> {
    encode_bands(pixmap, px_per_mm)
}

fn failed(e: impl std::fmt::Display) -> String {
    format!("PNG could not be encoded: {e}")
}

/// The PNG of a picture given band by band (see [`encode_at`] for what it holds). The bytes
/// are those of the `png` crate's `write_image_data` with fdeflate and the Up filter (one
/// IDAT chunk of fdeflate's stream, or of stored blocks where that stream would be larger),
/// made a pixel row at a time: a picture is never copied whole. The picture is read as
/// opaque first; a pixel that is not sends it through again as RGBA.
fn encode_bands(src: &dyn Bands, px_per_mm: Option<f64>) -> Result<Vec<u8>, String> {
    let opaque_pass = if src.surely_translucent() {
        None
    } else {
        zlib_stream(src, true)?
    };
    let (opaque, zlib) = match opaque_pass {
        Some(z) => (true, z),
        None => (
            false,
            zlib_stream(src, false)?.ok_or_else(|| failed("RGBA refused"))?,
        ),
    };
    let mut out = Vec::with_capacity(zlib.len() + 128);
    let mut encoder = ::png::Encoder::new(&mut out, src.width(), src.height());
    encoder.set_color(if opaque {
        ::png::ColorType::Rgb
    } else {
        ::png::ColorType::Rgba
    });
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_source_srgb(::png::SrgbRenderingIntent::Perceptual);
    encoder.set_deflate_compression(::png::DeflateCompression::FdeflateUltraFast);
    encoder.set_filter(::png::Filter::Up);
    if let Some(density) = px_per_mm.map(pixels_per_metre) {
        encoder.set_pixel_dims(Some(::png::PixelDimensions {
            xppu: density,
            yppu: density,
            unit: ::png::Unit::Meter,
        }));
    }
    let mut writer = encoder.write_header().map_err(failed)?;
    writer
        .write_chunk(::png::chunk::IDAT, &zlib)
        .map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(out)
}

/// One pass over the picture: the zlib stream of its rows as RGB (`opaque`; `None` as soon
/// as a pixel is not) or straight RGBA, each row Up-filtered as `png` filters it.
fn zlib_stream(src: &dyn Bands, opaque: bool) -> Result<Option<Vec<u8>>, String> {
    let channels = if opaque { 3 } else { 4 };
    let in_len = src.width() as usize * channels;
    let rgba_len = src.width() as usize * 4;
    let mut line = vec![0; in_len];
    let mut prev = vec![0; in_len];
    // The filter type byte, then the filtered row.
    let mut current = vec![0; in_len + 1];
    current[0] = 2; // Up
    let mut compressor = fdeflate::Compressor::new(Cursor::new(Vec::new())).map_err(failed)?;
    for i in 0..src.count() {
        let band = src.band(i)?;
        for row in band.chunks_exact(rgba_len) {
            if !to_line(row, opaque, &mut line) {
                return Ok(None);
            }
            for ((out, cur), up) in current[1..].iter_mut().zip(&line).zip(&prev) {
                *out = cur.wrapping_sub(*up);
            }
            compressor.write_data(&current).map_err(failed)?;
            std::mem::swap(&mut line, &mut prev);
        }
        if let Cow::Owned(band) = band {
            src.give_back(band);
        }
    }
    let compressed = compressor.finish().map_err(failed)?.into_inner();
    let raw = (in_len + 1) * src.height() as usize;
    if compressed.len() <= fdeflate::StoredOnlyCompressor::<()>::compressed_size(raw) {
        return Ok(Some(compressed));
    }
    // Larger than the rows themselves: stored blocks of unfiltered rows, as `png` falls
    // back to.
    let mut stored =
        fdeflate::StoredOnlyCompressor::new(Cursor::new(Vec::new())).map_err(failed)?;
    for i in 0..src.count() {
        let band = src.band(i)?;
        for row in band.chunks_exact(rgba_len) {
            to_line(row, opaque, &mut line);
            stored.write_data(&[0]).map_err(failed)?;
            stored.write_data(&line).map_err(failed)?;
        }
        if let Cow::Owned(band) = band {
            src.give_back(band);
        }
    }
    Ok(Some(stored.finish().map_err(failed)?.into_inner()))
}

/// A row of premultiplied RGBA as PNG pixels: RGB (`false` when a pixel is not opaque), or
/// straight RGBA.
fn to_line(row: &[u8], opaque: bool, line: &mut [u8]) -> bool {
    if opaque {
        // A fold without early exit over the row read as words (two pixels each) vectorises:
        // every alpha byte is full when the alpha bytes of the words' AND are.
        const ALPHAS: u64 = 0xFF00_0000_FF00_0000;
        let mut words = row.chunks_exact(8);
        let all = (&mut words).fold(u64::MAX, |a, w| {
            a & w.first_chunk::<8>().map_or(0, |w| u64::from_le_bytes(*w))
        });
        let rest = words
            .remainder()
            .chunks_exact(4)
            .fold(u8::MAX, |a, p| a & p[3]);
        if all & ALPHAS != ALPHAS || rest != u8::MAX {
            return false;
        }
        // Premultiplied colour equals straight colour where alpha is full. Four pixels at a
        // time, read as two words: their colour bytes packed into a word and a half, two
        // stores (a byte or a three-byte copy at a time was most of the time this took).
        let mut to = line.chunks_exact_mut(12);
        let mut from = row.chunks_exact(16);
        for (to, from) in (&mut to).zip(&mut from) {
            // Two words of two pixels each, read whole.
            let (Some(lo), Some(hi)) = (from.first_chunk::<8>(), from.last_chunk::<8>()) else {
                continue;
            };
            let (lo, hi) = (u64::from_le_bytes(*lo), u64::from_le_bytes(*hi));
            const RGB: u64 = 0xFF_FFFF;
            let (a, b, c, d) = (lo & RGB, lo >> 32 & RGB, hi & RGB, hi >> 32 & RGB);
            to[..8].copy_from_slice(&(a | b << 24 | c << 48).to_le_bytes());
            to[8..].copy_from_slice(&(((c >> 16) | d << 8) as u32).to_le_bytes());
        }
        for (to, from) in to
            .into_remainder()
            .chunks_exact_mut(3)
            .zip(from.remainder().chunks_exact(4))
        {
            to.copy_from_slice(&from[..3]);
        }
    } else {
        demultiply(row, line);
    }
    true
}

/// Straight (not premultiplied) RGBA bytes of premultiplied ones.
fn demultiply(data: &[u8], rgba: &mut [u8]) {
    for (to, from) in rgba.chunks_exact_mut(4).zip(data.chunks_exact(4)) {
        match from[3] {
            0 => to.fill(0),
            u8::MAX => to.copy_from_slice(from),
            a => {
                let c = tiny_skia::PremultipliedColorU8::from_rgba(from[0], from[1], from[2], a)
                    .expect("a pixmap holds premultiplied colour")
                    .demultiply();
                to.copy_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::faces::fonts::builtin;
    use crate::render::formats::pdf::svg_page;

    fn decode(bytes: &[u8]) -> (::png::OutputInfo, Vec<u8>) {
        let mut reader = ::png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info, buf)
    }

    fn pixel(buf: &[u8], width: u32, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * width + x) * 4) as usize;
        [buf[i], buf[i + 1], buf[i + 2], buf[i + 3]]
    }

    /// A part of a picture holds, pixel for pixel, what the whole picture holds there (the
    /// contrast check draws only what lies under text), whatever the art: curves, a clip, a
    /// translucent group, a gradient.
    #[test]
    fn a_part_drawn_alone_is_that_part_of_the_whole() {
        let svg = svg_page(
            (63.0, 88.0),
            r##"<defs><linearGradient id="g"><stop offset="0" stop-color="#c33"/><stop offset="1" stop-color="#33c"/></linearGradient><clipPath id="c"><circle cx="30" cy="40" r="25"/></clipPath></defs><rect x="2" y="3" width="59" height="82" rx="4" fill="url(#g)"/><g clip-path="url(#c)" opacity="0.6"><path d="M5 10 C 20 80, 40 -20, 58 70 Z" fill="#2a2"/></g><circle cx="47.3" cy="61.1" r="9.7" fill="none" stroke="#000" stroke-width="0.7"/>"##,
        );
        let fonts = builtin();
        for px_per_mm in [2.0, 3.7] {
            let whole = rasterise(&svg, (63.0, 88.0), px_per_mm, &fonts, None).unwrap();
            let full = (whole.width(), whole.height());
            for part in [(0, 0, full.0, full.1), (7, 11, 60, 90), (31, 2, 33, 40)] {
                let (x0, y0, x1, y1) = part;
                let (x1, y1) = (x1.min(full.0), y1.min(full.1));
                let drawn = rasterise_part(&svg, full, (x0, y0, x1, y1), &fonts, None).unwrap();
                assert_eq!((drawn.width(), drawn.height()), (x1 - x0, y1 - y0));
                for y in y0..y1 {
                    for x in x0..x1 {
                        assert_eq!(
                            drawn.pixel(x - x0, y - y0),
                            whole.pixel(x, y),
                            "at {x},{y} of part {part:?} at {px_per_mm} px/mm"
                        );
                    }
                }
            }
        }
    }

    /// A picture past the cap is refused before anything is allocated (a 3000 mm hex board
    /// at 8 px/mm asked tiny-skia for 20 GB and aborted).
    #[test]
    fn a_picture_past_the_cap_is_refused_not_allocated() {
        let svg = svg_page((10.0, 10.0), "<rect width=\"5\" height=\"5\"/>");
        for size in [(20_000.0, 20_000.0), (1e12, 1e12), (f64::MAX, 1.0)] {
            let e = rasterise(&svg, size, 8.0, &builtin(), None).expect_err("refused");
            assert!(e.contains("past the cap of 100 million pixels"), "{e}");
        }
        let e = grid(
            std::slice::from_ref(&svg),
            None,
            (1000, 1000),
            (63.0, 88.0),
            8.0,
            &builtin(),
            None,
        )
        .expect_err("refused");
        assert!(e.contains("past the cap"), "{e}");
        assert!(rasterise(&svg, (1000.0, 1000.0), 8.0, &builtin(), None).is_ok());
    }

    #[test]
    fn transparent_and_translucent_pixels_keep_straight_colour() {
        let svg = svg_page(
            (10.0, 10.0),
            r##"<rect width="5" height="10" fill="#ff0000"/><rect x="5" width="2" height="10" fill="#0000ff" fill-opacity="0.5"/>"##,
        );
        let (info, buf) = decode(&render_png(&svg, (10.0, 10.0), 2.0, &builtin(), None).unwrap());
        assert_eq!((info.width, info.height), (20, 20));
        assert_eq!(info.color_type, ::png::ColorType::Rgba);
        assert_eq!(pixel(&buf, 20, 0, 0), [255, 0, 0, 255], "opaque red");
        let half = pixel(&buf, 20, 11, 5);
        assert_eq!(&half[..3], &[0, 0, 255], "demultiplied blue, not darkened");
        assert!(
            (126..=129).contains(&half[3]),
            "half alpha, found {}",
            half[3]
        );
        assert_eq!(pixel(&buf, 20, 19, 19)[3], 0, "right part is transparent");
    }

    #[test]
    fn an_opaque_row_becomes_its_colour_bytes_at_every_width() {
        for width in 0..=13usize {
            let row: Vec<u8> = (0..width * 4)
                .map(|i| {
                    if i % 4 == 3 {
                        255
                    } else {
                        (i * 37 % 251) as u8
                    }
                })
                .collect();
            let mut line = vec![0xAA; width * 3];
            assert!(to_line(&row, true, &mut line));
            let want: Vec<u8> = row.chunks_exact(4).flat_map(|p| p[..3].to_vec()).collect();
            assert_eq!(line, want, "{width} pixels");
            for at in (0..width).filter(|&i| i == 0 || i == width / 2 || i + 1 == width) {
                let mut seen = row.clone();
                seen[at * 4 + 3] = 254;
                assert!(!to_line(&seen, true, &mut line), "pixel {at} not opaque");
            }
        }
    }

    #[test]
    fn opaque_images_keep_their_colour_and_are_stable() {
        let svg = svg_page(
            (10.0, 10.0),
            r##"<rect width="10" height="10" fill="#336699"/>"##,
        );
        let a = render_png(&svg, (10.0, 10.0), 3.0, &builtin(), None).unwrap();
        assert_eq!(
            a,
            render_png(&svg, (10.0, 10.0), 3.0, &builtin(), None).unwrap()
        );
        let (info, buf) = decode(&a);
        // Opaque: RGB, no alpha channel, marked sRGB.
        assert_eq!(info.color_type, ::png::ColorType::Rgb);
        let i = ((29 * 30 + 29) * 3) as usize;
        assert_eq!(&buf[i..i + 3], &[0x33, 0x66, 0x99]);
        let reader = ::png::Decoder::new(std::io::Cursor::new(&a))
            .read_info()
            .unwrap();
        assert_eq!(
            reader.info().srgb,
            Some(::png::SrgbRenderingIntent::Perceptual)
        );
    }

    #[test]
    fn single_images_state_their_resolution() {
        let svg = svg_page(
            (10.0, 10.0),
            r##"<rect width="10" height="10" fill="#123456"/>"##,
        );
        let bytes = render_png(&svg, (10.0, 10.0), PX_PER_MM_300DPI, &builtin(), None).unwrap();
        let (info, _) = decode(&bytes);
        assert_eq!((info.width, info.height), (118, 118));
        let reader = ::png::Decoder::new(std::io::Cursor::new(&bytes))
            .read_info()
            .unwrap();
        let dims = reader.info().pixel_dims.expect("a pHYs chunk");
        assert_eq!(dims.unit, ::png::Unit::Meter);
        // 300 dpi is 11 811 pixels per metre.
        assert_eq!((dims.xppu, dims.yppu), (11811, 11811));
        let sheet = rasterise(&svg, (10.0, 10.0), 2.0, &builtin(), None).unwrap();
        let reader = ::png::Decoder::new(std::io::Cursor::new(encode(&sheet).unwrap()))
            .read_info()
            .unwrap();
        assert!(
            reader.info().pixel_dims.is_none(),
            "screen images carry no dpi"
        );
    }

    #[test]
    fn grid_puts_each_face_in_its_slot_and_the_last_in_the_final_slot() {
        let face = |fill: &str| {
            svg_page(
                (4.0, 6.0),
                &format!(r#"<rect x="-3" y="-3" width="10" height="12" fill="{fill}"/>"#),
            )
        };
        let faces = vec![face("#ff0000"), face("#00ff00")];
        let sheet = grid(
            &faces,
            Some(&face("#0000ff")),
            (3, 2),
            (4.0, 6.0),
            2.0,
            &builtin(),
            None,
        )
        .unwrap();
        assert_eq!((sheet.width(), sheet.height()), (24, 24));
        let (_, buf) = decode(&encode(&sheet).unwrap());
        // Art beyond a face's edge (its bleed) stays inside its own slot.
        assert_eq!(pixel(&buf, 24, 0, 0), [255, 0, 0, 255]);
        assert_eq!(pixel(&buf, 24, 7, 11), [255, 0, 0, 255]);
        assert_eq!(pixel(&buf, 24, 8, 0), [0, 255, 0, 255]);
        assert_eq!(pixel(&buf, 24, 16, 0)[3], 0, "an empty slot is transparent");
        assert_eq!(pixel(&buf, 24, 16, 12), [0, 0, 255, 255]);
        assert_eq!(pixel(&buf, 24, 23, 23), [0, 0, 255, 255]);
        let too_many = vec![face("#ff0000"); 6];
        assert!(
            grid(
                &too_many,
                Some(&faces[0]),
                (3, 2),
                (4.0, 6.0),
                2.0,
                &builtin(),
                None
            )
            .is_err()
        );
        assert!(grid(&too_many, None, (3, 2), (4.0, 6.0), 2.0, &builtin(), None).is_ok());
    }

    /// What the `png` crate writes for a whole pixmap (the encoder before it went row by
    /// row): the bytes [`encode_at`] must keep.
    fn whole(pixmap: &tiny_skia::Pixmap, px_per_mm: Option<f64>) -> Vec<u8> {
        let data = pixmap.data();
        let opaque = data.chunks_exact(4).all(|p| p[3] == u8::MAX);
        let pixels: Vec<u8> = if opaque {
            data.chunks_exact(4).flat_map(|p| p[..3].to_vec()).collect()
        } else {
            let mut rgba = vec![0; data.len()];
            demultiply(data, &mut rgba);
            rgba
        };
        let mut out = Vec::new();
        let mut encoder = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        encoder.set_color(if opaque {
            ::png::ColorType::Rgb
        } else {
            ::png::ColorType::Rgba
        });
        encoder.set_depth(::png::BitDepth::Eight);
        encoder.set_source_srgb(::png::SrgbRenderingIntent::Perceptual);
        encoder.set_deflate_compression(::png::DeflateCompression::FdeflateUltraFast);
        encoder.set_filter(::png::Filter::Up);
        if let Some(density) = px_per_mm.map(pixels_per_metre) {
            encoder.set_pixel_dims(Some(::png::PixelDimensions {
                xppu: density,
                yppu: density,
                unit: ::png::Unit::Meter,
            }));
        }
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&pixels).unwrap();
        writer.finish().unwrap();
        out
    }

    #[test]
    fn row_by_row_encoding_writes_the_png_crates_bytes() {
        let flat = svg_page(
            (10.0, 10.0),
            r##"<rect width="10" height="10" fill="#336699"/><text x="1" y="6" font-size="3">Ab</text>"##,
        );
        let translucent = svg_page(
            (10.0, 10.0),
            r##"<rect width="5" height="10" fill="#ff0000"/><rect x="5" width="2" height="10" fill="#0000ff" fill-opacity="0.5"/>"##,
        );
        for (svg, ppm) in [(&flat, 3.0), (&translucent, 2.0), (&flat, PX_PER_MM_300DPI)] {
            let pixmap = rasterise(svg, (10.0, 10.0), ppm, &builtin(), None).unwrap();
            assert_eq!(
                encode_at(&pixmap, Some(ppm)).unwrap(),
                whole(&pixmap, Some(ppm))
            );
            assert_eq!(encode(&pixmap).unwrap(), whole(&pixmap, None));
        }
        // Noise does not compress: the stored fallback, opaque and not.
        let mut noise = tiny_skia::Pixmap::new(97, 41).unwrap();
        let mut x: u32 = 12345;
        for (i, b) in noise.data_mut().iter_mut().enumerate() {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            *b = if i % 4 == 3 { 255 } else { (x >> 16) as u8 };
        }
        let stored = whole(&noise, None);
        assert!(
            stored.len() > 97 * 41 * 3,
            "stored blocks, larger than the pixels"
        );
        assert_eq!(encode(&noise).unwrap(), stored);
        let mut see_through = noise.clone();
        for p in see_through.data_mut().chunks_exact_mut(4) {
            // Premultiplied: no channel above alpha.
            p[3] = 200;
            for c in &mut p[..3] {
                *c = (*c).min(200);
            }
        }
        assert_eq!(encode(&see_through).unwrap(), whole(&see_through, None));
    }

    #[test]
    fn a_grid_encoded_a_row_at_a_time_is_the_whole_grid_encoded() {
        let face = |fill: &str| {
            svg_page(
                (4.0, 6.0),
                &format!(r#"<rect x="-3" y="-3" width="10" height="12" fill="{fill}"/>"#),
            )
        };
        let faces: Vec<String> = ["#ff0000", "#00ff00", "#123456", "#abcdef"]
            .iter()
            .map(|c| face(c))
            .collect();
        for (n, last, grid_size) in [
            (4, None, (2, 2)),
            (3, Some(face("#0000ff")), (3, 2)),
            (2, None, (3, 3)),
        ] {
            let whole_sheet = grid(
                &faces[..n],
                last.as_deref(),
                grid_size,
                (4.0, 6.0),
                2.0,
                &builtin(),
                None,
            )
            .unwrap();
            assert_eq!(
                grid_png(
                    &faces[..n],
                    last.as_deref(),
                    grid_size,
                    (4.0, 6.0),
                    2.0,
                    &builtin(),
                    None
                )
                .unwrap(),
                whole(&whole_sheet, None),
                "{n} faces in {grid_size:?}"
            );
        }
    }

    /// Pixels of an SVG document drawn at its own size (one pixel a unit).
    fn drawn(svg: &str) -> tiny_skia::Pixmap {
        let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).unwrap();
        let size = tree.size().to_int_size();
        let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(
            &tree,
            tiny_skia::Transform::identity(),
            &mut pixmap.as_mut(),
        );
        pixmap
    }

    /// The largest difference of one channel of one pixel between two pictures.
    fn most_apart(a: &tiny_skia::Pixmap, b: &tiny_skia::Pixmap) -> u8 {
        let pairs = a.data().iter().zip(b.data());
        pairs.map(|(a, b)| a.abs_diff(*b)).max().unwrap_or(0)
    }

    fn doc(body: &str) -> String {
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" viewBox="0 0 20 20"><rect width="20" height="20" fill="#ffffff"/>{body}</svg>"##
        )
    }

    /// resvg as printplay patches it (vendor/resvg/PRINTPLAY.md) clips to a rectangle by each
    /// pixel's share of it: the columns inside are the content, the one the edge halves is
    /// half of each, the rest untouched.
    #[test]
    fn a_rectangle_clip_covers_the_pixel_its_edge_crosses_by_its_share() {
        let p = drawn(&doc(
            r##"<clipPath id="c"><rect width="10.5" height="20"/></clipPath><g clip-path="url(#c)"><rect width="20" height="20" fill="#000000"/></g>"##,
        ));
        for y in [0, 7, 19] {
            let at = |x| p.pixel(x, y).unwrap();
            assert_eq!((at(0).red(), at(9).red(), at(9).alpha()), (0, 0, 255));
            assert!((126..=129).contains(&at(10).red()), "{:?}", at(10));
            assert_eq!((at(11).red(), at(19).red()), (255, 255));
        }
        // A turned rectangle is clipped as before (by a mask of its picture), as is a
        // rectangle drawn with crisp edges.
        for clip in [
            r#"<rect width="10.5" height="20" transform="rotate(45 10 10)"/>"#,
            r#"<rect width="10.5" height="20" shape-rendering="crispEdges"/>"#,
        ] {
            let p = drawn(&doc(&format!(
                r##"<clipPath id="c">{clip}</clipPath><g clip-path="url(#c)"><rect width="20" height="20" fill="#000000"/></g>"##
            )));
            assert_eq!(p.pixel(5, 10).unwrap().red(), 0);
        }
    }

    /// A group's layer is drawn over the canvas as source-over in integers: the same pixels
    /// as the group's content drawn straight onto the canvas, to a level.
    #[test]
    fn a_layer_is_drawn_over_the_canvas_as_its_content_would_be() {
        let content = r##"<rect x="2" y="2" width="15.3" height="9.7" fill="#c03030" fill-opacity="0.55"/><circle cx="10" cy="12" r="6.2" fill="#2050a0" fill-opacity="0.8"/>"##;
        let straight = drawn(&doc(content));
        // A clip wider than the canvas makes the group a layer and changes no pixel.
        let layered = drawn(&doc(&format!(
            r#"<clipPath id="c"><rect x="-5" y="-5" width="30" height="30"/></clipPath><g clip-path="url(#c)">{content}</g>"#
        )));
        let most = most_apart(&straight, &layered);
        assert!(most <= 1, "{most}");
    }

    /// An SVG picture is drawn as its content placed where the picture goes would be.
    #[test]
    fn an_svg_picture_draws_as_its_content_would() {
        let content = r##"<circle cx="20" cy="20" r="13" fill="#2050a0" fill-opacity="0.7"/><path d="M2 30 L38 34 L20 4 Z" fill="#e0a020"/>"##;
        let art = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">{content}</svg>"#
        );
        use base64::Engine as _;
        let href = base64::engine::general_purpose::STANDARD.encode(art);
        let picture = drawn(&doc(&format!(
            r#"<image x="0" y="0" width="20" height="20" href="data:image/svg+xml;base64,{href}"/>"#
        )));
        let inlined = drawn(&doc(&format!(r#"<g transform="scale(0.5)">{content}</g>"#)));
        let most = most_apart(&picture, &inlined);
        assert!(most <= 1, "{most}");
    }
}
