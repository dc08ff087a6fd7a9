//! Card art: image files a game's data names (PNG, JPEG, WebP, SVG), read only from inside
//! the game's folder, decoded once to prove they are sound, and placed by the templates'
//! `image(...)` function.
//!
//! A placed image is an SVG `<image>` whose `href` is the file's real path; the usvg options
//! of every page resolve such an href only when the file was loaded here ([`href_resolver`]),
//! so a template cannot make a page read any other file. Raster art goes into the PDF as the
//! file's own bytes (krilla writes one image object per distinct image, however many cards
//! show it); SVG art is parsed into the page's tree and stays vector.
//!
//! A CMYK JPEG (plain, or inverted as Adobe's programs write it, or YCCK) goes into the PDF
//! as it is, but the raster outputs (`png/`, the Tabletop Simulator sheets) get its colours
//! converted to sRGB here, through its own ICC profile or the bundled CMYK profile: resvg's
//! JPEG decoder reads such files as garbled RGB.

use std::collections::HashMap;
use std::io::Cursor;
use std::path::Path;
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

use crate::model::paths::resolve_in;

/// Art prints sharply from this many dots per inch; `check` warns below it.
pub const MIN_DPI: f64 = 200.0;

/// The file formats art may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Png,
    Jpeg,
    Webp,
    Svg,
}

/// One loaded image file.
#[derive(Debug)]
pub struct Art {
    /// The file's real path, as pages name it.
    pub href: String,
    pub format: Format,
    /// Pixel size of raster art; `None` for SVG, which has no resolution.
    pub pixels: Option<(u32, u32)>,
    bytes: Arc<Vec<u8>>,
    /// For a CMYK JPEG: its pixels in sRGB as a PNG, which the raster outputs draw instead.
    rgb: Option<Arc<Vec<u8>>>,
    /// The file's modification time and length when it was read, to notice a changed file.
    stamp: (Option<SystemTime>, u64),
}

impl Art {
    /// The file's bytes, as read.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Every image loaded in this process, by href.
fn registry() -> &'static RwLock<HashMap<String, Arc<Art>>> {
    static ART: std::sync::OnceLock<RwLock<HashMap<String, Arc<Art>>>> = std::sync::OnceLock::new();
    ART.get_or_init(Default::default)
}

/// Loads the image `rel` names inside the game folder `dir` (once per version of the file);
/// the message says why it cannot be used: missing, outside the folder, unreadable, or not
/// a PNG, JPEG, WebP or SVG image that decodes.
pub fn load(dir: &Path, rel: &str) -> Result<Arc<Art>, String> {
    let path = resolve_in(dir, rel)?;
    let href = path.to_string_lossy().into_owned();
    let meta = std::fs::metadata(&path).map_err(|e| format!("`{rel}` cannot be read: {e}"))?;
    let stamp = (meta.modified().ok(), meta.len());
    if let Some(art) = registry()
        .read()
        .ok()
        .and_then(|r| r.get(&href).cloned())
        .filter(|a| a.stamp == stamp)
    {
        return Ok(art);
    }
    let bytes = std::fs::read(&path).map_err(|e| format!("`{rel}` cannot be read: {e}"))?;
    let format = sniff(&bytes, &path)
        .ok_or_else(|| format!("`{rel}` is not a PNG, JPEG, WebP or SVG image"))?;
    let pixels = decode(format, &bytes).map_err(|e| format!("`{rel}` {e}"))?;
    let rgb = match format {
        Format::Jpeg => cmyk_jpeg_as_png(&bytes)
            .map_err(|e| format!("`{rel}` is a CMYK JPEG whose colours cannot be read: {e}"))?
            .map(Arc::new),
        _ => None,
    };
    let art = Arc::new(Art {
        href: href.clone(),
        format,
        pixels,
        bytes: Arc::new(bytes),
        rgb,
        stamp,
    });
    if let Ok(mut r) = registry().write() {
        r.insert(href, art.clone());
    }
    Ok(art)
}

fn sniff(bytes: &[u8], path: &Path) -> Option<Format> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(Format::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(Format::Jpeg)
    } else if bytes.len() > 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some(Format::Webp)
    } else if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"))
    {
        Some(Format::Svg)
    } else {
        None
    }
}

/// The pixel size a raster image's header declares, read without decoding (or allocating
/// for) a single pixel.
pub fn header_size(format: Format, bytes: &[u8]) -> Result<(u32, u32), String> {
    match format {
        Format::Png => {
            let mut decoder = png::Decoder::new(Cursor::new(bytes));
            let info = decoder.read_header_info().map_err(|e| e.to_string())?;
            Ok((info.width, info.height))
        }
        Format::Jpeg => {
            let mut decoder =
                zune_jpeg::JpegDecoder::new_with_options(Cursor::new(bytes), jpeg_options());
            decoder.decode_headers().map_err(|e| format!("{e:?}"))?;
            let info = decoder.info().ok_or("no image header")?;
            Ok((u32::from(info.width), u32::from(info.height)))
        }
        Format::Webp => {
            let decoder =
                image_webp::WebPDecoder::new(Cursor::new(bytes)).map_err(|e| e.to_string())?;
            Ok(decoder.dimensions())
        }
        Format::Svg => Err("SVG has no pixel size".into()),
    }
}

/// zune-jpeg's options for art: any side a JPEG can declare, as [`within_bounds`] holds the
/// pixels to [`ART_MAX_PIXELS`](crate::limits::ART_MAX_PIXELS).
fn jpeg_options() -> zune_jpeg::zune_core::options::DecoderOptions {
    zune_jpeg::zune_core::options::DecoderOptions::default()
        .set_max_width(usize::from(u16::MAX))
        .set_max_height(usize::from(u16::MAX))
}

/// Why a raster of `w` x `h` pixels is not decoded: past
/// [`ART_MAX_PIXELS`](crate::limits::ART_MAX_PIXELS).
pub fn within_bounds((w, h): (u32, u32)) -> Result<(), String> {
    let pixels = u64::from(w) * u64::from(h);
    let max = crate::limits::ART_MAX_PIXELS;
    if pixels > max {
        return Err(format!(
            "is {w} x {h} pixels ({:.0} million); art may have at most {} million pixels, \
             so scale it down (a 1000 mm board at 250 dpi is 97 million)",
            pixels as f64 / 1e6,
            max / 1_000_000
        ));
    }
    Ok(())
}

/// Decodes the whole image, so a truncated or corrupt file is found by `check`, not by a
/// renderer that would leave the art out. The header's pixel size is held to its bound
/// before anything is allocated for the pixels, and SVG art to its own (its size, the rasters
/// inside it). Returns the pixel size of raster images; the message follows the file's name.
fn decode(format: Format, bytes: &[u8]) -> Result<Option<(u32, u32)>, String> {
    let size = match format {
        Format::Svg => return decode_svg(bytes).map(|()| None),
        _ => header_size(format, bytes).map_err(|e| format!("does not decode: {e}"))?,
    };
    within_bounds(size)?;
    let undecodable = |e: String| format!("does not decode: {e}");
    match format {
        Format::Png => {
            let mut reader = png::Decoder::new(Cursor::new(bytes))
                .read_info()
                .map_err(|e| undecodable(e.to_string()))?;
            let size = reader
                .output_buffer_size()
                .ok_or_else(|| undecodable("the image is too large".into()))?;
            let mut buf = vec![0; size];
            let info = reader
                .next_frame(&mut buf)
                .map_err(|e| undecodable(e.to_string()))?;
            Ok(Some((info.width, info.height)))
        }
        Format::Jpeg => {
            let mut decoder =
                zune_jpeg::JpegDecoder::new_with_options(Cursor::new(bytes), jpeg_options());
            decoder
                .decode()
                .map_err(|e| undecodable(format!("{e:?}")))?;
            let info = decoder
                .info()
                .ok_or_else(|| undecodable("no image header".into()))?;
            Ok(Some((u32::from(info.width), u32::from(info.height))))
        }
        Format::Webp => {
            let mut decoder = image_webp::WebPDecoder::new(Cursor::new(bytes))
                .map_err(|e| undecodable(e.to_string()))?;
            let size = decoder
                .output_buffer_size()
                .ok_or_else(|| undecodable("the image is too large".into()))?;
            let mut buf = vec![0; size];
            decoder
                .read_image(&mut buf)
                .map_err(|e| undecodable(e.to_string()))?;
            Ok(Some(decoder.dimensions()))
        }
        Format::Svg => Ok(None),
    }
}

/// Reads SVG art as pages will, holding its size to
/// [`SVG_ART_MAX_SIDE`](crate::limits::SVG_ART_MAX_SIDE) and every raster inside it to
/// [`ART_MAX_PIXELS`](crate::limits::ART_MAX_PIXELS) (pages leave such a raster out; here it
/// is the art's problem).
fn decode_svg(bytes: &[u8]) -> Result<(), String> {
    REFUSED.with(|r| r.borrow_mut().take());
    let tree = usvg::Tree::from_data(
        bytes,
        &crate::render::formats::pdf::usvg_options(&crate::render::faces::fonts::builtin()),
    );
    if let Some(why) = REFUSED.with(|r| r.borrow_mut().take()) {
        return Err(why);
    }
    let tree = tree.map_err(|e| format!("does not decode: {e}"))?;
    svg_within_bounds(tree.size())
}

/// Why SVG of this size is not drawn: a side past
/// [`SVG_ART_MAX_SIDE`](crate::limits::SVG_ART_MAX_SIDE).
fn svg_within_bounds(size: usvg::Size) -> Result<(), String> {
    let max = crate::limits::SVG_ART_MAX_SIDE;
    if f64::from(size.width()) > max || f64::from(size.height()) > max {
        return Err(format!(
            "is an SVG drawing {} x {} units large; SVG art may be at most {max} units a side, \
             so set its `width`, `height` or `viewBox` in its own units",
            size.width(),
            size.height()
        ));
    }
    Ok(())
}

thread_local! {
    /// Why the last SVG read on this thread left a raster or drawing out (see [`bounded_data`]).
    static REFUSED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// usvg's resolver of `data:` images, held to art's bounds: a raster past
/// [`ART_MAX_PIXELS`](crate::limits::ART_MAX_PIXELS), an SVG past
/// [`SVG_ART_MAX_SIDE`](crate::limits::SVG_ART_MAX_SIDE), or a format art may not have
/// (GIF) is left out, so that no renderer ever decodes it, and the reason noted for the
/// caller (see [`decode_svg`]).
fn bounded_data() -> usvg::ImageHrefDataResolverFn<'static> {
    let default = usvg::ImageHrefResolver::default_data_resolver();
    Box::new(
        move |mime: &str, data: Arc<Vec<u8>>, opts: &usvg::Options| {
            let kind = default(mime, data, opts)?;
            let why = match &kind {
                usvg::ImageKind::PNG(d) => raster_refusal(Format::Png, d),
                usvg::ImageKind::JPEG(d) => raster_refusal(Format::Jpeg, d),
                usvg::ImageKind::WEBP(d) => raster_refusal(Format::Webp, d),
                usvg::ImageKind::GIF(_) => {
                    Some("embeds a GIF image; art may be PNG, JPEG or WebP".into())
                }
                usvg::ImageKind::SVG(tree) => svg_within_bounds(tree.size())
                    .err()
                    .map(|e| e.replacen("is an SVG drawing", "embeds an SVG drawing", 1)),
            };
            match why {
                None => Some(kind),
                Some(why) => {
                    REFUSED.with(|r| {
                        r.borrow_mut().get_or_insert(why);
                    });
                    None
                }
            }
        },
    )
}

/// Why an embedded raster is left out: a header that does not read, or pixels past the bound.
fn raster_refusal(format: Format, bytes: &[u8]) -> Option<String> {
    match header_size(format, bytes) {
        Err(e) => Some(format!("embeds an image that does not decode: {e}")),
        Ok(size) => within_bounds(size)
            .err()
            .map(|e| format!("embeds an image that {e}")),
    }
}

/// A JPEG of four channels (CMYK or YCCK) as a PNG of its colours in sRGB; `None` for any
/// other JPEG. Values are ink (0 none, 255 full) unless the file carries Adobe's APP14
/// marker, whose programs store them inverted; the ink goes to sRGB through the file's own
/// CMYK profile when it has one, else the bundled print profile.
fn cmyk_jpeg_as_png(bytes: &[u8]) -> Result<Option<Vec<u8>>, String> {
    use zune_jpeg::zune_core::colorspace::ColorSpace;
    let mut probe = zune_jpeg::JpegDecoder::new_with_options(Cursor::new(bytes), jpeg_options());
    probe.decode_headers().map_err(|e| format!("{e:?}"))?;
    let info = probe.info().ok_or("no image header")?;
    let space = match probe.input_colorspace() {
        Some(s @ (ColorSpace::CMYK | ColorSpace::YCCK)) if info.components == 4 => s,
        _ => return Ok(None),
    };
    // The samples as stored, without a colour conversion.
    let options = jpeg_options().jpeg_set_out_colorspace(space);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(Cursor::new(bytes), options);
    let samples = decoder.decode().map_err(|e| format!("{e:?}"))?;
    let icc = decoder.icc_profile();
    let (w, h) = (usize::from(info.width), usize::from(info.height));
    if samples.len() != w * h * 4 {
        return Err(format!("{} samples for {w} x {h} pixels", samples.len()));
    }
    let inverted = has_adobe_marker(bytes);
    let ink: Vec<[u8; 4]> = samples
        .chunks_exact(4)
        .map(|s| {
            let stored = if space == ColorSpace::YCCK {
                let [r, g, b] = ycc_to_rgb(s[0], s[1], s[2]);
                [255 - r, 255 - g, 255 - b, s[3]]
            } else {
                [s[0], s[1], s[2], s[3]]
            };
            if inverted {
                stored.map(|v| 255 - v)
            } else {
                stored
            }
        })
        .collect();
    let rgb = cmyk_to_srgb(&ink, icc.as_deref())?;
    let mut png_bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png_bytes, info.width.into(), info.height.into());
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(rgb.as_flattened())
            .map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
    }
    Ok(Some(png_bytes))
}

/// JFIF's YCbCr to RGB, as a JPEG decoder turns YCCK's first three channels back.
fn ycc_to_rgb(y: u8, cb: u8, cr: u8) -> [u8; 3] {
    let (y, cb, cr) = (f32::from(y), f32::from(cb) - 128.0, f32::from(cr) - 128.0);
    let clamp = |v: f32| v.round().clamp(0.0, 255.0) as u8;
    [
        clamp(y + 1.402 * cr),
        clamp(y - 0.344_136 * cb - 0.714_136 * cr),
        clamp(y + 1.772 * cb),
    ]
}

/// Whether a JPEG carries Adobe's APP14 marker (before its image data starts).
fn has_adobe_marker(bytes: &[u8]) -> bool {
    let mut i = 2;
    while i + 4 <= bytes.len() && bytes[i] == 0xFF {
        let marker = bytes[i + 1];
        if marker == 0xDA || marker == 0xD9 {
            return false;
        }
        let len = usize::from(u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]));
        if marker == 0xEE && bytes.get(i + 4..i + 9) == Some(b"Adobe".as_slice()) {
            return true;
        }
        i += 2 + len;
    }
    false
}

/// CMYK ink to sRGB through `icc` (when it is a CMYK profile) or the bundled print profile,
/// relative colorimetric with black point compensation, as the print separation goes the
/// other way.
fn cmyk_to_srgb(ink: &[[u8; 4]], icc: Option<&[u8]>) -> Result<Vec<[u8; 3]>, String> {
    use lcms2::{ColorSpaceSignature, Flags, Intent, PixelFormat, Profile, Transform};
    let own = icc
        .and_then(|b| Profile::new_icc(b).ok())
        .filter(|p| p.color_space() == ColorSpaceSignature::CmykData);
    let profile = match own {
        Some(p) => p,
        None => {
            Profile::new_icc(crate::render::formats::cmyk::PROFILE).map_err(|e| e.to_string())?
        }
    };
    let transform: Transform<[u8; 4], [u8; 3]> = Transform::new_flags(
        &profile,
        PixelFormat::CMYK_8,
        &Profile::new_srgb(),
        PixelFormat::RGB_8,
        Intent::RelativeColorimetric,
        Flags::BLACKPOINT_COMPENSATION,
    )
    .map_err(|e| e.to_string())?;
    let mut rgb = vec![[0u8; 3]; ink.len()];
    transform.transform_pixels(ink, &mut rgb);
    Ok(rgb)
}

/// The art [`load`] read under this href (as pages name it, unescaped), if any.
pub fn loaded(href: &str) -> Option<Arc<Art>> {
    registry().read().ok()?.get(href).cloned()
}

/// Whether pages would load this href: a data URL, or art [`load`] read.
pub fn is_loadable(href: &str) -> bool {
    href.starts_with("data:")
        || registry()
            .read()
            .is_ok_and(|r| r.contains_key(&href.replace("&amp;", "&")))
}

/// The first `<image>` of an SVG fragment whose href pages would not load (a hand-written
/// path: art is placed with `image(...)`, which reads it from the game's folder).
pub fn stray_href(svg: &str) -> Option<&str> {
    svg.match_indices("<image").find_map(|(at, _)| {
        let tag = &svg[at..at + svg[at..].find('>')?];
        let start = tag.find("href=\"")? + 6;
        let href = &tag[start..start + tag[start..].find('"')?];
        (!is_loadable(href)).then_some(href)
    })
}

/// usvg's image resolver for pages: data URLs as usual; any other href only when it names an
/// image [`load`] read (art named by the game's data), never a file of the machine. For
/// `raster` pages (drawn by resvg, not written to PDF), a CMYK JPEG is its sRGB pixels.
pub fn href_resolver(raster: bool) -> usvg::ImageHrefResolver<'static> {
    usvg::ImageHrefResolver {
        resolve_data: bounded_data(),
        resolve_string: Box::new(move |href: &str, opts: &usvg::Options| {
            let art = registry().read().ok()?.get(href).cloned()?;
            Some(match art.format {
                Format::Png => usvg::ImageKind::PNG(art.bytes.clone()),
                Format::Jpeg => match (&art.rgb, raster) {
                    (Some(rgb), true) => usvg::ImageKind::PNG(rgb.clone()),
                    _ => usvg::ImageKind::JPEG(art.bytes.clone()),
                },
                Format::Webp => usvg::ImageKind::WEBP(art.bytes.clone()),
                Format::Svg => {
                    usvg::ImageKind::SVG(usvg::Tree::from_data_nested(&art.bytes, opts).ok()?)
                }
            })
        }),
    }
}

/// How art fills its box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Fills the box, cropping what overflows.
    Cover,
    /// Shows the whole image inside the box.
    Contain,
    /// Fills the box, distorting the image.
    Stretch,
}

impl Fit {
    pub const NAMES: &'static str = "cover, contain, stretch";

    pub fn parse(name: &str) -> Option<Fit> {
        match name {
            "cover" => Some(Fit::Cover),
            "contain" => Some(Fit::Contain),
            "stretch" => Some(Fit::Stretch),
            _ => None,
        }
    }
}

/// Anchors: where the image sits in its box when it does not fill it exactly.
pub const ANCHORS: &str =
    "center, top, bottom, left, right, top-left, top-right, bottom-left, bottom-right";

/// SVG's `preserveAspectRatio` for a fit and an anchor.
pub fn aspect(fit: Fit, anchor: &str) -> Option<String> {
    let (x, y) = match anchor {
        "center" | "centre" => ("xMid", "YMid"),
        "top" => ("xMid", "YMin"),
        "bottom" => ("xMid", "YMax"),
        "left" => ("xMin", "YMid"),
        "right" => ("xMax", "YMid"),
        "top-left" => ("xMin", "YMin"),
        "top-right" => ("xMax", "YMin"),
        "bottom-left" => ("xMin", "YMax"),
        "bottom-right" => ("xMax", "YMax"),
        _ => return None,
    };
    Some(match fit {
        Fit::Cover => format!("{x}{y} slice"),
        Fit::Contain => format!("{x}{y} meet"),
        Fit::Stretch => "none".to_string(),
    })
}

/// The resolution raster art prints at in a box of `w` x `h` mm, in dots per inch (the
/// lower of the two directions); `None` for vector art.
pub fn print_dpi(art: &Art, fit: Fit, w: f64, h: f64) -> Option<f64> {
    let (pw, ph) = art.pixels?;
    let (dx, dy) = (f64::from(pw) / w * 25.4, f64::from(ph) / h * 25.4);
    Some(match fit {
        // Covering scales the image by the larger ratio, so the sparser direction counts.
        Fit::Cover | Fit::Stretch => dx.min(dy),
        // Containing scales by the smaller ratio: the denser direction fills the box.
        Fit::Contain => dx.max(dy),
    })
}

/// The `<image>` element that places art in a box.
pub fn element(art: &Art, x: f64, y: f64, w: f64, h: f64, aspect: &str) -> String {
    format!(
        r#"<image href="{href}" x="{x:.3}" y="{y:.3}" width="{w:.3}" height="{h:.3}" preserveAspectRatio="{aspect}"/>"#,
        href = crate::render::xml_escape(&art.href)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raster(w: u32, h: u32) -> Art {
        Art {
            href: String::new(),
            format: Format::Png,
            pixels: Some((w, h)),
            bytes: Arc::new(Vec::new()),
            rgb: None,
            stamp: (None, 0),
        }
    }

    /// How a CMYK JPEG stores its ink.
    #[derive(Debug, Clone, Copy)]
    enum Stored {
        /// Inverted, with Adobe's APP14 marker (what Photoshop writes).
        Adobe,
        /// As YCCK, with Adobe's marker.
        Ycck,
        /// As ink, without a marker.
        Plain,
    }

    /// A `w` x `h` JPEG of one CMYK ink, stored as `stored` says.
    fn cmyk_jpeg(ink: [u8; 4], w: u16, h: u16, stored: Stored) -> Vec<u8> {
        use jpeg_encoder::{ColorType, Encoder};
        let pixel = match stored {
            Stored::Plain => ink.map(|v| 255 - v),
            _ => ink,
        };
        let data: Vec<u8> = (0..usize::from(w) * usize::from(h))
            .flat_map(|_| pixel)
            .collect();
        let mut bytes = Vec::new();
        let kind = match stored {
            Stored::Ycck => ColorType::CmykAsYcck,
            _ => ColorType::Cmyk,
        };
        Encoder::new(&mut bytes, 100)
            .encode(&data, w, h, kind)
            .unwrap();
        assert!(has_adobe_marker(&bytes));
        if let Stored::Plain = stored {
            // The encoder stores 255 - value with the marker; without it, the ink as given.
            let at = (2..bytes.len() - 1)
                .find(|&i| bytes[i] == 0xFF && bytes[i + 1] == 0xEE)
                .unwrap();
            let len = usize::from(u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]));
            bytes.drain(at..at + 2 + len);
            assert!(!has_adobe_marker(&bytes));
        }
        bytes
    }

    fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut reader = png::Decoder::new(Cursor::new(bytes)).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    fn near(a: &[u8], b: &[u8], tolerance: u8) -> bool {
        a.iter().zip(b).all(|(x, y)| x.abs_diff(*y) <= tolerance)
    }

    const INKS: [[u8; 4]; 4] = [
        [0, 0, 0, 0],
        [255, 0, 0, 0],
        [0, 0, 0, 255],
        [0, 160, 255, 0],
    ];

    /// Every way a CMYK JPEG stores its ink reads as that ink's colour, every pixel.
    #[test]
    fn cmyk_jpegs_read_as_the_colour_of_their_ink() {
        for stored in [Stored::Adobe, Stored::Ycck, Stored::Plain] {
            for ink in INKS {
                let expected = cmyk_to_srgb(&[ink], None).unwrap()[0];
                let png = cmyk_jpeg_as_png(&cmyk_jpeg(ink, 24, 16, stored))
                    .unwrap()
                    .expect("a CMYK JPEG");
                let (w, h, rgb) = decode_png(&png);
                assert_eq!((w, h), (24, 16));
                for px in rgb.chunks_exact(3) {
                    assert!(
                        near(px, &expected, 4),
                        "{stored:?} {ink:?}: {px:?} {expected:?}"
                    );
                }
            }
        }
        // The profile's colours are the inks': paper white, cyan, black, orange.
        let rgb = cmyk_to_srgb(&INKS, None).unwrap();
        assert!(rgb[0].iter().all(|v| *v >= 245), "{:?}", rgb[0]);
        assert!(rgb[1][0] < 100 && rgb[1][2] > 180, "{:?}", rgb[1]);
        assert!(rgb[2].iter().all(|v| *v < 70), "{:?}", rgb[2]);
        assert!(rgb[3][0] > 200 && rgb[3][2] < 100, "{:?}", rgb[3]);
    }

    #[test]
    fn an_rgb_jpeg_is_left_to_the_renderer() {
        let mut bytes = Vec::new();
        jpeg_encoder::Encoder::new(&mut bytes, 90)
            .encode(
                &[200, 10, 10].repeat(64),
                8,
                8,
                jpeg_encoder::ColorType::Rgb,
            )
            .unwrap();
        assert!(cmyk_jpeg_as_png(&bytes).unwrap().is_none());
    }

    /// Drawn as pixels (`png/`, the Tabletop Simulator sheets), CMYK art is its colour and
    /// covers exactly its box, while the PDF keeps the file's own bytes.
    #[test]
    fn cmyk_art_is_drawn_in_its_colour_over_exactly_its_box() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("art")).unwrap();
        for (n, stored) in [Stored::Adobe, Stored::Ycck, Stored::Plain]
            .into_iter()
            .enumerate()
        {
            let ink = INKS[3];
            let expected = cmyk_to_srgb(&[ink], None).unwrap()[0];
            let name = format!("art/c{n}.jpg");
            std::fs::write(dir.path().join(&name), cmyk_jpeg(ink, 64, 48, stored)).unwrap();
            let art = load(dir.path(), &name).unwrap();
            assert!(art.rgb.is_some());
            let body = format!(
                r##"<rect width="20" height="20" fill="#ffffff"/>{}"##,
                element(&art, 5.0, 4.0, 10.0, 12.0, "none")
            );
            let page = crate::render::formats::pdf::svg_page((20.0, 20.0), &body);
            let fonts = crate::render::faces::fonts::builtin();
            let pixmap =
                crate::render::formats::png::rasterise(&page, (20.0, 20.0), 10.0, &fonts, None)
                    .unwrap();
            // The box is x 50..150, y 40..160 pixels; one pixel of anti-aliasing aside.
            for y in 0..200u32 {
                for x in 0..200u32 {
                    let px = pixmap.pixel(x, y).unwrap();
                    let rgb = [px.red(), px.green(), px.blue()];
                    let inside = (51..149).contains(&x) && (41..159).contains(&y);
                    let outside = !(49..151).contains(&x) || !(39..161).contains(&y);
                    if inside {
                        assert!(near(&rgb, &expected, 6), "{stored:?} ({x}, {y}): {rgb:?}");
                    } else if outside {
                        assert_eq!(rgb, [255, 255, 255], "{stored:?} ({x}, {y})");
                    }
                }
            }
            // The PDF's tree holds the JPEG itself.
            fn jpegs(group: &usvg::Group, out: &mut Vec<bool>) {
                for node in group.children() {
                    match node {
                        usvg::Node::Image(image) => {
                            out.push(matches!(image.kind(), usvg::ImageKind::JPEG(_)));
                        }
                        usvg::Node::Group(g) => jpegs(g, out),
                        _ => {}
                    }
                }
            }
            let mut kinds = Vec::new();
            jpegs(
                crate::render::formats::pdf::parse(&page, &fonts)
                    .unwrap()
                    .root(),
                &mut kinds,
            );
            assert_eq!(kinds, vec![true], "{stored:?}");
            let mut kinds = Vec::new();
            let raster = crate::render::formats::pdf::parse_raster(&page, &fonts).unwrap();
            jpegs(raster.root(), &mut kinds);
            assert_eq!(kinds, vec![false], "{stored:?}");
        }
    }

    #[test]
    fn resolution_follows_the_fit() {
        // 600 x 300 px in a 25.4 x 25.4 mm box: cover scales by the height (300 dpi across
        // the height, the width cropped), contain by the width (600 px across 1 inch).
        let art = raster(600, 300);
        assert_eq!(print_dpi(&art, Fit::Cover, 25.4, 25.4), Some(300.0));
        assert_eq!(print_dpi(&art, Fit::Contain, 25.4, 25.4), Some(600.0));
        assert_eq!(print_dpi(&art, Fit::Stretch, 25.4, 25.4), Some(300.0));
    }

    /// A `w` x `h` PNG of one colour whose header is then made to declare `declared` pixels.
    fn png_declaring(w: u32, h: u32, declared: (u32, u32)) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, w, h);
        encoder.set_color(png::ColorType::Rgb);
        let mut writer = encoder.write_header().unwrap();
        let data = vec![90u8; (w * h * 3) as usize];
        writer.write_image_data(&data).unwrap();
        writer.finish().unwrap();
        bytes[16..20].copy_from_slice(&declared.0.to_be_bytes());
        bytes[20..24].copy_from_slice(&declared.1.to_be_bytes());
        let mut crc = !0u32;
        for b in &bytes[12..29] {
            crc ^= u32::from(*b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        bytes[29..33].copy_from_slice(&(!crc).to_be_bytes());
        bytes
    }

    #[test]
    fn the_pixel_bound_is_exact() {
        assert!(within_bounds((10_000, 10_000)).is_ok());
        assert!(within_bounds((100_000_000, 1)).is_ok());
        let e = within_bounds((10_001, 10_000)).unwrap_err();
        assert!(e.contains("10001 x 10000"), "{e}");
        // No overflow at the largest sides a header can declare.
        assert!(within_bounds((u32::MAX, u32::MAX)).is_err());
    }

    /// The header is read before anything is allocated: a 60000 x 60000 PNG of a few bytes
    /// is refused as such (decoding it would take 10 GB), an image within the bound loads.
    #[test]
    fn art_past_the_bound_is_refused_from_its_header() {
        let dir = tempfile::tempdir().unwrap();
        let big = png_declaring(4, 4, (60_000, 60_000));
        std::fs::write(dir.path().join("big.png"), &big).unwrap();
        assert_eq!(header_size(Format::Png, &big).unwrap(), (60_000, 60_000));
        let e = load(dir.path(), "big.png").unwrap_err();
        assert!(e.starts_with("`big.png` is 60000 x 60000 pixels"), "{e}");
        let fine = png_declaring(16, 8, (16, 8));
        std::fs::write(dir.path().join("fine.png"), &fine).unwrap();
        assert_eq!(load(dir.path(), "fine.png").unwrap().pixels, Some((16, 8)));
        // The same raster inside SVG art is the art's problem, and pages leave it out.
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image width="10" height="10" href="data:image/png;base64,{}"/></svg>"#,
            base64(&big)
        );
        std::fs::write(dir.path().join("a.svg"), &svg).unwrap();
        let e = load(dir.path(), "a.svg").unwrap_err();
        assert!(e.contains("embeds an image that is 60000 x 60000"), "{e}");
        let fonts = crate::render::faces::fonts::builtin();
        let page = crate::render::formats::pdf::parse(&svg, &fonts).unwrap();
        assert!(!page.root().has_children(), "the raster is left out");
        let ok = svg.replace(&base64(&big), &base64(&fine));
        assert!(
            crate::render::formats::pdf::parse(&ok, &fonts)
                .unwrap()
                .root()
                .has_children()
        );
        // SVG art of absurd size.
        std::fs::write(
            dir.path().join("wide.svg"),
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="1e9" height="10"/>"#,
        )
        .unwrap();
        assert!(
            load(dir.path(), "wide.svg")
                .unwrap_err()
                .contains("at most 100000 units")
        );
    }

    fn base64(bytes: &[u8]) -> String {
        const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let b = [
                chunk[0],
                *chunk.get(1).unwrap_or(&0),
                *chunk.get(2).unwrap_or(&0),
            ];
            let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
            for i in 0..4 {
                out.push(if i <= chunk.len() {
                    ABC[(n >> (18 - 6 * i) & 63) as usize] as char
                } else {
                    '='
                });
            }
        }
        out
    }

    #[test]
    fn anchors_read_as_svg_alignment() {
        assert_eq!(aspect(Fit::Cover, "top-left").unwrap(), "xMinYMin slice");
        assert_eq!(aspect(Fit::Contain, "center").unwrap(), "xMidYMid meet");
        assert_eq!(aspect(Fit::Stretch, "top").unwrap(), "none");
        assert!(aspect(Fit::Cover, "middle-ish").is_none());
    }
}
