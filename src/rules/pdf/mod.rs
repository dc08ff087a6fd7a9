//! The printed rulebook: `rules.<lang>.a4.pdf`, `rules.<lang>.letter.pdf` and
//! `rules.<lang>.booklet.pdf` (A5 pages imposed for saddle stitching on A4 landscape sheets),
//! typeset from the rules document ([`crate::rules::document`]) as the HTML and Markdown
//! pages are: [`flow`] reads its structure into blocks, [`layout`] measures and paginates
//! them, [`draw`] writes the PDF with krilla, [`booklet`] imposes the booklet.

pub mod booklet;
mod draw;
mod flow;
pub mod layout;
mod text;

use std::path::{Path, PathBuf};

use crate::diag::Problem;
use crate::model::Game;
use crate::rules::{Assets, Beside, Format, document};
pub use layout::{Page, Paper, Role, Unit};

/// The three PDFs of one language, by their file name's middle part.
pub const KINDS: [&str; 3] = ["a4", "letter", "booklet"];

/// A rulebook laid out on one paper: its blocks, units and pages.
pub struct Laid {
    pub units: Vec<Unit>,
    pub pages: Vec<Page>,
    pub geometry: layout::Geometry,
    flow: flow::Flow,
}

impl Laid {
    /// The section titles, for the running heads (the first is the front matter's, empty).
    pub fn sections(&self) -> &[String] {
        &self.flow.sections
    }
}

/// The file name of a rulebook PDF: `rules.en.a4.pdf`.
pub fn file_name(lang: &str, kind: &str) -> String {
    format!("rules.{lang}.{kind}.pdf")
}

/// One language's rulebook, ready to lay out on any paper.
pub struct Book {
    page: document::Page,
    fonts: text::Fonts,
    db: crate::render::faces::fonts::FontDb,
    lang: String,
    title: String,
    file: Option<crate::diag::SourceFile>,
    trees: std::collections::BTreeMap<String, std::sync::Arc<usvg::Tree>>,
}

impl Book {
    pub fn new(game: &Game, lang: &str, assets: &Assets) -> Result<Book, Vec<Problem>> {
        let page = document::build(game, lang, Format::Md, assets, &Beside::default())?;
        let faces = crate::render::faces::fonts::game_faces(&game.dir).map_err(|p| vec![p])?;
        let db = faces.database.clone();
        Ok(Book {
            title: format!(
                "{}: {}",
                game.name_in(lang),
                page.context
                    .msg
                    .get("title_rules")
                    .map_or("", String::as_str)
            ),
            page,
            fonts: text::Fonts::new(faces),
            db,
            lang: lang.to_string(),
            file: game.rules.texts.get(lang).map(|lr| lr.file.clone()),
            trees: Default::default(),
        })
    }

    /// Lays the rulebook out on `paper`: at most [`crate::limits::RULEBOOK_MAX_PAGES`]
    /// pages, else a problem at the language's rules file.
    pub fn lay_out(&mut self, paper: Paper) -> Result<Laid, Problem> {
        let geometry = layout::Geometry::of(paper);
        let flow = flow::build(
            &self.page.context,
            &self.page.extra_files,
            &self.db,
            &mut self.trees,
            geometry.body,
        );
        let units = layout::measure(&mut self.fonts, &flow.blocks, &flow.placing, &geometry);
        let max = crate::limits::RULEBOOK_MAX_PAGES;
        let pages = layout::paginate(&units, geometry.room(), max).map_err(|_| {
            let p = Problem::data(format!(
                "the printed rulebook in `{}` would take more than {max} pages",
                self.lang
            ))
            .help("a rules text is read at the table: shorten it, or split it");
            match &self.file {
                Some(f) => p.in_file(f),
                None => p,
            }
        })?;
        Ok(Laid {
            units,
            pages,
            geometry,
            flow,
        })
    }

    /// The PDF of a laid-out rulebook: one page per page, or imposed as the booklet.
    pub fn pdf(&mut self, laid: &Laid, imposed: bool) -> Result<Vec<u8>, String> {
        let sheets = if imposed {
            booklet::sheets(laid.pages.len(), &laid.geometry)
        } else {
            draw::Sheets::single(laid.pages.len(), &laid.geometry)
        };
        draw::write(
            &mut self.fonts,
            &laid.flow,
            &laid.units,
            &laid.pages,
            &laid.geometry,
            &sheets,
            &draw::Meta {
                title: &self.title,
                lang: &self.lang,
            },
        )
    }

    /// The three PDFs: A4, Letter and the booklet, by file name.
    pub fn pdfs(&mut self) -> Result<Vec<(String, Vec<u8>)>, Vec<Problem>> {
        let mut out = Vec::new();
        for (kind, paper) in KINDS.iter().zip([Paper::A4, Paper::Letter, Paper::A5]) {
            let laid = self.lay_out(paper).map_err(|p| vec![p])?;
            let bytes = self
                .pdf(&laid, paper == Paper::A5)
                .map_err(|e| vec![Problem::build(e)])?;
            out.push((file_name(&self.lang, kind), bytes));
        }
        Ok(out)
    }
}

/// Writes the rulebook PDFs of `langs` into `out_dir`, after all of them are made.
pub fn write(
    game: &Game,
    langs: &[String],
    assets: &Assets,
    out_dir: &Path,
) -> Result<Vec<PathBuf>, Vec<Problem>> {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for lang in langs {
        match Book::new(game, lang, assets).and_then(|mut b| b.pdfs()) {
            Ok(f) => files.extend(f),
            Err(ps) => problems.extend(ps),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut written = Vec::new();
    for (name, bytes) in files {
        let path = out_dir.join(&name);
        crate::output::write_atomic(&path, &bytes)
            .map_err(|e| vec![Problem::io_write(&path, e)])?;
        written.push(path);
    }
    Ok(written)
}

/// `check`: every language's rulebook lays out on every paper within the page bound.
pub fn check(game: &Game) -> Vec<Problem> {
    if game.rules.texts.is_empty() {
        return Vec::new();
    }
    let Ok(assets) = Assets::load_default() else {
        // The rules check reports the templates that do not load.
        return Vec::new();
    };
    let mut out = Vec::new();
    for lang in crate::rules::languages(game) {
        // The reference's own problems are the rules check's to report.
        let Ok(mut book) = Book::new(game, &lang, &assets) else {
            continue;
        };
        for paper in [Paper::A4, Paper::Letter, Paper::A5] {
            if let Err(p) = book.lay_out(paper) {
                out.push(p);
                break;
            }
        }
    }
    out
}

/// The build stage `rulebook`: every language's PDFs in the game's output folder.
pub fn stage(game: &Game, dir: &Path) -> Result<Vec<PathBuf>, String> {
    if game.rules.texts.is_empty() {
        return Ok(Vec::new());
    }
    let joined = |ps: Vec<Problem>| {
        ps.iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    };
    let assets = Assets::load_default().map_err(|p| joined(vec![p]))?;
    write(game, &crate::rules::languages(game), &assets, dir).map_err(joined)
}

#[cfg(test)]
mod tests;
