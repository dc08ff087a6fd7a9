//! The greyscale marks that go with every symbol's colour, so that meaning never rests on
//! colour alone. Each mark is a path in a unit box (-1..1 both ways), scaled where it is drawn.

use crate::model::Symbol;

/// Marks a symbol may use; the renderer draws each of them (a test proves it).
pub const MARKS: &[&str] = &[
    "circle", "square", "triangle", "diamond", "hexagon", "star", "cross", "drop", "flame", "leaf",
    "wave", "shield", "key", "gear", "none",
];

/// Path data of a mark in the unit box; `None` for an unknown mark, empty for `none`.
/// Every name in [`MARKS`] has a path (a test proves it).
pub fn mark_path(mark: &str) -> Option<&'static str> {
    Some(match mark {
        "circle" => "M0,-0.8 A0.8,0.8 0 1 1 0,0.8 A0.8,0.8 0 1 1 0,-0.8 Z",
        "square" => "M-0.7,-0.7 H0.7 V0.7 H-0.7 Z",
        "triangle" => "M0,-0.85 L0.85,0.7 H-0.85 Z",
        "diamond" => "M0,-0.9 L0.75,0 L0,0.9 L-0.75,0 Z",
        "hexagon" => "M0,-0.85 L0.74,-0.42 V0.42 L0,0.85 L-0.74,0.42 V-0.42 Z",
        "star" => {
            "M0,-0.9 L0.21,-0.29 L0.86,-0.28 L0.34,0.11 L0.53,0.73 L0,0.36 L-0.53,0.73 \
             L-0.34,0.11 L-0.86,-0.28 L-0.21,-0.29 Z"
        }
        "cross" => {
            "M-0.25,-0.85 H0.25 V-0.25 H0.85 V0.25 H0.25 V0.85 H-0.25 V0.25 H-0.85 V-0.25 \
             H-0.25 Z"
        }
        "drop" => {
            "M0,-0.9 C0.35,-0.35 0.65,0 0.65,0.3 A0.65,0.6 0 1 1 -0.65,0.3 C-0.65,0 -0.35,-0.35 0,-0.9 Z"
        }
        "flame" => {
            "M0,-0.9 C0.3,-0.5 0.75,-0.2 0.7,0.3 C0.65,0.75 0.3,0.9 0,0.9 C-0.3,0.9 -0.7,0.7 \
             -0.7,0.3 C-0.7,0 -0.45,-0.2 -0.35,-0.45 C-0.2,-0.2 -0.1,-0.1 0,0 C0.1,-0.35 \
             -0.05,-0.6 0,-0.9 Z"
        }
        "leaf" => {
            "M-0.75,0.75 C-0.8,-0.2 -0.2,-0.8 0.8,-0.8 C0.8,0.2 0.2,0.8 -0.75,0.75 Z M-0.75,0.75 L0.3,-0.3"
        }
        "wave" => {
            "M-0.9,-0.15 C-0.6,-0.55 -0.3,-0.55 0,-0.15 C0.3,0.25 0.6,0.25 0.9,-0.15 V0.35 \
             C0.6,0.75 0.3,0.75 0,0.35 C-0.3,-0.05 -0.6,-0.05 -0.9,0.35 Z"
        }
        "shield" => {
            "M-0.75,-0.8 H0.75 V0 C0.75,0.45 0.35,0.7 0,0.9 C-0.35,0.7 -0.75,0.45 -0.75,0 Z"
        }
        "key" => {
            // One ring with a hole (the bow), and the shaft with two teeth joined to it: the
            // shaft's left end follows the ring's edge, so the even-odd fill leaves no gap.
            "M-0.93,0 A0.38,0.38 0 1 0 -0.17,0 A0.38,0.38 0 1 0 -0.93,0 Z \
             M-0.72,0 A0.17,0.17 0 1 0 -0.38,0 A0.17,0.17 0 1 0 -0.72,0 Z \
             M-0.189,-0.12 H0.85 V0.12 H0.72 V0.42 H0.5 V0.12 H0.35 V0.34 H0.15 V0.12 H-0.189 \
             A0.38,0.38 0 0 0 -0.189,-0.12 Z"
        }
        "gear" => {
            "M-0.15,-0.9 H0.15 L0.2,-0.62 L0.45,-0.5 L0.68,-0.66 L0.87,-0.45 L0.68,-0.22 \
             L0.75,0.05 L0.9,0.2 L0.8,0.45 L0.55,0.45 L0.38,0.68 L0.42,0.88 L0.15,0.93 \
             L0,0.7 L-0.15,0.93 L-0.42,0.88 L-0.38,0.68 L-0.55,0.45 L-0.8,0.45 L-0.9,0.2 \
             L-0.75,0.05 L-0.68,-0.22 L-0.87,-0.45 L-0.68,-0.66 L-0.45,-0.5 L-0.2,-0.62 Z \
             M0,-0.3 A0.3,0.3 0 1 0 0,0.3 A0.3,0.3 0 1 0 0,-0.3 Z"
        }
        "none" => "",
        _ => return None,
    })
}

/// Relative luminance of `#rrggbb` (0 black .. 1 white); mid-grey for anything else.
pub fn luminance(colour: &str) -> f64 {
    let hex = colour.trim_start_matches('#');
    if hex.len() != 6 || !hex.is_ascii() {
        return 0.5;
    }
    let channel = |i: usize| {
        u8::from_str_radix(&hex[i..i + 2], 16)
            .map(f64::from)
            .unwrap_or(128.0)
            / 255.0
    };
    0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
}

/// WCAG 2 relative luminance of `#rrggbb` (linear light, 0 black .. 1 white); `None` for
/// anything else.
pub fn relative_luminance(colour: &str) -> Option<f64> {
    let hex = colour.strip_prefix('#')?;
    if hex.len() != 6 || !hex.is_ascii() {
        return None;
    }
    let channel = |i: usize| -> Option<f64> {
        let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).ok()?) / 255.0;
        Some(if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        })
    };
    Some(0.2126 * channel(0)? + 0.7152 * channel(2)? + 0.0722 * channel(4)?)
}

/// WCAG 2 contrast ratio of two `#rrggbb` colours (1 .. 21); 1 if either is not one.
pub fn contrast(a: &str, b: &str) -> f64 {
    match (relative_luminance(a), relative_luminance(b)) {
        (Some(x), Some(y)) => (x.max(y) + 0.05) / (x.min(y) + 0.05),
        _ => 1.0,
    }
}

/// The ink that reads on a background colour: near-black or white, whichever contrasts more,
/// and pure black where neither reaches the 4.5:1 text needs (mid-tones such as a brick red).
pub fn ink_on(colour: &str) -> &'static str {
    let best = if contrast(colour, "#1a1a1a") >= contrast(colour, "#ffffff") {
        "#1a1a1a"
    } else {
        "#ffffff"
    };
    if contrast(colour, best) >= 4.5 || contrast(colour, best) >= contrast(colour, "#000000") {
        best
    } else {
        "#000000"
    }
}

#[cfg(test)]
mod ink_tests {
    use super::*;

    #[test]
    fn ink_reads_on_every_fill_at_text_contrast() {
        // Every grey and a sweep of hues: black or white always reaches 4.5:1 somewhere.
        for v in (0..=255).step_by(5) {
            for c in [
                format!("#{v:02x}{v:02x}{v:02x}"),
                format!("#{v:02x}4828"),
                format!("#30{v:02x}a0"),
                format!("#d9{v:02x}2b"),
            ] {
                let ink = ink_on(&c);
                assert!(
                    contrast(&c, ink) >= 4.5,
                    "{ink} on {c}: {:.2}",
                    contrast(&c, ink)
                );
            }
        }
        assert_eq!(ink_on("#ffffff"), "#1a1a1a");
        assert_eq!(ink_on("#1b1b1b"), "#ffffff");
        assert!((contrast("#ffffff", "#000000") - 21.0).abs() < 1e-9);
    }
}

/// A badge: a disc in the symbol's colour with its mark inside, centred on (cx, cy).
pub fn badge(symbol: &Symbol, cx: f64, cy: f64, r: f64) -> String {
    let path = mark_path(&symbol.mark).unwrap_or("");
    let ink = ink_on(&symbol.colour);
    let stroke = (r * 0.08).max(0.15);
    let inner = if path.is_empty() {
        String::new()
    } else {
        format!(
            r#"<path d="{path}" transform="translate({cx:.3} {cy:.3}) scale({s:.4})" fill="{ink}" fill-rule="evenodd" stroke="{ink}" stroke-width="{sw:.4}" stroke-linejoin="round"/>"#,
            s = r * 0.62,
            sw = 0.06
        )
    };
    format!(
        r##"<g><circle cx="{cx:.3}" cy="{cy:.3}" r="{r:.3}" fill="{fill}" stroke="#1a1a1a" stroke-width="{stroke:.3}"/>{inner}</g>"##,
        fill = symbol.colour
    )
}

/// The mark alone, filled with the symbol's colour and outlined dark, centred on (cx, cy);
/// nothing for the mark `none`.
pub fn mark(symbol: &Symbol, cx: f64, cy: f64, r: f64) -> String {
    let path = mark_path(&symbol.mark).unwrap_or("");
    if path.is_empty() {
        return String::new();
    }
    format!(
        r##"<path d="{path}" transform="translate({cx:.3} {cy:.3}) scale({r:.4})" fill="{fill}" fill-rule="evenodd" stroke="#1a1a1a" stroke-width="{sw:.4}" stroke-linejoin="round"/>"##,
        fill = symbol.colour,
        sw = 0.08
    )
}

/// A pattern of the mark repeated in light ink over an area, for large colour fields
/// (a card band, a hex) so that they read in greyscale too.
pub fn texture(symbol: &Symbol, x: f64, y: f64, w: f64, h: f64, step: f64) -> String {
    let Some(path) = mark_path(&symbol.mark).filter(|p| !p.is_empty()) else {
        return String::new();
    };
    let ink = ink_on(&symbol.colour);
    let mut out = format!(r#"<g fill="{ink}" fill-opacity="0.18" fill-rule="evenodd">"#);
    let cols = (w / step).ceil() as i64;
    let rows = (h / step).ceil() as i64;
    for row in 0..rows {
        for col in 0..cols {
            let shift = if row % 2 == 1 { step / 2.0 } else { 0.0 };
            let cx = x + step / 2.0 + col as f64 * step + shift;
            let cy = y + step / 2.0 + row as f64 * step;
            if cx > x + w {
                continue;
            }
            out.push_str(&format!(
                r#"<path d="{path}" transform="translate({cx:.3} {cy:.3}) scale({s:.3})"/>"#,
                s = step * 0.28
            ));
        }
    }
    out.push_str("</g>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mark_the_checker_allows_is_drawable() {
        for m in MARKS {
            assert!(mark_path(m).is_some(), "mark `{m}` has no path");
        }
        assert!(mark_path("blob").is_none());
    }

    #[test]
    fn ink_contrasts_with_background() {
        assert_eq!(ink_on("#ffffff"), "#1a1a1a");
        assert_eq!(ink_on("#101010"), "#ffffff");
        // Six bytes that are not six hex digits: mid-grey, whatever characters they are.
        for odd in ["#€aaa", "#ääa", "#ä€x"] {
            assert_eq!(luminance(odd), 0.5, "{odd}");
        }
    }
}

/// Draws a cycle of symbols: `pairs` are [winner, loser]; an arrow points from each winner
/// to its loser, the symbols evenly around a circle of radius `r`.
pub fn cycle_svg(
    symbols: &std::collections::BTreeMap<String, crate::model::Symbol>,
    pairs: &[(String, String)],
    cx: f64,
    cy: f64,
    r: f64,
) -> String {
    let mut order: Vec<&str> = Vec::new();
    for (a, b) in pairs {
        for s in [a.as_str(), b.as_str()] {
            if !order.contains(&s) {
                order.push(s);
            }
        }
    }
    let n = order.len().max(1) as f64;
    let pos: std::collections::HashMap<&str, (f64, f64)> = order
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let a = (-90.0 + 360.0 * i as f64 / n).to_radians();
            (*s, (cx + r * a.cos(), cy + r * a.sin()))
        })
        .collect();
    let badge_r = r * 0.38;
    let mut out = String::from(r##"<g stroke="#1a1a1a" stroke-width="0.6" fill="#1a1a1a">"##);
    for (a, b) in pairs {
        let (Some(&(x1, y1)), Some(&(x2, y2))) = (pos.get(a.as_str()), pos.get(b.as_str())) else {
            continue;
        };
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let (sx, sy) = (x1 + ux * (badge_r + 0.8), y1 + uy * (badge_r + 0.8));
        let (ex, ey) = (x2 - ux * (badge_r + 0.8), y2 - uy * (badge_r + 0.8));
        let head = 2.2;
        let (hx, hy) = (ex - ux * head, ey - uy * head);
        out.push_str(&format!(
            r#"<path d="M{sx:.3},{sy:.3} L{hx:.3},{hy:.3}" fill="none"/><path d="M{ex:.3},{ey:.3} L{:.3},{:.3} L{:.3},{:.3} Z"/>"#,
            hx - uy * head * 0.5, hy + ux * head * 0.5, hx + uy * head * 0.5, hy - ux * head * 0.5
        ));
    }
    out.push_str("</g>");
    for s in &order {
        if let (Some(sym), Some(&(x, y))) = (symbols.get(*s), pos.get(s)) {
            out.push_str(&badge(sym, x, y, badge_r));
        }
    }
    out
}

/// Reads `[[a, b], ...]` as pairs of strings.
pub fn pairs_of(v: &serde_json::Value) -> Vec<(String, String)> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let p = p.as_array()?;
            Some((
                p.first()?.as_str()?.to_string(),
                p.get(1)?.as_str()?.to_string(),
            ))
        })
        .collect()
}
