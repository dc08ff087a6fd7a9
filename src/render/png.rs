//! Raster exports with resvg: single faces at 300 dpi and Tabletop Simulator deck sheets.
//!
//! PNG encoding, not rasterising, was most of the build's time (zlib level 6 with adaptive
//! filters over 3 MB per card). Faces are flat colour, so the fast deflate of the `png`
//! crate (fdeflate) with adaptive row filters compresses them nearly as well in a fraction
//! of the time, and opaque images are written as RGB, a quarter less data to filter.

use rayon::prelude::*;
use resvg::tiny_skia;

use super::pdf::parse;

/// Pixels per millimetre at 300 dpi.
pub const PX_PER_MM_300DPI: f64 = 300.0 / 25.4;

/// Renders an SVG whose size is `size_mm` to PNG at `px_per_mm`.
pub fn render_png(svg: &str, size_mm: (f64, f64), px_per_mm: f64) -> Result<Vec<u8>, String> {
    encode(&rasterise(svg, size_mm, px_per_mm)?)
}

/// Renders an SVG whose size is `size_mm` to a pixmap at `px_per_mm`.
pub fn rasterise(
    svg: &str,
    size_mm: (f64, f64),
    px_per_mm: f64,
) -> Result<tiny_skia::Pixmap, String> {
    rasterise_to(svg, pixels(size_mm, px_per_mm))
}

/// Whole pixels covering `size_mm` at `px_per_mm`.
fn pixels(size_mm: (f64, f64), px_per_mm: f64) -> (u32, u32) {
    let w = (size_mm.0 * px_per_mm).round().max(1.0) as u32;
    let h = (size_mm.1 * px_per_mm).round().max(1.0) as u32;
    (w, h)
}

/// Renders an SVG document scaled to fill `w` x `h` pixels.
fn rasterise_to(svg: &str, (w, h): (u32, u32)) -> Result<tiny_skia::Pixmap, String> {
    let tree = parse(svg)?;
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
/// of `size_mm` at `px_per_mm`: `faces[i]` in slot `i`, and `last` in the final slot.
/// Each face is rendered on its own (in parallel) and copied in, so nothing needs clipping.
pub fn grid(
    faces: &[String],
    last: &str,
    (cols, rows): (u32, u32),
    size_mm: (f64, f64),
    px_per_mm: f64,
) -> Result<tiny_skia::Pixmap, String> {
    let slots = cols * rows;
    if faces.len() >= slots as usize {
        return Err(format!("{} faces do not fit {slots} slots", faces.len()));
    }
    let (w, h) = pixels(size_mm, px_per_mm);
    let mut sheet = tiny_skia::Pixmap::new(w * cols, h * rows)
        .ok_or_else(|| format!("cannot allocate a {cols} x {rows} sheet of {w} x {h} pixels"))?;
    let placed: Vec<(u32, &str)> = (0..)
        .zip(faces.iter().map(String::as_str))
        .chain([(slots - 1, last)])
        .collect();
    let rendered: Vec<(u32, tiny_skia::Pixmap)> = placed
        .par_iter()
        .map(|&(slot, svg)| rasterise_to(svg, (w, h)).map(|p| (slot, p)))
        .collect::<Result<_, _>>()?;
    let stride = (w * cols * 4) as usize;
    let row_bytes = (w * 4) as usize;
    let data = sheet.data_mut();
    for (slot, face) in rendered {
        let (x, y) = ((slot % cols * w) as usize, (slot / cols * h) as usize);
        for (r, row) in face.data().chunks_exact(row_bytes).enumerate() {
            let start = (y + r) * stride + x * 4;
            data[start..start + row_bytes].copy_from_slice(row);
        }
    }
    Ok(sheet)
}

/// Encodes a pixmap as PNG: RGB when every pixel is opaque, RGBA (demultiplied) otherwise.
/// Same pixels, same bytes.
pub fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, String> {
    let data = pixmap.data();
    let opaque = data.chunks_exact(4).all(|p| p[3] == u8::MAX);
    let (color, data) = if opaque {
        // Premultiplied equals straight colour when alpha is full: drop the alpha byte.
        let mut rgb = vec![0; data.len() / 4 * 3];
        for (to, from) in rgb.chunks_exact_mut(3).zip(data.chunks_exact(4)) {
            to.copy_from_slice(&from[..3]);
        }
        (::png::ColorType::Rgb, rgb)
    } else {
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
        (::png::ColorType::Rgba, rgba)
    };
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(color);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_deflate_compression(::png::DeflateCompression::FdeflateUltraFast);
    encoder.set_filter(::png::Filter::Up);
    let mut writer = encoder
        .write_header()
        .map_err(|e| format!("PNG could not be encoded: {e}"))?;
    writer
        .write_image_data(&data)
        .map_err(|e| format!("PNG could not be encoded: {e}"))?;
    writer
        .finish()
        .map_err(|e| format!("PNG could not be encoded: {e}"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(fill: &str) -> String {
        super::super::pdf::svg_page(
            (10.0, 10.0),
            &format!(r#"<rect x="0" y="0" width="5" height="10" fill="{fill}"/>"#),
        )
    }

    fn decode(bytes: &[u8]) -> (::png::OutputInfo, Vec<u8>) {
        let mut reader = ::png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info, buf)
    }

    #[test]
    fn transparent_pixels_keep_alpha_and_colour() {
        let bytes = render_png(&square("#ff0000"), (10.0, 10.0), 2.0).unwrap();
        let (info, buf) = decode(&bytes);
        assert_eq!((info.width, info.height), (20, 20));
        assert_eq!(info.color_type, ::png::ColorType::Rgba);
        assert_eq!(&buf[0..4], &[255, 0, 0, 255], "left half is red");
        assert_eq!(buf[19 * 4 + 3], 0, "right half is transparent");
    }

    #[test]
    fn opaque_images_are_rgb_and_stable() {
        let svg = super::super::pdf::svg_page(
            (10.0, 10.0),
            r##"<rect width="10" height="10" fill="#336699"/>"##,
        );
        let a = render_png(&svg, (10.0, 10.0), 3.0).unwrap();
        assert_eq!(a, render_png(&svg, (10.0, 10.0), 3.0).unwrap());
        let (info, buf) = decode(&a);
        assert_eq!(info.color_type, ::png::ColorType::Rgb);
        assert_eq!(&buf[0..3], &[0x33, 0x66, 0x99]);
    }
}
