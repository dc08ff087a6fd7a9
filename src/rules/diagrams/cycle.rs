//! The element cycle (which element beats which) and a worked strength example, both read from
//! the game's `beats` cycle parameter: each symbol in the list beats the next, the last beats
//! the first. Strength (Aether rulebook, "Elementaalit"): tiles of the elemental's own element
//! touching it, the one under it included, minus touching tiles of the element that beats it.

use serde::Serialize;

use super::card_parts::wrap;
use super::{Drawn, drawn, symbol};
use crate::model::{DiagramText, Drawing, Game};
use crate::rules::placeholders::Val;

/// The cycle as symbol ids, `cycle[i]` beating `cycle[i + 1]` (the last beats the first).
/// The parameter is either that list of ids or a list of `[winner, loser]` pairs.
fn cycle(game: &Game, param: &str) -> Result<Vec<String>, String> {
    let p = game
        .param(param)
        .ok_or_else(|| format!("game.toml has no parameter `{param}`"))?;
    let bad = || {
        format!(
            "parameter `{param}` must list symbol ids in a cycle, or [winner, loser] pairs that form one"
        )
    };
    let list = p.value.get_ref().as_array().ok_or_else(bad)?;
    let ids: Vec<String> = list
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    if ids.len() == list.len() && ids.len() >= 2 {
        return Ok(ids);
    }
    let pairs: Vec<(String, String)> = list
        .iter()
        .filter_map(|v| match v.as_array()?.as_slice() {
            [a, b] => Some((a.as_str()?.to_string(), b.as_str()?.to_string())),
            _ => None,
        })
        .collect();
    if pairs.len() != list.len() || pairs.len() < 2 {
        return Err(bad());
    }
    // Follow winner -> loser from the first pair until the cycle closes.
    let mut order = vec![pairs[0].0.clone()];
    while order.len() < pairs.len() {
        let last = order.last().cloned().unwrap_or_default();
        let next = pairs
            .iter()
            .find(|(w, _)| *w == last)
            .map(|(_, l)| l.clone())
            .ok_or_else(bad)?;
        if order.contains(&next) {
            return Err(bad());
        }
        order.push(next);
    }
    Ok(order)
}

/// The symbol that beats `id` in the cycle.
fn beater(cycle: &[String], id: &str) -> Option<String> {
    let i = cycle.iter().position(|c| c == id)?;
    Some(cycle[(i + cycle.len() - 1) % cycle.len()].clone())
}

#[derive(Serialize)]
pub struct CycleLayout {
    width: f64,
    height: f64,
    nodes: Vec<Node>,
    arrows: Vec<Arrow>,
    beats: String,
}

#[derive(Serialize)]
struct Node {
    cx: f64,
    cy: f64,
    r: f64,
    symbol: Drawn,
    label_y: f64,
}

#[derive(Serialize)]
struct Arrow {
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
}

pub fn cycle_layout(
    game: &Game,
    draw: &Drawing,
    text: &DiagramText,
    lang: &str,
) -> Result<CycleLayout, String> {
    let Drawing::Cycle { group, param } = draw else {
        return Err("not a cycle drawing".into());
    };
    let ids = cycle(game, param)?;
    let (w, h) = (320.0, 300.0);
    let (cx, cy, big_r, r) = (w / 2.0, h / 2.0 - 6.0, 100.0, 30.0);
    let n = ids.len() as f64;
    let at = |i: usize| {
        let a = -std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * i as f64 / n;
        (cx + big_r * a.cos(), cy + big_r * a.sin())
    };
    let mut nodes = Vec::new();
    let mut arrows = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let (x, y) = at(i);
        let s = symbol(game, group, id)?;
        nodes.push(Node {
            cx: x,
            cy: y,
            r,
            symbol: drawn(s, lang, x, y - 5.0, 11.0),
            label_y: y + 18.0,
        });
        let (x2, y2) = at((i + 1) % ids.len());
        let (dx, dy) = (x2 - x, y2 - y);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let gap = r + 6.0;
        arrows.push(Arrow {
            x1: x + dx / len * gap,
            y1: y + dy / len * gap,
            x2: x2 - dx / len * (gap + 4.0),
            y2: y2 - dy / len * (gap + 4.0),
        });
    }
    let beats = text
        .labels
        .get("beats")
        .cloned()
        .ok_or("[diagram.*.labels] needs `beats`")?;
    Ok(CycleLayout {
        width: w,
        height: h,
        nodes,
        arrows,
        beats,
    })
}

struct Example {
    centre: String,
    ring: Vec<String>,
    opposing: String,
    same: i64,
    against: i64,
}

fn example(game: &Game, draw: &Drawing) -> Result<(Example, String), String> {
    let Drawing::StrengthExample {
        group,
        beats_param,
        centre,
        ring,
    } = draw
    else {
        return Err("not a strength example".into());
    };
    let ids = cycle(game, beats_param)?;
    if ring.len() != 6 {
        return Err("a hex has 6 neighbours: `ring` lists 6 symbol ids or \"\"".into());
    }
    for id in ring.iter().chain([centre]).filter(|s| !s.is_empty()) {
        symbol(game, group, id)?;
    }
    let opposing = beater(&ids, centre)
        .ok_or_else(|| format!("`{centre}` is not in the `{beats_param}` cycle"))?;
    let same = 1 + ring.iter().filter(|s| *s == centre).count() as i64;
    let against = ring.iter().filter(|s| **s == opposing).count() as i64;
    Ok((
        Example {
            centre: centre.clone(),
            ring: ring.clone(),
            opposing,
            same,
            against,
        },
        group.clone(),
    ))
}

/// `same`, `opposing` and `strength` of the example elemental.
pub fn strength_values(game: &Game, draw: &Drawing) -> Result<Vec<(String, Val)>, String> {
    let (e, _) = example(game, draw)?;
    Ok(vec![
        ("same".into(), Val::Int(e.same)),
        ("opposing".into(), Val::Int(e.against)),
        ("strength".into(), Val::Int(e.same - e.against)),
    ])
}

#[derive(Serialize)]
pub struct StrengthLayout {
    width: f64,
    height: f64,
    hexes: Vec<Hex>,
    elemental: Circle,
    total: String,
    legend: Vec<String>,
    legend_y: f64,
}

#[derive(Serialize)]
struct Hex {
    points: String,
    fill: String,
    empty: bool,
    symbol: Option<Drawn>,
    /// "+1", "−1" or "" for tiles that do not count.
    effect: String,
    ex: f64,
    ey: f64,
}

#[derive(Serialize)]
struct Circle {
    cx: f64,
    cy: f64,
    r: f64,
}

/// Axial neighbour directions of a flat-topped hex, clockwise from the top.
const RING: [(f64, f64); 6] = [
    (0.0, -1.0),
    (1.0, -1.0),
    (1.0, 0.0),
    (0.0, 1.0),
    (-1.0, 1.0),
    (-1.0, 0.0),
];

pub fn strength_layout(
    game: &Game,
    draw: &Drawing,
    text: &DiagramText,
    lang: &str,
) -> Result<StrengthLayout, String> {
    let (e, group) = example(game, draw)?;
    let s = 40.0;
    let (ox, oy) = (150.0, 130.0);
    let centre_of = |q: f64, r: f64| (ox + s * 1.5 * q, oy + s * 3f64.sqrt() * (r + q / 2.0));
    let corners = |x: f64, y: f64| {
        (0..6)
            .map(|i| {
                let a = std::f64::consts::PI / 3.0 * i as f64;
                format!(
                    "{:.1},{:.1}",
                    x + (s - 1.5) * a.cos(),
                    y + (s - 1.5) * a.sin()
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut hexes = Vec::new();
    let cells = std::iter::once(((0.0, 0.0), &e.centre)).chain(RING.iter().copied().zip(&e.ring));
    for (i, ((q, r), id)) in cells.enumerate() {
        let (x, y) = centre_of(q, r);
        // The centre hex carries the elemental: its mark moves up to make room.
        let mark_y = if i == 0 { y - 21.0 } else { y - 10.0 };
        let (fill, sym) = if id.is_empty() {
            ("#ffffff".to_string(), None)
        } else {
            let sy = symbol(game, &group, id)?;
            (
                sy.colour.clone(),
                Some(drawn(sy, lang, x, mark_y, if i == 0 { 7.0 } else { 9.0 })),
            )
        };
        let effect = if *id == e.centre {
            "+1"
        } else if *id == e.opposing {
            "−1"
        } else {
            ""
        };
        hexes.push(Hex {
            points: corners(x, y),
            fill,
            empty: id.is_empty(),
            symbol: sym,
            effect: effect.to_string(),
            ex: x,
            ey: if i == 0 { y + 27.0 } else { y + 23.0 },
        });
    }
    let label = |k: &str| {
        text.labels
            .get(k)
            .cloned()
            .ok_or_else(|| format!("[diagram.*.labels] needs `{k}`"))
    };
    let legend = wrap_entries(&label("legend")?, 44);
    let legend_y = 268.0;
    Ok(StrengthLayout {
        width: 300.0,
        height: legend_y + 16.0 * legend.len() as f64 + 6.0,
        hexes,
        elemental: Circle {
            cx: ox,
            cy: oy + 4.0,
            r: 13.0,
        },
        total: format!(
            "{} = {} − {} = {}",
            label("strength")?,
            e.same,
            e.against,
            e.same - e.against
        ),
        legend,
        legend_y,
    })
}

/// A legend of entries separated by ` · `, wrapped between entries: a line holds whole entries
/// (an entry longer than a line is wrapped by words on lines of its own), so no entry is cut
/// in two across lines.
pub fn wrap_entries(text: &str, width: usize) -> Vec<String> {
    const SEP: &str = " · ";
    let mut lines: Vec<String> = Vec::new();
    let mut open = false;
    for entry in text.split(SEP).map(str::trim).filter(|e| !e.is_empty()) {
        let len = entry.chars().count();
        match lines.last_mut() {
            Some(line) if open && line.chars().count() + SEP.chars().count() + len <= width => {
                line.push_str(SEP);
                line.push_str(entry);
            }
            _ if len <= width => {
                lines.push(entry.to_string());
                open = true;
            }
            _ => {
                lines.extend(wrap(entry, width));
                open = false;
            }
        }
    }
    lines
}

#[cfg(test)]
mod wrap_tests {
    use super::*;

    /// The strength legend breaks between its entries, in both languages (a native reading
    /// found "−1: / vastaelementin laatta" and "no / effect").
    #[test]
    fn a_legend_breaks_between_its_entries() {
        for legend in [
            "+1: oman elementin laatta · −1: vastaelementin laatta · muut laatat: ei vaikutusta",
            "+1: a tile of its own element · −1: a tile of its opposing element · other tiles: no effect",
        ] {
            let entries: Vec<&str> = legend.split(" · ").collect();
            let lines = wrap_entries(legend, 44);
            assert!(lines.iter().all(|l| l.chars().count() <= 44), "{lines:?}");
            for line in &lines {
                for part in line.split(" · ") {
                    assert!(
                        entries.contains(&part),
                        "`{part}` is not a whole entry: {lines:?}"
                    );
                }
            }
            assert_eq!(lines.join(" · "), legend);
        }
    }
}
