//! Diagrams of the rules references. Each kind computes its geometry from the game's data and
//! renders it through an SVG template in `templates/rules/diagrams/`; the words come from the
//! language's `[diagram.ID]` table. Numbers a diagram computes (the strength in an example) are
//! offered to the prose as `{diagram.ID.NAME}` placeholders.

mod card_parts;
mod cycle;
mod map;

use std::collections::BTreeMap;

use serde::Serialize;

use super::placeholders::Val;
use crate::model::{DiagramSpec, DiagramText, Drawing, Game, Symbol};

/// What a diagram becomes on the page.
pub enum Figure {
    /// An SVG picture, `<svg>` element included.
    Svg(String),
}

/// The numbers every diagram of the game computes, keyed `diagram.ID.NAME`.
pub fn values(game: &Game) -> Result<BTreeMap<String, Val>, String> {
    let mut out = BTreeMap::new();
    for spec in &game.rules.meta.diagrams {
        let id = spec.id.get_ref();
        let found = match &spec.draw {
            Drawing::StrengthExample { .. } => cycle::strength_values(game, &spec.draw)?,
            Drawing::CardParts { .. } => card_parts::values(game, &spec.draw)?,
            Drawing::MapLayout { .. } => map::values(game, &spec.draw)?,
            Drawing::Cycle { .. } => Vec::new(),
        };
        for (name, v) in found {
            out.insert(format!("diagram.{id}.{name}"), v);
        }
    }
    Ok(out)
}

/// Draws one diagram in one language.
pub fn draw(
    game: &Game,
    spec: &DiagramSpec,
    text: &DiagramText,
    tera: &tera::Tera,
    lang: &str,
) -> Result<Figure, String> {
    let svg = |template: &str, body: serde_json::Value| -> Result<Figure, String> {
        let mut ctx = tera::Context::from_value(body).map_err(|e| e.to_string())?;
        ctx.insert("id", &format!("fig-{}", spec.id.get_ref()));
        ctx.insert("title", &text.title);
        ctx.insert("alt", &text.alt);
        ctx.insert("lang", lang);
        tera.render(&format!("diagrams/{template}.svg"), &ctx)
            .map(Figure::Svg)
            .map_err(|e| super::tera_error(&e))
    };
    match &spec.draw {
        Drawing::CardParts { .. } => svg(
            "card-parts",
            json(card_parts::layout(game, &spec.draw, text, lang)?),
        ),
        Drawing::Cycle { .. } => svg(
            "cycle",
            json(cycle::cycle_layout(game, &spec.draw, text, lang)?),
        ),
        Drawing::StrengthExample { .. } => svg(
            "strength",
            json(cycle::strength_layout(game, &spec.draw, text, lang)?),
        ),
        Drawing::MapLayout { .. } => svg("map", json(map::layout(game, &spec.draw, text, lang)?)),
    }
}

fn json(layout: impl Serialize) -> serde_json::Value {
    serde_json::to_value(layout).unwrap_or(serde_json::Value::Null)
}

/// A symbol as the templates draw it: fill, a mark path that reads in greyscale, and its name.
#[derive(Debug, Clone, Serialize)]
pub struct Drawn {
    pub fill: String,
    /// Black or white, whichever reads better on the fill.
    pub ink: String,
    pub mark: String,
    pub name: String,
}

/// A symbol of the game, drawn at (`cx`, `cy`) with radius `r`.
pub fn drawn(symbol: &Symbol, lang: &str, cx: f64, cy: f64, r: f64) -> Drawn {
    Drawn {
        fill: symbol.colour.clone(),
        ink: ink_for(&symbol.colour).to_string(),
        mark: mark_path(&symbol.mark, cx, cy, r),
        name: symbol.names.get(lang).unwrap_or(&symbol.name).clone(),
    }
}

/// The symbol with this id, or a message naming the group it should be in.
pub fn symbol<'a>(game: &'a Game, group: &'a str, id: &str) -> Result<&'a Symbol, String> {
    game.symbols_in(group)
        .find(|s| s.id.get_ref() == id)
        .ok_or_else(|| format!("no symbol `{id}` in group `{group}`"))
}

/// Black or white text for a background colour, by relative luminance (WCAG).
pub fn ink_for(hex: &str) -> &'static str {
    let channel = |i: usize| {
        let v = u8::from_str_radix(hex.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
        let c = f64::from(v) / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
    // Contrast with black is (l + 0.05) / 0.05, with white 1.05 / (l + 0.05).
    if (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) {
        "#000000"
    } else {
        "#ffffff"
    }
}

fn f(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn polygon(cx: f64, cy: f64, r: f64, n: usize, rotate: f64) -> String {
    let mut d = String::new();
    for i in 0..n {
        let a = rotate + std::f64::consts::TAU * i as f64 / n as f64;
        let (x, y) = (cx + r * a.cos(), cy + r * a.sin());
        d.push_str(&format!(
            "{}{},{} ",
            if i == 0 { "M" } else { "L" },
            f(x),
            f(y)
        ));
    }
    d.push('Z');
    d
}

/// An SVG path for a symbol's mark (the names `printplay check` accepts), centred on (cx, cy).
pub fn mark_path(mark: &str, cx: f64, cy: f64, r: f64) -> String {
    use std::f64::consts::{FRAC_PI_2, PI};
    match mark {
        "circle" => format!(
            "M{},{} a{r2},{r2} 0 1,0 {d},0 a{r2},{r2} 0 1,0 -{d},0 Z",
            f(cx - r),
            f(cy),
            r2 = f(r),
            d = f(2.0 * r)
        ),
        "square" => polygon(cx, cy, r * 1.2, 4, PI / 4.0),
        "triangle" => polygon(cx, cy + r * 0.15, r * 1.15, 3, -FRAC_PI_2),
        "diamond" => polygon(cx, cy, r * 1.1, 4, 0.0),
        "hexagon" => polygon(cx, cy, r, 6, 0.0),
        "star" => {
            let mut d = String::new();
            for i in 0..10 {
                let rr = if i % 2 == 0 { r * 1.15 } else { r * 0.5 };
                let a = -FRAC_PI_2 + PI * i as f64 / 5.0;
                d.push_str(&format!(
                    "{}{},{} ",
                    if i == 0 { "M" } else { "L" },
                    f(cx + rr * a.cos()),
                    f(cy + rr * a.sin())
                ));
            }
            d + "Z"
        }
        "cross" => {
            let (a, b) = (r * 0.35, r);
            format!(
                "M{},{} h{} v{} h{} v{} h-{} v{} h-{} v-{} h-{} v-{} h{} Z",
                f(cx - a),
                f(cy - b),
                f(2.0 * a),
                f(b - a),
                f(b - a),
                f(2.0 * a),
                f(b - a),
                f(b - a),
                f(2.0 * a),
                f(b - a),
                f(b - a),
                f(2.0 * a),
                f(b - a)
            )
        }
        "drop" => format!(
            "M{},{} Q{},{} {},{} A{r2},{r2} 0 1,1 {},{} Q{},{} {},{} Z",
            f(cx),
            f(cy - r * 1.2),
            f(cx + r * 0.8),
            f(cy - r * 0.2),
            f(cx + r * 0.7),
            f(cy + r * 0.3),
            f(cx - r * 0.7),
            f(cy + r * 0.3),
            f(cx - r * 0.8),
            f(cy - r * 0.2),
            f(cx),
            f(cy - r * 1.2),
            r2 = f(r * 0.7)
        ),
        "flame" => format!(
            "M{},{} C{},{} {},{} {},{} C{},{} {},{} {},{} Z",
            f(cx),
            f(cy - r * 1.2),
            f(cx + r * 1.3),
            f(cy),
            f(cx + r * 0.6),
            f(cy + r),
            f(cx),
            f(cy + r),
            f(cx - r * 0.6),
            f(cy + r),
            f(cx - r * 1.3),
            f(cy),
            f(cx),
            f(cy - r * 1.2)
        ),
        "leaf" => format!(
            "M{},{} Q{},{} {},{} Q{},{} {},{} Z",
            f(cx - r),
            f(cy + r),
            f(cx - r),
            f(cy - r),
            f(cx + r),
            f(cy - r),
            f(cx + r),
            f(cy + r),
            f(cx - r),
            f(cy + r)
        ),
        "wave" => format!(
            "M{},{} q{},-{} {},0 t{},0 t{},0 v{} q-{},{} -{},0 t-{},0 t-{},0 Z",
            f(cx - r * 1.2),
            f(cy - r * 0.2),
            f(r * 0.4),
            f(r * 0.6),
            f(r * 0.8),
            f(r * 0.8),
            f(r * 0.8),
            f(r * 0.6),
            f(r * 0.4),
            f(r * 0.6),
            f(r * 0.8),
            f(r * 0.8),
            f(r * 0.8)
        ),
        "shield" => format!(
            "M{},{} h{} v{} Q{},{} {},{} Q{},{} {},{} Z",
            f(cx - r),
            f(cy - r),
            f(2.0 * r),
            f(r * 0.8),
            f(cx + r),
            f(cy + r * 0.7),
            f(cx),
            f(cy + r * 1.2),
            f(cx - r),
            f(cy + r * 0.7),
            f(cx - r),
            f(cy - r * 0.2)
        ),
        "key" => format!(
            "{} M{},{} h{} v{} h-{} v{} h-{} v-{} h-{} Z",
            mark_path("circle", cx - r * 0.55, cy, r * 0.45),
            f(cx - r * 0.15),
            f(cy - r * 0.15),
            f(r * 1.25),
            f(r * 0.6),
            f(r * 0.25),
            f(-r * 0.3),
            f(r * 0.3),
            f(-r * 0.3),
            f(r * 0.7)
        ),
        "gear" => {
            let mut d = String::new();
            for i in 0..16 {
                let rr = if (i / 2) % 2 == 0 { r * 1.15 } else { r * 0.8 };
                let a = PI * i as f64 / 8.0;
                d.push_str(&format!(
                    "{}{},{} ",
                    if i == 0 { "M" } else { "L" },
                    f(cx + rr * a.cos()),
                    f(cy + rr * a.sin())
                ));
            }
            d + "Z"
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ink_contrasts_with_fill() {
        assert_eq!(ink_for("#ffffff"), "#000000");
        assert_eq!(ink_for("#000000"), "#ffffff");
        assert_eq!(ink_for("#e8b923"), "#000000");
        assert_eq!(ink_for("#2f6db5"), "#ffffff");
    }

    #[test]
    fn every_mark_but_none_has_a_path() {
        let marks = [
            "circle", "square", "triangle", "diamond", "hexagon", "star", "cross", "drop", "flame",
            "leaf", "wave", "shield", "key", "gear", "none",
        ];
        for m in marks {
            let p = mark_path(m, 10.0, 10.0, 5.0);
            assert_eq!(p.is_empty(), m == "none", "mark {m}");
        }
    }
}
