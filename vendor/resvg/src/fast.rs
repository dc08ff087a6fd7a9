// printplay's change to resvg 0.47.0 (see PRINTPLAY.md): the three ways a layer was drawn
// that took most of a card face's time, each done directly where the result is the same.

/// `round(v / 255)` for `v` up to 255 * 255, in integers.
#[inline]
fn div255(v: u32) -> u32 {
    (v + 128 + ((v + 128) >> 8)) >> 8
}

/// `pixmap.draw_pixmap(x, y, layer, &PixmapPaint::default(), identity, None)` (premultiplied
/// source-over at full opacity) in integers: each channel is `s + round(d * (255 - sa) / 255)`,
/// which is what tiny-skia's float pipeline computes and rounds, without its per-pixel float
/// conversion (most of a face's time went to it).
pub fn draw_layer(
    pixmap: &mut tiny_skia::PixmapMut,
    x: i32,
    y: i32,
    layer: &tiny_skia::Pixmap,
) {
    let (cw, ch) = (pixmap.width() as i64, pixmap.height() as i64);
    let (lw, lh) = (layer.width() as i64, layer.height() as i64);
    let (x, y) = (x as i64, y as i64);
    let (x0, x1) = (x.max(0), (x + lw).min(cw));
    let (y0, y1) = (y.max(0), (y + lh).min(ch));
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    let src = layer.data();
    let dst = pixmap.data_mut();
    let n = ((x1 - x0) * 4) as usize;
    for row in y0..y1 {
        let s_at = (((row - y) * lw + (x0 - x)) * 4) as usize;
        let d_at = ((row * cw + x0) * 4) as usize;
        let s = &src[s_at..s_at + n];
        let d = &mut dst[d_at..d_at + n];
        for (d, s) in d.chunks_exact_mut(4).zip(s.chunks_exact(4)) {
            match s[3] {
                0 => {}
                255 => d.copy_from_slice(s),
                sa => {
                    let keep = 255 - u32::from(sa);
                    for c in 0..4 {
                        d[c] = (u32::from(s[c]) + div255(u32::from(d[c]) * keep)) as u8;
                    }
                }
            }
        }
    }
}

/// The rectangle a clip path is, in the pixels of a layer drawn with `transform`, when it is
/// one visible, antialiased rectangle and `transform` only scales and moves it: then
/// clipping is multiplying each pixel by how much of it the rectangle covers, with no
/// picture of the clip path drawn and no mask made.
pub fn clip_rect(
    clip: &usvg::ClipPath,
    transform: tiny_skia::Transform,
) -> Option<tiny_skia::Rect> {
    if clip.clip_path().is_some() || !clip.root().transform().is_identity() {
        return None;
    }
    let [usvg::Node::Path(path)] = clip.root().children() else {
        return None;
    };
    if !path.is_visible() || !path.rendering_mode().use_shape_antialiasing() {
        return None;
    }
    let ts = transform.pre_concat(clip.transform());
    if ts.kx != 0.0 || ts.ky != 0.0 {
        return None;
    }
    let bounds = path.data().bounds();
    if !is_rect(path.data(), bounds) {
        return None;
    }
    bounds.transform(ts)
}

/// Whether `path` is the rectangle `bounds`: one closed figure of axis-aligned lines
/// through its four corners.
fn is_rect(path: &tiny_skia::Path, bounds: tiny_skia::Rect) -> bool {
    use tiny_skia::PathSegment;
    let corner = |p: tiny_skia::Point| {
        (p.x == bounds.left() || p.x == bounds.right())
            && (p.y == bounds.top() || p.y == bounds.bottom())
    };
    let mut points = Vec::with_capacity(5);
    let mut closed = false;
    for segment in path.segments() {
        match segment {
            PathSegment::MoveTo(p) if points.is_empty() => points.push(p),
            PathSegment::LineTo(p) if !closed && !points.is_empty() => points.push(p),
            PathSegment::Close if !closed => closed = true,
            _ => return false,
        }
    }
    if points.last() == points.first() {
        points.pop();
    }
    points.len() == 4
        && points.iter().all(|&p| corner(p))
        && (0..4).all(|i| {
            let (a, b) = (points[i], points[(i + 1) % 4]);
            (a.x == b.x) != (a.y == b.y)
        })
}

/// Clips `pixmap` to `rect` (in its pixels): each pixel times the share of it the rectangle
/// covers.
pub fn apply_rect(rect: tiny_skia::Rect, pixmap: &mut tiny_skia::Pixmap) {
    let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
    let cover = |lo: f32, hi: f32, n: usize| -> Vec<u32> {
        (0..n)
            .map(|i| {
                let c = (hi.min(i as f32 + 1.0) - lo.max(i as f32)).clamp(0.0, 1.0);
                (c * 255.0).round() as u32
            })
            .collect()
    };
    let xs = cover(rect.left(), rect.right(), w);
    let ys = cover(rect.top(), rect.bottom(), h);
    // The columns the rectangle covers whole: a row it covers whole keeps them as they are.
    let full = xs.iter().position(|&c| c == 255).map(|first| {
        let last = xs.iter().rposition(|&c| c == 255).unwrap_or(first);
        first..last + 1
    });
    let data = pixmap.data_mut();
    for (row, &cy) in ys.iter().enumerate() {
        let line = &mut data[row * w * 4..(row + 1) * w * 4];
        if cy == 0 {
            line.fill(0);
            continue;
        }
        let skip = match (&full, cy) {
            (Some(cols), 255) => cols.clone(),
            _ => 0..0,
        };
        let columns = match skip.is_empty() {
            true => [0..w, 0..0],
            false => [0..skip.start, skip.end..w],
        };
        for x in columns.into_iter().flatten() {
            let (px, cx) = (&mut line[x * 4..x * 4 + 4], xs[x]);
            let a = if cy == 255 { cx } else { div255(cx * cy) };
            match a {
                255 => {}
                0 => px.fill(0),
                a => px.iter_mut().for_each(|c| *c = div255(u32::from(*c) * a) as u8),
            }
        }
    }
}

/// Whether drawing `tree` straight onto a canvas looks the same as drawing it on its own
/// layer and that layer onto the canvas: every group blends normally (a group that isolates
/// makes its own layer either way).
pub fn blends_normally(group: &usvg::Group) -> bool {
    group.blend_mode() == usvg::BlendMode::Normal
        && group.children().iter().all(|node| match node {
            usvg::Node::Group(g) => blends_normally(g),
            usvg::Node::Text(t) => blends_normally(t.flattened()),
            _ => true,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div255_rounds_like_the_division() {
        for v in 0..=255 * 255 {
            assert_eq!(div255(v), (f64::from(v) / 255.0).round() as u32, "{v}");
        }
    }
}
