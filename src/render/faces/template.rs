//! SVG templates: tera templates in `templates/` (or a game's own `data/<slug>/templates/`)
//! that draw one card face or piece in millimetres, from the model's values.
//!
//! A template is the inside of an `<svg>` whose user unit is one millimetre, with (0, 0) at
//! the top-left corner of the trim and the bleed reaching `bleed` beyond every edge. Ids in
//! `<defs>` must start with `{{ uid }}` so faces can share a page. Functions the templates
//! call (all sizes in mm):
//! - `text(text, x, y, w, h, size, min, face, align, fill, leading)`: wraps and shrinks text
//!   to fit the box; `[id]` in the text draws that symbol, or the game's own `[[icon]]`,
//!   inline on the baseline; `**bold**` and `*italic*` set runs in those styles of `face`'s
//!   family (`\*`, `\[` print the characters). Text that does not fit at `min`, asks for
//!   a style no font provides or shows an `[id]` no symbol or icon has, makes the build (and
//!   `check`) fail for that card, piece or back.
//!   A newline, or `\n` written in the template, breaks the line.
//! - `badge(symbol, cx, cy, r)`: a disc in the symbol's colour with its mark;
//!   `mark(symbol, cx, cy, r)`: the mark in the symbol's colour;
//!   `texture(symbol, x, y, w, h, step)`: the mark repeated faintly over a colour field;
//!   `ink(colour)`: black or white, whichever reads on `colour`;
//!   `cycle(pairs, cx, cy, r)`: symbols round a circle with an arrow from each pair's first
//!   to its second (an element cycle from a `[[winner, loser], ...]` parameter).
//! - `image(src, x, y, w, h, fit, anchor)`: art from the game's folder (`src` is a path
//!   relative to it, usually an `image` field: `card.fields.art`, `piece.image`) placed in
//!   the box; `fit` is `contain` (default: the whole image), `cover` (fills the box, cropped)
//!   or `stretch`; `anchor` is `center` (default), `top`, `bottom`, `left`, `right`,
//!   `top-left`, `top-right`, `bottom-left` or `bottom-right`. An empty `src` draws nothing.
//!
//! `face` is `sans`, `bold`, `serif-italic` or a face of the game's `fonts/` folder by
//! family and style (`"Family"`, `"Family Bold"`, `"Family Italic"`...).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use serde_json::{Value, json};
use tera::{Context, Tera};

use crate::diag::{Problem, SourceFile};
use crate::model::{Back, Card, CardBack, Deck, Game, Piece, PieceBack, Symbol};
use crate::render::faces::failure::{deepest_cause, error_chain, missing_label};
use crate::render::faces::fonts::{GameFaces, game_faces};
use crate::render::faces::images;
use crate::render::faces::marks;
use crate::render::faces::text::{self, Inline, OwnIcon, Styles, TextBox};

/// Templates compiled into the binary from `templates/`: the generic designs any game may
/// use. A game's own designs live in its `templates/` folder, the shipped games' too.
const BUILTIN: &[(&str, &str)] = &[
    (
        "basic-card",
        include_str!("../../../templates/basic-card.svg"),
    ),
    (
        "basic-back",
        include_str!("../../../templates/basic-back.svg"),
    ),
    ("piece", include_str!("../../../templates/piece.svg")),
    ("tuck-box", include_str!("../../../templates/tuck-box.svg")),
    ("board", include_str!("../../../templates/board.svg")),
];

/// Where a game's own templates live, beside its data.
pub fn game_template_dir(game: &Game) -> std::path::PathBuf {
    game.dir.join("templates")
}

thread_local! {
    /// Text boxes that overflowed while the current face was rendered.
    static OVERFLOWS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// Art that could not be used while the current face was rendered.
    static ART_ERRORS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// Art placed on the current face.
    static PLACED: RefCell<Vec<Placement>> = const { RefCell::new(Vec::new()) };
}

/// One image placed on a face: the path as the data gave it and its print resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    pub src: String,
    /// Dots per inch at the placed size; `None` for vector art.
    pub dpi: Option<f64>,
}

/// A rendered face and what went wrong with its data.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The template that drew it.
    pub template: String,
    pub svg: String,
    /// Text boxes whose text does not fit.
    pub overflows: Vec<String>,
    /// Art the data names that cannot be used (missing, outside the folder, undecodable).
    pub art_errors: Vec<String>,
    pub placed: Vec<Placement>,
}

/// A template that failed as a whole (whatever card it drew): placed at the template.
#[derive(Debug, Clone)]
pub struct TemplateError {
    pub template: String,
    pub message: String,
    /// A word of `labels` the face's language lacks, when that is why it failed.
    pub cause: Option<crate::diag::Cause>,
}

/// A tera function whose output is SVG, inserted unescaped.
struct SvgFn<F>(F);

impl<F> tera::Function for SvgFn<F>
where
    F: Fn(&HashMap<String, Value>) -> tera::Result<Value> + Sync + Send,
{
    fn call(&self, args: &HashMap<String, Value>) -> tera::Result<Value> {
        (self.0)(args)
    }
    fn is_safe(&self) -> bool {
        true
    }
}

fn num(args: &HashMap<String, Value>, key: &str, default: Option<f64>) -> tera::Result<f64> {
    match args.get(key) {
        Some(v) => v
            .as_f64()
            .ok_or_else(|| tera::Error::msg(format!("`{key}` must be a number, found {v}"))),
        None => default.ok_or_else(|| tera::Error::msg(format!("missing argument `{key}`"))),
    }
}

fn string(args: &HashMap<String, Value>, key: &str, default: Option<&str>) -> tera::Result<String> {
    match args.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Null) | None => default
            .map(str::to_string)
            .ok_or_else(|| tera::Error::msg(format!("missing argument `{key}`"))),
        Some(v) => Ok(v.to_string()),
    }
}

/// The template engine for one game: its own templates over the built-ins, and the
/// functions above bound to the game's symbols, faces and folder.
pub struct Templates {
    tera: Tera,
    /// Each template's text and file, for placing its errors.
    sources: BTreeMap<String, SourceFile>,
    /// The faces the game may name.
    pub faces: Arc<GameFaces>,
}

impl Templates {
    pub fn new(game: &Game) -> Result<Templates, String> {
        Templates::load(game).map_err(|p| p.to_string())
    }

    /// The game's templates and fonts; a template that does not parse, or a font file that
    /// does not load, is a problem placed in its own file.
    pub fn load(game: &Game) -> Result<Templates, Problem> {
        let mut sources: BTreeMap<String, SourceFile> = BUILTIN
            .iter()
            .map(|(name, body)| {
                let file = SourceFile::new(
                    Path::new("templates").join(format!("{name}.svg")),
                    Arc::from(*body),
                );
                (name.to_string(), file)
            })
            .collect();
        let mut own = Vec::new();
        let dir = game_template_dir(game);
        if let Ok(entries) = std::fs::read_dir(&dir) {
            let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            for path in paths
                .iter()
                .filter(|p| p.extension().is_some_and(|e| e == "svg"))
            {
                let rel = Path::new("templates").join(path.file_name().unwrap_or_default());
                let file = crate::model::read_source_in(&game.dir, &rel.to_string_lossy())?;
                let stem = path.file_stem().unwrap_or_default().to_string_lossy();
                own.push(stem.to_string());
                sources.insert(stem.into_owned(), file);
            }
        }
        let reached = needed(game, &sources, &own);
        if let Some(p) = super::budget::recursion(&sources, &reached) {
            return Err(p);
        }
        let mut tera = compile(&sources, &reached)?;
        let faces = Arc::new(game_faces(&game.dir)?);
        let symbols: BTreeMap<String, Symbol> = game
            .components
            .symbols
            .iter()
            .map(|s| (s.id.get_ref().clone(), s.clone()))
            .collect();
        register(
            &mut tera,
            symbols,
            own_icons(game),
            faces.clone(),
            game.dir.clone(),
            min_text_mm(game),
        );
        Ok(Templates {
            tera,
            sources,
            faces,
        })
    }

    /// Renders a template; returns the SVG fragment and the problems of the data it drew
    /// (text that overflows, art that cannot be used).
    pub fn render(
        &self,
        name: &str,
        ctx: &Context,
    ) -> Result<(String, Vec<String>), TemplateError> {
        let r = self.render_face(name, ctx)?;
        let mut problems = r.overflows;
        problems.extend(r.art_errors);
        Ok((r.svg, problems))
    }

    /// Renders a template for one face.
    pub fn render_face(&self, name: &str, ctx: &Context) -> Result<Rendered, TemplateError> {
        let file = format!("{name}.svg");
        let fail = |message: String| TemplateError {
            template: name.to_string(),
            message,
            cause: None,
        };
        if !self.has(name) {
            return Err(fail(format!(
                "template `{name}` does not exist (the game's templates/ folder and the built-ins have: {})",
                self.names().join(", ")
            )));
        }
        if !self.tera.get_template_names().any(|n| n == file) {
            return Err(fail(format!(
                "template `{name}` is reached by no deck, board or piece of the data, so it was not loaded"
            )));
        }
        OVERFLOWS.with(|o| o.borrow_mut().clear());
        ART_ERRORS.with(|o| o.borrow_mut().clear());
        PLACED.with(|o| o.borrow_mut().clear());
        // What the face may cost (`limits`): its loops, its bytes, its elements.
        super::budget::start_face();
        let mut out = super::budget::Capped::default();
        let text = &self.sources[name].text;
        let rendered = self.tera.render_to(&file, ctx, &mut out);
        if out.over {
            let what = format!("over {} MB", crate::limits::TEMPLATE_OUTPUT_BYTES >> 20);
            return Err(fail(format!(
                "template `{name}`: {}",
                super::budget::too_much(&what, text)
            )));
        }
        rendered.map_err(|e| {
            let cause = deepest_cause(&e);
            // The `range` past the budget, as the template writes it (for its line).
            let cause = match super::budget::breach()
                .and_then(|end| super::budget::range_call(text, end))
            {
                Some(call) => format!("`{call}`: {cause}"),
                None => cause,
            };
            TemplateError {
                cause: missing_label(&self.tera, &file, ctx, text),
                ..fail(format!("template `{name}`: {cause}"))
            }
        })?;
        let svg = String::from_utf8(out.bytes)
            .map_err(|_| fail(format!("template `{name}` wrote text that is not UTF-8")))?;
        let elements = super::budget::elements(&svg);
        if elements > crate::limits::TEMPLATE_ELEMENTS {
            return Err(fail(format!(
                "template `{name}`: {}",
                super::budget::too_much(&format!("{elements} elements"), text)
            )));
        }
        if let Some(href) = images::stray_href(&svg) {
            return Err(fail(format!(
                "template `{name}`: an <image> names `{href}`, which pages never load; \
                 place art with image(src=...), a path in the game's folder"
            )));
        }
        Ok(Rendered {
            template: name.to_string(),
            svg,
            overflows: OVERFLOWS.with(|o| std::mem::take(&mut *o.borrow_mut())),
            art_errors: ART_ERRORS.with(|o| std::mem::take(&mut *o.borrow_mut())),
            placed: PLACED.with(|o| std::mem::take(&mut *o.borrow_mut())),
        })
    }

    /// Adds every template's name and text, as loaded, to `h` (the build cache's key).
    pub fn digest(&self, h: &mut blake3::Hasher) {
        for (name, file) in &self.sources {
            for part in [name.as_bytes(), file.text.as_bytes()] {
                h.update(&(part.len() as u64).to_le_bytes());
                h.update(part);
            }
        }
    }

    /// The names of every template the game may use, its own and the built-ins.
    pub fn names(&self) -> Vec<String> {
        self.sources.keys().cloned().collect()
    }

    pub fn has(&self, name: &str) -> bool {
        self.sources.contains_key(name)
    }

    /// A template's failure as one problem at the template's own file, on the line that
    /// holds the name the message quotes (an unknown face, a missing variable) when found.
    pub fn problem(&self, e: &TemplateError) -> Problem {
        let mut problem = Problem::data(e.message.clone());
        problem.cause = e.cause.clone();
        let Some(file) = self.sources.get(&e.template) else {
            return problem;
        };
        match quoted_span(&file.text, &e.message, &e.template) {
            Some(span) => problem.at(file, span, "here"),
            None => problem.in_file(file),
        }
    }
}

/// Where in a template the first `quoted` name of an error message stands, other than the
/// template's own name, which every message opens with ("template `card`: unknown face ...").
fn quoted_span(text: &str, message: &str, template: &str) -> Option<std::ops::Range<usize>> {
    let own = template.trim_end_matches(".svg");
    message.split('`').skip(1).step_by(2).find_map(|name| {
        let name = name.trim();
        (!name.is_empty() && name != own)
            .then(|| text.find(name).map(|at| at..at + name.len()))
            .flatten()
    })
}

/// The templates a game's faces can reach: every template of its own (each must parse, used
/// or not) and the built-ins its data names (a deck's front or back, a board or a piece
/// without a template of its own; printed ones, since only those are drawn) or one of them
/// includes by name. Parsing is most of what
/// a template engine costs, so a built-in no face reaches is never parsed.
fn needed(game: &Game, sources: &BTreeMap<String, SourceFile>, own: &[String]) -> Vec<String> {
    let c = &game.components;
    let mut names: Vec<String> = own.to_vec();
    names.extend(c.decks.iter().filter(|d| d.print).flat_map(|d| {
        [
            d.template.clone(),
            d.back.template.clone(),
            d.tuck_box.template.clone(),
        ]
    }));
    for d in c.decks.iter().filter(|d| d.print) {
        names.extend(d.templates.values().map(|t| t.get_ref().clone()));
        for card in &d.cards {
            names.extend(card.template.as_ref().map(|t| t.get_ref().clone()));
            names.extend(card.back.as_ref().map(|b| b.get_ref().template.clone()));
        }
    }
    names.extend(
        c.pieces
            .iter()
            .filter(|p| p.print)
            .filter_map(|p| p.back.as_ref().map(|b| b.template.get_ref().clone())),
    );
    names.extend(
        c.boards
            .iter()
            .filter_map(crate::render::sheets::boards::non_hex::template_of),
    );
    names.extend(c.pieces.iter().filter(|p| p.print).map(|p| {
        let own_name = format!("piece-{}", p.kind);
        if own.contains(&own_name) {
            own_name
        } else {
            "piece".to_string()
        }
    }));
    let mut reached: Vec<String> = Vec::new();
    while let Some(name) = names.pop() {
        if reached.contains(&name) {
            continue;
        }
        if let Some(file) = sources.get(&name) {
            names.extend(
                sources
                    .keys()
                    .filter(|other| file.text.contains(&format!("{other}.svg")))
                    .cloned(),
            );
            reached.push(name);
        }
    }
    reached.sort();
    reached
}

/// Parsed templates by file name and text.
type Parsed = HashMap<(String, Arc<str>), tera::Template>;

/// A tera engine holding the named templates of `sources`, each parsed on a thread of its
/// own (templates that others include are all present before they are linked). The last
/// parsed version of each template is kept for the process, so a build's later stages and
/// `watch` parse only what changed.
fn compile(sources: &BTreeMap<String, SourceFile>, names: &[String]) -> Result<Tera, Problem> {
    static PARSED: OnceLock<std::sync::Mutex<Parsed>> = OnceLock::new();
    let cache = PARSED.get_or_init(Default::default);
    let key = |name: &String| (format!("{name}.svg"), sources[name].text.clone());
    let mut ready: Vec<(String, tera::Template)> = Vec::new();
    let mut missing: Vec<&String> = Vec::new();
    {
        let known = cache.lock().unwrap_or_else(|e| e.into_inner());
        for name in names {
            let k = key(name);
            match known.get(&k) {
                Some(template) => ready.push((k.0, template.clone())),
                None => missing.push(name),
            }
        }
    }
    let parsed: Vec<Result<tera::Template, Problem>> = std::thread::scope(|s| {
        let parsing: Vec<_> = missing
            .iter()
            .map(|name| s.spawn(|| parse_template(name, &sources[*name])))
            .collect();
        parsing
            .into_iter()
            .map(|p| {
                p.join()
                    .unwrap_or_else(|_| Err(Problem::data("a template could not be parsed")))
            })
            .collect()
    });
    let mut known = cache.lock().unwrap_or_else(|e| e.into_inner());
    for (name, template) in missing.iter().zip(parsed) {
        let template = template?;
        let (file, text) = key(name);
        // One version per name: under `watch`, each save would otherwise keep another.
        known.retain(|(other, _), _| *other != file);
        known.insert((file.clone(), text), template.clone());
        ready.push((file, template));
    }
    drop(known);
    let mut tera = Tera::default();
    tera.autoescape_on(vec![".svg"]);
    // A value printed into a face is escaped as XML, characters XML forbids (NUL...) left
    // out, so that no data makes a face that does not read as SVG.
    tera.set_escape_fn(crate::render::xml_escape);
    crate::render::faces::subscript::register(&mut tera);
    tera.templates.extend(ready);
    let linked = tera
        .build_inheritance_chains()
        .and_then(|()| tera.check_macro_files());
    linked.map_err(|e| Problem::data(error_chain(&e)))?;
    Ok(tera)
}

/// Parses one template; a syntax error is a problem at its line and column.
fn parse_template(name: &str, file: &SourceFile) -> Result<tera::Template, Problem> {
    let builtin = BUILTIN
        .iter()
        .any(|(n, body)| *n == name && **body == *file.text);
    let mut template =
        tera::Template::new(&format!("{name}.svg"), None, &file.text).map_err(|e| {
            let e = tera::Error::chain(format!("Failed to parse '{name}.svg'"), e);
            let message = error_chain(&e);
            if builtin {
                return Problem::data(format!("built-in template `{name}`: {message}"));
            }
            let problem = Problem::data(format!("template `{name}` does not parse"));
            match parse_error_offset(file, &message) {
                Some(at) => problem.at(file, at..(at + 1).min(file.text.len()), message),
                None => problem.in_file(file).help(message),
            }
        })?;
    // Values built with `set` stay bounded: see `growth`.
    super::growth::check(name, file, &template.ast)?;
    // Subscripts are looked up by value: see `subscript`.
    crate::render::faces::subscript::rewrite(&mut template).map_err(|r| {
        let problem = Problem::data(format!("template `{name}`: {}", r.message)).help(r.help);
        match file.text.find(&r.needle).filter(|_| !r.needle.is_empty()) {
            Some(at) => problem.at(file, at..at + r.needle.len(), "here"),
            None => problem.in_file(file),
        }
    })?;
    Ok(template)
}

/// The byte offset of tera's ` --> LINE:COL` in a parse error.
fn parse_error_offset(file: &SourceFile, message: &str) -> Option<usize> {
    let at = message.find("--> ")? + 4;
    let rest = &message[at..];
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == ':'))?;
    let (line, col) = rest[..end].split_once(':')?;
    let (line, col): (usize, usize) = (line.parse().ok()?, col.parse().ok()?);
    let start: usize = file
        .text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    Some((start + col.saturating_sub(1)).min(file.text.len()))
}

/// The smallest type of the game's faces, in millimetres: 6 pt, or more if the game asks.
pub fn min_text_mm(game: &Game) -> f64 {
    let pt = game
        .info
        .min_text_pt
        .unwrap_or(crate::render::sheets::layout::MIN_TEXT_PT)
        .max(crate::render::sheets::layout::MIN_TEXT_PT);
    pt * crate::render::sheets::layout::MM_PER_PT
}

/// The game's own icons that load, by id (`check` reports those that do not, at the icon).
pub fn own_icons(game: &Game) -> BTreeMap<String, OwnIcon> {
    let mut out = BTreeMap::new();
    for icon in &game.components.icons {
        if let Ok(icon_art) = load_icon(&game.dir, icon.image.get_ref()) {
            out.entry(icon.id.get_ref().clone()).or_insert(icon_art);
        }
    }
    out
}

/// Loads an icon's image: SVG, PNG or JPEG inside the game's folder.
pub fn load_icon(game_dir: &Path, image: &str) -> Result<OwnIcon, String> {
    let art = images::load(game_dir, image)?;
    let (w, h) = match (art.format, art.pixels) {
        (images::Format::Png | images::Format::Jpeg, Some((w, h))) => (f64::from(w), f64::from(h)),
        (images::Format::Svg, _) => {
            // Read as its published copy is: no file or URL it names is read.
            let opts = crate::render::svg_clean::options(&crate::render::faces::fonts::builtin());
            let tree = usvg::Tree::from_data(art.bytes(), &opts)
                .map_err(|e| format!("`{image}` is not an SVG image that reads: {e}"))?;
            let size = tree.size();
            (f64::from(size.width()), f64::from(size.height()))
        }
        _ => return Err(format!("`{image}` is not an SVG, PNG or JPEG image")),
    };
    if !(w > 0.0 && h > 0.0) {
        return Err(format!("`{image}` has no size"));
    }
    Ok(OwnIcon {
        art,
        aspect: (w / h).clamp(0.05, 20.0),
    })
}

/// An icon's image as a standalone SVG for the rules reference: the image read through usvg
/// and written back, so that only its drawing (vector, or the raster's pixels) remains.
pub fn icon_svg(game_dir: &Path, image: &str) -> Option<String> {
    let icon = load_icon(game_dir, image).ok()?;
    let opts = usvg::Options {
        image_href_resolver: images::href_resolver(false),
        ..usvg::Options::default()
    };
    let tree = match icon.art.format {
        images::Format::Svg => {
            let fonts = crate::render::faces::fonts::builtin();
            return crate::render::svg_clean::clean(icon.art.bytes(), &fonts).ok();
        }
        _ => {
            let (w, h) = (24.0 * icon.aspect, 24.0);
            let wrapper = format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.3}" height="{h}" viewBox="0 0 {w:.3} {h}">{}</svg>"#,
                images::element(&icon.art, 0.0, 0.0, w, h, "xMidYMid meet")
            );
            usvg::Tree::from_str(&wrapper, &opts).ok()?
        }
    };
    Some(crate::render::svg_clean::write(&tree))
}

/// The problem of a text that shows `[name]` when no symbol or icon has that id; `check`
/// places it at the `[name]` in the data.
pub fn unknown_icon(what: &str, name: &str) -> String {
    format!("{what} shows `[{name}]`, but no symbol or icon is called `{name}`")
}

fn register(
    tera: &mut Tera,
    symbols: BTreeMap<String, Symbol>,
    icons: BTreeMap<String, OwnIcon>,
    faces: Arc<GameFaces>,
    game_dir: std::path::PathBuf,
    least: f64,
) {
    // tera's own `range` allocates whatever it is asked; this one draws from the face's budget.
    tera.register_function("range", super::budget::range);
    tera.register_function(
        "image",
        SvgFn(move |a: &HashMap<String, Value>| image_fn(a, &game_dir)),
    );
    let syms = symbols.clone();
    tera.register_function(
        "text",
        SvgFn(move |a: &HashMap<String, Value>| {
            let face_name = string(a, "face", Some("sans"))?;
            let face = faces.get(&face_name).ok_or_else(|| {
                tera::Error::msg(format!(
                    "unknown face `{face_name}`; the faces: {}",
                    faces.names().join(", ")
                ))
            })?;
            // Nothing is set below the game's smallest type: a box that would need smaller
            // type overflows, and `check` reports it.
            let asked = num(a, "size", None)?;
            let size = asked.max(least);
            let b = TextBox {
                x: num(a, "x", None)?,
                y: num(a, "y", None)?,
                w: num(a, "w", None)?,
                h: num(a, "h", None)?,
                size,
                min: num(a, "min", Some(asked * 0.6))?.clamp(least, size),
                face,
                styles: Styles::of(&faces, face),
                align: string(a, "align", Some("start"))?,
                fill: string(a, "fill", Some("#1a1a1a"))?,
                leading: num(a, "leading", Some(1.2))?,
            };
            // Tera string literals have no escapes: `\n` written in a template breaks the line.
            let content = string(a, "text", Some(""))?.replace("\\n", "\n");
            let inline = Inline {
                symbols: &syms,
                icons: &icons,
            };
            let fitted = text::fit(&content, &b, &inline);
            let what = string(a, "what", Some("text"))?;
            for name in crate::render::faces::markup::icon_refs(&content) {
                if !syms.contains_key(&name) && !icons.contains_key(&name) {
                    OVERFLOWS.with(|o| o.borrow_mut().push(unknown_icon(&what, &name)));
                }
            }
            for style in &fitted.missing {
                OVERFLOWS.with(|o| {
                    o.borrow_mut().push(format!(
                        "{what} asks for {} type (`{}`), but no font of the family `{}` (face \
                         `{face_name}`) provides it: add that face to the game's fonts/ folder, \
                         or set the text in a face whose family has it",
                        style.describe(),
                        match (style.bold, style.italic) {
                            (true, true) => "***...***",
                            (true, false) => "**...**",
                            _ => "*...*",
                        },
                        face.style().family
                    ))
                });
            }
            if !fitted.fits {
                OVERFLOWS.with(|o| {
                    o.borrow_mut().push(format!(
                        "{what} does not fit its {:.1} x {:.1} mm box even at {:.1} pt ({:.2} mm) type, the smallest allowed: \"{}\"",
                        b.w, b.h, b.min / crate::render::sheets::layout::MM_PER_PT, b.min, content
                    ))
                });
            }
            Ok(Value::String(fitted.svg))
        }),
    );
    let symbol_fn = |syms: BTreeMap<String, Symbol>, f: fn(&Symbol, f64, f64, f64) -> String| {
        SvgFn(move |a: &HashMap<String, Value>| {
            let id = string(a, "symbol", None)?;
            let sym = syms
                .get(&id)
                .ok_or_else(|| tera::Error::msg(format!("no symbol `{id}`")))?;
            Ok(Value::String(f(
                sym,
                num(a, "cx", None)?,
                num(a, "cy", None)?,
                num(a, "r", None)?,
            )))
        })
    };
    let syms = symbols.clone();
    tera.register_function(
        "cycle",
        SvgFn(move |a: &HashMap<String, Value>| {
            let pairs =
                crate::render::faces::marks::pairs_of(a.get("pairs").unwrap_or(&Value::Null));
            if pairs.is_empty() {
                return Err(tera::Error::msg(
                    "`pairs` must be a list of [winner, loser] symbol ids",
                ));
            }
            Ok(Value::String(crate::render::faces::marks::cycle_svg(
                &syms,
                &pairs,
                num(a, "cx", None)?,
                num(a, "cy", None)?,
                num(a, "r", None)?,
            )))
        }),
    );
    tera.register_function("badge", symbol_fn(symbols.clone(), marks::badge));
    tera.register_function("mark", symbol_fn(symbols.clone(), marks::mark));
    tera.register_function(
        "texture",
        SvgFn(move |a: &HashMap<String, Value>| {
            let id = string(a, "symbol", None)?;
            let sym = symbols
                .get(&id)
                .ok_or_else(|| tera::Error::msg(format!("no symbol `{id}`")))?;
            Ok(Value::String(marks::texture(
                sym,
                num(a, "x", None)?,
                num(a, "y", None)?,
                num(a, "w", None)?,
                num(a, "h", None)?,
                num(a, "step", Some(8.0))?,
            )))
        }),
    );
    tera.register_function(
        "ink",
        SvgFn(|a: &HashMap<String, Value>| {
            Ok(Value::String(
                marks::ink_on(&string(a, "colour", None)?).to_string(),
            ))
        }),
    );
}

/// `image(src, x, y, w, h, fit, anchor)`: see the module's documentation.
fn image_fn(a: &HashMap<String, Value>, game_dir: &Path) -> tera::Result<Value> {
    let src = match a.get("src") {
        None | Some(Value::Null) => return Ok(Value::String(String::new())),
        Some(Value::String(s)) if s.trim().is_empty() => return Ok(Value::String(String::new())),
        Some(Value::String(s)) => s.clone(),
        Some(v) => return Err(tera::Error::msg(format!("`src` must be a path, found {v}"))),
    };
    let fit_name = string(a, "fit", Some("contain"))?;
    let fit = images::Fit::parse(&fit_name).ok_or_else(|| {
        tera::Error::msg(format!(
            "unknown fit `{fit_name}`; the fits: {}",
            images::Fit::NAMES
        ))
    })?;
    let anchor = string(a, "anchor", Some("center"))?;
    let aspect = images::aspect(fit, &anchor).ok_or_else(|| {
        tera::Error::msg(format!(
            "unknown anchor `{anchor}`; the anchors: {}",
            images::ANCHORS
        ))
    })?;
    let (x, y, w, h) = (
        num(a, "x", None)?,
        num(a, "y", None)?,
        num(a, "w", None)?,
        num(a, "h", None)?,
    );
    match images::load(game_dir, &src) {
        Ok(art) => {
            PLACED.with(|p| {
                p.borrow_mut().push(Placement {
                    src: src.clone(),
                    dpi: images::print_dpi(&art, fit, w, h),
                })
            });
            Ok(Value::String(images::element(&art, x, y, w, h, &aspect)))
        }
        Err(e) => {
            ART_ERRORS.with(|o| o.borrow_mut().push(format!("image {e}")));
            Ok(Value::String(String::new()))
        }
    }
}

fn toml_to_json(v: &toml::Value) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Values every template sees: the game, its symbols, parameters and tracks.
pub fn base_context(game: &Game, w: f64, h: f64, bleed: f64, uid: &str) -> Context {
    let mut ctx = Context::new();
    ctx.insert(
        "game",
        &json!({ "slug": game.slug, "name": game.info.name, "names": game.info.names }),
    );
    let symbols: serde_json::Map<String, Value> = game
        .components
        .symbols
        .iter()
        .map(|s| {
            (
                s.id.get_ref().clone(),
                json!({ "id": s.id.get_ref(), "group": s.group, "name": s.name,
                        "names": s.names, "colour": s.colour, "mark": s.mark }),
            )
        })
        .collect();
    ctx.insert("symbols", &symbols);
    let params: serde_json::Map<String, Value> = game
        .params
        .iter()
        .map(|(k, p)| (k.clone(), toml_to_json(p.value.get_ref())))
        .collect();
    ctx.insert("params", &params);
    let tracks: Vec<Value> = game
        .components
        .tracks
        .iter()
        .map(|t| {
            json!({ "id": t.id.get_ref(), "name": t.name, "names": t.names, "min": t.min,
                    "max": t.max, "start": t.start, "card": t.card })
        })
        .collect();
    ctx.insert("tracks", &tracks);
    ctx.insert("w", &w);
    ctx.insert("h", &h);
    ctx.insert("bleed", &bleed);
    ctx.insert("uid", uid);
    ctx
}

fn fields_json(fields: &BTreeMap<String, toml::Spanned<toml::Value>>) -> Value {
    Value::Object(
        fields
            .iter()
            .map(|(k, v)| (k.clone(), toml_to_json(v.get_ref())))
            .collect(),
    )
}

fn deck_json(deck: &Deck) -> Value {
    let (w, h) = deck.size.mm();
    let fields: serde_json::Map<String, Value> = deck
        .fields
        .iter()
        .map(|(name, d)| (name.clone(), json!({ "type": d.kind, "label": d.label })))
        .collect();
    json!({ "id": deck.id.get_ref(), "name": deck.name, "names": deck.names, "width": w,
            "height": h, "back": back_json(&deck.back), "cards": deck.cards.len(),
            "fields": fields })
}

fn back_json(back: &Back) -> Value {
    json!({ "template": back.template, "title": back.title, "colour": back.colour })
}

/// The language a card face is drawn in: `lang`, and whose words the card's `name`, `text`
/// and its deck's `name` show: those of `words` (falling back to the data's own when the
/// card has none in it), or the data's own for a `multilingual` deck (`words` is `None`).
#[derive(Debug, Clone, Copy)]
pub struct CardWords<'a> {
    pub lang: &'a str,
    pub words: Option<&'a str>,
}

/// The deck as a card's template sees it, its `name` in the card's language, with the
/// language as `lang` and its printed words (`[print_labels]` of `rules.<lang>.toml`) as
/// `labels`.
fn insert_language(ctx: &mut Context, game: &Game, deck: &Deck, language: CardWords) {
    let mut deck_value = deck_json(deck);
    if let Some(l) = language.words {
        deck_value["name"] = json!(super::languages::deck_name(deck, l));
    }
    ctx.insert("deck", &deck_value);
    ctx.insert("lang", language.lang);
    ctx.insert(
        "labels",
        &crate::render::sheets::boards::print_labels(game, language.lang),
    );
}

/// The context of a card front.
pub fn card_context(
    game: &Game,
    deck: &Deck,
    card: &Card,
    bleed: f64,
    uid: &str,
    language: CardWords,
) -> Context {
    let (w, h) = deck.size.mm();
    let mut ctx = base_context(game, w, h, bleed, uid);
    insert_language(&mut ctx, game, deck, language);
    let (name, text) = match language.words {
        Some(l) => (
            super::languages::card_name(card, l),
            super::languages::card_text(card, l),
        ),
        None => (card.name.as_str(), card.text.as_deref()),
    };
    ctx.insert(
        "card",
        &json!({ "id": card.id.get_ref(), "name": name, "names": card.names,
                 "count": card.count.0, "text": text, "texts": card.texts,
                 "fields": fields_json(&card.fields) }),
    );
    ctx
}

/// The context of a deck's back.
pub fn back_context(
    game: &Game,
    deck: &Deck,
    bleed: f64,
    uid: &str,
    language: CardWords,
) -> Context {
    let (w, h) = deck.size.mm();
    let mut ctx = base_context(game, w, h, bleed, uid);
    insert_language(&mut ctx, game, deck, language);
    ctx.insert("back", &back_json(&deck.back));
    ctx
}

/// The context of a deck's tuck box: the deck and its back as a back sees them, `w` and `h`
/// the net's outline, and `box` with its inside (`width`, `height`, `depth`), `cards`,
/// `card_thickness` and every panel's rectangle (`box.panels.front.x`, ...).
pub fn box_context(
    game: &Game,
    deck: &Deck,
    size: (f64, f64),
    net: &Value,
    bleed: f64,
    uid: &str,
) -> Context {
    let mut ctx = base_context(game, size.0, size.1, bleed, uid);
    ctx.insert("deck", &deck_json(deck));
    ctx.insert("back", &back_json(&deck.back));
    ctx.insert("box", net);
    ctx
}

/// The context of a card's own back: the card as its front sees it, and `back` with the
/// deck back's title and colour where the card's own back gives none.
pub fn own_back_context(
    game: &Game,
    deck: &Deck,
    card: &Card,
    own: &CardBack,
    bleed: f64,
    uid: &str,
    language: CardWords,
) -> Context {
    let mut ctx = card_context(game, deck, card, bleed, uid, language);
    let fields: serde_json::Map<String, Value> = own
        .fields
        .iter()
        .map(|(k, v)| (k.clone(), toml_to_json(v)))
        .collect();
    ctx.insert(
        "back",
        &json!({ "template": own.template,
                 "title": own.title.as_ref().unwrap_or(&deck.back.title),
                 "colour": own.colour.as_ref().unwrap_or(&deck.back.colour),
                 "fields": fields }),
    );
    ctx
}

/// The context of a piece's back: the piece, and its back's values as `back`.
pub fn piece_back_context(
    game: &Game,
    piece: &Piece,
    back: &PieceBack,
    w: f64,
    h: f64,
    uid: &str,
) -> Context {
    let mut ctx = piece_context(game, piece, w, h, uid);
    ctx.insert(
        "back",
        &json!({ "template": back.template.get_ref(), "label": back.label,
                 "symbol": back.symbol, "colour": back.colour,
                 "image": back.image.as_ref().map(|i| i.get_ref()),
                 "fields": fields_json(&back.fields) }),
    );
    ctx
}

/// The context of a piece; its box is `size_mm` square (a hex's flat-to-flat width).
pub fn piece_context(game: &Game, piece: &Piece, w: f64, h: f64, uid: &str) -> Context {
    let mut ctx = base_context(game, w, h, 0.0, uid);
    ctx.insert(
        "piece",
        &json!({ "id": piece.id.get_ref(), "name": piece.name, "names": piece.names,
                 "kind": piece.kind, "shape": piece.shape, "size_mm": piece.size_mm,
                 "symbol": piece.symbol, "label": piece.label,
                 "image": piece.image.as_ref().map(|i| i.get_ref()),
                 "fields": fields_json(&piece.fields) }),
    );
    ctx
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reached(slug: &str) -> Vec<String> {
        let game = crate::model::load_game(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("data").as_path(),
            slug,
        )
        .expect("a shipped game loads");
        let templates = Templates::load(&game).expect("its templates load");
        let mut names: Vec<String> = templates
            .tera
            .get_template_names()
            .map(|n| n.trim_end_matches(".svg").to_string())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn only_templates_a_face_reaches_are_parsed_and_every_own_one_is() {
        // Capek draws its cards with its own templates: the one built-in parsed is its decks'
        // tuck box.
        assert_eq!(
            reached("capek-golems"),
            [
                "capek-back",
                "capek-game",
                "capek-golem",
                "capek-house",
                "tuck-box"
            ]
        );
        // The Search's side cards include the shared action layout, which is parsed too.
        let search = reached("the-search");
        for name in ["search-action", "search-criminal", "search-police"] {
            assert!(search.contains(&name.to_string()), "{search:?}");
        }
        // Aether prints tiles with the built-in piece template and a board of its own.
        let aether = reached("aether");
        assert!(aether.contains(&"piece".to_string()), "{aether:?}");
        assert!(!aether.contains(&"basic-card".to_string()), "{aether:?}");
    }
}
