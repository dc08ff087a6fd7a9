//! Spreadsheet decks: `[[deck]] cards = "cards.csv"` reads more cards from a CSV (or, for a
//! `.tsv` file, tab-separated) sheet whose header row names the columns, or from a worksheet
//! of a spreadsheet (`.xlsx`, `.xlsm`, `.xlsb`, `.xls`, `.ods`, read with calamine; `sheet =
//! "Cards"` picks it, else the first); [`export_csv`] and [`export_xlsx`] write a deck's cards
//! as such a sheet, every key a card carries ([`export_rows`]).
//!
//! Columns: `id`, `name`, `count` (default 1), `text`, `name.<lang>` and `text.<lang>`, each
//! field the deck declares, `source.<what>` (`kind: reason`), a card's own front `template`,
//! and its own back: `back` (or `back.template`) with `back.title`, `back.colour` and
//! `back.<key>` (text). What an export writes is read back before it is written, so that it
//! loads as the same cards. An empty cell leaves the
//! field out. Lists (`ints`, `symbols`) separate their items with `;`; `[]` is an empty list.
//! Cells are typed by the deck's declaration and then checked like TOML values, so a problem
//! names `cards.csv:ROW:COL` (or the worksheet and cell).

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use toml::{Spanned, Value};

use super::paths::resolve_in;
use super::{Card, ComponentsFile, Count, Deck, FieldType, Game, Source};
use crate::diag::{Problem, SheetCells, SourceFile, column_letters};

/// The separator of list items in a cell.
const ITEM_SEPARATOR: char = ';';

/// A list cell holding no item (an empty cell leaves the field out).
const EMPTY_LIST: &str = "[]";

/// A per-card source in a cell, `kind: reason` (`reconstructed: a generic slot name`), read
/// as the TOML `{ kind = "reason" }` is.
fn source_of_cell(text: &str) -> Result<Source, String> {
    let (kind, reason) = text
        .split_once(':')
        .ok_or_else(|| "a source is its kind, a colon and its reason".to_string())?;
    let mut table = toml::Table::new();
    table.insert(
        kind.trim().to_string(),
        Value::String(reason.trim().to_string()),
    );
    Source::deserialize(Value::Table(table)).map_err(|e| e.message().to_string())
}

/// A source as a cell: `kind: reason`, as [`source_of_cell`] reads it.
fn source_cell(source: &Source) -> String {
    format!("{}: {}", source.kind(), source.reason())
        .trim_end()
        .to_string()
}

/// Reads every deck's sheet into its cards (after the deck's TOML cards).
pub fn load_sheets(
    dir: &Path,
    components: &mut ComponentsFile,
    components_file: &SourceFile,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for deck in &mut components.decks {
        let at_key = |key: &Spanned<String>, e: String, label: &str| {
            Problem::data(format!("deck `{}`: {e}", deck.id.get_ref())).at(
                components_file,
                key.span(),
                label.to_string(),
            )
        };
        let Some(sheet) = deck.sheet.clone() else {
            if let Some(worksheet) = &deck.worksheet {
                problems.push(
                    at_key(
                        worksheet,
                        "`sheet` picks a worksheet of the workbook `cards` names, and the deck \
                         names none"
                            .into(),
                        "the worksheet",
                    )
                    .help("add `cards = \"cards.xlsx\"` beside it, or remove `sheet`"),
                );
            }
            continue;
        };
        let at_sheet = |e: String| at_key(&sheet, e, "the sheet");
        let path = match resolve_in(dir, sheet.get_ref()) {
            Ok(p) => p,
            Err(e) => {
                problems.push(at_sheet(e));
                continue;
            }
        };
        let shown = shown_path(&dir.join(sheet.get_ref()));
        let text = if is_workbook(&path) {
            let pick = deck.worksheet.as_ref().map(|w| {
                (w.get_ref().as_str(), |e: String| {
                    at_key(w, e, "the worksheet")
                })
            });
            workbook_as_csv(&path, &shown, pick.as_ref().map(|(n, f)| (*n, f as _)))
        } else if let Some(worksheet) = &deck.worksheet {
            Err(vec![
                at_key(
                    worksheet,
                    format!(
                        "`sheet` picks a worksheet of a workbook, and `{}` is a text sheet, \
                         which has none",
                        sheet.get_ref()
                    ),
                    "the worksheet",
                )
                .help(format!(
                    "remove `sheet`, or name a workbook ({}) in `cards`",
                    WORKBOOK_EXTENSIONS.map(|e| format!(".{e}")).join(", ")
                )),
            ])
        } else {
            std::fs::read(&path)
                .map_err(|e| at_sheet(format!("`{}` cannot be read: {e}", sheet.get_ref())))
                .and_then(|bytes| sheet_text(shown, bytes))
                .map_err(|p| vec![p])
        };
        match text {
            Ok(file) => match read_cards(deck, &file, delimiter(&path)) {
                Ok(cards) => deck.cards.extend(cards),
                Err(ps) => problems.extend(ps),
            },
            Err(ps) => problems.extend(ps),
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

/// The worksheet a deck asks for by name, and how to report that the workbook lacks it.
type Pick<'a> = (&'a str, &'a dyn Fn(String) -> Problem);

/// One worksheet of a spreadsheet (the one `pick` names, else the first) as CSV text, row for
/// row from row 1 and column for column from column A, with a map from the text back to the
/// cells, so that a problem names the worksheet and the cell (`C11`) whatever a cell holds (a
/// cell with a line break in it is more than one line of the CSV text).
///
/// A cell reads as the spreadsheet shows it: text as it is, a whole number without `.0`, a
/// date as `2026-12-02`, a formula as the value it was last saved with. A formula's error
/// (`#DIV/0!`) is a problem at its cell. The cells of a merged block in one column all read as
/// its first cell; a block over several columns is a problem (a value belongs to one column).
fn workbook_as_csv(
    path: &Path,
    shown: &Path,
    pick: Option<Pick>,
) -> Result<SourceFile, Vec<Problem>> {
    match calamine::open_workbook_auto(path) {
        Ok(book) => workbook_text(book, shown, pick),
        Err(e) => Err(unreadable(shown, &e)),
    }
}

/// A workbook that calamine cannot read.
fn unreadable(shown: &Path, e: &dyn std::fmt::Display) -> Vec<Problem> {
    vec![
        Problem::data(format!(
            "{}: the spreadsheet cannot be read: {e}",
            shown.display()
        ))
        .help("save it again from the spreadsheet program, or export the worksheet as CSV"),
    ]
}

/// [`workbook_as_csv`] of an open workbook.
fn workbook_text<RS: std::io::Read + std::io::Seek>(
    mut book: calamine::Sheets<RS>,
    shown: &Path,
    pick: Option<Pick>,
) -> Result<SourceFile, Vec<Problem>> {
    use calamine::{Data, Reader, Sheets};
    let fail = |e: &dyn std::fmt::Display| unreadable(shown, e);
    let names = book.sheet_names();
    let name = match pick {
        Some((wanted, at_worksheet)) => match names.iter().find(|n| *n == wanted) {
            Some(n) => n.clone(),
            None => {
                return Err(vec![at_worksheet(format!(
                    "{} has no worksheet `{wanted}`; its worksheets: {}",
                    shown.display(),
                    names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))]);
            }
        },
        None => names
            .first()
            .cloned()
            .ok_or_else(|| fail(&"it has no worksheet"))?,
    };
    let range = book.worksheet_range(&name).map_err(|e| fail(&e))?;
    let merged = match &mut book {
        Sheets::Xlsx(x) => x.merge_cells_by_sheet_name(&name).unwrap_or_default(),
        Sheets::Xls(x) => x.merge_cells_by_sheet_name(&name).unwrap_or_default(),
        // calamine tells no merged cells of these: their covered cells read empty.
        Sheets::Xlsb(_) | Sheets::Ods(_) => Vec::new(),
    };
    // A formula's cells; calamine reads one saved with no value (as openpyxl and other
    // scripts write them: they compute nothing) as an empty cell.
    let formulas = book.worksheet_formula(&name).unwrap_or_default();
    let (row0, col0) = range.start().unwrap_or((0, 0));
    let (height, width) = range.get_size();
    // The worksheet from A1, as text; and the cells that hold a formula's error.
    let mut grid: Vec<Vec<String>> = vec![Vec::new(); row0 as usize + height];
    let mut errors = Vec::new();
    for (r, row) in range.rows().enumerate() {
        let r = row0 as usize + r;
        grid[r] = vec![String::new(); col0 as usize + width];
        for (c, cell) in row.iter().enumerate() {
            let c = col0 as usize + c;
            grid[r][c] = match cell {
                Data::Empty => String::new(),
                Data::String(s) => s.clone(),
                Data::Int(n) => n.to_string(),
                Data::Float(f) => float_text(*f),
                Data::Bool(b) => b.to_string(),
                Data::DateTime(d) => datetime_text(d),
                Data::DateTimeIso(s) | Data::DurationIso(s) => s.clone(),
                Data::Error(e) => {
                    errors.push((
                        r,
                        c,
                        format!("the cell holds the spreadsheet error `{e}`"),
                        "correct the formula, or type the value the card shows",
                    ));
                    e.to_string()
                }
            };
        }
    }
    let (f_row0, f_col0) = formulas.start().unwrap_or((0, 0));
    for (r, c, formula) in formulas.used_cells() {
        let (r, c) = (f_row0 as usize + r, f_col0 as usize + c);
        let value = range.get_value((r as u32, c as u32));
        if !formula.is_empty() && matches!(value, None | Some(Data::Empty)) {
            if grid.len() <= r {
                grid.resize(r + 1, Vec::new());
            }
            if grid[r].len() <= c {
                grid[r].resize(c + 1, String::new());
            }
            errors.push((
                r,
                c,
                format!(
                    "the cell holds the formula `={}` with no saved value: the program that \
                     wrote the workbook did not compute it",
                    formula.trim_start_matches('=')
                ),
                "open the workbook in a spreadsheet program and save it (that computes every \
                 formula), or type the value the card shows",
            ));
        }
    }
    for block in &merged {
        let ((top, left), (bottom, right)) = (block.start, block.end);
        let (top, left, bottom, right) =
            (top as usize, left as usize, bottom as usize, right as usize);
        if right > left {
            errors.push((
                top,
                left,
                format!(
                    "cells {}{}:{}{} are merged, and a card's value belongs to one column",
                    column_letters(left),
                    top + 1,
                    column_letters(right),
                    bottom + 1
                ),
                "unmerge the cells and give each column its own value",
            ));
            continue;
        }
        let first = grid
            .get(top)
            .and_then(|r| r.get(left))
            .cloned()
            .unwrap_or_default();
        for row in grid.iter_mut().take(bottom + 1).skip(top + 1) {
            if let Some(cell) = row.get_mut(left) {
                cell.clone_from(&first);
            }
        }
    }
    let mut text = String::new();
    for row in &grid {
        write_record(&mut text, row, b',');
    }
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
    if errors.is_empty() {
        return Ok(file);
    }
    errors.sort();
    Err(errors
        .into_iter()
        .map(|(r, c, message, help)| {
            let span = records
                .get(r)
                .and_then(|cells| cells.get(c))
                .map_or(0..0, |cell| cell.span.clone());
            let span = span.start..span.end.max(span.start + 1).min(file.text.len());
            Problem::data(message)
                .at(&file, span, format!("column {}", column_letters(c)))
                .help(help)
        })
        .collect())
}
/// A number cell's text: a whole number without `.0`, any other as Rust writes it (the
/// shortest text that reads back as the same number).
fn float_text(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        f.to_string()
    }
}

/// A date cell's text: `2026-12-02`, with the time when it has one (`2026-12-02 14:30:00`); a
/// duration as hours, minutes and seconds (`36:00:00`).
fn datetime_text(d: &calamine::ExcelDateTime) -> String {
    if d.is_duration() {
        let seconds = (d.as_f64() * 86_400.0).round() as i64;
        let sign = if seconds < 0 { "-" } else { "" };
        let s = seconds.unsigned_abs();
        return format!("{sign}{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    }
    let (year, month, day, hour, minute, second, milli) = d.to_ymd_hms_milli();
    let mut text = format!("{year:04}-{month:02}-{day:02}");
    if (hour, minute, second, milli) != (0, 0, 0, 0) {
        text.push_str(&format!(" {hour:02}:{minute:02}:{second:02}"));
        if milli != 0 {
            text.push_str(&format!(".{milli:03}"));
        }
    }
    text
}

/// Appends one CSV record (LF-terminated). A cell is quoted when it must be (a delimiter,
/// quote or line end in it) and when it starts or ends with a space, which an unquoted cell
/// loses; a record of no text is `""`, so that it is a row and not an empty line.
fn write_record(out: &mut String, cells: &[impl AsRef<str>], delimiter: u8) {
    let delimiter = char::from(delimiter);
    if cells.len() <= 1 && cells.iter().all(|c| c.as_ref().is_empty()) {
        out.push_str("\"\"\n");
        return;
    }
    for (i, cell) in cells.iter().enumerate() {
        let cell = cell.as_ref();
        if i > 0 {
            out.push(delimiter);
        }
        let quoted = cell.contains([delimiter, '"', '\n', '\r'])
            || cell.trim() != cell
            || (i == 0 && cell.starts_with('\u{feff}'));
        if quoted {
            out.push('"');
            out.push_str(&cell.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(cell);
        }
    }
    out.push('\n');
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
    /// `source.<what>`: the card's own source for its name, count, text or a field.
    Source(String),
    /// A column with no name in the header row; its cells must be empty.
    Blank,
    /// The card's own front template.
    Template,
    /// The card's own back template (`back`, or `back.template`).
    Back,
    /// A value the card's own back shows: `back.title`, `back.colour` or `back.<key>`.
    BackValue(String),
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
    let placed = scan(text, base, delimiter).map_err(|bad| {
        vec![match bad {
            BadQuote::Unclosed(quote) => Problem::data(
                "a quoted cell is never closed: its opening `\"` has no closing `\"`",
            )
            .at(file, quote..quote + 1, "this quote opens the cell")
            .help("end the cell with `\"`; a `\"` inside a quoted cell is written twice (`\"\"`)"),
            BadQuote::Stray(quote) => Problem::data(
                "a `\"` inside a quoted cell ends it, and text follows it: the rest of the \
                 row would be read into this cell",
            )
            .at(file, quote..quote + 1, "this quote")
            .help(format!(
                "write a `\"` inside a quoted cell twice (`\"\"`); a quote that closes a cell \
                 is followed by `{}` or the line's end",
                char::from(delimiter).escape_default()
            )),
        }]
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

/// A quote that makes a CSV sheet mean something else than it shows, at its offset.
#[derive(Debug, Clone, Copy, PartialEq)]
enum BadQuote {
    /// The opening quote of a cell that is never closed.
    Unclosed(usize),
    /// A quote that closes a quoted cell with more text after it (`"a "b" c"`): a reader
    /// would go on reading into the next cells and rows.
    Stray(usize),
}

/// The records of CSV text from byte `start`, each a list of its cells' places, read as the
/// csv crate reads them: a `"` at a cell's start quotes it up to the next lone `"` (`""` is a
/// quote inside it), a `"` elsewhere is text; a CR, LF or CRLF ends a record; empty lines
/// are no records. A quote that is never closed, and a quote that closes a cell but is
/// followed by more than the delimiter or the line's end, are errors at their offset.
fn scan(text: &[u8], start: usize, delimiter: u8) -> Result<Vec<Vec<Placed>>, BadQuote> {
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
                        None => return Err(BadQuote::Unclosed(cell_start)),
                        Some(b'"') if text.get(i + 1) == Some(&b'"') => i += 2,
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(_) => i += 1,
                    }
                }
                if text.get(i).is_some_and(|b| *b != delimiter && !is_end(*b)) {
                    return Err(BadQuote::Stray(i - 1));
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
            "" => Some(Column::Blank),
            "template" if !deck.fields.contains_key("template") => Some(Column::Template),
            "back" if !deck.fields.contains_key("back") => Some(Column::Back),
            "back.template" => Some(Column::Back),
            _ => {
                if let Some(what) = name.strip_prefix("source.").filter(|w| !w.is_empty()) {
                    Some(Column::Source(what.to_string()))
                } else if let Some(key) = name.strip_prefix("back.").filter(|k| !k.is_empty()) {
                    Some(Column::BackValue(key.to_string()))
                } else if let Some(lang) = name.strip_prefix("name.") {
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
            Some(c) if c != Column::Blank && columns.contains(&c) => problems.push(at_cell(
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
                    "columns: id, name, count, text, name.<lang>, text.<lang>, \
                     source.<column>, template, back, back.title, back.colour, back.<key>{}",
                    deck.fields
                        .declared()
                        .map(|(k, _)| format!(", {k}"))
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
    // The card's own back: its template, and what it shows.
    let mut back_template: Option<Spanned<&str>> = None;
    let mut back_values: Vec<(&Cell, &String, &str)> = Vec::new();
    for (i, cell) in row.iter().enumerate() {
        let Some(column) = columns.get(i).filter(|c| **c != Column::Blank) else {
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
            Column::Id => card.id = Spanned::new(cell.span.clone(), text.trim().to_string()),
            Column::Name => card.name = text.to_string(),
            Column::Count => match text
                .trim()
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
            Column::Back => back_template = Some(Spanned::new(cell.span.clone(), text)),
            Column::BackValue(key) => back_values.push((cell, key, text)),
            Column::Field(name, kind) => {
                card.fields.insert(
                    name.clone(),
                    Spanned::new(cell.span.clone(), cell_value(*kind, text)),
                );
            }
            Column::Source(what) => match source_of_cell(text) {
                Ok(source) => {
                    card.sources.insert(what.clone(), source);
                }
                Err(e) => problems.push(
                    at_cell(file, cell, format!("`source.{what}` is `{text}`: {e}")).help(
                        "write the kind, a colon and the reason: \
                         `reconstructed: why we chose it`",
                    ),
                ),
            },
            Column::Blank => {}
        }
    }
    match back_template {
        Some(template) => {
            let mut back = super::components::CardBack {
                template: template.get_ref().to_string(),
                title: None,
                colour: None,
                fields: BTreeMap::new(),
            };
            for (_, key, text) in back_values {
                let text = text.to_string();
                match key.as_str() {
                    "title" => back.title = Some(text),
                    "colour" => back.colour = Some(text),
                    _ => {
                        back.fields.insert(key.clone(), Value::String(text));
                    }
                }
            }
            card.back = Some(Spanned::new(template.span(), back));
        }
        None => {
            if let Some((cell, key, _)) = back_values.first() {
                problems.push(
                    at_cell(
                        file,
                        cell,
                        format!(
                            "`back.{key}` is a value of the card's own back, and the row names \
                             no back template"
                        ),
                    )
                    .help("name the back's template in the `back` column, or empty this cell"),
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
/// text, and the value checks report it at the cell. Spaces around a value that is not text
/// are no part of it; `[]` is an empty list (an empty cell leaves the field out).
fn cell_value(kind: FieldType, text: &str) -> Value {
    let as_text = || Value::String(text.to_string());
    if kind == FieldType::Text {
        return as_text();
    }
    let text = text.trim();
    let as_text = || Value::String(text.to_string());
    if text == EMPTY_LIST && matches!(kind, FieldType::Ints | FieldType::Symbols) {
        return Value::Array(Vec::new());
    }
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

/// One cell of an exported sheet, typed for a workbook (a CSV writes them all as text).
#[derive(Debug, Clone, PartialEq)]
pub enum SheetValue {
    Empty,
    Text(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl SheetValue {
    /// The cell as a CSV writes it (and as the sheet reader reads it back).
    pub fn text(&self) -> String {
        match self {
            SheetValue::Empty => String::new(),
            SheetValue::Text(s) => s.clone(),
            SheetValue::Int(n) => n.to_string(),
            SheetValue::Float(f) => f.to_string(),
            SheetValue::Bool(b) => b.to_string(),
        }
    }
}

/// A deck's cards as a sheet: the header row, then one row per card.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetRows {
    /// The deck's id, which names the worksheet of an exported workbook.
    pub deck: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<SheetValue>>,
}

/// A deck's cards as the sheet that reads back as the same cards (`printplay export-csv`,
/// `export-xlsx`). The columns are every key a card carries, in the order [`Card`] declares
/// them, each present when some card gives it: a value is one column named by its key, a
/// table one column per entry (`back.template`), except for the tables the sheet reader knows
/// by their own columns: `names` and `texts` as `name.<lang>` and `text.<lang>`, `sources` as
/// `source.<what>` holding `kind: reason`, and `fields` as the deck's declared fields, in the
/// order declared. A list is its items separated by `;`, an empty one `[]`.
pub fn export_rows(game: &Game, deck_id: &str) -> Result<SheetRows, String> {
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
    let cards: Vec<toml::Table> = deck
        .cards
        .iter()
        .map(|card| match Value::try_from(card) {
            Ok(Value::Table(t)) => Ok(t),
            Ok(_) => Err(format!("card `{}` is not a table", card.id.get_ref())),
            Err(e) => Err(format!("card `{}`: {e}", card.id.get_ref())),
        })
        .collect::<Result<_, _>>()?;
    // Each column: its header and the path of its value in a card's table.
    let mut columns: Vec<(String, Vec<String>)> = Vec::new();
    for key in struct_keys::<Card>() {
        let key = key.to_string();
        let present = || cards.iter().filter_map(|c| c.get(&key));
        let entries = || {
            present()
                .filter_map(Value::as_table)
                .flat_map(|t| t.keys().cloned())
                .collect::<std::collections::BTreeSet<String>>()
        };
        match key.as_str() {
            "fields" => {
                let declared: Vec<String> =
                    deck.fields.declared().map(|(n, _)| n.clone()).collect();
                let undeclared = entries()
                    .into_iter()
                    .filter(|n| !deck.fields.contains_key(n));
                for name in declared.into_iter().chain(undeclared) {
                    columns.push((name.clone(), vec![key.clone(), name]));
                }
            }
            "names" | "texts" | "sources" => {
                let prefix = &key[..key.len() - 1];
                for entry in entries() {
                    columns.push((format!("{prefix}.{entry}"), vec![key.clone(), entry]));
                }
            }
            "back" => {
                // `back` names the template; `back.title`, `back.colour`, `back.<key>` what it
                // shows (a back written as only its template is a table of one entry here).
                if present().next().is_some() {
                    columns.push((key.clone(), vec![key.clone(), "template".into()]));
                }
                let mut entries = entries();
                entries.remove("template");
                let known = ["title", "colour"].map(String::from);
                let others: Vec<String> = entries
                    .iter()
                    .filter(|e| !known.contains(e))
                    .cloned()
                    .collect();
                for entry in known
                    .into_iter()
                    .filter(|k| entries.contains(k))
                    .chain(others)
                {
                    columns.push((format!("back.{entry}"), vec![key.clone(), entry]));
                }
            }
            _ => {
                let mut paths = std::collections::BTreeSet::new();
                for value in present() {
                    leaf_paths(value, vec![key.clone()], &mut paths);
                }
                columns.extend(paths.into_iter().map(|path| (path.join("."), path)));
            }
        }
    }
    let mut rows = Vec::new();
    for (card, table) in deck.cards.iter().zip(&cards) {
        let mut row = Vec::new();
        for (header, path) in &columns {
            let value = path.split_first().and_then(|(first, rest)| {
                rest.iter()
                    .try_fold(table.get(first)?, |v, k| v.as_table()?.get(k))
            });
            let cell = match value {
                None => SheetValue::Empty,
                Some(v) if path[0] == "sources" => Source::deserialize(v.clone())
                    .map(|s| SheetValue::Text(source_cell(&s)))
                    .map_err(|e| format!("card `{}`: `{header}`: {e}", card.id.get_ref()))?,
                Some(v) => sheet_value(v).ok_or_else(|| {
                    format!(
                        "card `{}`: `{header}` holds a table, which a sheet cell cannot",
                        card.id.get_ref()
                    )
                })?,
            };
            row.push(cell);
        }
        rows.push(row);
    }
    Ok(SheetRows {
        deck: deck.id.get_ref().clone(),
        header: columns.into_iter().map(|(h, _)| h).collect(),
        rows,
    })
}

/// The paths of a value's leaves: itself, or for a table each entry's leaves.
fn leaf_paths(value: &Value, path: Vec<String>, out: &mut std::collections::BTreeSet<Vec<String>>) {
    match value {
        Value::Table(t) => {
            for (k, v) in t {
                let mut path = path.clone();
                path.push(k.clone());
                leaf_paths(v, path, out);
            }
        }
        _ => {
            out.insert(path);
        }
    }
}

/// The keys of a struct in the order it declares them, as its `Deserialize` names them.
fn struct_keys<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    use serde::de::{Error, Visitor, value};
    struct Keys(&'static [&'static str]);
    impl<'de> serde::Deserializer<'de> for &mut Keys {
        type Error = value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, value::Error> {
            Err(value::Error::custom("only a struct's keys are read"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, value::Error> {
            self.0 = fields;
            Err(value::Error::custom("only a struct's keys are read"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }
    let mut keys = Keys(&[]);
    let _ = T::deserialize(&mut keys);
    keys.0
}

/// A card's value as a cell: a list is its items separated by `; `, an empty one `[]`; a table
/// has no cell.
fn sheet_value(v: &Value) -> Option<SheetValue> {
    Some(match v {
        Value::String(s) => SheetValue::Text(s.clone()),
        Value::Integer(n) => SheetValue::Int(*n),
        Value::Float(f) => SheetValue::Float(*f),
        Value::Boolean(b) => SheetValue::Bool(*b),
        Value::Datetime(d) => SheetValue::Text(d.to_string()),
        Value::Array(items) if items.is_empty() => SheetValue::Text(EMPTY_LIST.into()),
        Value::Array(items) => SheetValue::Text(
            items
                .iter()
                .map(|i| match i {
                    Value::Array(_) | Value::Table(_) => None,
                    item => sheet_value(item).map(|c| c.text()),
                })
                .collect::<Option<Vec<_>>>()?
                .join(&format!("{ITEM_SEPARATOR} ")),
        ),
        Value::Table(_) => return None,
    })
}

/// A deck's cards as a CSV sheet that reads back as the same cards (`printplay export-csv`):
/// [`export_rows`] as text, LF line ends.
pub fn export_csv(game: &Game, deck_id: &str) -> Result<String, String> {
    let sheet = export_rows(game, deck_id)?;
    let mut out = String::new();
    write_record(&mut out, &sheet.header, b',');
    for row in &sheet.rows {
        let cells: Vec<String> = row.iter().map(SheetValue::text).collect();
        write_record(&mut out, &cells, b',');
    }
    let file = SourceFile::new(format!("{deck_id}.csv"), out.clone());
    reads_back(game, deck_id, Ok(file))?;
    Ok(out)
}

/// Whether a written sheet reads back as the deck's cards, key for key; else what differs, so
/// that no export writes a sheet that loads as other cards (or not at all).
fn reads_back(
    game: &Game,
    deck_id: &str,
    file: Result<SourceFile, Vec<Problem>>,
) -> Result<(), String> {
    let Some(deck) = game.deck(deck_id) else {
        return Err(format!("{} has no deck `{deck_id}`", game.slug));
    };
    let refused = |problems: Vec<Problem>| {
        format!(
            "deck `{deck_id}`: the sheet written would not read back: {}",
            problems
                .first()
                .map_or_else(String::new, |p| p.message.clone())
        )
    };
    let read = read_cards(deck, &file.map_err(refused)?, b',').map_err(refused)?;
    let as_table = |card: &Card| match Value::try_from(card) {
        Ok(Value::Table(t)) => t,
        _ => toml::Table::new(),
    };
    if read.len() != deck.cards.len() {
        return Err(format!(
            "deck `{deck_id}`: the sheet written reads back as {} cards instead of {}",
            read.len(),
            deck.cards.len()
        ));
    }
    for (card, back) in deck.cards.iter().zip(&read) {
        let (want, got) = (as_table(card), as_table(back));
        let keys: std::collections::BTreeSet<&String> = want.keys().chain(got.keys()).collect();
        if let Some(key) = keys.into_iter().find(|k| want.get(*k) != got.get(*k)) {
            let shown =
                |v: Option<&Value>| v.map_or_else(|| "nothing".into(), |v| format!("`{v}`"));
            return Err(format!(
                "deck `{deck_id}`, card `{}`: `{key}` is {}, and a sheet cell reads back as {}; \
                 keep this card in {} instead",
                card.id.get_ref(),
                shown(want.get(key)),
                shown(got.get(key)),
                super::COMPONENTS_FILE
            ));
        }
    }
    Ok(())
}

/// The worksheet name of a deck's exported workbook: its id, without the characters a
/// worksheet name may not hold (`[]:*?/\`, replaced by `-`), cut to the 31 characters a
/// worksheet name may have.
pub fn worksheet_name(deck_id: &str) -> String {
    let name: String = deck_id
        .chars()
        .map(|c| if "[]:*?/\\".contains(c) { '-' } else { c })
        .take(31)
        .collect();
    let name = name.trim_matches('\'');
    if name.is_empty() {
        "Cards".into()
    } else {
        name.into()
    }
}

/// Widest a column of an exported workbook is made, in characters; longer text wraps.
const MAX_COLUMN_WIDTH: usize = 50;

/// A deck's cards as a workbook that reads back as the same cards (`printplay export-xlsx`):
/// one worksheet named after the deck ([`worksheet_name`]) holding [`export_rows`], numbers
/// and `true`/`false` as such (whole numbers beyond 2^53, which a spreadsheet cannot hold
/// exactly, as text), the header row bold on grey, frozen and filterable, and each column as
/// wide as its longest line up to [`MAX_COLUMN_WIDTH`] characters, its text wrapped beyond.
/// The same cards give the same bytes: the workbook's creation date is fixed.
pub fn export_xlsx(game: &Game, deck_id: &str) -> Result<Vec<u8>, String> {
    use rust_xlsxwriter::{
        DocProperties, ExcelDateTime, Format, FormatAlign, FormatBorder, Workbook, XlsxError,
    };
    let sheet = export_rows(game, deck_id)?;
    let failed = |e: XlsxError| format!("deck `{deck_id}`: the workbook cannot be written: {e}");
    let at = |row: usize, col: usize, e: XlsxError| match row.checked_sub(1) {
        Some(r) => format!(
            "card `{}`, column `{}`: {e}",
            sheet.rows[r]
                .first()
                .map(SheetValue::text)
                .unwrap_or_default(),
            sheet.header[col]
        ),
        None => failed(e),
    };
    let too_many = || format!("deck `{deck_id}` has more cards or columns than a worksheet holds");
    let mut book = Workbook::new();
    let created = ExcelDateTime::from_ymd(2000, 1, 1).map_err(failed)?;
    book.set_properties(&DocProperties::new().set_creation_datetime(&created));
    let worksheet = book.add_worksheet();
    worksheet
        .set_name(worksheet_name(&sheet.deck))
        .map_err(failed)?;
    let heading = Format::new()
        .set_bold()
        .set_background_color("#D9D9D9")
        .set_border_bottom(FormatBorder::Thin);
    let wrapped = Format::new().set_text_wrap().set_align(FormatAlign::Top);
    let plain = Format::new().set_align(FormatAlign::Top);
    for (c, name) in sheet.header.iter().enumerate() {
        let col = u16::try_from(c).map_err(|_| too_many())?;
        let widest = std::iter::once(name.clone())
            .chain(sheet.rows.iter().map(|r| r[c].text()))
            .flat_map(|t| t.lines().map(|l| l.chars().count()).max())
            .max()
            .unwrap_or(0);
        let format = if widest > MAX_COLUMN_WIDTH {
            &wrapped
        } else {
            &plain
        };
        worksheet
            .set_column_width(col, (widest.clamp(4, MAX_COLUMN_WIDTH) + 2) as f64)
            .map_err(failed)?;
        worksheet
            .write_string_with_format(0, col, name, &heading)
            .map_err(|e| at(0, c, e))?;
        for (r, row) in sheet.rows.iter().enumerate() {
            let line = u32::try_from(r + 1).map_err(|_| too_many())?;
            let written = match &row[c] {
                SheetValue::Empty => continue,
                SheetValue::Int(n) if n.unsigned_abs() <= 1 << 53 => {
                    worksheet.write_number_with_format(line, col, *n as f64, format)
                }
                SheetValue::Float(f) => worksheet.write_number_with_format(line, col, *f, format),
                SheetValue::Bool(b) => worksheet.write_boolean_with_format(line, col, *b, format),
                other => worksheet.write_string_with_format(line, col, other.text(), format),
            };
            written.map_err(|e| at(r + 1, c, e))?;
        }
    }
    let last_row = u32::try_from(sheet.rows.len()).map_err(|_| too_many())?;
    let last_col = u16::try_from(sheet.header.len().saturating_sub(1)).map_err(|_| too_many())?;
    worksheet.set_freeze_panes(1, 0).map_err(failed)?;
    worksheet
        .autofilter(0, 0, last_row, last_col)
        .map_err(failed)?;
    let bytes = book.save_to_buffer().map_err(failed)?;
    let written = <calamine::Xlsx<_> as calamine::Reader<_>>::new(std::io::Cursor::new(&bytes))
        .map_err(|e| unreadable(Path::new("the workbook"), &e))
        .and_then(|x| {
            workbook_text(
                calamine::Sheets::Xlsx(x),
                Path::new(&format!("{deck_id}.xlsx")),
                None,
            )
        });
    reads_back(game, deck_id, written)?;
    Ok(bytes)
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
                Err(BadQuote::Unclosed(at)) => {
                    assert_eq!(text[at], b'"');
                    let closing = text[at + 1..].split(|b| *b == b'"').count();
                    // An odd number of quotes after the opening one leaves it open.
                    assert!(closing % 2 == 1, "{:?}", String::from_utf8_lossy(&text));
                }
                Err(BadQuote::Stray(at)) => {
                    // A lone quote (not doubled, not the cell's opening one) followed by text.
                    let t = String::from_utf8_lossy(&text);
                    assert_eq!(text[at], b'"', "{t:?}");
                    assert!(
                        !matches!(text[at + 1], b',' | b'\n' | b'\r' | b'"'),
                        "{t:?}"
                    );
                    // The csv crate reads the text after it into the quoted cell.
                    assert!(
                        read.iter()
                            .flatten()
                            .any(|cell| cell.contains(&text[at + 1])),
                        "{t:?}: {read:?}"
                    );
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

    /// Every key a card serializes is one `struct_keys` lists, in the struct's order: a key
    /// added to [`Card`] is exported without a list of its own.
    #[test]
    fn the_exported_keys_are_every_key_a_card_carries() {
        let keys = struct_keys::<Card>();
        assert_eq!(
            &keys[..8],
            [
                "id", "name", "names", "count", "text", "texts", "fields", "sources"
            ]
        );
        let card: Card = toml::from_str(
            r#"
            id = "a"
            name = "A"
            names = { fi = "Ä" }
            count = 2
            text = "t"
            texts = { fi = "tt" }
            fields = { power = 3, tags = [] }
            sources = { power = { reconstructed = "why" } }
            "#,
        )
        .unwrap();
        let Value::Table(table) = Value::try_from(&card).unwrap() else {
            panic!("a card is a table");
        };
        for key in table.keys() {
            assert!(keys.contains(&key.as_str()), "{key}");
        }
    }

    /// A table a card carries becomes one column per entry, named by its path.
    #[test]
    fn a_table_becomes_a_column_per_entry() {
        let value: Value =
            toml::from_str::<toml::Table>(r#"back = { template = "b", fields = { power = 1 } }"#)
                .map(|t| t["back"].clone())
                .unwrap();
        let mut paths = std::collections::BTreeSet::new();
        leaf_paths(&value, vec!["back".into()], &mut paths);
        let names: Vec<String> = paths.iter().map(|p| p.join(".")).collect();
        assert_eq!(names, ["back.fields.power", "back.template"]);
        assert_eq!(sheet_value(&Value::Array(Vec::new())).unwrap().text(), "[]");
        assert_eq!(
            cell_value(FieldType::Symbols, " [] "),
            Value::Array(Vec::new())
        );
        assert_eq!(
            cell_value(FieldType::Text, "[]"),
            Value::String("[]".into())
        );
    }

    #[test]
    fn a_source_cell_reads_back_as_its_source() {
        for source in [
            Source::Reconstructed("a generic slot name: we have no card texts".into()),
            Source::Printed("Setup".into()),
            Source::Original(String::new()),
        ] {
            assert_eq!(source_of_cell(&source_cell(&source)).unwrap(), source);
        }
        assert!(
            source_of_cell("guessed: why")
                .unwrap_err()
                .contains("unknown variant")
        );
        assert!(source_of_cell("no colon").is_err());
    }

    #[test]
    fn written_records_read_back_as_their_cells() {
        let cells = ["", " a ", "b,c", "d\"e", "f\ng", "\u{feff}h", "plain"];
        let mut text = String::new();
        write_record(&mut text, &cells, b',');
        write_record(&mut text, &[""], b',');
        let file = sheet(&text);
        let rows = rows(&file, b',').unwrap();
        assert_eq!(rows.len(), 2);
        let read: Vec<&str> = rows[0].iter().map(Cell::value).collect();
        assert_eq!(read, cells);
        assert_eq!(rows[1].len(), 1);
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
            sheet_value(&cell_value(FieldType::Symbols, "a;b"))
                .unwrap()
                .text(),
            "a; b"
        );
    }
}
