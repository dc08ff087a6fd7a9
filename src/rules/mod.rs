//! Rules references: one HTML page and one Markdown file per game and language, assembled by
//! the tera templates in `templates/rules/` from the prose in the game's data
//! (`rules.<lang>.toml`, see [`crate::model::RulesText`]), the components and parameters of the
//! model, and the interface words of `templates/i18n/<lang>.toml`.

mod diagrams;
mod document;
pub mod markdown;
pub mod messages;
pub mod placeholders;
mod validate;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::assets::TemplateSource;
use crate::diag::Problem;
use crate::model::Game;

pub use validate::{check, prose_text};

/// The output formats of a rules reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Html,
    Md,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Md => "md",
        }
    }
}

/// One generated file: its name inside the game's output folder and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutFile {
    pub name: String,
    pub text: String,
}

/// The templates, styles and message files, loaded once per run.
pub struct Assets {
    tera: tera::Tera,
    css: String,
    messages: BTreeMap<String, messages::Messages>,
}

impl Assets {
    /// Loads the `rules/` templates, the style sheet and the `i18n/` message files.
    pub fn load(source: &TemplateSource) -> Result<Assets, Problem> {
        let mut tera = tera::Tera::default();
        tera.autoescape_on(vec![".html", ".svg"]);
        let mut files = vec!["rules/page.html".to_string(), "rules/page.md".to_string()];
        files.extend(source.list("rules/diagrams", "svg")?);
        for rel in &files {
            let file = source.read(rel)?;
            let name = rel.trim_start_matches("rules/");
            tera.add_raw_template(name, &file.text)
                .map_err(|e| Problem::io(&file.path, tera_error(&e)))?;
        }
        let css = source.read("rules/style.css")?.text.to_string();
        let messages = messages::load_all(source)?;
        Ok(Assets {
            tera,
            css,
            messages,
        })
    }

    /// The templates this run uses: `$PRINTPLAY_TEMPLATES`, else the built-in ones.
    pub fn load_default() -> Result<Assets, Problem> {
        Assets::load(&TemplateSource::from_env())
    }

    /// The languages that have a message file.
    pub fn languages(&self) -> Vec<&str> {
        self.messages.keys().map(String::as_str).collect()
    }

    /// The message file of a language.
    pub fn messages(&self, lang: &str) -> Option<&messages::Messages> {
        self.messages.get(lang)
    }
}

/// A tera error with its causes, on one line.
fn tera_error(e: &tera::Error) -> String {
    let mut out = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cause = c.source();
    }
    out
}

/// The languages a game's reference is published in (`languages` in `game.toml`).
pub fn languages(game: &Game) -> Vec<String> {
    game.info.languages.clone()
}

/// Renders one reference: the main file first, then any files it refers to (the Markdown
/// output's diagrams).
pub fn render(
    game: &Game,
    lang: &str,
    format: Format,
    assets: &Assets,
) -> Result<Vec<OutFile>, Vec<Problem>> {
    render_linking(game, lang, format, assets, &[])
}

/// Renders one reference that also links the simulation charts named in `sim_charts`
/// (file names under `sim/` beside the reference).
pub fn render_linking(
    game: &Game,
    lang: &str,
    format: Format,
    assets: &Assets,
    sim_charts: &[String],
) -> Result<Vec<OutFile>, Vec<Problem>> {
    let page = document::build(game, lang, format, assets, sim_charts)?;
    let template = match format {
        Format::Html => "page.html",
        Format::Md => "page.md",
    };
    let context = tera::Context::from_serialize(&page.context).map_err(|e| {
        vec![Problem::data(format!(
            "{}: cannot prepare the {template} template: {}",
            game.slug,
            tera_error(&e)
        ))]
    })?;
    let text = assets.tera.render(template, &context).map_err(|e| {
        vec![Problem::data(format!(
            "{}: the {template} template failed: {}",
            game.slug,
            tera_error(&e)
        ))]
    })?;
    let mut files = vec![OutFile {
        name: format!("rules.{lang}.{}", format.extension()),
        text,
    }];
    files.extend(page.extra_files);
    Ok(files)
}

/// The build stage: writes `rules.<lang>.html` and `rules.<lang>.md` (and the Markdown's
/// diagrams) for every language of the game into `out_dir` (the game's output folder),
/// each file atomically. Returns the paths written.
pub fn build_game(
    game: &Game,
    assets: &Assets,
    out_dir: &Path,
) -> Result<Vec<PathBuf>, Vec<Problem>> {
    let mut written = Vec::new();
    for lang in languages(game) {
        for format in [Format::Html, Format::Md] {
            written.extend(write(game, &lang, format, assets, out_dir)?);
        }
    }
    Ok(written)
}

/// Renders one reference and writes its files into `out_dir`.
pub fn write(
    game: &Game,
    lang: &str,
    format: Format,
    assets: &Assets,
    out_dir: &Path,
) -> Result<Vec<PathBuf>, Vec<Problem>> {
    let files = render_linking(game, lang, format, assets, &sim_charts(out_dir))?;
    let mut written = Vec::new();
    for f in files {
        let path = out_dir.join(&f.name);
        crate::output::write_atomic(&path, f.text.as_bytes())
            .map_err(|e| vec![Problem::io(&path, e)])?;
        written.push(path);
    }
    Ok(written)
}

/// The simulation charts `printplay simulate` left under `<out_dir>/sim/`, sorted; the
/// reference links them when there are any and builds the same without them.
fn sim_charts(out_dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(out_dir.join("sim")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".svg") && !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// One game's references as a stage of `printplay build`: written into the game's output
/// folder `dir`; problems come back as one message.
pub fn stage(game: &Game, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let joined = |ps: Vec<Problem>| {
        ps.iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    };
    let assets = Assets::load_default().map_err(|p| joined(vec![p]))?;
    build_game(game, &assets, dir).map_err(joined)
}

/// The build stage for `printplay build`: every game's references under `out_root/<slug>/`.
/// One game's failure does not stop the others; all problems are returned.
pub fn build_all(games: &[Game], out_root: &Path) -> (Vec<PathBuf>, Vec<Problem>) {
    let assets = match Assets::load_default() {
        Ok(a) => a,
        Err(p) => return (Vec::new(), vec![p]),
    };
    let mut written = Vec::new();
    let mut problems = Vec::new();
    for game in games {
        match build_game(game, &assets, &out_root.join(&game.slug)) {
            Ok(paths) => written.extend(paths),
            Err(ps) => problems.extend(ps),
        }
    }
    (written, problems)
}
