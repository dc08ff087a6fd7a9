//! The Pray odds table (Imperial Settlers: Aztecs): for each blessing colour and each Pray size,
//! the chance of at least one matching card and the expected number of matches, and whether a
//! player with one token of the colour does better drawing or skipping the draw. The numbers
//! come from the game's own exact odds ([`crate::games::settlers_aztecs::pray`]).

use std::collections::BTreeMap;

use super::Figure;
use crate::games::settlers_aztecs::pray::{OddsRow, pray_odds_table};
use crate::messages::Messages;
use crate::model::{DiagramText, Game};

fn label<'a>(text: &'a DiagramText, key: &str) -> Result<&'a str, String> {
    text.labels
        .get(key)
        .map(String::as_str)
        .ok_or_else(|| format!("[diagram.*.labels] needs `{key}`"))
}

/// A number with `digits` decimals and the language's decimal separator.
fn decimal(value: f64, digits: usize, msgs: &Messages) -> String {
    format!("{value:.digits$}").replace('.', &msgs.decimal_separator)
}

pub fn table(game: &Game, text: &DiagramText, msgs: &Messages) -> Result<Figure, String> {
    let rows = pray_odds_table(game)?;
    let mut sizes: Vec<u32> = rows.iter().map(|r| r.pray).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let largest = sizes
        .last()
        .copied()
        .ok_or("the odds table has no Pray sizes")?;
    let deck_size = rows.first().map_or(0, |r| r.deck_size);
    let mut header = vec![
        label(text, "colour")?.to_string(),
        format!("{} ({deck_size})", label(text, "matching")?),
    ];
    header.extend(
        sizes
            .iter()
            .map(|n| format!("{} {n}", label(text, "pray").unwrap_or("Pray"))),
    );
    header.push(format!("{} {largest}", label(text, "token")?));
    let mut by_colour: Vec<(String, Vec<&OddsRow>)> = Vec::new();
    for r in &rows {
        match by_colour.iter_mut().find(|(c, _)| *c == r.colour) {
            Some((_, list)) => list.push(r),
            None => by_colour.push((r.colour.clone(), vec![r])),
        }
    }
    let percent = msgs.get("percent")?;
    let mut out = Vec::new();
    for (_, list) in by_colour {
        let first = list[0];
        let mut row = vec![first.colour_name.clone(), first.matching_cards.to_string()];
        let at: BTreeMap<u32, &OddsRow> = list.iter().map(|r| (r.pray, *r)).collect();
        for n in &sizes {
            row.push(match at.get(n) {
                Some(r) => format!(
                    "{} ({})",
                    percent.replace("{}", &decimal(100.0 * r.p_any, 1, msgs)),
                    decimal(r.expected, 2, msgs)
                ),
                None => String::new(),
            });
        }
        let choice = at
            .get(&largest)
            .map(|r| label(text, r.token_choice()))
            .transpose()?
            .unwrap_or_default();
        row.push(choice.to_string());
        out.push(row);
    }
    Ok(Figure::Table { header, rows: out })
}
