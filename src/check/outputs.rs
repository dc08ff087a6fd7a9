//! What the build does with a game beyond drawing its faces, done by the check too, so that a
//! game `check` passes is one `build` prints: every template a component names exists, every
//! drawn face and board reads as SVG (usvg, with the build's options), and the print settings
//! are in range (the sheets are laid out in [`super::layouts`]).

use std::collections::HashSet;
use std::ops::Range;
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;

use super::in_components;
use crate::diag::spans::{Key, at_value};
use crate::diag::{Problem, SourceFile};
use crate::model::{Game, Shape};
use crate::render::TILE_CLEARANCE_MM;
use crate::render::faces::Faces;
use crate::render::faces::drawn::{DrawnBoard, Face, Kind, draw_boards, every_face};
use crate::render::faces::template::{Templates, game_template_dir};
use crate::render::sheets::boards::{self, BoardError};
use crate::render::sheets::layout;

/// Largest smallest type a game may ask for, in points.
pub const MAX_MIN_TEXT_PT: f64 = 24.0;
/// Largest safe zone a game may ask for, in millimetres: a quarter of a mini card's width.
pub const MAX_SAFE_ZONE_MM: f64 = 10.0;

/// Every template name a deck (front or back) or a board gives that is neither one of the
/// game's `templates/` nor a built-in, placed at the name in `components.toml`. Names are
/// only looked up among the templates loaded from the game's folder and the built-ins, so a
/// name such as `../../etc/passwd` never reads a file.
pub fn missing_templates(game: &Game, known: &[String]) -> Vec<Problem> {
    let c = &game.components;
    let mut named: Vec<(&str, Vec<Key>, String)> = Vec::new();
    for (i, d) in c.decks.iter().enumerate() {
        let id = d.id.get_ref();
        named.push((
            &d.template,
            vec![Key::Name("deck"), Key::At(i), Key::Name("template")],
            format!("deck `{id}` draws its fronts with"),
        ));
        named.push((
            &d.back.template,
            vec![
                Key::Name("deck"),
                Key::At(i),
                Key::Name("back"),
                Key::Name("template"),
            ],
            format!("deck `{id}` draws its back with"),
        ));
    }
    for (i, d) in c.decks.iter().enumerate() {
        for (value, t) in &d.templates {
            named.push((
                t.get_ref(),
                vec![
                    Key::Name("deck"),
                    Key::At(i),
                    Key::Name("templates"),
                    Key::Name(value),
                ],
                format!("deck `{}` draws its `{value}` cards with", d.id.get_ref()),
            ));
        }
    }
    for (i, p) in c.pieces.iter().enumerate() {
        if let Some(b) = &p.back {
            named.push((
                b.template.get_ref(),
                vec![
                    Key::Name("piece"),
                    Key::At(i),
                    Key::Name("back"),
                    Key::Name("template"),
                ],
                format!("piece `{}` draws its back with", p.id.get_ref()),
            ));
        }
    }
    for (i, b) in c.boards.iter().enumerate() {
        let Some(template) = b
            .template
            .as_deref()
            .or(crate::render::sheets::boards::non_hex::template_of(b).map(|_| "board"))
        else {
            continue;
        };
        named.push((
            template,
            vec![Key::Name("board"), Key::At(i), Key::Name("template")],
            format!("board `{}` is drawn with", b.id.get_ref()),
        ));
    }
    let unknown = |name: &str, what: &str| {
        Problem::data(format!("{what} template `{name}`, which does not exist")).help(format!(
            "name a file of the game's templates/ folder without `.svg`, or a built-in; \
             there are: {}",
            known.join(", ")
        ))
    };
    let mut out: Vec<Problem> = named
        .into_iter()
        .filter(|(name, _, _)| !known.iter().any(|k| k == name))
        .map(|(name, path, what)| {
            at_value(
                unknown(name, &what),
                &game.components_file,
                &path,
                "no such template",
            )
        })
        .collect();
    // `template_by` names a field of the deck that holds text; `templates` needs it.
    for d in &c.decks {
        let id = d.id.get_ref();
        match &d.template_by {
            Some(field) => {
                let declared = d.fields.get(field.get_ref());
                if !declared.is_some_and(|f| {
                    matches!(
                        f.kind,
                        crate::model::FieldType::Text | crate::model::FieldType::Symbol
                    )
                }) {
                    out.push(in_components(
                        game,
                        field.span(),
                        format!(
                            "deck `{id}` picks its templates by `{}`, which is not a text or symbol field of the deck (its fields: {})",
                            field.get_ref(),
                            d.fields.keys().cloned().collect::<Vec<_>>().join(", ")
                        ),
                    ));
                }
            }
            None if !d.templates.is_empty() => out.push(at_value(
                Problem::data(format!(
                    "deck `{id}` lists `templates` but no `template_by`: name the card field whose value picks the template"
                )),
                &game.components_file,
                &[Key::Name("deck"), Key::At(c.decks.iter().position(|x| std::ptr::eq(x, d)).unwrap_or(0)), Key::Name("templates")],
                "here",
            )),
            None => {}
        }
    }
    // A card's own front or back, at its value in the file the card comes from.
    for d in &c.decks {
        for card in &d.cards {
            let id = card.id.get_ref();
            let own = card
                .template
                .as_ref()
                .map(|t| (t.get_ref().as_str(), t.span(), "draws its front with"))
                .into_iter()
                .chain(card.back.as_ref().map(|b| {
                    (
                        b.get_ref().template.as_str(),
                        b.span(),
                        "draws its back with",
                    )
                }));
            for (name, span, what) in own {
                if !known.iter().any(|k| k == name) {
                    let what = format!("card `{id}` of deck `{}` {what}", d.id.get_ref());
                    out.push(
                        Problem::data(unknown(name, &what).message.clone())
                            .at(game.card_file(card), span, "no such template")
                            .help(unknown(name, &what).help.unwrap_or_default()),
                    );
                }
            }
        }
    }
    out
}

/// The print settings of `game.toml` and `components.toml` the build obeys: the smallest
/// type, the safe zone, and hex tiles that fit the board's hexes once cut.
pub fn print_settings(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    if let Some(pt) = game.info.min_text_pt
        && !(layout::MIN_TEXT_PT..=MAX_MIN_TEXT_PT).contains(&pt)
    {
        out.push(at_value(
            Problem::data(format!(
                "min_text_pt = {pt}: the smallest type must be between {} and \
                 {MAX_MIN_TEXT_PT} points",
                layout::MIN_TEXT_PT
            )),
            &game.game_file,
            &[Key::Name("game"), Key::Name("min_text_pt")],
            "here",
        ));
    }
    if let Some(mm) = game.info.safe_zone_mm
        && !(0.0..=MAX_SAFE_ZONE_MM).contains(&mm)
    {
        out.push(at_value(
            Problem::data(format!(
                "safe_zone_mm = {mm}: the safe zone must be between 0 and {MAX_SAFE_ZONE_MM} mm"
            )),
            &game.game_file,
            &[Key::Name("game"), Key::Name("safe_zone_mm")],
            "here",
        ));
    }
    for (board, hex) in game
        .components
        .boards
        .iter()
        .filter_map(|b| b.hex().map(|h| (b, h)))
    {
        let pieces = game.components.pieces.iter().enumerate();
        for (i, piece) in pieces.filter(|(_, p)| p.print) {
            if piece.shape == Shape::Hex && piece.size_mm > hex.hex_mm - TILE_CLEARANCE_MM + 1e-9 {
                let problem = Problem::data(format!(
                    "hex piece `{}` is {} mm across, but the hexes of board `{}` are {} mm: \
                     printed tiles must be at least {TILE_CLEARANCE_MM} mm smaller to fit",
                    piece.id.get_ref(),
                    piece.size_mm,
                    board.id.get_ref(),
                    hex.hex_mm
                ));
                let path = [Key::Name("piece"), Key::At(i), Key::Name("size_mm")];
                out.push(at_value(problem, &game.components_file, &path, "here"));
            }
        }
    }
    out
}

/// A character XML 1.0 cannot carry (control characters other than tab and line breaks,
/// U+FFFE and U+FFFF): a face that holds one does not parse.
fn not_xml(c: char) -> bool {
    (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{FFFE}' | '\u{FFFF}')
}

/// The first character XML cannot carry in `text` from `from` on, as a span.
fn first_not_xml(text: &str, from: usize) -> Option<Range<usize>> {
    let from = (0..=from.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))?;
    text[from..]
        .char_indices()
        .find(|&(_, c)| not_xml(c))
        .map(|(at, c)| from + at..from + at + c.len_utf8())
}

/// The first character XML cannot carry in a value of the data: any text, or text inside a
/// list or table.
fn value_not_xml(v: &toml::Value) -> Option<char> {
    match v {
        toml::Value::String(t) => t.chars().find(|&c| not_xml(c)),
        toml::Value::Array(a) => a.iter().find_map(value_not_xml),
        toml::Value::Table(t) => t.values().find_map(value_not_xml),
        _ => None,
    }
}

/// The first character XML cannot carry among texts.
fn texts_not_xml<'t>(texts: impl IntoIterator<Item = &'t String>) -> Option<char> {
    texts
        .into_iter()
        .find_map(|t| t.chars().find(|&c| not_xml(c)))
}

/// What drew one face, to place a face that does not read.
struct Drawn<'a> {
    /// A character of its data that SVG cannot carry (a face drops it, but the data still
    /// holds a mistake a designer must remove).
    bad: Option<char>,
    face: &'a Face<'a>,
    /// Where its data is: the file and the span of the value to change (the card's id, its
    /// `back`, the piece's back template).
    file: &'a SourceFile,
    span: Range<usize>,
}

/// The data one face of the list is drawn from: a character of it SVG cannot carry, and
/// where the face's record is. `None` for a face of data the game does not hold.
fn drawn_from<'a>(game: &'a Game, face: &'a Face<'a>) -> Option<Drawn<'a>> {
    let c = &game.components;
    let card = || {
        let deck = game.deck(face.deck?)?;
        deck.cards.iter().find(|x| x.id.get_ref() == face.id)
    };
    let card_bad = |card: &crate::model::Card| {
        texts_not_xml(
            std::iter::once(&card.name)
                .chain(card.names.values())
                .chain(card.text.iter())
                .chain(card.texts.values()),
        )
        .or_else(|| {
            card.fields
                .values()
                .find_map(|v| value_not_xml(v.get_ref()))
        })
    };
    let at = |bad, file, span| {
        Some(Drawn {
            bad,
            face,
            file,
            span,
        })
    };
    match face.kind {
        Kind::CardFront | Kind::Thumbnail if face.deck.is_some() => {
            let card = card()?;
            at(card_bad(card), game.card_file(card), card.id.span())
        }
        Kind::CardBack => {
            let card = card()?;
            let span = card.back.as_ref().map_or(card.id.span(), |b| b.span());
            at(card_bad(card), game.card_file(card), span)
        }
        Kind::CardFront => None,
        Kind::DeckBack | Kind::TuckBox => {
            let deck = game.deck(face.id)?;
            let bad = texts_not_xml(std::iter::once(&deck.name).chain(deck.names.values()));
            at(bad, &game.components_file, deck.id.span())
        }
        Kind::PieceFront | Kind::PieceBack | Kind::Thumbnail => {
            let piece = game.piece(face.id)?;
            let bad = texts_not_xml(std::iter::once(&piece.name).chain(piece.names.values()));
            let span = match (face.kind, &piece.back, &piece.back_art) {
                (Kind::PieceBack, Some(b), _) => b.template.span(),
                (Kind::PieceBack, None, Some(art)) => art.span(),
                _ => piece.id.span(),
            };
            at(bad, &game.components_file, span)
        }
        Kind::Board => {
            let board = c.boards.iter().find(|b| b.id.get_ref() == face.id)?;
            let bad = texts_not_xml(std::iter::once(&board.name).chain(board.names.values()));
            at(bad, &game.components_file, board.id.span())
        }
        Kind::Icon => {
            let icon = c.icons.iter().find(|i| i.id.get_ref() == face.id)?;
            at(None, &game.components_file, icon.image.span())
        }
    }
}

/// Every face the build draws ([`every_face`]: card fronts, a card's own back, deck backs,
/// pieces and their backs, thumbnails, boards, icons), read as the build reads it (a
/// standalone SVG document, usvg with the build's options): one that does not read is
/// placed at the data value holding a character SVG cannot carry, when its data holds one,
/// else once at the template of the game's folder that drew it (at the element left open),
/// naming the card or piece, else at the card, deck, piece, board or icon.
pub fn unreadable_faces(game: &Game, faces: Option<&Faces>, boards: &[DrawnBoard]) -> Vec<Problem> {
    let list = every_face(game, faces, boards);
    let drawn: Vec<Drawn> = list.iter().filter_map(|f| drawn_from(game, f)).collect();
    let failed: Vec<(&Drawn, String)> = drawn
        .par_iter()
        .filter_map(|d| face_error(&d.face.document()).map(|e| (d, e)))
        .collect();
    let mut out: Vec<Problem> = Vec::new();
    // A face drops what SVG cannot carry (`render::xml_escape`), so it still reads; the data
    // holding such a character is reported all the same, at the character, once a record.
    let mut said: Vec<(&std::path::Path, Option<&str>, &str, bool)> = Vec::new();
    for d in &drawn {
        if let Some(c) = d.bad {
            let f = d.face;
            let key = (
                d.file.path.as_path(),
                f.deck,
                f.id,
                f.kind == Kind::DeckBack,
            );
            if !said.contains(&key) {
                said.push(key);
                out.push(character_problem(d, c));
            }
        }
    }
    let mut blamed_templates: Vec<&str> = Vec::new();
    for (d, error) in failed {
        if let Some(c) = d.face.svg.chars().find(|&c| not_xml(c)) {
            if d.bad.is_none() {
                out.push(character_problem(d, c));
            }
            continue;
        }
        let own = d
            .face
            .template
            .filter(|t| game_template_dir(game).join(format!("{t}.svg")).is_file());
        let problem = match own {
            Some(t) if blamed_templates.contains(&t) => continue,
            Some(t) => {
                blamed_templates.push(t);
                template_problem(game, t, &d.face.what, &error)
            }
            // A built-in template or art: at the record it was drawn from.
            None => Problem::data(format!(
                "{}: its drawing cannot be read as SVG: {error}",
                d.face.what
            ))
            .at(d.file, d.span.clone(), "here"),
        };
        if !out.iter().any(|q| q.message == problem.message) {
            out.push(problem);
        }
    }
    out
}

/// An untyped parameter whose value is not a number, where `user` computes with it (a
/// template's math, an engine's arithmetic): the line to change is the parameter's, in
/// `game.toml`, so the problem is placed there, with `user`'s own place as help. `None` when
/// `message` is not such a failure.
pub fn untyped_param_problem(
    game: &Game,
    message: &str,
    user: &Problem,
    source: Option<&str>,
) -> Option<Problem> {
    let math = [
        "math operation but is not a number",
        "arithmetic on a string",
        "compare number with string",
        "compare string with number",
        "number expected, got string",
    ]
    .iter()
    .any(|m| message.contains(m));
    if !math {
        return None;
    }
    let untyped_text = |name: &str| {
        game.param(name)
            .filter(|p| p.kind.is_none())
            .filter(|p| !(p.value.get_ref().is_integer() || p.value.get_ref().is_float()))
    };
    // tera quotes `params.NAME`; Lua may name the field (field 'NAME'); else the one such
    // parameter the code that failed reads (`params.NAME` in its source).
    let named = message
        .split('`')
        .skip(1)
        .step_by(2)
        .find_map(|q| q.strip_prefix("params."))
        .or_else(|| message.split("field '").nth(1)?.split('\'').next())
        .and_then(|n| n.split('.').next())
        .filter(|n| untyped_text(n).is_some());
    let name = match named {
        Some(n) => n,
        None => {
            let source = source?;
            let mut read = game
                .params
                .keys()
                .filter(|n| untyped_text(n).is_some())
                .filter(|n| source.contains(&format!("params.{n}")));
            match (read.next(), read.next()) {
                (Some(n), None) => n.as_str(),
                _ => return None,
            }
        }
    };
    let param = untyped_text(name)?;
    let value = param.value.get_ref();
    Some(
        Problem::data(format!(
            "parameter `{name}` holds {}, but it is computed with as a number",
            crate::diag::place::describe_value(value)
        ))
        .at(&game.game_file, param.value.span(), "here")
        .help(format!(
            "{}: {}; give it a number, and `type = \"int\"` (or \"number\") so that check \
             says so here",
            user.location().unwrap_or_default(),
            user.message
        )),
    )
}

/// [`svg_error`] of a face's document, remembered for the documents found readable: a face
/// is checked again on every build while `watch` runs, and hashing a document costs a small
/// part of reading it. The answer is the document's own (it depends on nothing else), so a
/// face that changed by one byte is read again.
fn face_error(svg: &str) -> Option<String> {
    /// At most this many readable documents are remembered (32 bytes each); then the list
    /// starts again.
    const REMEMBERED: usize = 100_000;
    static READABLE: OnceLock<Mutex<HashSet<blake3::Hash>>> = OnceLock::new();
    let readable = READABLE.get_or_init(Default::default);
    let key = blake3::hash(svg.as_bytes());
    if readable
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .contains(&key)
    {
        return None;
    }
    let error = svg_error(svg);
    if error.is_none() {
        let mut set = readable.lock().unwrap_or_else(|e| e.into_inner());
        if set.len() >= REMEMBERED {
            set.clear();
        }
        set.insert(key);
    }
    error
}

/// Deepest nesting and most elements usvg reads (`usvg::Tree::from_str` refuses more).
const USVG_MAX_DEPTH: usize = 1024;
const USVG_MAX_NODES: usize = 1_000_000;

/// Why usvg cannot read a standalone SVG document of a face, or `None` when it can. This is
/// what of `usvg::Tree::from_str` can fail for a document of a given size, run as it runs:
/// its XML parse (roxmltree, with usvg's options), its root element and its limits on depth
/// and elements; the rest of its work (laying text out as paths, decoding art) cannot refuse
/// a face, and costs several times more, so the check does not repeat it.
/// `svg_error_agrees_with_usvg` below holds the two to the same answers.
pub fn svg_error(svg: &str) -> Option<String> {
    let options = usvg::roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = match usvg::roxmltree::Document::parse_with_options(svg, options) {
        Ok(d) => d,
        Err(e) => return Some(usvg::Error::ParsingFailed(e).to_string()),
    };
    let root = doc.root_element();
    if root.tag_name().name() != "svg" || root.tag_name().namespace() != Some(SVG_NS) {
        return Some(usvg::Error::ParsingFailed(usvg::roxmltree::Error::NoRootNode).to_string());
    }
    let mut nodes = 0;
    let mut deepest = 0;
    for node in root.descendants().filter(|n| n.is_element()) {
        nodes += 1;
        deepest = deepest.max(node.ancestors().filter(|a| a.is_element()).count());
    }
    (nodes > USVG_MAX_NODES || deepest > USVG_MAX_DEPTH)
        .then(|| usvg::Error::ParsingFailed(usvg::roxmltree::Error::NodesLimitReached).to_string())
}

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// A face that holds a character SVG cannot carry: placed at that character on its
/// spreadsheet row, else at the card, deck or piece (a TOML escape such as `\u0000`).
fn character_problem(d: &Drawn, bad: char) -> Problem {
    let message = format!(
        "{} holds the character U+{:04X}, which SVG cannot carry, so its face cannot \
         print it: remove it from the data",
        d.face.what, bad as u32
    );
    // TOML cannot hold such a character unescaped, so it stands as written only in a
    // spreadsheet's row: looked for on the row of the face's id, else the id is named.
    let text = &d.file.text;
    let row_end = text
        .get(d.span.start..)
        .and_then(|rest| rest.find('\n'))
        .map_or(text.len(), |n| d.span.start + n);
    match first_not_xml(text, d.span.start).filter(|span| span.end <= row_end) {
        Some(span) => Problem::data(message).at(d.file, span, "this character"),
        None => Problem::data(message).at(d.file, d.span.clone(), "here"),
    }
}

/// A template whose faces do not read as SVG, placed at the element usvg names when the
/// template shows it (an unclosed `<rect`), else in the template's file.
fn template_problem(game: &Game, template: &str, what: &str, error: &str) -> Problem {
    let message = format!(
        "template `{template}` writes SVG that cannot be read ({what}: {error}); every \
         element it opens must be closed (`<rect .../>` or `<g>...</g>`)"
    );
    let path = game_template_dir(game).join(format!("{template}.svg"));
    let Ok(file) = crate::model::read_source(&path) else {
        return Problem::data(message);
    };
    // roxmltree quotes the element it expected: `expected 'rect' tag, not 'svg'`.
    let element = error.split('\'').nth(1).unwrap_or_default();
    match unclosed_tag(&file.text, element) {
        Some(span) => Problem::data(message).at(&file, span, "this element is never closed"),
        None => Problem::data(message).in_file(&file),
    }
}

/// The opening tag `<name ...>` of a template that has no closing tag: the first opening
/// beyond the number of closings (`</name>`); `None` when every one is closed.
fn unclosed_tag(text: &str, name: &str) -> Option<Range<usize>> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == ':') {
        return None;
    }
    let open = format!("<{name}");
    let mut openings = Vec::new();
    for (at, _) in text.match_indices(&open) {
        let rest = &text[at + open.len()..];
        if !rest.starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/') {
            continue;
        }
        let end = rest.find('>').map_or(text.len(), |e| at + open.len() + e);
        if !text[..end].ends_with('/') {
            openings.push(at..at + open.len());
        }
    }
    let closings = text.matches(&format!("</{name}")).count();
    openings.get(closings).cloned()
}

/// Every board, drawn as the build draws it in each language it prints ([`draw_boards`]: its
/// template, the page words): the problems of drawing them (a board without cells, at its
/// `cells`; a template's own failure, at the template; anything else at the board), and the
/// boards drawn, which [`unreadable_faces`] reads as SVG with every other face.
pub fn boards(game: &Game, templates: &Templates) -> (Vec<Problem>, Vec<DrawnBoard>) {
    let boards = &game.components.boards;
    if boards.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let mut out = Vec::new();
    // A board without cells has no size to draw: said at its `cells`.
    let empty = |b: &crate::model::Board| match &b.kind {
        crate::model::BoardKind::Hex(h) => h.cells.is_empty(),
        crate::model::BoardKind::Square(g) => {
            g.rows == 0
                || g.columns == 0
                || g.mm.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
        }
        _ => false,
    };
    for (i, b) in boards.iter().enumerate().filter(|(_, b)| empty(b)) {
        let what = if b.hex().is_some() {
            "give it at least one hex"
        } else {
            "give it at least one row and one column, of cells more than 0 mm wide"
        };
        // At the value that makes it empty: a square grid's rows, columns or cell size.
        let inner = match &b.kind {
            crate::model::BoardKind::Square(g) if g.rows == 0 => Some("rows"),
            crate::model::BoardKind::Square(g) if g.columns == 0 => Some("columns"),
            crate::model::BoardKind::Square(_) => Some("mm"),
            _ => None,
        };
        let mut path = vec![Key::Name("board"), Key::At(i), Key::Name("cells")];
        path.extend(inner.map(Key::Name));
        out.push(at_value(
            Problem::data(format!("board `{}` has no cells: {what}", b.id.get_ref())),
            &game.components_file,
            &path,
            "here",
        ));
    }
    let mut langs: Vec<&str> = Vec::new();
    for job in crate::render::faces::drawn::board_jobs(game) {
        if !langs.contains(&job.lang) {
            langs.push(job.lang);
        }
    }
    for lang in langs {
        if let Err(e) = boards::PageWords::load(lang) {
            out.push(at_value(
                Problem::data(format!("the board cannot be printed in `{lang}`: {e}")),
                &game.game_file,
                &[Key::Name("game"), Key::Name("languages")],
                "here",
            ));
        }
    }
    let mut drawn = Vec::new();
    for (job, result) in draw_boards(game, templates) {
        let b = job.board;
        if empty(b) {
            continue;
        }
        let problem = match result {
            // A template's own failure, at the template.
            Err(BoardError::Template(e)) => templates.problem(&e),
            Err(BoardError::Board(e)) => {
                let own = format!("board `{}`", b.id.get_ref());
                let message = if e.starts_with(&own) {
                    e
                } else {
                    format!("{own}: {e}")
                };
                in_components(game, b.id.span(), message)
            }
            Ok(board) => {
                drawn.push(board);
                continue;
            }
        };
        if !out.iter().any(|q: &Problem| q.message == problem.message) {
            out.push(problem);
        }
    }
    (out, drawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::sheets;

    /// The check's reading of a face refuses exactly what usvg (as the build calls it) refuses.
    #[test]
    fn svg_error_agrees_with_usvg() {
        let nested = |n: usize| format!("{}{}", "<g>".repeat(n), "</g>".repeat(n));
        let (deep, deep_enough) = (nested(1100), nested(1000));
        let bodies = [
            "<rect width=\"1\" height=\"1\"/>".to_string(),
            "<rect width=\"1\" height=\"1\">".to_string(),
            "<g></rect>".to_string(),
            "<text x=\"1\">a &amp; b</text>".to_string(),
            "<text>a & b</text>".to_string(),
            "<text>\u{0}</text>".to_string(),
            "</svg><svg>".to_string(),
            "<!-- -- -->".to_string(),
            "<![CDATA[ ]]>".to_string(),
            "<x:rect/>".to_string(),
            "<rect fill=\"url(#a)\"/><defs><linearGradient id=\"a\"/></defs>".to_string(),
            deep,
            deep_enough,
            String::new(),
        ];
        // usvg reads nested groups recursively: a test thread's stack is too small for it.
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                let fonts = crate::render::faces::fonts::builtin();
                let options = crate::render::formats::pdf::usvg_options(&fonts);
                for body in bodies {
                    let doc = sheets::single_face(&body, (20.0, 30.0));
                    let usvg = usvg::Tree::from_str(&doc, &options)
                        .err()
                        .map(|e| e.to_string());
                    assert_eq!(svg_error(&doc), usvg, "{body:.60}");
                }
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn the_unclosed_opening_tag_is_found() {
        let text = "<rect x=\"1\"/>\n<g>\n<rect x=\"2\">\n</g>\n";
        let span = unclosed_tag(text, "rect").unwrap();
        assert_eq!(&text[span.clone()], "<rect");
        assert_eq!(span.start, text.find("<rect x=\"2\"").unwrap());
        assert_eq!(unclosed_tag(text, "g"), None);
        assert_eq!(unclosed_tag(text, "rect\"; rm"), None);
    }

    #[test]
    fn characters_xml_cannot_carry_are_found_from_an_offset() {
        let text = "a\tb\u{0}c\u{1}";
        assert_eq!(first_not_xml(text, 0), Some(3..4));
        assert_eq!(first_not_xml(text, 4), Some(5..6));
        assert_eq!(first_not_xml("ä\u{0}", 1), Some(2..3));
        assert_eq!(first_not_xml("line\r\nok", 0), None);
    }
}
