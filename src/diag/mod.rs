//! Problems found in the data, reported with file, line, column and the offending text underlined.

pub mod place;
pub mod spans;

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode};

/// A data file's text, kept so that problems can quote it.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: Arc<str>,
    /// For a spreadsheet read as CSV text: the worksheet and where its cells stand in `text`,
    /// so that a problem names the cell as the spreadsheet does (`C11`), not a line and column
    /// of the CSV text nobody sees.
    pub sheet: Option<Arc<SheetCells>>,
}

/// A span of `text` widened to whole characters and kept inside it, whatever offsets a reader
/// computed: one that starts or ends inside a character would panic where a report slices
/// the text.
pub fn whole_chars(text: &str, span: Range<usize>) -> Range<usize> {
    let start = text.floor_char_boundary(span.start.min(text.len()));
    let end = text.ceil_char_boundary(span.end.clamp(start, text.len()));
    start..end
}

impl SourceFile {
    /// A text file's text.
    pub fn new(path: impl Into<PathBuf>, text: impl Into<Arc<str>>) -> SourceFile {
        SourceFile {
            path: path.into(),
            text: text.into(),
            sheet: None,
        }
    }

    /// 1-based line and column of a byte offset, as an editor counts them: characters (not
    /// bytes) from the line's start, a byte order mark before the first line not counted.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.text.floor_char_boundary(offset.min(self.text.len()));
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let last = before.rsplit('\n').next().unwrap_or_default();
        let last = if line == 1 {
            last.trim_start_matches('\u{feff}')
        } else {
            last
        };
        (line, last.chars().count() + 1)
    }

    /// Where a byte offset stands: `path:line:col`, or for a spreadsheet
    /// ``path, sheet `Cards`, cell C11``.
    pub fn place(&self, offset: usize) -> String {
        if let Some((sheet, cell)) = self.sheet.as_ref().and_then(|s| s.cell_at(offset)) {
            return format!("{}, sheet `{sheet}`, cell {cell}", self.path.display());
        }
        let (line, col) = self.line_col(offset);
        format!("{}:{line}:{col}", self.path.display())
    }
}

/// The cells of a worksheet read as CSV text: the sheet's name, and for each cell the byte
/// offset where its text starts, its row (from 1) and its column (from 0, `A`).
#[derive(Debug)]
pub struct SheetCells {
    pub name: String,
    /// Sorted by offset.
    pub cells: Vec<(usize, u32, u32)>,
}

impl SheetCells {
    /// The sheet's name and the cell (`C11`) holding the byte at `offset`.
    pub fn cell_at(&self, offset: usize) -> Option<(&str, String)> {
        let i = self
            .cells
            .partition_point(|c| c.0 <= offset)
            .checked_sub(1)?;
        let (_, row, col) = self.cells[i];
        Some((&self.name, format!("{}{row}", column_letters(col as usize))))
    }
}

/// Why a file could not be read, in plain words (not the system's `os error 2`).
pub fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => "there is no such file".into(),
        ErrorKind::PermissionDenied => {
            "permission denied: this user may not read it (check its permissions)".into()
        }
        ErrorKind::IsADirectory => "it is a folder, not a file".into(),
        ErrorKind::InvalidData => "it is not text".into(),
        _ => e.to_string(),
    }
}

/// A spreadsheet column's letters: 0 is A, 25 is Z, 26 is AA.
pub fn column_letters(mut n: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'A' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Whether a problem is in the data (exit 1), in reading it (exit 2), or a warning that
/// does not change the exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    Data,
    Io,
    Warning,
}

/// The one cause a problem reports when two checks find it (the data's and a drawn face's):
/// it is said once, where the data says it, whatever words either uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// A word `labels.NAME` a template prints that a language's `[print_labels]` lacks.
    MissingLabel(String),
}

/// One thing wrong with the input.
#[derive(Debug, Clone)]
pub struct Problem {
    pub kind: ProblemKind,
    /// What it reports, when another check may find the same ([`Cause`]).
    pub cause: Option<Cause>,
    pub message: String,
    /// The rule the check enforces and the rulebook section it comes from.
    pub rule: Option<String>,
    pub file: Option<SourceFile>,
    pub span: Option<Range<usize>>,
    pub label: String,
    pub help: Option<String>,
}

impl Problem {
    pub fn data(message: impl Into<String>) -> Self {
        Problem {
            kind: ProblemKind::Data,
            cause: None,
            message: message.into(),
            rule: None,
            file: None,
            span: None,
            label: String::new(),
            help: None,
        }
    }

    /// Something that works but should be better (art that prints blurred).
    pub fn warning(message: impl Into<String>) -> Self {
        Problem {
            kind: ProblemKind::Warning,
            ..Problem::data(message)
        }
    }

    pub fn is_warning(&self) -> bool {
        self.kind == ProblemKind::Warning
    }

    pub fn io(path: &Path, err: impl fmt::Display) -> Self {
        Problem {
            kind: ProblemKind::Io,
            ..Problem::data(format!("cannot read {}: {err}", path.display()))
        }
    }

    /// A file or folder that could not be written (exit 2).
    pub fn io_write(path: &Path, err: impl fmt::Display) -> Self {
        Problem {
            kind: ProblemKind::Io,
            ..Problem::data(format!("cannot write {}: {err}", path.display()))
        }
    }

    /// An output that could not be made although the data passed its check: the message
    /// names the game, the stage and the path (exit 2, as for other output failures).
    pub fn build(message: impl Into<String>) -> Self {
        Problem {
            kind: ProblemKind::Io,
            ..Problem::data(message)
        }
    }

    /// Points the problem at a span of a file.
    pub fn at(mut self, file: &SourceFile, span: Range<usize>, label: impl Into<String>) -> Self {
        self.file = Some(file.clone());
        self.span = Some(whole_chars(&file.text, span));
        self.label = label.into();
        self
    }

    /// Names the file without a place in it.
    pub fn in_file(mut self, file: &SourceFile) -> Self {
        self.file = Some(file.clone());
        self
    }

    pub fn rule(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn because(mut self, cause: Cause) -> Self {
        self.cause = Some(cause);
        self
    }

    /// `path:line:col`, or just the path, or nothing.
    pub fn location(&self) -> Option<String> {
        let file = self.file.as_ref()?;
        Some(match &self.span {
            Some(span) => file.place(span.start),
            None => file.path.display().to_string(),
        })
    }

    /// The full report, as the command line prints it.
    pub fn render(&self, colour: bool) -> String {
        let handler = if colour {
            miette::GraphicalReportHandler::new()
        } else {
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        };
        let mut out = String::new();
        let mut report = Report::from(self);
        if self.is_warning() {
            report.heading = format!("warning: {}", report.heading);
        }
        if handler.render_report(&mut out, &report).is_err() {
            out = format!("error: {}\n", self);
        }
        out
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = self.location() {
            write!(f, "{loc}: ")?;
        }
        write!(f, "{}", self.message)?;
        if let Some(rule) = &self.rule {
            write!(f, " [rule: {rule}]")?;
        }
        Ok(())
    }
}

/// The miette view of a problem.
#[derive(Debug)]
struct Report {
    heading: String,
    source: Option<NamedSource<Arc<str>>>,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    warning: bool,
}

impl From<&Problem> for Report {
    fn from(p: &Problem) -> Self {
        let mut heading = match p.location() {
            Some(loc) => format!("{loc}: {}", p.message),
            None => p.message.clone(),
        };
        if let Some(rule) = &p.rule {
            heading.push_str(&format!("\n  rule: {rule}"));
        }
        // A spreadsheet's CSV text is not what the designer sees: the heading names the cell.
        let source = p
            .file
            .as_ref()
            .filter(|f| f.sheet.is_none())
            .map(|f| NamedSource::new(f.path.display().to_string(), f.text.clone()));
        let labels = p
            .span
            .clone()
            .filter(|_| source.is_some())
            .map(|s| {
                let s = p
                    .file
                    .as_ref()
                    .map_or(s.clone(), |f| whole_chars(&f.text, s));
                LabeledSpan::new_with_span(Some(p.label.clone()), s)
            })
            .into_iter()
            .collect();
        Report {
            heading,
            source,
            labels,
            help: p.help.clone(),
            warning: p.is_warning(),
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.heading)
    }
}

impl std::error::Error for Report {}

impl Diagnostic for Report {
    fn severity(&self) -> Option<miette::Severity> {
        self.warning.then_some(miette::Severity::Warning)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>)
    }
}

/// A message of serde (as the TOML reader passes it on) in a designer's words, with what to
/// do: `unknown variant `x`, expected one of `a`, `b`` becomes "`x` is not a known `kind`;
/// use one of: a, b", `invalid type: string "3", expected f64` becomes "expected a number,
/// found text "3"". `key` is the key whose value is wrong, when known. A message of another
/// form is returned as it is.
pub fn designer_words(message: &str, key: Option<&str>) -> String {
    let known = |what: &str| match key {
        Some(k) => format!("a known `{k}`"),
        None => format!("a known {what}"),
    };
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (name, choices) = name_and_choices(rest);
        return match choices {
            Some(c) => format!("{name} is not {}; use one of: {c}", known("value here")),
            None => format!("{name} is not {}", known("value here")),
        };
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (name, choices) = name_and_choices(rest);
        return match choices {
            Some(c) => format!("{name} is not a key of this table; its keys are: {c}"),
            None => format!("{name} is not a key of this table, which takes no keys"),
        };
    }
    if let Some(name) = message.strip_prefix("missing field ") {
        return format!("{name} is missing here; add it (`printplay schema` describes every key)");
    }
    if let Some(name) = message.strip_prefix("duplicate field ") {
        return format!("{name} is given twice; keep one");
    }
    if let Some(rest) = message.strip_prefix("invalid type: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!(
            "expected {}, found {}",
            expected_words(expected),
            found_words(found)
        );
    }
    if let Some(rest) = message.strip_prefix("invalid value: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!(
            "{} is not allowed here: expected {}",
            found_words(found),
            expected_words(expected)
        );
    }
    if let Some(rest) = message.strip_prefix("invalid length ")
        && let Some((len, expected)) = rest.split_once(", expected ")
    {
        return format!(
            "the list has {len} items; expected {}",
            expected_words(expected)
        );
    }
    if message.starts_with("carriage return must be followed by newline") {
        return "this line ends with a carriage return alone, as old Mac programs save text; \
                TOML needs LF or CRLF line ends: save the file again with Unix (LF) or \
                Windows (CRLF) line ends"
            .to_string();
    }
    if message.starts_with("data did not match any variant of untagged enum") {
        return match key {
            Some(k) => format!(
                "this value is none of the forms `{k}` takes; `printplay schema` describes them"
            ),
            None => "this value is none of the forms this key takes; `printplay schema` \
                     describes them"
                .to_string(),
        };
    }
    message.to_string()
}

/// `` `x`, expected one of `a`, `b` `` as (`` `x` ``, `a, b`); serde lists one choice as
/// ``expected `a` ``, two as ``expected `a` or `b` ``, none as `there are no variants`.
fn name_and_choices(rest: &str) -> (&str, Option<String>) {
    let Some((name, tail)) = rest.split_once(", ") else {
        return (rest, None);
    };
    let list = tail
        .strip_prefix("expected one of ")
        .or_else(|| tail.strip_prefix("expected "));
    let choices = list.map(|l| {
        l.replace(" or ", ", ")
            .split(", ")
            .map(|c| c.trim().trim_matches('`'))
            .filter(|c| !c.is_empty())
            .collect::<Vec<_>>()
            .join(", ")
    });
    (name, choices)
}

/// What serde says a value should be, as a designer says it.
fn expected_words(expected: &str) -> String {
    let e = expected.trim();
    match e {
        "f64" | "f32" | "a float" => "a number".into(),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "an integer" => "a whole number".into(),
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number, 0 or more".into(),
        "a boolean" | "bool" => "`true` or `false`".into(),
        "a string" | "a borrowed string" | "string" | "a character" | "char" => {
            "text in quotes".into()
        }
        "a sequence" | "a seq" | "sequence" => "a list in `[ ]`".into(),
        "a map" | "map" => "a table".into(),
        _ if e.starts_with("struct ") => "a table".into(),
        _ if e.starts_with("enum ") => "one of its names in quotes".into(),
        _ => e.to_string(),
    }
}

/// What serde says a value is, as a designer says it.
fn found_words(found: &str) -> String {
    let f = found.trim();
    let inner = |prefix: &str| {
        f.strip_prefix(prefix)
            .map(|v| v.trim().trim_matches('`').to_string())
    };
    if let Some(v) = f.strip_prefix("string ") {
        format!("text {v}")
    } else if let Some(v) = inner("integer ") {
        format!("the number {v}")
    } else if let Some(v) = inner("floating point ") {
        format!("the number {v}")
    } else if let Some(v) = inner("boolean ") {
        format!("`{v}`")
    } else {
        match f {
            "sequence" => "a list".into(),
            "map" => "a table".into(),
            other => other.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_messages_are_said_in_a_designers_words() {
        for (serde, key, said) in [
            (
                "unknown variant `intt`, expected one of `int`, `text`, `bool`",
                Some("type"),
                "`intt` is not a known `type`; use one of: int, text, bool",
            ),
            (
                "unknown variant `x`, expected `a` or `b`",
                None,
                "`x` is not a known value here; use one of: a, b",
            ),
            (
                "invalid type: string \"three\", expected f64",
                Some("size_mm"),
                "expected a number, found text \"three\"",
            ),
            (
                "invalid type: integer `5`, expected a string",
                None,
                "expected text in quotes, found the number 5",
            ),
            (
                "invalid value: integer `-2`, expected u32",
                None,
                "the number -2 is not allowed here: expected a whole number, 0 or more",
            ),
            (
                "unknown field `colur`, expected `name` or `colour`",
                None,
                "`colur` is not a key of this table; its keys are: name, colour",
            ),
            (
                "carriage return must be followed by newline, expected newline",
                None,
                "this line ends with a carriage return alone, as old Mac programs save text; \
                 TOML needs LF or CRLF line ends: save the file again with Unix (LF) or \
                 Windows (CRLF) line ends",
            ),
            ("a message of our own", None, "a message of our own"),
        ] {
            assert_eq!(designer_words(serde, key), said);
        }
    }

    #[test]
    fn columns_are_named_by_letters() {
        assert_eq!(column_letters(0), "A");
        assert_eq!(column_letters(25), "Z");
        assert_eq!(column_letters(26), "AA");
        assert_eq!(column_letters(27), "AB");
    }

    #[test]
    fn a_byte_order_mark_is_no_column() {
        let file = SourceFile::new("a.csv", "\u{feff}id,name\nx,y\n");
        assert_eq!(file.line_col(3 + 3), (1, 4));
        assert_eq!(file.line_col(3 + 8), (2, 1));
    }

    #[test]
    fn a_span_inside_a_character_is_reported_on_whole_characters() {
        let file = SourceFile::new("cards.csv", "id,value\na,5 €\nb,Kenttä");
        let euro = file.text.find('€').unwrap();
        for span in [
            euro + 1..euro + 2,
            euro + 2..euro + 1,
            euro + 1..999,
            999..1000,
        ] {
            let p = Problem::data("x").at(&file, span.clone(), "here");
            let got = p.span.clone().unwrap();
            assert!(file.text.is_char_boundary(got.start) && file.text.is_char_boundary(got.end));
            assert!(!p.render(false).is_empty(), "{span:?}");
            let _ = file.line_col(span.start);
        }
        // A span set by hand is made whole where the report is drawn.
        let mut p = Problem::data("x").in_file(&file);
        p.span = Some(euro + 1..euro + 2);
        assert!(p.render(false).contains("cards.csv"));
        assert_eq!(file.line_col(euro + 1), (2, 5));
    }
}
