//! Boards: how each kind is drawn ([`hex`] grids, and [`non_hex`] square grids, the
//! designer's own art and template sheets), the languages a board is printed in, and
//! [`pages`], which prints a drawn board on one page or tiles it with glue flaps.

pub mod hex;
pub mod non_hex;
pub mod pages;

use std::collections::BTreeMap;

use crate::model::{Board, Game};
use crate::render::faces::template::{TemplateError, Templates};

/// Why a board could not be drawn: its template failed as a whole (said at the template), or
/// the board's own data (said at the board).
#[derive(Debug, Clone)]
pub enum BoardError {
    Template(TemplateError),
    Board(String),
}

impl From<TemplateError> for BoardError {
    fn from(e: TemplateError) -> Self {
        BoardError::Template(e)
    }
}

impl From<String> for BoardError {
    fn from(message: String) -> Self {
        BoardError::Board(message)
    }
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::Template(e) => f.write_str(&e.message),
            BoardError::Board(message) => f.write_str(message),
        }
    }
}

/// The words alone, for an output that prints them.
impl From<BoardError> for String {
    fn from(e: BoardError) -> String {
        e.to_string()
    }
}

/// The board as one SVG body in millimetres and its size, its words in the game's first
/// language.
pub fn board_svg(
    game: &Game,
    board: &Board,
    templates: &Templates,
) -> Result<(String, (f64, f64)), BoardError> {
    board_svg_in(game, board, templates, first_language(game))
}

/// The board as one SVG body in millimetres and its size, its words in `lang`: the template
/// gets the board's name in that language as `board.title` and the game's `[print_labels]`
/// of `rules.<lang>.toml` as `labels`.
pub fn board_svg_in(
    game: &Game,
    board: &Board,
    templates: &Templates,
    lang: &str,
) -> Result<(String, (f64, f64)), BoardError> {
    let labels = print_labels(game, lang);
    let title = board_title(game, board, lang);
    match board.hex() {
        Some(grid) => hex::board_svg(game, board, grid, templates, title, lang, &labels),
        None => non_hex::board_svg_in(game, board, templates, title, lang, &labels),
    }
}

/// The language a single board file is printed in: the game's first (`languages` in
/// `game.toml`), else its rulebook's.
pub fn first_language(game: &Game) -> &str {
    game.info
        .languages
        .first()
        .unwrap_or(&game.info.rulebook_language)
}

/// The languages the build prints boards in, each to `board.<lang>.pdf`; empty when the
/// game is published in one language, whose board goes to `board.pdf`.
pub fn board_languages(game: &Game) -> Vec<&str> {
    if game.info.languages.len() > 1 {
        game.info.languages.iter().map(String::as_str).collect()
    } else {
        Vec::new()
    }
}

/// The board PDF's file name: `board.<lang>.pdf` for one of several languages, else
/// `board.pdf`.
pub fn board_file(lang: Option<&str>) -> String {
    match lang {
        Some(l) => format!("board.{l}.pdf"),
        None => "board.pdf".to_string(),
    }
}

/// A board's name in a language: the rules prose's name for it, else the data's name in
/// that language, else its main name.
pub(super) fn board_title<'a>(game: &'a Game, board: &'a Board, lang: &str) -> &'a str {
    let key = format!("board.{}", board.id.get_ref());
    game.rules
        .texts
        .get(lang)
        .and_then(|r| r.text.components.get(&key))
        .and_then(|c| c.name.as_deref())
        .or_else(|| board.names.get(lang).map(String::as_str))
        .unwrap_or(&board.name)
}

/// The game's printed words in a language (`[print_labels]` of `rules.<lang>.toml`).
pub(crate) fn print_labels(game: &Game, lang: &str) -> BTreeMap<String, String> {
    game.rules
        .texts
        .get(lang)
        .map(|r| r.text.print_labels.clone())
        .unwrap_or_default()
}

/// The words `template` prints from `[print_labels]`: every `labels.NAME` it names, sorted.
pub fn label_names(template: &str) -> Vec<String> {
    let mut names: Vec<String> = template
        .match_indices("labels.")
        .filter(|(i, _)| {
            !template[..*i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        })
        .map(|(i, m)| {
            template[i + m.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
                .collect::<String>()
        })
        .filter(|n| !n.is_empty())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The interface words printed around a board, from `templates/i18n/<lang>.toml`.
pub struct PageWords {
    /// The PDF's title after the game's name (`board`).
    pub file: String,
    /// The page label of a board on one page (`1 page`).
    pub one_page: String,
    /// A tile's page label, `{}` standing for the tile, its row and column, rows, columns.
    pub tile: String,
    /// A glue flap's label, `{}` standing for the tile glued over it.
    pub glue_flap: String,
    /// The sentence that keeps printers from scaling the page.
    pub actual_size: String,
}

impl PageWords {
    /// The words of a language; a language without a message file, or a file without one of
    /// the words, is an error naming what to add.
    pub fn load(lang: &str) -> Result<PageWords, String> {
        let all = crate::messages::load_all(&crate::assets::TemplateSource::from_env())
            .map_err(|p| p.to_string())?;
        let msgs = all.get(lang).ok_or_else(|| {
            format!("no interface words for language `{lang}` (add templates/i18n/{lang}.toml)")
        })?;
        let get = |key: &str| msgs.get(key).map(str::to_string);
        Ok(PageWords {
            file: get("file_board")?,
            one_page: get("board_one_page")?,
            tile: get("board_tile")?,
            glue_flap: get("board_glue_flap")?,
            actual_size: get("print_actual_size")?,
        })
    }
}

/// `pattern` with each `{}` replaced by the next of `values`.
pub(super) fn fill_holes(pattern: &str, values: &[String]) -> String {
    values
        .iter()
        .fold(pattern.to_string(), |text, v| text.replacen("{}", v, 1))
}
