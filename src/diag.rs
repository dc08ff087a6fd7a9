//! Problems found in the data, reported with file, line, column and the offending text underlined.

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
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
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
        let i = self.cells.partition_point(|c| c.0 <= offset).checked_sub(1)?;
        let (_, row, col) = self.cells[i];
        Some((&self.name, format!("{}{row}", column_letters(col as usize))))
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

/// One thing wrong with the input.
#[derive(Debug, Clone)]
pub struct Problem {
    pub kind: ProblemKind,
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
        self.span = Some(span);
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
            .map(|s| LabeledSpan::new_with_span(Some(p.label.clone()), s))
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
