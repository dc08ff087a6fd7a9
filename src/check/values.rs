//! Card fields match their declarations and every value lies within its declared range.

use toml::{Spanned, Value};

use super::{at_card, in_components, in_game_file};
use crate::diag::Problem;
use crate::model::{Card, Deck, FieldDecl, FieldType, Game};
use crate::render::faces::marks::MARKS;

pub fn check(game: &Game) -> Vec<Problem> {
    let mut out = game_values(game);
    for deck in &game.components.decks {
        out.extend(deck_values(game, deck));
    }
    out.extend(reasons(game));
    out
}

fn game_values(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    let info = &game.info;
    if info.players.min == 0 || info.players.min > info.players.max {
        out.push(
            Problem::data(format!(
                "players must satisfy 1 <= min <= max, found {}..{}",
                info.players.min, info.players.max
            ))
            .in_file(&game.game_file),
        );
    }
    let c = &game.components;
    if c.decks.is_empty() && c.pieces.is_empty() && c.boards.is_empty() {
        out.push(
            Problem::data("the game declares no decks, pieces or boards")
                .in_file(&game.components_file),
        );
    }
    for s in &c.symbols {
        if !is_hex_colour(&s.colour) {
            out.push(in_components(
                game,
                s.id.span(),
                format!(
                    "symbol `{}` has colour `{}`; write it as #rrggbb",
                    s.id.get_ref(),
                    s.colour
                ),
            ));
        }
        if !MARKS.contains(&s.mark.as_str()) {
            out.push(
                in_components(
                    game,
                    s.id.span(),
                    format!(
                        "symbol `{}` has mark `{}`, which the renderer cannot draw",
                        s.id.get_ref(),
                        s.mark
                    ),
                )
                .help(format!("marks: {}", MARKS.join(", "))),
            );
        }
    }
    for t in &c.tracks {
        if !(t.min <= t.start && t.start <= t.max) {
            out.push(in_components(
                game,
                t.id.span(),
                format!(
                    "track `{}` must satisfy min <= start <= max, found {} <= {} <= {}",
                    t.id.get_ref(),
                    t.min,
                    t.start,
                    t.max
                ),
            ));
        }
    }
    // Sizes of cards, pieces and boards are read within their bounds (`model::bounded`),
    // and the bounds that join several values are `bounds`' to check.
    out
}

fn is_hex_colour(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].chars().all(|c| c.is_ascii_hexdigit())
}

fn deck_values(game: &Game, deck: &Deck) -> Vec<Problem> {
    let mut out = Vec::new();
    let deck_id = deck.id.get_ref();
    for card in &deck.cards {
        let card_id = card.id.get_ref();
        for (name, value) in &card.fields {
            match deck.fields.get(name) {
                Some(decl) => out.extend(field_value(game, card, decl, name, value)),
                None => out.push(
                    at_card(game, card, value.span(), format!("card `{card_id}` has field `{name}`, which deck `{deck_id}` does not declare"))
                        .help(format!("declared fields: {}", deck.fields.keys().cloned().collect::<Vec<_>>().join(", "))),
                ),
            }
        }
        for (name, decl) in &deck.fields {
            if !decl.optional && !card.fields.contains_key(name) {
                out.push(at_card(
                    game,
                    card,
                    card.id.span(),
                    format!("card `{card_id}` lacks the field `{name}` ({})", decl.label),
                ));
            }
        }
        for name in card.sources.keys() {
            if !deck.fields.contains_key(name)
                && name != "count"
                && name != "text"
                && name != "name"
            {
                out.push(at_card(game, card, card.id.span(), format!("card `{card_id}` gives a source for `{name}`, which is not one of its fields")));
            }
        }
    }
    out
}

/// Checks one value against its declaration: type, range, length.
fn field_value(
    game: &Game,
    card: &Card,
    decl: &FieldDecl,
    name: &str,
    value: &Spanned<Value>,
) -> Option<Problem> {
    let v = value.get_ref();
    let here = |message: String| at_card(game, card, value.span(), message);
    let wrong = |expected: &str| {
        Some(here(format!(
            "field `{name}` must be {expected}, found {}",
            crate::diag::place::describe_value(v)
        )))
    };
    match decl.kind {
        FieldType::Int => match v.as_integer() {
            Some(n) => out_of_range(decl, n)
                .map(|msg| here(format!("field `{name}` ({}) {msg}", decl.label))),
            None => wrong("an integer"),
        },
        FieldType::Ints => match v.as_array().filter(|a| a.iter().all(Value::is_integer)) {
            Some(items) => items
                .iter()
                .filter_map(|i| i.as_integer())
                .find_map(|n| out_of_range(decl, n))
                .map(|msg| here(format!("field `{name}` ({}): an item {msg}", decl.label))),
            None => wrong("a list of integers"),
        },
        FieldType::Image => match v.as_str() {
            Some(_) => None, // the art checks read the file
            None => wrong("a path to an image"),
        },
        FieldType::Text | FieldType::Symbol => match v.as_str() {
            Some(s) => decl.max_len.filter(|&m| s.chars().count() > m).map(|m| {
                here(format!(
                    "field `{name}` is {} characters long; at most {m} fit",
                    s.chars().count()
                ))
            }),
            None => wrong("a string"),
        },
        FieldType::Bool => {
            if v.is_bool() {
                None
            } else {
                wrong("true or false")
            }
        }
        FieldType::Symbols => {
            if v.as_array().is_some_and(|a| a.iter().all(Value::is_str)) {
                None
            } else {
                wrong("a list of symbol ids")
            }
        }
    }
}

fn out_of_range(decl: &FieldDecl, n: i64) -> Option<String> {
    let below = decl.min.filter(|&m| n < m);
    let above = decl.max.filter(|&m| n > m);
    (below.is_some() || above.is_some()).then(|| {
        format!(
            "is {n}, outside its declared range {}..={}",
            decl.min.map_or("".into(), |m| m.to_string()),
            decl.max.map_or("".into(), |m| m.to_string())
        )
    })
}

/// Inferred and reconstructed values say why; printed ones name their section.
fn reasons(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    for (name, p) in &game.params {
        if p.source.reason().trim().is_empty() && !p.source.is_original() {
            out.push(in_game_file(
                game,
                p.value.span(),
                format!(
                    "parameter `{name}` is {} but gives no reason",
                    p.source.kind()
                ),
            ));
        }
    }
    for prov in game.provenance() {
        if prov.source.reason().trim().is_empty()
            && !prov.source.is_original()
            && !prov.path.starts_with("params.")
        {
            out.push(
                Problem::data(format!(
                    "`{}` is {} but gives no reason",
                    prov.path,
                    prov.source.kind()
                ))
                .in_file(&game.components_file),
            );
        }
    }
    out
}
