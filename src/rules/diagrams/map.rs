//! A sample map layout (The Search): the map deck's cards dealt into the grid the parameters
//! give, shuffled with a fixed seed; cards showing the `spread` symbol never share a row or a
//! column (the rulebook has players adjust a layout that breaks this).

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::{Drawn, drawn, symbol};
use crate::model::{Card, DiagramText, Drawing, Game};
use crate::rules::placeholders::Val;

struct Grid<'a> {
    columns: usize,
    rows: usize,
    cells: Vec<&'a Card>,
}

fn icons<'a>(card: &'a Card, field: &str) -> Vec<&'a str> {
    match card.str(field) {
        Some(one) => vec![one],
        None => card.strs(field),
    }
}

fn deal<'a>(game: &'a Game, draw: &Drawing) -> Result<Grid<'a>, String> {
    let Drawing::MapLayout {
        deck,
        columns_param,
        rows_param,
        icon_field,
        spread,
        seed,
        ..
    } = draw
    else {
        return Err("not a map layout".into());
    };
    let columns = usize::try_from(game.param_int(columns_param)?).map_err(|e| e.to_string())?;
    let rows = usize::try_from(game.param_int(rows_param)?).map_err(|e| e.to_string())?;
    let d = game.deck(deck).ok_or_else(|| format!("no deck `{deck}`"))?;
    let mut cells: Vec<&Card> = d
        .cards
        .iter()
        .flat_map(|c| std::iter::repeat_n(c, c.count.0 as usize))
        .collect();
    if cells.len() != columns * rows {
        return Err(format!(
            "deck `{deck}` has {} cards for a {columns} x {rows} grid",
            cells.len()
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(*seed);
    cells.shuffle(&mut rng);
    if let Some(spread) = spread {
        let marked = |c: &Card| icons(c, icon_field).contains(&spread.as_str());
        // Adjust as players do: move a clashing card to a random cell until none clash.
        for _ in 0..10_000 {
            let Some(bad) = clash(&cells, columns, &marked) else {
                return Ok(Grid {
                    columns,
                    rows,
                    cells,
                });
            };
            let other = rng.random_range(0..cells.len());
            cells.swap(bad, other);
        }
        return Err(format!(
            "no layout keeps `{spread}` cards out of each other's rows and columns"
        ));
    }
    Ok(Grid {
        columns,
        rows,
        cells,
    })
}

/// A marked cell that shares a row or column with another marked cell.
fn clash(cells: &[&Card], columns: usize, marked: &dyn Fn(&Card) -> bool) -> Option<usize> {
    let spots: Vec<usize> = (0..cells.len()).filter(|&i| marked(cells[i])).collect();
    spots.iter().copied().find(|&i| {
        spots
            .iter()
            .any(|&j| j != i && (i / columns == j / columns || i % columns == j % columns))
    })
}

/// `columns` and `rows` of the sample grid.
pub fn values(game: &Game, draw: &Drawing) -> Result<Vec<(String, Val)>, String> {
    let g = deal(game, draw)?;
    Ok(vec![
        ("columns".into(), Val::Int(g.columns as i64)),
        ("rows".into(), Val::Int(g.rows as i64)),
    ])
}

#[derive(Serialize)]
pub struct Layout {
    width: f64,
    height: f64,
    cells: Vec<Cell>,
    legend: Vec<LegendItem>,
    legend_y: f64,
}

#[derive(Serialize)]
struct Cell {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    icons: Vec<Drawn>,
}

#[derive(Serialize)]
struct LegendItem {
    x: f64,
    y: f64,
    symbol: Drawn,
}

pub fn layout(
    game: &Game,
    draw: &Drawing,
    _text: &DiagramText,
    lang: &str,
) -> Result<Layout, String> {
    let Drawing::MapLayout {
        icon_field,
        icon_group,
        ..
    } = draw
    else {
        return Err("not a map layout".into());
    };
    let g = deal(game, draw)?;
    let (w, h, gap, margin) = (56.0, 78.0, 6.0, 8.0);
    let mut cells = Vec::new();
    for (i, card) in g.cells.iter().enumerate() {
        let x = margin + (i % g.columns) as f64 * (w + gap);
        let y = margin + (i / g.columns) as f64 * (h + gap);
        let ids = icons(card, icon_field);
        let n = ids.len() as f64;
        let icons = ids
            .iter()
            .enumerate()
            .map(|(k, id)| {
                let cy = y + h / 2.0 + (k as f64 - (n - 1.0) / 2.0) * 26.0;
                symbol(game, icon_group, id).map(|s| drawn(s, lang, x + w / 2.0, cy, 15.0))
            })
            .collect::<Result<Vec<_>, _>>()?;
        cells.push(Cell { x, y, w, h, icons });
    }
    let width = 2.0 * margin + g.columns as f64 * (w + gap) - gap;
    let legend_y = 2.0 * margin + g.rows as f64 * (h + gap);
    let legend = game
        .symbols_in(icon_group)
        .enumerate()
        .map(|(i, s)| LegendItem {
            x: margin + 14.0,
            y: legend_y + 12.0 + i as f64 * 26.0,
            symbol: drawn(
                s,
                lang,
                margin + 14.0,
                legend_y + 12.0 + i as f64 * 26.0,
                9.0,
            ),
        })
        .collect::<Vec<_>>();
    Ok(Layout {
        width,
        height: legend_y + legend.len() as f64 * 26.0 + 4.0,
        cells,
        legend,
        legend_y,
    })
}
