//! Spreadsheet decks: `[[deck]] cards = "cards.csv"` reads more cards from a CSV (or, for a
//! `.tsv` file, tab-separated) sheet whose header row names the columns, or from the first
//! worksheet of a spreadsheet (`.xlsx`, `.xlsm`, `.xlsb`, `.xls`, `.ods`, read with calamine),
//! and [`export_csv`] writes a deck's cards as such a sheet.
//!
//! Columns: `id`, `name`, `count` (default 1), `text`, `name.<lang>` and `text.<lang>`, and
//! each field the deck declares. An empty cell leaves the field out. Lists (`ints`,
//! `symbols`) separate their items with `;`. Cells are typed by the deck's declaration and
//! then checked like TOML values, so a problem names `cards.csv:ROW:COL`.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use toml::{Spanned, Value};

use super::paths::resolve_in;
use super::{Card, ComponentsFile, Count, Deck, FieldType, Game};
use crate::diag::{Problem, SheetCells, SourceFile, column_letters};

/// The separator of list items in a cell.
const ITEM_SEPARATOR: char = ';';

/// Reads every deck's sheet into its cards (after the deck's TOML cards).
pub fn load_sheets(
    dir: &Path,
    components: &mut ComponentsFile,
    components_file: &SourceFile,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for deck in &mut components.decks {
        let Some(sheet) = deck.sheet.clone() else {
            continue;
        };
        let at_sheet = |e: String| {
            Problem::data(format!("deck `{}`: {e}", deck.id.get_ref())).at(
                components_file,
                sheet.span(),
                "the sheet",
            )
        };
        let path = match resolve_in(dir, sheet.get_ref()) {
            Ok(p) => p,
            Err(e) => {
                problems.push(at_sheet(e));
                continue;
            }
        };
        let shown = shown_path(&dir.join(sheet.get_ref()));
        let text = if is_workbook(&path) {
            workbook_as_csv(&path, &shown)
        } else {
            std::fs::read(&path)
                .map_err(|e| at_sheet(format!("`{}` cannot be read: {e}", sheet.get_ref())))
                .and_then(|bytes| sheet_text(shown, bytes))
        };
        match text {
            Ok(file) => match read_cards(deck, &file, delimiter(&path)) {
                Ok(cards) => deck.cards.extend(cards),
                Err(ps) => problems.extend(ps),
            },
            Err(p) => problems.push(p),
        }
    }
    problems
}

/// A CSV file's text. Line ends are what the file has: LF, CRLF (Excel on Windows) or a lone
/// CR (old Mac programs), which becomes LF here (same length, so every place stays put) so
/// that problems count lines as editors do.
fn sheet_text(shown: PathBuf, mut bytes: Vec<u8>) -> Result<SourceFile, Problem> {
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    super::load::source_text(shown, bytes)
}

/// Spreadsheet files calamine reads.
const WORKBOOK_EXTENSIONS: [&str; 5] = ["xlsx", "xlsm", "xlsb", "xls", "ods"];

fn is_workbook(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| WORKBOOK_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// The path shown in problems, as for any other data file.
fn shown_path(path: &Path) -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
}

/// The first worksheet of a spreadsheet as CSV text, row for row from row 1 and column for
/// column from column A, with a map from the text back to the cells, so that a problem names
/// the worksheet and the cell (`C11`) whatever a cell holds (a cell with a line break in it
/// is more than one line of the CSV text).
fn workbook_as_csv(path: &Path, shown: &Path) -> Result<SourceFile, Problem> {
    use calamine::{Data, Reader};
    let fail = |e: &dyn std::fmt::Display| {
        Problem::data(format!(
            "{}: the spreadsheet cannot be read: {e}",
            shown.display()
        ))
        .help("save it again from the spreadsheet program, or export the worksheet as CSV")
    };
    let mut book = calamine::open_workbook_auto(path).map_err(|e| fail(&e))?;
    let name = book
        .sheet_names()
        .first()
        .cloned()
        .ok_or_else(|| fail(&"it has no worksheet"))?;
    let range = book
        .worksheet_range_at(0)
        .ok_or_else(|| fail(&"it has no worksheet"))?
        .map_err(|e| fail(&e))?;
    let (row0, col0) = range.start().unwrap_or((0, 0));
    let mut out = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .flexible(true)
        .from_writer(Vec::new());
    for _ in 0..row0 {
        out.write_record([""]).map_err(|e| fail(&e))?;
    }
    for row in range.rows() {
        let lead = (0..col0).map(|_| String::new());
        let cells = row.iter().map(|cell| match cell {
            Data::Empty => String::new(),
            Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
            other => other.to_string(),
        });
        out.write_record(lead.chain(cells)).map_err(|e| fail(&e))?;
    }
    let bytes = out.into_inner().map_err(|e| fail(&e))?;
    let text = String::from_utf8(bytes).map_err(|e| fail(&e))?;
    // Record r of the text is the worksheet's row r + 1; its field c is column c.
    let records = scan(text.as_bytes(), 0, b',').map_err(|_| fail(&"a cell cannot be placed"))?;
    let cells = records
        .iter()
        .enumerate()
        .flat_map(|(r, cells)| {
            cells
                .iter()
                .enumerate()
                .map(move |(c, cell)| (cell.span.start, r as u32 + 1, c as u32))
        })
        .collect();
    let mut file = SourceFile::new(shown, text);
    file.sheet = Some(Arc::new(SheetCells { name, cells }));
    Ok(file)
}

fn delimiter(path: &Path) -> u8 {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("tsv") => b'\t',
        _ => b',',
    }
}

/// What a column of the sheet holds.
#[derive(Debug, Clone, PartialEq)]
enum Column {
    Id,
    Name,
    Count,
    Text,
    NameIn(String),
    TextIn(String),
    Field(String, FieldType),
    /// The card's own front template.
    Template,
    /// The card's own back template.
    Back,
}

/// One cell of the sheet: its text, where it stands in the file, its column (0 is A), and
/// whether it was quoted (a quoted value is kept exactly as written).
struct Cell {
    text: String,
    span: Range<usize>,
    column: usize,
    quoted: bool,
}

impl Cell {
    /// The value: a quoted cell as written, an unquoted one without surrounding spaces.
    fn value(&self) -> &str {
        if self.quoted {
            &self.text
        } else {
            self.text.trim()
        }
    }
}

fn read_cards(deck: &Deck, file: &SourceFile, delimiter: u8) -> Result<Vec<Card>, Vec<Problem>> {
    let rows = rows(file, delimiter)?;
    let mut rows = rows.into_iter();
    let Some(header) = rows.next() else {
        return Err(vec![
            Problem::data("the sheet is empty; its first row names the columns").in_file(file),
        ]);
    };
    let columns = columns(deck, file, &header)?;
    let mut cards = Vec::new();
    let mut problems = Vec::new();
    for row in rows.filter(|r| r.iter().any(|c| !c.text.trim().is_empty())) {
        match card(deck, file, &columns, row) {
            Ok(c) => cards.push(c),
            Err(ps) => problems.extend(ps),
        }
    }
    if problems.is_empty() {
        Ok(cards)
    } else {
        Err(problems)
    }
}

/// The sheet's rows as cells placed in the file's text. The csv crate reads the values;
/// [`scan`] places them (both skip a byte order mark and empty lines).
fn rows(file: &SourceFile, delimiter: u8) -> Result<Vec<Vec<Cell>>, Vec<Problem>> {
    let text = file.text.as_bytes();
    let base = if file.text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    let placed = scan(text, base, delimiter).map_err(|quote| {
        vec![
            Problem::data("a quoted cell is never closed: its opening `\"` has no closing `\"`")
                .at(file, quote..quote + 1, "this quote opens the cell")
                .help(
                    "end the cell with `\"`; a `\"` inside a quoted cell is written twice (`\"\"`)",
                ),
        ]
    })?;
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(&text[base..]);
    let mut out = Vec::new();
    let mut record = csv::StringRecord::new();
    let mut placed = placed.into_iter();
    loop {
        let start = base + reader.position().byte() as usize;
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                let cells = placed.next().unwrap_or_default();
                out.push(
                    record
                        .iter()
                        .zip(cells)
                        .enumerate()
                        .map(|(column, (text, cell))| Cell {
                            text: text.to_string(),
                            span: cell.span,
                            column,
                            quoted: cell.quoted,
                        })
                        .collect(),
                );
            }
            Err(e) => {
                let at = e.position().map_or(start, |p| base + p.byte() as usize);
                let end = (at + 1).min(file.text.len());
                return Err(vec![
                    Problem::data(format!("the sheet cannot be read: {e}")).at(
                        file,
                        at..end,
                        "here",
                    ),
                ]);
            }
        }
    }
    Ok(out)
}

/// Where a cell stands in the text, quotes included, and whether it is quoted.
#[derive(Debug, Clone, PartialEq)]
struct Placed {
    span: Range<usize>,
    quoted: bool,
}

/// The records of CSV text from byte `start`, each a list of its cells' places, read as the
/// csv crate reads them: a `"` at a cell's start quotes it up to the next lone `"` (`""` is a
/// quote inside it), a `"` elsewhere is text; a CR, LF or CRLF ends a record; empty lines
/// are no records. A quote that is never closed is an error at its offset.
fn scan(text: &[u8], start: usize, delimiter: u8) -> Result<Vec<Vec<Placed>>, usize> {
    let is_end = |b: u8| b == b'\n' || b == b'\r';
    let mut records = Vec::new();
    let mut i = start;
    loop {
        while i < text.len() && is_end(text[i]) {
            i += 1;
        }
        if i >= text.len() {
            return Ok(records);
        }
        let mut cells = Vec::new();
        loop {
            let cell_start = i;
            let quoted = text.get(i) == Some(&b'"');
            if quoted {
                i += 1;
                loop {
                    match text.get(i) {
                        None => return Err(cell_start),
                        Some(b'"') if text.get(i + 1) == Some(&b'"') => i += 2,
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(_) => i += 1,
                    }
                }
            }
            while i < text.len() && text[i] != delimiter && !is_end(text[i]) {
                i += 1;
            }
            cells.push(Placed {
                span: cell_start..i,
                quoted,
            });
            if text.get(i) == Some(&delimiter) {
                i += 1;
            } else {
                break;
            }
        }
        records.push(cells);
    }
}

/// A problem placed at a cell, showing at least one character.
fn at_cell(file: &SourceFile, cell: &Cell, message: impl Into<String>) -> Problem {
    let span = if cell.span.is_empty() {
        cell.span.start..(cell.span.start + 1).min(file.text.len())
    } else {
        cell.span.clone()
    };
    Problem::data(message).at(
        file,
        span,
        format!("column {}", column_letters(cell.column)),
    )
}

fn columns(deck: &Deck, file: &SourceFile, header: &[Cell]) -> Result<Vec<Column>, Vec<Problem>> {
    let mut columns = Vec::new();
    let mut problems = Vec::new();
    for cell in header {
        // Spreadsheet programs often start a UTF-8 CSV with a byte order mark.
        let name = cell.text.trim_start_matches('\u{feff}').trim();
        let column = match name {
            "id" => Some(Column::Id),
            "name" => Some(Column::Name),
            "count" => Some(Column::Count),
            "text" => Some(Column::Text),
            "template" if !deck.fields.contains_key("template") => Some(Column::Template),
            "back" if !deck.fields.contains_key("back") => Some(Column::Back),
            _ => {
                if let Some(lang) = name.strip_prefix("name.") {
                    Some(Column::NameIn(lang.to_string()))
                } else if let Some(lang) = name.strip_prefix("text.") {
                    Some(Column::TextIn(lang.to_string()))
                } else {
                    deck.fields
                        .get(name)
                        .map(|d| Column::Field(name.to_string(), d.kind))
                }
            }
        };
        match column {
            Some(c) if columns.contains(&c) => problems.push(at_cell(
                file,
                cell,
                format!("the column `{name}` is given twice"),
            )),
            Some(c) => columns.push(c),
            None => problems.push(
                at_cell(
                    file,
                    cell,
                    format!(
                        "the column `{name}` is not a field of deck `{}`",
                        deck.id.get_ref()
                    ),
                )
                .help(format!(
                    "columns: id, name, count, text, name.<lang>, text.<lang>, template, back{}",
                    deck.fields
                        .keys()
                        .map(|k| format!(", {k}"))
                        .collect::<String>()
                )),
            ),
        }
    }
    for needed in [Column::Id, Column::Name] {
        if problems.is_empty() && !columns.contains(&needed) {
            let first = header.first().map_or(0..0, |c| c.span.clone());
            problems.push(
                Problem::data(format!(
                    "the sheet has no `{}` column",
                    if needed == Column::Id { "id" } else { "name" }
                ))
                .at(
                    file,
                    first.start..first.end.max(first.start + 1),
                    "the header row",
                ),
            );
        }
    }
    if problems.is_empty() {
        Ok(columns)
    } else {
        Err(problems)
    }
}

fn card(
    deck: &Deck,
    file: &SourceFile,
    columns: &[Column],
    row: Vec<Cell>,
) -> Result<Card, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut card = Card {
        id: Spanned::new(0..0, String::new()),
        name: String::new(),
        names: BTreeMap::new(),
        count: Count(1),
        text: None,
        texts: BTreeMap::new(),
        fields: BTreeMap::new(),
        sources: BTreeMap::new(),
        template: None,
        back: None,
        file: Some(file.clone()),
    };
    let row_start = row.first().map_or(0, |c| c.span.start);
    for (i, cell) in row.iter().enumerate() {
        let Some(column) = columns.get(i) else {
            if !cell.text.trim().is_empty() {
                problems.push(at_cell(
                    file,
                    cell,
                    "this cell has no column in the header row",
                ));
            }
            continue;
        };
        let text = cell.value();
        if text.is_empty() {
            continue;
        }
        match column {
            Column::Id => card.id = Spanned::new(cell.span.clone(), text.to_string()),
            Column::Name => card.name = text.to_string(),
            Column::Count => match text
                .parse::<i64>()
                .map_err(|_| {
                    format!(
                        "a count is a whole number from 0 to {}",
                        super::components::MAX_COUNT
                    )
                })
                .and_then(Count::try_from)
            {
                Ok(c) => card.count = c,
                Err(e) => problems.push(at_cell(file, cell, format!("`count` is `{text}`: {e}"))),
            },
            Column::Text => card.text = Some(cell.text.clone()),
            Column::NameIn(lang) => {
                card.names.insert(lang.clone(), text.to_string());
            }
            Column::TextIn(lang) => {
                card.texts.insert(lang.clone(), cell.text.clone());
            }
            Column::Template => {
                card.template = Some(Spanned::new(cell.span.clone(), text.to_string()));
            }
            Column::Back => {
                card.back = Some(Spanned::new(
                    cell.span.clone(),
                    super::components::CardBack {
                        template: text.to_string(),
                        title: None,
                        colour: None,
                        fields: BTreeMap::new(),
                    },
                ));
            }
            Column::Field(name, kind) => {
                card.fields.insert(
                    name.clone(),
                    Spanned::new(cell.span.clone(), cell_value(*kind, text)),
                );
            }
        }
    }
    let row_span = row_start..(row_start + 1).min(file.text.len());
    if card.id.get_ref().is_empty() {
        problems.push(
            Problem::data(format!("a card of deck `{}` has no id", deck.id.get_ref())).at(
                file,
                row_span.clone(),
                "this row",
            ),
        );
    } else if card.name.is_empty() {
        problems.push(
            Problem::data(format!("card `{}` has no name", card.id.get_ref())).at(
                file,
                card.id.span(),
                "this card",
            ),
        );
    }
    if problems.is_empty() {
        Ok(card)
    } else {
        Err(problems)
    }
}

/// A cell's value as the field's type reads it; a cell that does not read as that type stays
/// text, and the value checks report it at the cell.
fn cell_value(kind: FieldType, text: &str) -> Value {
    let as_text = || Value::String(text.to_string());
    match kind {
        FieldType::Int => text.parse().map_or_else(|_| as_text(), Value::Integer),
        FieldType::Bool => match text.to_ascii_lowercase().as_str() {
            "true" | "yes" => Value::Boolean(true),
            "false" | "no" => Value::Boolean(false),
            _ => as_text(),
        },
        FieldType::Ints => items(text)
            .map(|i| i.parse().map(Value::Integer))
            .collect::<Result<Vec<_>, _>>()
            .map_or_else(|_| as_text(), Value::Array),
        FieldType::Symbols => Value::Array(items(text).map(|i| Value::String(i.into())).collect()),
        FieldType::Text | FieldType::Symbol | FieldType::Image => as_text(),
    }
}

fn items(text: &str) -> impl Iterator<Item = &str> {
    text.split(ITEM_SEPARATOR)
        .map(str::trim)
        .filter(|i| !i.is_empty())
}

/// A deck's cards as a CSV sheet that reads back as the same cards (`printplay export-csv`).
pub fn export_csv(game: &Game, deck_id: &str) -> Result<String, String> {
    let deck = game.deck(deck_id).ok_or_else(|| {
        let ids: Vec<&str> = game
            .components
            .decks
            .iter()
            .map(|d| d.id.get_ref().as_str())
            .collect();
        format!(
            "{} has no deck `{deck_id}`; its decks: {}",
            game.slug,
            ids.join(", ")
        )
    })?;
    let langs = |pick: fn(&Card) -> Vec<&String>| {
        let mut all: Vec<String> = deck.cards.iter().flat_map(pick).cloned().collect();
        all.sort();
        all.dedup();
        all
    };
    let name_langs = langs(|c| c.names.keys().collect());
    let text_langs = langs(|c| c.texts.keys().collect());
    let with_text = deck.cards.iter().any(|c| c.text.is_some());
    let mut header = vec!["id".to_string(), "name".into(), "count".into()];
    header.extend(with_text.then(|| "text".to_string()));
    header.extend(name_langs.iter().map(|l| format!("name.{l}")));
    header.extend(text_langs.iter().map(|l| format!("text.{l}")));
    header.extend(deck.fields.keys().cloned());
    let mut out = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    out.write_record(&header).map_err(|e| e.to_string())?;
    for card in &deck.cards {
        let mut row = vec![
            card.id.get_ref().clone(),
            card.name.clone(),
            card.count.0.to_string(),
        ];
        if with_text {
            row.push(card.text.clone().unwrap_or_default());
        }
        row.extend(
            name_langs
                .iter()
                .map(|l| card.names.get(l).cloned().unwrap_or_default()),
        );
        row.extend(
            text_langs
                .iter()
                .map(|l| card.texts.get(l).cloned().unwrap_or_default()),
        );
        for name in deck.fields.keys() {
            let cell = match card.fields.get(name) {
                Some(v) => cell_text(v.get_ref()).ok_or_else(|| {
                    format!(
                        "card `{}`: field `{name}` holds a table, which a sheet cell cannot",
                        card.id.get_ref()
                    )
                })?,
                None => String::new(),
            };
            row.push(cell);
        }
        out.write_record(&row).map_err(|e| e.to_string())?;
    }
    let bytes = out.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

fn cell_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Integer(n) => Some(n.to_string()),
        Value::Float(f) => Some(f.to_string()),
        Value::Boolean(b) => Some(b.to_string()),
        Value::Datetime(d) => Some(d.to_string()),
        Value::Array(items) => items
            .iter()
            .map(cell_text)
            .collect::<Option<Vec<_>>>()
            .map(|v| v.join(&format!("{ITEM_SEPARATOR} "))),
        Value::Table(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(text: &str) -> SourceFile {
        SourceFile::new("cards.csv", text)
    }

    #[test]
    fn cells_are_placed_in_the_text_with_quotes() {
        let text = "id,name\n\"a,b\",x\n";
        let rows = rows(&sheet(text), b',').unwrap();
        assert_eq!(&text[rows[1][0].span.clone()], "\"a,b\"");
        assert_eq!(rows[1][0].text, "a,b");
        assert!(rows[1][0].quoted);
        assert_eq!(&text[rows[1][1].span.clone()], "x");
    }

    /// The value of a placed cell, unquoted as CSV reads it.
    fn unquote(raw: &[u8]) -> Vec<u8> {
        let Some(rest) = raw.strip_prefix(b"\"") else {
            return raw.to_vec();
        };
        let mut out = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            match (rest[i], rest.get(i + 1)) {
                (b'"', Some(b'"')) => {
                    out.push(b'"');
                    i += 2;
                }
                (b'"', _) => {
                    out.extend_from_slice(&rest[i + 1..]);
                    break;
                }
                (b, _) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        out
    }

    /// Every text of up to five characters from the bytes that matter to CSV: the places
    /// [`scan`] gives hold exactly the records and values the csv crate reads, and a quote
    /// is reported unclosed exactly when a cell's opening quote has no closing one.
    #[test]
    fn scanning_agrees_with_the_csv_crate_on_every_short_text() {
        let alphabet = [b'a', b',', b'"', b'\n', b'\r', b' '];
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        let mut all = Vec::new();
        for _ in 0..5 {
            texts = texts
                .iter()
                .flat_map(|t| {
                    alphabet.iter().map(move |b| {
                        let mut t = t.clone();
                        t.push(*b);
                        t
                    })
                })
                .collect();
            all.extend(texts.iter().cloned());
        }
        for text in all {
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(text.as_slice());
            let read: Vec<Vec<Vec<u8>>> = reader
                .byte_records()
                .map(|r| r.unwrap().iter().map(<[u8]>::to_vec).collect())
                .collect();
            match scan(&text, 0, b',') {
                Ok(records) => {
                    let placed: Vec<Vec<Vec<u8>>> = records
                        .iter()
                        .map(|r| r.iter().map(|c| unquote(&text[c.span.clone()])).collect())
                        .collect();
                    assert_eq!(placed, read, "{:?}", String::from_utf8_lossy(&text));
                }
                Err(at) => {
                    assert_eq!(text[at], b'"');
                    let closing = text[at + 1..].split(|b| *b == b'"').count();
                    // An odd number of quotes after the opening one leaves it open.
                    assert!(closing % 2 == 1, "{:?}", String::from_utf8_lossy(&text));
                }
            }
        }
    }

    /// The same sheet saved with LF, CRLF (Excel on Windows) or CR line ends, with or without
    /// a byte order mark: every cell is at the same line and column.
    #[test]
    fn every_cell_is_at_the_same_line_and_column_whatever_the_line_ends() {
        let lf = "id,name,text\na, A ,\"two\nlines\"\n\nb,B,\" kept \"\nc,\"C\"\"x\",last\n";
        let places = |text: &str| -> Vec<(usize, usize, String)> {
            let file = match text.contains('\r') {
                true => sheet_text("cards.csv".into(), text.as_bytes().to_vec()).unwrap(),
                false => sheet(text),
            };
            rows(&file, b',')
                .unwrap()
                .iter()
                .flatten()
                .map(|c| {
                    let (line, col) = file.line_col(c.span.start);
                    (line, col, c.value().to_string())
                })
                .collect()
        };
        let expected = places(lf);
        assert_eq!(expected[4], (2, 3, "A".to_string()));
        assert_eq!(expected[5], (2, 7, "two\nlines".to_string()));
        assert_eq!(expected[8], (5, 5, " kept ".to_string()));
        assert_eq!(expected[11], (6, 10, "last".to_string()));
        for text in [
            lf.replace('\n', "\r\n"),
            lf.replace('\n', "\r"),
            format!("\u{feff}{lf}"),
            format!("\u{feff}{}", lf.replace('\n', "\r\n")),
        ] {
            let got = places(&text);
            let values = |v: &[(usize, usize, String)]| -> Vec<(usize, usize)> {
                v.iter().map(|(l, c, _)| (*l, *c)).collect()
            };
            assert_eq!(values(&got), values(&expected), "{text:?}");
            // Values are the same, but for the line end inside the quoted cell.
            for (g, e) in got.iter().zip(&expected) {
                assert_eq!(g.2.replace("\r\n", "\n"), e.2, "{text:?}");
            }
        }
    }

    #[test]
    fn an_unclosed_quote_is_reported_where_it_opens() {
        for text in [
            "id,name\na,\"Alpha\nb,Beta\nc,Gamma\n",
            "id,name\r\na,\"Alpha\r\nb,Beta\r\nc,Gamma\r\n",
        ] {
            let problems = rows(&sheet(text), b',').err().unwrap();
            assert_eq!(problems.len(), 1);
            assert_eq!(problems[0].location().unwrap(), "cards.csv:2:3");
            assert!(problems[0].message.contains("never closed"));
        }
    }

    #[test]
    fn cells_read_as_their_field_type() {
        assert_eq!(cell_value(FieldType::Int, "3"), Value::Integer(3));
        assert_eq!(
            cell_value(FieldType::Int, "three"),
            Value::String("three".into())
        );
        assert_eq!(
            cell_value(FieldType::Ints, "1; 2"),
            Value::Array(vec![Value::Integer(1), Value::Integer(2)])
        );
        assert_eq!(cell_value(FieldType::Bool, "Yes"), Value::Boolean(true));
        assert_eq!(
            cell_text(&cell_value(FieldType::Symbols, "a;b")).unwrap(),
            "a; b"
        );
    }
}
