//! The map: grid geometry and the random layout of the map cards.
//!
//! The rulebook shuffles the map cards into a grid and adjusts the layout until no two crime
//! scenes share a row or a column (Setup and Map Card Overview). The generator here draws a
//! layout uniformly among the legal ones, or says why none exists.

use std::fmt;

use rand::Rng;
use rand::seq::SliceRandom;

use super::rules::{Icon, MAX_CELLS, Rules};

/// No neighbour in that direction: the map edge.
pub const OFF_MAP: u8 = u8::MAX;
/// Orthogonal directions come first (north, east, south, west), then the four diagonals.
pub const ORTHOGONAL: usize = 4;
pub const DIRECTIONS: usize = 8;
const DELTAS: [(i8, i8); DIRECTIONS] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// Cells are numbered row by row: `row * columns + column`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    pub columns: u8,
    pub rows: u8,
    /// The neighbour of each cell in each direction, or [`OFF_MAP`].
    pub step: Vec<[u8; DIRECTIONS]>,
    /// Each cell's orthogonal neighbours as a bit set.
    pub orthogonal: Vec<u64>,
    /// Each cell's diagonal neighbours as a bit set.
    pub diagonal: Vec<u64>,
}

impl Grid {
    pub fn new(columns: u8, rows: u8) -> Grid {
        let cells = usize::from(columns) * usize::from(rows);
        let mut step = vec![[OFF_MAP; DIRECTIONS]; cells];
        let mut orthogonal = vec![0u64; cells];
        let mut diagonal = vec![0u64; cells];
        for (cell, dirs) in step.iter_mut().enumerate() {
            let (c, r) = (cell % usize::from(columns), cell / usize::from(columns));
            for (d, &(dc, dr)) in DELTAS.iter().enumerate() {
                let (nc, nr) = (c as i64 + i64::from(dc), r as i64 + i64::from(dr));
                if (0..i64::from(columns)).contains(&nc) && (0..i64::from(rows)).contains(&nr) {
                    let n = nr as usize * usize::from(columns) + nc as usize;
                    dirs[d] = n as u8;
                    if d < ORTHOGONAL {
                        orthogonal[cell] |= 1 << n;
                    } else {
                        diagonal[cell] |= 1 << n;
                    }
                }
            }
        }
        Grid {
            columns,
            rows,
            step,
            orthogonal,
            diagonal,
        }
    }

    /// The cards `from` reaches in 1 to `steps` steps through `open` cards, using the
    /// neighbour sets `next` (orthogonal or diagonal); `from` itself included if a walk
    /// returns to it.
    pub fn reach(&self, next: &[u64], from: u8, steps: u8, open: u64) -> u64 {
        let (mut frontier, mut reached) = (1u64 << from, 0u64);
        for _ in 0..steps {
            let mut grown = 0;
            let mut f = frontier;
            while f != 0 {
                grown |= next[f.trailing_zeros() as usize];
                f &= f - 1;
            }
            frontier = grown & open;
            reached |= frontier;
        }
        reached
    }

    /// The cards `from` reaches in exactly `steps` steps through `open` cards (a walk may
    /// come back to a card it passed); none for zero steps.
    pub fn reach_exactly(&self, next: &[u64], from: u8, steps: u8, open: u64) -> u64 {
        if steps == 0 {
            return 0;
        }
        let mut frontier = 1u64 << from;
        for _ in 0..steps {
            let mut grown = 0;
            let mut f = frontier;
            while f != 0 {
                grown |= next[f.trailing_zeros() as usize];
                f &= f - 1;
            }
            frontier = grown & open;
        }
        frontier
    }

    pub fn cells(&self) -> usize {
        self.step.len()
    }

    pub fn column(&self, cell: u8) -> u8 {
        cell % self.columns
    }

    pub fn row(&self, cell: u8) -> u8 {
        cell / self.columns
    }

    /// `B3`-style name: column letter, row number.
    pub fn cell_name(&self, cell: u8) -> String {
        let col = char::from(b'A' + self.column(cell));
        format!("{col}{}", self.row(cell) + 1)
    }
}

/// Why no legal layout exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutError {
    /// The grid does not hold exactly the map cards.
    GridMismatch { cells: usize, cards: usize },
    /// More crime scenes than rows or columns: two would share a line.
    TooManyScenes {
        scenes: usize,
        columns: u8,
        rows: u8,
    },
    /// A layout puts two crime scenes in one row or column.
    SharedLine { first: usize, second: usize },
}

impl LayoutError {
    /// The rule the layout breaks, with its rulebook section.
    pub fn rule(&self) -> &'static str {
        match self {
            LayoutError::GridMismatch { .. } => {
                "the map cards are laid out in a grid of 5 by 4 cards (rulebook: Setup and Map Card Overview)"
            }
            _ => {
                "no two crime scenes share a row or a column (rulebook: Setup and Map Card Overview)"
            }
        }
    }
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::GridMismatch { cells, cards } => write!(
                f,
                "the grid has {cells} places but there are {cards} map cards"
            ),
            LayoutError::TooManyScenes {
                scenes,
                columns,
                rows,
            } => write!(
                f,
                "{scenes} crime scenes cannot take distinct rows and columns of a {columns} x {rows} grid"
            ),
            LayoutError::SharedLine { first, second } => write!(
                f,
                "the crime scenes at places {first} and {second} share a row or a column"
            ),
        }
    }
}

/// Whether any legal layout exists for these rules.
pub fn layout_possible(rules: &Rules) -> Result<(), LayoutError> {
    let cells = rules.cells();
    if cells != rules.map.len() || cells > MAX_CELLS {
        return Err(LayoutError::GridMismatch {
            cells,
            cards: rules.map.len(),
        });
    }
    let scenes = rules.count(Icon::CrimeScene);
    if scenes > usize::from(rules.columns.min(rules.rows)) {
        return Err(LayoutError::TooManyScenes {
            scenes,
            columns: rules.columns,
            rows: rules.rows,
        });
    }
    Ok(())
}

/// A layout drawn uniformly among the legal ones: the crime scenes take random distinct rows
/// and columns, the other cards are shuffled into the remaining places.
pub fn random_layout<R: Rng + ?Sized>(
    rules: &Rules,
    rng: &mut R,
) -> Result<Vec<Icon>, LayoutError> {
    layout_possible(rules)?;
    let scenes = rules.count(Icon::CrimeScene);
    let mut rows = [0u8; MAX_CELLS];
    let mut columns = [0u8; MAX_CELLS];
    let rows = &mut rows[..usize::from(rules.rows)];
    let columns = &mut columns[..usize::from(rules.columns)];
    rows.iter_mut().enumerate().for_each(|(i, r)| *r = i as u8);
    columns
        .iter_mut()
        .enumerate()
        .for_each(|(i, c)| *c = i as u8);
    rows.shuffle(rng);
    columns.shuffle(rng);
    let mut layout = vec![Icon::Plain; rules.cells()];
    for (&r, &c) in rows.iter().zip(columns.iter()).take(scenes) {
        let cell = usize::from(r) * usize::from(rules.columns) + usize::from(c);
        layout[cell] = Icon::CrimeScene;
    }
    let mut others = [Icon::Plain; MAX_CELLS];
    let mut n = 0;
    for &icon in rules.map.iter().filter(|&&i| i != Icon::CrimeScene) {
        others[n] = icon;
        n += 1;
    }
    others[..n].shuffle(rng);
    let free = layout.iter_mut().filter(|icon| **icon != Icon::CrimeScene);
    for (slot, &icon) in free.zip(&others[..n]) {
        *slot = icon;
    }
    Ok(layout)
}

/// Checks a layout against the row and column rule.
pub fn validate(grid: &Grid, layout: &[Icon]) -> Result<(), LayoutError> {
    if layout.len() != grid.cells() {
        return Err(LayoutError::GridMismatch {
            cells: grid.cells(),
            cards: layout.len(),
        });
    }
    let scenes: Vec<usize> = (0..layout.len())
        .filter(|&c| layout[c] == Icon::CrimeScene)
        .collect();
    for (i, &a) in scenes.iter().enumerate() {
        for &b in &scenes[i + 1..] {
            let (a8, b8) = (a as u8, b as u8);
            if grid.row(a8) == grid.row(b8) || grid.column(a8) == grid.column(b8) {
                return Err(LayoutError::SharedLine {
                    first: a,
                    second: b,
                });
            }
        }
    }
    Ok(())
}
