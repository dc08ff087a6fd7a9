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
    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.text.floor_char_boundary(offset.min(self.text.len()));
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
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

    /// `path:line:col`, or just the path, or nothing.
    pub fn location(&self) -> Option<String> {
        let file = self.file.as_ref()?;
        Some(match &self.span {
            Some(span) => {
                let (line, col) = file.line_col(span.start);
                format!("{}:{line}:{col}", file.path.display())
            }
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
        let source = p
            .file
            .as_ref()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_inside_a_character_is_reported_on_whole_characters() {
        let file = SourceFile {
            path: PathBuf::from("cards.csv"),
            text: Arc::from("id,value\na,5 €\nb,Kenttä"),
        };
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
