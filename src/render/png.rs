//! Raster exports with resvg: single faces at 300 dpi and Tabletop Simulator deck sheets.

use resvg::tiny_skia;

use super::pdf::parse;

/// Pixels per millimetre at 300 dpi.
pub const PX_PER_MM_300DPI: f64 = 300.0 / 25.4;

/// Renders an SVG whose size is `size_mm` to PNG at `px_per_mm`.
pub fn render_png(svg: &str, size_mm: (f64, f64), px_per_mm: f64) -> Result<Vec<u8>, String> {
    let tree = parse(svg)?;
    let w = (size_mm.0 * px_per_mm).round().max(1.0) as u32;
    let h = (size_mm.1 * px_per_mm).round().max(1.0) as u32;
    let mut pixmap =
        tiny_skia::Pixmap::new(w, h).ok_or_else(|| format!("cannot allocate {w} x {h} pixels"))?;
    let sx = w as f32 / tree.size().width();
    let sy = h as f32 / tree.size().height();
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(sx, sy),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("PNG could not be encoded: {e}"))
}
