//! Sizes read within their bounds ([`crate::limits`]): a value past its bound is refused
//! while the file is read, at the value's line and column, so no later stage meets it.

use serde::{Deserialize, Deserializer, de::Error};

use crate::limits::{self, within};

/// A number of millimetres within `min..=max`, or the error naming `what` and the bounds.
fn mm<'de, D: Deserializer<'de>>(
    d: D,
    what: &str,
    min: f64,
    max: f64,
    why: &str,
) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if within(v, min, max) {
        Ok(v)
    } else {
        Err(D::Error::custom(format!(
            "{what} is {v} mm; it must be {min} to {max} mm ({why})"
        )))
    }
}

fn some<T>(v: T) -> Option<T> {
    Some(v)
}

pub fn piece_mm<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    mm(
        d,
        "a piece",
        limits::PIECE_MIN_MM,
        limits::PIECE_MAX_MM,
        "no cutter follows a smaller one; a larger one is a board",
    )
}

pub fn card_thickness_mm<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    mm(
        d,
        "a card's thickness",
        limits::CARD_THICKNESS_MIN_MM,
        limits::CARD_THICKNESS_MAX_MM,
        "thinner is paper, not card; a thicker card is a tile",
    )
}

pub fn hex_mm<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    mm(
        d,
        "a hex",
        limits::HEX_MIN_MM,
        limits::HEX_MAX_MM,
        "flat side to flat side: a pawn stands on it, and it stays a hex of a board",
    )
    .map(some)
}

pub fn board_mm<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    mm(
        d,
        "a board's side",
        limits::BOARD_MIN_MM,
        limits::BOARD_MAX_MM,
        "a table is about a metre wide",
    )
    .map(some)
}

pub fn cell_mm<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    mm(
        d,
        "a cell",
        limits::CELL_MIN_MM,
        limits::CELL_MAX_MM,
        "a pawn stands on it, and it stays a cell of a board",
    )
}

/// Rows or columns of a square grid.
pub fn grid_cells<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = i64::deserialize(d)?;
    match u32::try_from(n) {
        Ok(n) if (1..=limits::GRID_MAX_CELLS).contains(&n) => Ok(n),
        _ => Err(D::Error::custom(format!(
            "a grid has 1 to {} rows and columns, not {n}",
            limits::GRID_MAX_CELLS
        ))),
    }
}

/// A hex's axial coordinate.
pub fn hex_coord<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    let n = i64::deserialize(d)?;
    let max = limits::HEX_COORD_MAX;
    match i32::try_from(n) {
        Ok(n) if (-max..=max).contains(&n) => Ok(n),
        _ => Err(D::Error::custom(format!(
            "a hex's coordinate runs from -{max} to {max}, not {n}"
        ))),
    }
}

/// A side of a custom card size; the message for an error in it.
pub fn card_side(what: &str, v: f64) -> Result<f64, String> {
    let (min, max) = (limits::CARD_MIN_MM, limits::CARD_MAX_MM);
    if within(v, min, max) {
        Ok(v)
    } else {
        Err(format!(
            "a card's {what} is {v} mm; it must be {min} to {max} mm (a card is held in the \
             hand and printed on a sheet)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::model::ComponentsFile;

    /// The error of reading `text` as `components.toml`, with the line and column it names.
    fn refused(text: &str) -> (String, usize, usize) {
        let e = toml::from_str::<ComponentsFile>(text).expect_err("refused");
        let at = e.span().expect("placed").start;
        let line = text[..at].matches('\n').count() + 1;
        let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
        (e.message().to_string(), line, col)
    }

    const PIECE: &str =
        "[[piece]]\nid = \"p\"\nname = \"P\"\nkind = \"k\"\ncount = 1\nshape = \"circle\"\n";

    #[test]
    fn a_piece_size_is_refused_at_its_value() {
        for bad in ["0", "-5", "1.5", "301", "nan", "inf"] {
            let (message, line, col) = refused(&format!("{PIECE}size_mm = {bad}\n"));
            assert!(message.contains("2 to 300 mm"), "{bad}: {message}");
            assert_eq!((line, col), (7, 11), "{bad}");
        }
        assert!(toml::from_str::<ComponentsFile>(&format!("{PIECE}size_mm = 300\n")).is_ok());
    }

    const HEX: &str = "[[board]]\nid = \"b\"\nname = \"B\"\norientation = \"flat\"\ncell_group = \"g\"\ncells = [{ q = 0, r = 0, kind = \"x\" }]\n";

    #[test]
    fn a_hex_size_is_refused_at_its_value() {
        for bad in ["0", "-5", "3000", "1000", "4.9"] {
            let (message, line, col) = refused(&format!("{HEX}hex_mm = {bad}\n"));
            assert!(message.contains("5 to 200 mm"), "{bad}: {message}");
            assert_eq!((line, col), (7, 10), "{bad}");
        }
    }

    #[test]
    fn a_hex_coordinate_is_refused_at_its_value() {
        let text = HEX.replace("q = 0", "q = 1000000") + "hex_mm = 30\n";
        let (message, line, col) = refused(&text);
        assert!(message.contains("-100 to 100"), "{message}");
        assert_eq!((line, col), (6, 16));
    }

    const SQUARE: &str =
        "[[board]]\nid = \"m\"\nname = \"M\"\ngrid = \"square\"\n\n[board.cells]\n";

    #[test]
    fn a_square_grid_is_refused_at_the_value_past_its_bound() {
        let cases = [
            ("rows = 3\ncolumns = 4\nmm = 3000\n", "5 to 300 mm", (9, 6)),
            ("rows = 3\ncolumns = 4\nmm = 0\n", "5 to 300 mm", (9, 6)),
            (
                "rows = 100000\ncolumns = 4\nmm = 30\n",
                "1 to 100 rows",
                (7, 8),
            ),
            (
                "rows = 3\ncolumns = -1\nmm = 30\n",
                "1 to 100 rows",
                (8, 11),
            ),
        ];
        for (cells, expected, place) in cases {
            let (message, line, col) = refused(&format!("{SQUARE}{cells}"));
            assert!(message.contains(expected), "{cells}: {message}");
            assert_eq!((line, col), place, "{cells}");
        }
    }

    #[test]
    fn an_image_board_side_is_refused_at_its_value() {
        let board = "[[board]]\nid = \"i\"\nname = \"I\"\nimage = \"a.png\"\nheight_mm = 100\n";
        for bad in ["100000", "0", "-1"] {
            let (message, line, col) = refused(&format!("{board}width_mm = {bad}\n"));
            assert!(message.contains("10 to 1000 mm"), "{bad}: {message}");
            assert_eq!((line, col), (6, 12), "{bad}");
        }
    }

    #[test]
    fn a_card_size_is_refused_at_its_value() {
        let deck = "[[deck]]\nid = \"d\"\nname = \"D\"\ntemplate = \"t\"\n\
                    back = { template = \"b\", title = \"t\", colour = \"#000000\" }\n";
        for bad in [
            "{ width = 5000, height = 88 }",
            "{ width = 63, height = 0 }",
        ] {
            let (message, line, _) = refused(&format!("{deck}size = {bad}\n"));
            assert!(message.contains("10 to 300 mm"), "{bad}: {message}");
            assert_eq!(line, 6, "{bad}");
        }
    }
}
