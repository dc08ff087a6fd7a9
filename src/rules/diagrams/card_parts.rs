//! A card with its printed parts labelled (Capek's golem card): name, number, spaces to fill and
//! the colour choices with their set sizes, read from one card of the data.

use serde::Serialize;

use super::{Drawn, drawn, symbol};
use crate::model::{Card, DiagramText, Drawing, Game};
use crate::rules::placeholders::Val;

#[derive(Serialize)]
pub struct Layout {
    width: f64,
    height: f64,
    card: Rect,
    name: String,
    number: String,
    spaces: Vec<Circle>,
    choices: Vec<Choice>,
    or_word: String,
    labels: Vec<Label>,
}

#[derive(Serialize)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

#[derive(Serialize)]
struct Circle {
    cx: f64,
    cy: f64,
    r: f64,
}

#[derive(Serialize)]
struct Choice {
    cx: f64,
    cy: f64,
    r: f64,
    size: i64,
    symbol: Drawn,
}

/// A label beside the card with a leader line to the part it names.
#[derive(Serialize)]
pub struct Label {
    pub x: f64,
    pub y: f64,
    pub lines: Vec<String>,
    pub to_x: f64,
    pub to_y: f64,
}

struct Parts<'a> {
    card: &'a Card,
    number_field: Option<&'a str>,
    spaces: i64,
    choices: Vec<(&'a str, i64)>,
}

fn parts<'a>(game: &'a Game, draw: &'a Drawing) -> Result<Parts<'a>, String> {
    let Drawing::CardParts {
        deck,
        card,
        number,
        spaces,
        choices,
    } = draw
    else {
        return Err("not a card-parts drawing".into());
    };
    let d = game.deck(deck).ok_or_else(|| format!("no deck `{deck}`"))?;
    let c = d
        .cards
        .iter()
        .find(|c| c.id.get_ref() == card)
        .ok_or_else(|| format!("deck `{deck}` has no card `{card}`"))?;
    let int = |field: &str| {
        c.int(field)
            .ok_or_else(|| format!("card `{card}` has no integer field `{field}`"))
    };
    let spaces = int(spaces)?;
    let mut pairs = Vec::new();
    for [colour, size] in choices {
        let sym = c
            .str(colour)
            .ok_or_else(|| format!("card `{card}` has no symbol field `{colour}`"))?;
        pairs.push((sym, int(size)?));
    }
    Ok(Parts {
        card: c,
        number_field: number.as_deref(),
        spaces,
        choices: pairs,
    })
}

/// `spaces`, `choice1`, `choice2`...: the numbers the drawn card shows.
pub fn values(game: &Game, draw: &Drawing) -> Result<Vec<(String, Val)>, String> {
    let p = parts(game, draw)?;
    let mut out = vec![("spaces".to_string(), Val::Int(p.spaces))];
    for (i, (_, size)) in p.choices.iter().enumerate() {
        out.push((format!("choice{}", i + 1), Val::Int(*size)));
    }
    Ok(out)
}

/// Splits a label into lines of at most `width` characters.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

fn label(text: &DiagramText, key: &str) -> Result<String, String> {
    text.labels
        .get(key)
        .cloned()
        .ok_or_else(|| format!("[diagram.*.labels] needs `{key}`"))
}

/// The choices label: its words, then one line per choice (`3 × Parts Machining`).
fn choice_lines(words: &str, or: &str, choices: &[Choice]) -> Vec<String> {
    let mut lines = wrap(words, 26);
    for (i, c) in choices.iter().enumerate() {
        let prefix = if i == 0 {
            String::new()
        } else {
            format!("{or} ")
        };
        lines.extend(wrap(&format!("{prefix}{} × {}", c.size, c.symbol.name), 30));
    }
    lines
}

pub fn layout(
    game: &Game,
    draw: &Drawing,
    text: &DiagramText,
    lang: &str,
) -> Result<Layout, String> {
    let p = parts(game, draw)?;
    let group = match draw {
        Drawing::CardParts { deck, choices, .. } => choices
            .first()
            .and_then(|[colour, _]| game.deck(deck)?.fields.get(colour)?.group.clone())
            .unwrap_or_default(),
        _ => String::new(),
    };
    let card = Rect {
        x: 10.0,
        y: 10.0,
        w: 126.0,
        h: 176.0,
    };
    let mid = card.x + card.w / 2.0;
    let r = 8.0;
    let n = p.spaces.clamp(0, 12) as usize;
    let per_row = n.clamp(1, 4);
    let spaces: Vec<Circle> = (0..n)
        .map(|i| {
            let row = i / per_row;
            let col = i % per_row;
            let in_row = (n - row * per_row).min(per_row);
            let x0 = mid - (in_row as f64 - 1.0) * (2.0 * r + 6.0) / 2.0;
            Circle {
                cx: x0 + col as f64 * (2.0 * r + 6.0),
                cy: 78.0 + row as f64 * (2.0 * r + 6.0),
                r,
            }
        })
        .collect();
    let cr = 18.0;
    let k = p.choices.len().max(1) as f64;
    let choices = p
        .choices
        .iter()
        .enumerate()
        .map(|(i, (sym, size))| {
            let cx = mid + (i as f64 - (k - 1.0) / 2.0) * 60.0;
            let cy = 140.0;
            Ok(Choice {
                cx,
                cy,
                r: cr,
                size: *size,
                symbol: drawn(symbol(game, &group, sym)?, lang, cx, cy - 8.0, 5.0),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let number = match p.number_field.and_then(|f| p.card.int(f)) {
        Some(v) => format!("{} {v}", label(text, "number_prefix")?),
        None => String::new(),
    };
    let lx = card.x + card.w + 34.0;
    let mut labels = vec![
        Label {
            x: lx,
            y: 30.0,
            lines: wrap(&label(text, "name")?, 26),
            to_x: card.x + card.w - 8.0,
            to_y: 30.0,
        },
        Label {
            x: lx,
            y: 78.0,
            lines: wrap(&label(text, "spaces")?, 26),
            to_x: spaces.last().map_or(mid, |c| c.cx + c.r),
            to_y: 78.0,
        },
        Label {
            x: lx,
            y: 128.0,
            lines: choice_lines(&label(text, "choices")?, &label(text, "or")?, &choices),
            to_x: choices.last().map_or(mid, |c| c.cx + c.r),
            to_y: 140.0,
        },
    ];
    let below_choices = 128.0 + 13.0 * labels[2].lines.len() as f64 + 10.0;
    let number_y = below_choices.max(182.0);
    if !number.is_empty() {
        labels.push(Label {
            x: lx,
            y: number_y,
            lines: wrap(&label(text, "number")?, 26),
            to_x: card.x + card.w - 6.0,
            to_y: card.y + card.h - 14.0,
        });
    }
    Ok(Layout {
        width: lx + 170.0,
        height: number_y + 14.0,
        name: p.card.names.get(lang).unwrap_or(&p.card.name).clone(),
        number,
        spaces,
        choices,
        or_word: label(text, "or")?,
        labels,
        card,
    })
}
