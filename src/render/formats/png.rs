//! Raster exports with resvg: single faces at 300 dpi and Tabletop Simulator deck sheets.
//!
//! PNG encoding, not rasterising, was most of the build's time (zlib level 6 with adaptive
//! filters over 3 MB per card). Faces are flat colour, so the `png` crate's fastest setting
//! (fdeflate with the Up row filter) encodes them ten times faster; the files are about
//! three times larger (about 140 KB for a poker card at 300 dpi).

use rayon::prelude::*;
use resvg::tiny_skia;

use crate::render::fonts::FontDb;
use crate::render::pdf::parse_raster as parse;

/// Pixels per millimetre at 300 dpi.
pub const PX_PER_MM_300DPI: f64 = 300.0 / 25.4;

/// Renders an SVG whose size is `size_mm` to PNG at `px_per_mm`, with its resolution in a
/// pHYs chunk so image editors and print shops read the intended size. Text is set in
/// `fonts` (as everywhere below).
pub fn render_png(
    svg: &str,
    size_mm: (f64, f64),
    px_per_mm: f64,
    fonts: &FontDb,
) -> Result<Vec<u8>, String> {
    encode_at(&rasterise(svg, size_mm, px_per_mm, fonts)?, Some(px_per_mm))
}

/// Renders an SVG whose size is `size_mm` to a pixmap at `px_per_mm`.
pub fn rasterise(
    svg: &str,
    size_mm: (f64, f64),
    px_per_mm: f64,
    fonts: &FontDb,
) -> Result<tiny_skia::Pixmap, String> {
    rasterise_to(svg, pixels(size_mm, px_per_mm), fonts)
}

/// Whole pixels covering `size_mm` at `px_per_mm`.
pub fn pixels(size_mm: (f64, f64), px_per_mm: f64) -> (u32, u32) {
    let w = (size_mm.0 * px_per_mm).round().max(1.0) as u32;
    let h = (size_mm.1 * px_per_mm).round().max(1.0) as u32;
    (w, h)
}

/// Renders an SVG document scaled to fill `w` x `h` pixels.
fn rasterise_to(
    svg: &str,
    (w, h): (u32, u32),
    fonts: &FontDb,
) -> Result<tiny_skia::Pixmap, String> {
    let tree = parse(svg, fonts)?;
    let mut pixmap =
        tiny_skia::Pixmap::new(w, h).ok_or_else(|| format!("cannot allocate {w} x {h} pixels"))?;
    let sx = w as f32 / tree.size().width();
    let sy = h as f32 / tree.size().height();
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(sx, sy),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// A grid of `cols` x `rows` equal slots of whole pixels, each slot holding one SVG document
/// of `size_mm` at `px_per_mm`: `faces[i]` in slot `i`, and `last` (if any) in the final slot.
/// Each face is rendered on its own (in parallel) and copied in, so nothing needs clipping.
pub fn grid(
    faces: &[String],
    last: Option<&str>,
    (cols, rows): (u32, u32),
    size_mm: (f64, f64),
    px_per_mm: f64,
    fonts: &FontDb,
) -> Result<tiny_skia::Pixmap, String> {
    let slots = cols * rows;
    if faces.len() + usize::from(last.is_some()) > slots as usize {
        return Err(format!("{} faces do not fit {slots} slots", faces.len()));
    }
    let (w, h) = pixels(size_mm, px_per_mm);
    let mut sheet = tiny_skia::Pixmap::new(w * cols, h * rows)
        .ok_or_else(|| format!("cannot allocate a {cols} x {rows} sheet of {w} x {h} pixels"))?;
    let placed: Vec<(u32, &str)> = (0..)
        .zip(faces.iter().map(String::as_str))
        .chain(last.map(|l| (slots - 1, l)))
        .collect();
    let stride = (w * cols * 4) as usize;
    let row_bytes = (w * 4) as usize;
    // A row of the grid at a time, so that no more than a row's faces are held beside the
    // sheet (a full sheet of faces is as large as the sheet itself).
    for row in placed.chunk_by(|a, b| a.0 / cols == b.0 / cols) {
        let rendered: Vec<(u32, tiny_skia::Pixmap)> = row
            .par_iter()
            .map(|&(slot, svg)| rasterise_to(svg, (w, h), fonts).map(|p| (slot, p)))
            .collect::<Result<_, _>>()?;
        let data = sheet.data_mut();
        for (slot, face) in rendered {
            let (x, y) = ((slot % cols * w) as usize, (slot / cols * h) as usize);
            for (r, line) in face.data().chunks_exact(row_bytes).enumerate() {
                let start = (y + r) * stride + x * 4;
                data[start..start + row_bytes].copy_from_slice(line);
            }
        }
    }
    Ok(sheet)
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
    let data = pixmap.data();
    // A fold without early exit over every alpha byte vectorises.
    let opaque = data.chunks_exact(4).fold(u8::MAX, |a, p| a & p[3]) == u8::MAX;
    // Premultiplied colour equals straight colour where alpha is full: opaque pixmaps only
    // lose their alpha byte.
    let pixels: Vec<u8> = if opaque {
        let mut rgb = Vec::with_capacity(data.len() / 4 * 3);
        for p in data.chunks_exact(4) {
            rgb.extend_from_slice(&p[..3]);
        }
        rgb
    } else {
        demultiply(data)
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
    let mut writer = encoder
        .write_header()
        .map_err(|e| format!("PNG could not be encoded: {e}"))?;
    writer
        .write_image_data(&pixels)
        .map_err(|e| format!("PNG could not be encoded: {e}"))?;
    writer
        .finish()
        .map_err(|e| format!("PNG could not be encoded: {e}"))?;
    Ok(out)
}

/// Straight (not premultiplied) RGBA bytes of premultiplied ones.
fn demultiply(data: &[u8]) -> Vec<u8> {
    let mut rgba = vec![0; data.len()];
    for (to, from) in rgba.chunks_exact_mut(4).zip(data.chunks_exact(4)) {
        match from[3] {
            0 => {}
            u8::MAX => to.copy_from_slice(from),
            a => {
                let c = tiny_skia::PremultipliedColorU8::from_rgba(from[0], from[1], from[2], a)
                    .expect("a pixmap holds premultiplied colour")
                    .demultiply();
                to.copy_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
            }
        }
    }
    rgba
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::fonts::builtin;
    use crate::render::pdf::svg_page;

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

    #[test]
    fn transparent_and_translucent_pixels_keep_straight_colour() {
        let svg = svg_page(
            (10.0, 10.0),
            r##"<rect width="5" height="10" fill="#ff0000"/><rect x="5" width="2" height="10" fill="#0000ff" fill-opacity="0.5"/>"##,
        );
        let (info, buf) = decode(&render_png(&svg, (10.0, 10.0), 2.0, &builtin()).unwrap());
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
    fn opaque_images_keep_their_colour_and_are_stable() {
        let svg = svg_page(
            (10.0, 10.0),
            r##"<rect width="10" height="10" fill="#336699"/>"##,
        );
        let a = render_png(&svg, (10.0, 10.0), 3.0, &builtin()).unwrap();
        assert_eq!(a, render_png(&svg, (10.0, 10.0), 3.0, &builtin()).unwrap());
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
        let bytes = render_png(&svg, (10.0, 10.0), PX_PER_MM_300DPI, &builtin()).unwrap();
        let (info, _) = decode(&bytes);
        assert_eq!((info.width, info.height), (118, 118));
        let reader = ::png::Decoder::new(std::io::Cursor::new(&bytes))
            .read_info()
            .unwrap();
        let dims = reader.info().pixel_dims.expect("a pHYs chunk");
        assert_eq!(dims.unit, ::png::Unit::Meter);
        // 300 dpi is 11 811 pixels per metre.
        assert_eq!((dims.xppu, dims.yppu), (11811, 11811));
        let sheet = rasterise(&svg, (10.0, 10.0), 2.0, &builtin()).unwrap();
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
                &builtin()
            )
            .is_err()
        );
        assert!(grid(&too_many, None, (3, 2), (4.0, 6.0), 2.0, &builtin()).is_ok());
    }
}
