//! Card art: image files a game's data names (PNG, JPEG, WebP, SVG), read only from inside
//! the game's folder, decoded once to prove they are sound, and placed by the templates'
//! `image(...)` function.
//!
//! A placed image is an SVG `<image>` whose `href` is the file's real path; the usvg options
//! of every page resolve such an href only when the file was loaded here ([`href_resolver`]),
//! so a template cannot make a page read any other file. Raster art goes into the PDF as the
//! file's own bytes (krilla writes one image object per distinct image, however many cards
//! show it); SVG art is parsed into the page's tree and stays vector.

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
    let pixels = decode(format, &bytes).map_err(|e| format!("`{rel}` does not decode: {e}"))?;
    let art = Arc::new(Art {
        href: href.clone(),
        format,
        pixels,
        bytes: Arc::new(bytes),
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

/// Decodes the whole image, so a truncated or corrupt file is found by `check`, not by a
/// renderer that would leave the art out. Returns the pixel size of raster images.
fn decode(format: Format, bytes: &[u8]) -> Result<Option<(u32, u32)>, String> {
    match format {
        Format::Png => {
            let mut reader = png::Decoder::new(Cursor::new(bytes))
                .read_info()
                .map_err(|e| e.to_string())?;
            let size = reader
                .output_buffer_size()
                .ok_or("the image is too large")?;
            let mut buf = vec![0; size];
            let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
            Ok(Some((info.width, info.height)))
        }
        Format::Jpeg => {
            let mut decoder = zune_jpeg::JpegDecoder::new(Cursor::new(bytes));
            decoder.decode().map_err(|e| format!("{e:?}"))?;
            let info = decoder.info().ok_or("no image header")?;
            Ok(Some((u32::from(info.width), u32::from(info.height))))
        }
        Format::Webp => {
            let mut decoder =
                image_webp::WebPDecoder::new(Cursor::new(bytes)).map_err(|e| e.to_string())?;
            let size = decoder
                .output_buffer_size()
                .ok_or("the image is too large")?;
            let mut buf = vec![0; size];
            decoder.read_image(&mut buf).map_err(|e| e.to_string())?;
            Ok(Some(decoder.dimensions()))
        }
        Format::Svg => {
            usvg::Tree::from_data(bytes, &super::pdf::usvg_options(&super::fonts::builtin()))
                .map_err(|e| e.to_string())?;
            Ok(None)
        }
    }
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
/// image [`load`] read (art named by the game's data), never a file of the machine.
pub fn href_resolver() -> usvg::ImageHrefResolver<'static> {
    usvg::ImageHrefResolver {
        resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
        resolve_string: Box::new(|href: &str, opts: &usvg::Options| {
            let art = registry().read().ok()?.get(href).cloned()?;
            Some(match art.format {
                Format::Png => usvg::ImageKind::PNG(art.bytes.clone()),
                Format::Jpeg => usvg::ImageKind::JPEG(art.bytes.clone()),
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
        href = super::xml_escape(&art.href)
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
            stamp: (None, 0),
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

    #[test]
    fn anchors_read_as_svg_alignment() {
        assert_eq!(aspect(Fit::Cover, "top-left").unwrap(), "xMinYMin slice");
        assert_eq!(aspect(Fit::Contain, "center").unwrap(), "xMidYMid meet");
        assert_eq!(aspect(Fit::Stretch, "top").unwrap(), "none");
        assert!(aspect(Fit::Cover, "middle-ish").is_none());
    }
}
