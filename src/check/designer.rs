//! Checks that matter most to a designer: declared parameter types, provenance where a
//! rulebook is cited, `[icon]` names in card text and the game's own icons.

use std::ops::Range;

use toml::Value;

use super::{at_card, in_components, in_game_file, references::known};
use crate::diag::Problem;
use crate::model::{Card, FieldType, Game, Source};
use crate::render::faces::markup;

/// Parameters that declare a `type` hold a value of it, within `min` and `max`.
pub fn param_types(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    for (name, p) in &game.params {
        let Some(kind) = p.kind else { continue };
        let v = p.value.get_ref();
        if !kind.accepts(v) {
            out.push(in_game_file(
                game,
                p.value.span(),
                format!(
                    "parameter `{name}` is declared {}, but its value is {}",
                    kind.describe(),
                    crate::diag::place::describe_value(v)
                ),
            ));
            continue;
        }
        let numbers: Vec<f64> = match v {
            Value::Integer(n) => vec![*n as f64],
            Value::Float(f) => vec![*f],
            Value::Array(items) => items
                .iter()
                .filter_map(Value::as_integer)
                .map(|n| n as f64)
                .collect(),
            _ => Vec::new(),
        };
        let below = p.min.filter(|m| numbers.iter().any(|n| n < m));
        let above = p.max.filter(|m| numbers.iter().any(|n| n > m));
        if below.is_some() || above.is_some() {
            let bound = |b: Option<f64>| b.map_or(String::new(), |b| b.to_string());
            out.push(in_game_file(
                game,
                p.value.span(),
                format!(
                    "parameter `{name}` lies outside its declared range {}..={}",
                    bound(p.min),
                    bound(p.max)
                ),
            ));
        }
    }
    out
}

/// True when every parameter that declares a type holds one (the game's own rule checks
/// read parameters by type, and would blame the same mistake again).
pub fn params_well_typed(game: &Game) -> bool {
    game.params
        .values()
        .all(|p| p.kind.is_none_or(|k| k.accepts(p.value.get_ref())))
}

/// A game that cites a rulebook says where every value comes from; an original design
/// (no `rulebook` in `game.toml`) need not.
pub fn provenance(game: &Game) -> Vec<Problem> {
    if game.is_original() {
        return Vec::new();
    }
    let help = "give `source = { printed = \"section\" }`, `{ inferred = \"from what\" }` or \
                `{ reconstructed = \"why\" }`; only a game without a `rulebook` may leave it out";
    let mut out = Vec::new();
    let mut need = |file_game: bool, span: Range<usize>, what: String, source: &Source| {
        if source.is_original() {
            let message = format!("{what} gives no source, and the game cites a rulebook");
            let p = if file_game {
                in_game_file(game, span, message)
            } else {
                in_components(game, span, message)
            };
            out.push(p.help(help));
        }
    };
    for (name, p) in &game.params {
        need(
            true,
            p.value.span(),
            format!("parameter `{name}`"),
            &p.source,
        );
    }
    let c = &game.components;
    for d in &c.decks {
        let id = d.id.get_ref();
        need(
            false,
            d.id.span(),
            format!("deck `{id}` (its `counts`)"),
            &d.counts,
        );
        for (f, decl) in &d.fields {
            need(
                false,
                d.id.span(),
                format!("field `{f}` of deck `{id}`"),
                &decl.source,
            );
        }
    }
    for p in &c.pieces {
        need(
            false,
            p.id.span(),
            format!("piece `{}`", p.id.get_ref()),
            &p.source,
        );
    }
    for b in &c.boards {
        need(
            false,
            b.id.span(),
            format!("board `{}`", b.id.get_ref()),
            &b.source,
        );
    }
    for t in &c.tracks {
        need(
            false,
            t.id.span(),
            format!("track `{}`", t.id.get_ref()),
            &t.source,
        );
    }
    out
}

/// `[name]` in card text draws the symbol or the game's own icon `name`; a name that is
/// neither is a mistake (it would print literally). Each `[[icon]]` has an id text can
/// write, one of its own, and an image that loads.
pub fn icons(game: &Game) -> Vec<Problem> {
    let mut out = own_icons(game);
    let known = |name: &str| {
        game.symbol(name).is_some() || game.components.icons.iter().any(|i| i.id.get_ref() == name)
    };
    for deck in &game.components.decks {
        let text_fields: Vec<&String> = deck
            .fields
            .iter()
            .filter(|(_, d)| d.kind == FieldType::Text)
            .map(|(n, _)| n)
            .collect();
        for card in &deck.cards {
            let texts = card
                .text
                .iter()
                .chain(card.texts.values())
                .map(String::as_str)
                .chain(text_fields.iter().filter_map(|f| card.str(f)));
            for text in texts {
                for name in markup::icon_refs(text) {
                    if !known(&name) {
                        out.push(unknown_icon(game, card, &name));
                    }
                }
            }
        }
    }
    out
}

/// The `[[icon]]` entries: an id text can write, not taken by a symbol or another icon, and
/// an image (SVG, PNG or JPEG) inside the game's folder that loads.
fn own_icons(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for icon in &game.components.icons {
        let id = icon.id.get_ref();
        if !markup::is_id(id) {
            out.push(
                in_components(
                    game,
                    icon.id.span(),
                    format!("icon id `{id}` cannot be written as `[{id}]` in text"),
                )
                .help("an icon's id is lower-case letters, digits and dashes, like `gear` or `two-coins`"),
            );
        } else if game.symbol(id).is_some() || seen.contains(&id.as_str()) {
            out.push(in_components(
                game,
                icon.id.span(),
                format!("icon id `{id}` is already a symbol's or another icon's: `[{id}]` would be ambiguous"),
            ));
        }
        seen.push(id);
        if let Err(e) = crate::render::faces::template::load_icon(&game.dir, icon.image.get_ref()) {
            out.push(
                in_components(game, icon.image.span(), format!("icon `{id}`: image {e}"))
                    .help("an icon's image is an SVG, PNG or JPEG file inside the game's folder"),
            );
        }
    }
    out
}

fn unknown_icon(game: &Game, card: &Card, name: &str) -> Problem {
    let file = game.card_file(card);
    let span = crate::diag::place::in_record(file, &card.id.span(), &format!("[{name}]"))
        .unwrap_or_else(|| card.id.span());
    at_card(
        game,
        card,
        span,
        crate::render::faces::template::unknown_icon(
            &format!("card `{}`", card.id.get_ref()),
            name,
        ),
    )
    .help(unknown_icon_help(game))
}

/// What `[id]` draws, and the ids the game has.
pub(super) fn unknown_icon_help(game: &Game) -> String {
    format!(
        "[id] draws a symbol or an [[icon]] of components.toml (write \\[ for a bracket); {}",
        known(
            game.components
                .symbols
                .iter()
                .map(|s| s.id.get_ref().as_str())
                .chain(
                    game.components
                        .icons
                        .iter()
                        .map(|i| i.id.get_ref().as_str())
                )
        )
    )
}
