//! Diagrams of the rules references. Each kind computes its geometry from the game's data and
//! renders it through an SVG template in `templates/rules/diagrams/`; the words come from the
//! language's `[diagram.ID]` table. Numbers a diagram computes (the strength in an example) are
//! offered to the prose as `{diagram.ID.NAME}` placeholders.

mod card_parts;
mod cycle;
mod map;
mod odds;

use std::collections::BTreeMap;

use serde::Serialize;

use super::placeholders::Val;
use crate::model::{DiagramSpec, DiagramText, Drawing, Game, Symbol};

/// What a diagram becomes on the page.
pub enum Figure {
    /// An SVG picture, `<svg>` element included.
    Svg(String),
    /// A table of numbers (header, rows), for diagrams best read as a table.
    Table {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
    },
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
            Drawing::Cycle { .. } | Drawing::PrayOdds {} => Vec::new(),
        };
        for (name, v) in found {
            out.insert(format!("diagram.{id}.{name}"), v);
        }
    }
    Ok(out)
}

/// The diagrams' own style sheet, in every SVG (inline in the HTML page and in the Markdown's
/// separate files). The drawing's attributes give the light scheme; in a dark screen scheme
/// the parts that are the page's ink and paper follow the page (its `--ink`, `--paper` and
/// `--card` inline, the same colours in a file of its own), while a symbol's fill and the ink
/// chosen for it (`ink_on`) stay, so text on a coloured shape keeps its contrast. Paper prints
/// the light scheme.
pub const STYLE: &str = "@media screen and (prefers-color-scheme: dark){\
.dg-ink{fill:var(--ink,#e8e6e1)}\
.dg-ink-line{stroke:var(--ink,#e8e6e1)}\
.dg-paper{fill:var(--paper,#16181c)}\
.dg-paper-line{stroke:var(--paper,#16181c)}\
.dg-card{fill:var(--card,#2a2d33)}\
.dg-accent{fill:var(--accent,#8cc4ff)}\
.dg-accent-line{stroke:var(--accent,#8cc4ff)}}";

/// Draws one diagram in one language.
pub fn draw(
    game: &Game,
    spec: &DiagramSpec,
    text: &DiagramText,
    msgs: &crate::messages::Messages,
    tera: &tera::Tera,
    lang: &str,
) -> Result<Figure, String> {
    let svg = |template: &str, body: serde_json::Value| -> Result<Figure, String> {
        let mut ctx = tera::Context::from_value(body).map_err(|e| e.to_string())?;
        ctx.insert("id", &format!("fig-{}", spec.id.get_ref()));
        ctx.insert("title", &text.title);
        ctx.insert("alt", &text.alt);
        ctx.insert("lang", lang);
        ctx.insert("style", STYLE);
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
        Drawing::PrayOdds {} => odds::table(game, text, msgs),
    }
}

fn json(layout: impl Serialize) -> serde_json::Value {
    serde_json::to_value(layout).unwrap_or(serde_json::Value::Null)
}

/// A symbol as the templates draw it: fill, the mark the print sheets use (a path in a unit
/// box, placed by `transform`), the ink that reads on the fill, and its name.
#[derive(Debug, Clone, Serialize)]
pub struct Drawn {
    pub fill: String,
    pub ink: String,
    pub mark: String,
    pub transform: String,
    /// A stroke one unit wide on the page, in the mark's scaled units (SVG 1.1 has no
    /// non-scaling stroke).
    pub hairline: String,
    pub name: String,
}

/// A symbol of the game, its mark drawn at (`cx`, `cy`) with radius `r`.
pub fn drawn(symbol: &Symbol, lang: &str, cx: f64, cy: f64, r: f64) -> Drawn {
    Drawn {
        fill: symbol.colour.clone(),
        ink: crate::render::faces::marks::ink_on(&symbol.colour).to_string(),
        mark: crate::render::faces::marks::mark_path(&symbol.mark)
            .unwrap_or_default()
            .to_string(),
        transform: format!("translate({cx:.2} {cy:.2}) scale({r:.2})"),
        hairline: format!("{:.4}", 1.0 / r.max(0.01)),
        name: symbol.names.get(lang).unwrap_or(&symbol.name).clone(),
    }
}

/// The symbol with this id, or a message naming the group it should be in.
pub fn symbol<'a>(game: &'a Game, group: &'a str, id: &str) -> Result<&'a Symbol, String> {
    game.symbols_in(group)
        .find(|s| s.id.get_ref() == id)
        .ok_or_else(|| format!("no symbol `{id}` in group `{group}`"))
}
