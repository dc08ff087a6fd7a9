//! Rules references: one HTML page and one Markdown file per game and language, assembled by
//! the tera templates in `templates/rules/` from the prose in the game's data
//! (`rules.<lang>.toml`, see [`crate::model::RulesText`]), the components and parameters of the
//! model, and the interface words of `templates/i18n/<lang>.toml`.

mod diagrams;
pub mod document;
mod links;
pub mod markdown;
pub mod pdf;
pub mod placeholders;
pub mod provenance;
mod style;
mod validate;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::assets::TemplateSource;
use crate::diag::Problem;
use crate::model::Game;

pub use document::Beside;
pub use validate::{check, prose_text, published_copy, published_files};

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
    messages: BTreeMap<String, crate::messages::Messages>,
}

impl Assets {
    /// Loads the `rules/` templates, the style sheet and the `i18n/` message files.
    pub fn load(source: &TemplateSource) -> Result<Assets, Problem> {
        let mut tera = tera::Tera::default();
        tera.autoescape_on(vec![".html", ".svg"]);
        // The included parts first, then the pages that include them.
        let mut files: Vec<String> = [
            "head.html",
            "section.html",
            "section.md",
            "page.html",
            "page.md",
            "quick.html",
            "quick.md",
        ]
        .iter()
        .map(|name| format!("rules/{name}"))
        .collect();
        files.extend(source.list("rules/diagrams", "svg")?);
        for rel in &files {
            let file = source.read(rel)?;
            let name = rel.trim_start_matches("rules/");
            tera.add_raw_template(name, &file.text)
                .map_err(|e| Problem::io(&file.path, tera_error(&e)))?;
        }
        // Subscripts looked up by value, as in the faces' templates (`render::faces::subscript`).
        for (name, template) in tera.templates.iter_mut() {
            crate::render::faces::subscript::rewrite(template).map_err(|r| {
                Problem::data(format!("template `{name}`: {}", r.message)).help(r.help)
            })?;
        }
        crate::render::faces::subscript::register(&mut tera);
        tera.build_inheritance_chains()
            .map_err(|e| Problem::data(tera_error(&e)))?;
        let css = source.read("rules/style.css")?.text.to_string();
        let messages = crate::messages::load_all(source)?;
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
    pub fn messages(&self, lang: &str) -> Option<&crate::messages::Messages> {
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

/// Fills the placeholders of the game's prose for plain-text output (a terminal): the
/// numbers from the data as the reference shows them, the Markdown markup dropped.
pub struct PlainProse {
    assets: Assets,
    values: BTreeMap<String, placeholders::Val>,
}

impl PlainProse {
    pub fn new(game: &Game) -> Result<PlainProse, String> {
        Ok(PlainProse {
            assets: Assets::load_default().map_err(|p| p.message.clone())?,
            values: diagrams::values(game)?,
        })
    }

    /// `text`, a prose text of the game's `lang` rules, on one line with its placeholders
    /// filled in; the placeholders' errors when one does not resolve.
    pub fn line(&self, game: &Game, lang: &str, text: &str) -> Result<String, String> {
        let msgs = self
            .assets
            .messages(lang)
            .ok_or_else(|| format!("there is no message file for `{lang}`"))?;
        let nouns = game.rules.texts.get(lang).map(|lr| &lr.text.nouns);
        let resolver = placeholders::Resolver {
            game,
            extra: &self.values,
        };
        let wording = placeholders::Wording::new(msgs, nouns);
        let filled = placeholders::fill(text, &resolver, &wording).map_err(|errors| {
            errors
                .iter()
                .map(|e| e.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        Ok(markdown::to_plain_line(&filled))
    }
}

/// The languages a game's reference is published in (`languages` in `game.toml`).
pub fn languages(game: &Game) -> Vec<String> {
    game.info.languages.clone()
}

/// Renders one reference: the full page first, then the one-page quick reference, then any
/// files they refer to (the Markdown output's diagrams).
pub fn render(
    game: &Game,
    lang: &str,
    format: Format,
    assets: &Assets,
) -> Result<Vec<OutFile>, Vec<Problem>> {
    render_beside(game, lang, format, assets, &Beside::default())
}

/// Renders one reference that also links what lies beside it in its output folder: the
/// build's images and print files, the simulator's charts.
pub fn render_beside(
    game: &Game,
    lang: &str,
    format: Format,
    assets: &Assets,
    beside: &Beside,
) -> Result<Vec<OutFile>, Vec<Problem>> {
    let mut page = document::build(game, lang, format, assets, beside)?;
    let ext = format.extension();
    let full_name = format!("rules.{lang}.{ext}");
    let quick_name = format!("quick.{lang}.{ext}");
    let full = render_template(game, assets, &format!("page.{ext}"), &page.context)?;
    page.context.companion = full_name.clone();
    for a in &mut page.context.alternates {
        a.href = format!("quick.{}.{ext}", a.lang);
    }
    let quick = render_template(game, assets, &format!("quick.{ext}"), &page.context)?;
    let mut files = vec![
        OutFile {
            name: full_name,
            text: full,
        },
        OutFile {
            name: quick_name,
            text: quick,
        },
    ];
    files.extend(page.extra_files);
    Ok(files)
}

fn render_template(
    game: &Game,
    assets: &Assets,
    template: &str,
    context: &document::PageContext,
) -> Result<String, Vec<Problem>> {
    let context = tera::Context::from_serialize(context).map_err(|e| {
        vec![Problem::data(format!(
            "{}: cannot prepare the {template} template: {}",
            game.slug,
            tera_error(&e)
        ))]
    })?;
    assets.tera.render(template, &context).map_err(|e| {
        vec![Problem::data(format!(
            "{}: the {template} template failed: {}",
            game.slug,
            tera_error(&e)
        ))]
    })
}

/// The build stage: writes `rules.<lang>.html` and `.md`, `quick.<lang>.html` and `.md` (and
/// the Markdown's diagrams) for every language of the game into `out_dir` (the game's output
/// folder), each file atomically, after rendering them all. Returns the paths written.
pub fn build_game(
    game: &Game,
    assets: &Assets,
    out_dir: &Path,
) -> Result<Vec<PathBuf>, Vec<Problem>> {
    let formats = [Format::Html, Format::Md];
    write(game, &languages(game), &formats, assets, out_dir)
}

/// Renders the references of some languages and formats, then writes their files into
/// `out_dir`, with the images their prose shows. Nothing is written unless everything renders.
pub fn write(
    game: &Game,
    langs: &[String],
    formats: &[Format],
    assets: &Assets,
    out_dir: &Path,
) -> Result<Vec<PathBuf>, Vec<Problem>> {
    let beside = beside(game, out_dir);
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for lang in langs {
        for format in formats {
            match render_beside(game, lang, *format, assets, &beside) {
                Ok(f) => files.extend(f),
                Err(ps) => problems.extend(ps),
            }
        }
    }
    // The files of the game's folder the prose shows or links, each as it is published (an
    // SVG written anew from its drawing).
    let mut copies = Vec::new();
    for rel in validate::published_files(game) {
        match validate::published_copy(game, &rel) {
            Ok(bytes) => copies.push((rel, bytes)),
            Err(e) => problems.push(Problem::data(format!("{}: {e}", game.slug))),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut written = Vec::new();
    let pages = files.into_iter().map(|f| (f.name, f.text.into_bytes()));
    for (name, bytes) in pages.chain(copies) {
        let path = out_dir.join(&name);
        crate::output::write_atomic(&path, &bytes)
            .map_err(|e| vec![Problem::io_write(&path, e)])?;
        written.push(path);
    }
    Ok(written)
}

/// What the build and the simulator left beside the reference in `out_dir`.
pub fn beside(game: &Game, out_dir: &Path) -> Beside {
    let mut images = BTreeMap::new();
    let ids = game
        .components
        .decks
        .iter()
        .flat_map(|d| d.cards.iter().map(|c| c.id.get_ref()))
        .chain(game.components.pieces.iter().map(|p| p.id.get_ref()));
    // A card printed once per language has an image in each (`png/<lang>/<id>.png`), keyed
    // `<lang>/<id>`.
    let langs: Vec<Option<&str>> = std::iter::once(None)
        .chain(game.info.languages.iter().map(|l| Some(l.as_str())))
        .collect();
    for id in ids {
        for &lang in &langs {
            let file = crate::render::faces::languages::image_file(id, lang);
            if let Some(size) = png_size(&out_dir.join(file)) {
                let key = lang.map_or(id.clone(), |l| format!("{l}/{id}"));
                images.insert(key, size);
            }
        }
    }
    let board_files = game
        .info
        .languages
        .iter()
        .map(|l| crate::render::sheets::boards::board_file(Some(l)));
    let card_files = game
        .info
        .languages
        .iter()
        .map(|l| crate::render::faces::languages::cards_file(Some(l)));
    let print_files = ["cards.pdf", "tokens.pdf", "board.pdf"]
        .iter()
        .map(|f| f.to_string())
        .chain(card_files)
        .chain(board_files)
        .filter(|f| out_dir.join(f).is_file())
        .collect();
    Beside {
        sim_charts: sim_charts(out_dir),
        images,
        print_files,
    }
}

/// The width and height of a PNG file, read from its header.
fn png_size(path: &Path) -> Option<(u32, u32)> {
    use std::io::Read;
    let mut head = [0u8; 24];
    std::fs::File::open(path).ok()?.read_exact(&mut head).ok()?;
    if &head[..8] != b"\x89PNG\r\n\x1a\n" || &head[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(head[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(head[20..24].try_into().ok()?);
    (w > 0 && h > 0).then_some((w, h))
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
    if game.is_original() && game.rules.texts.is_empty() {
        // An original design without prose: the print files are the whole build.
        return Ok(Vec::new());
    }
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
