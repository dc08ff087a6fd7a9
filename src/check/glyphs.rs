//! Characters no font can draw: a value the cards or pieces print (a name, a text, a field)
//! holding a character that no face of the game's `fonts/` folder and none of the bundled
//! faces has prints as a box. Each such value is one warning at the value, naming the
//! characters; the build still prints.
//!
//! A character the face of its text lacks but another face has is no problem: the text
//! sets it in that face, of the same weight and slant (see [`crate::render::faces::text`]).

use std::ops::Range;

use crate::diag::{Problem, SourceFile};
use crate::model::Game;
use crate::render::faces::fonts::{GameFaces, game_faces};

/// A value found holding characters no font draws: those characters, the value's name
/// (`text` of card `x` of deck `y`) and its warning, still without its help.
type Found = (Vec<char>, String, Problem);

/// One warning per cause: the first printed value that holds a set of characters no font of
/// the game can draw, at that value; the other values holding the same ones are named in its
/// help (a deck whose every card shows one emoji is one warning, not one a card).
pub fn warnings(game: &Game) -> Vec<Problem> {
    // A fonts/ folder that cannot be read is an error of its own, said by the faces' check.
    let Ok(faces) = game_faces(&game.dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let c = &game.components;
    for deck in &c.decks {
        let deck_id = deck.id.get_ref();
        let what = format!("deck `{deck_id}`");
        let file = &game.components_file;
        let at = deck.id.span();
        value(&faces, &mut out, &what, "name", &deck.name, file, &at);
        translated(&faces, &mut out, &what, "name", &deck.names, file, &at);
        let title = &deck.back.title;
        value(&faces, &mut out, &what, "back.title", title, file, &at);
        for card in &deck.cards {
            let what = format!("card `{}` of deck `{deck_id}`", card.id.get_ref());
            let file = game.card_file(card);
            let at = card.id.span();
            value(&faces, &mut out, &what, "name", &card.name, file, &at);
            translated(&faces, &mut out, &what, "name", &card.names, file, &at);
            if let Some(text) = &card.text {
                value(&faces, &mut out, &what, "text", text, file, &at);
            }
            translated(&faces, &mut out, &what, "text", &card.texts, file, &at);
            for (name, v) in &card.fields {
                if let toml::Value::String(s) = v.get_ref() {
                    // The field's own value: its span is where it is written.
                    value(&faces, &mut out, &what, name, s, file, &v.span());
                }
            }
            if let Some(back) = &card.back {
                let back_at = back.span();
                let back = back.get_ref();
                if let Some(title) = &back.title {
                    value(&faces, &mut out, &what, "back.title", title, file, &back_at);
                }
                for (name, v) in &back.fields {
                    if let toml::Value::String(s) = v {
                        let key = format!("back.{name}");
                        value(&faces, &mut out, &what, &key, s, file, &back_at);
                    }
                }
            }
        }
    }
    for piece in &c.pieces {
        let what = format!("piece `{}`", piece.id.get_ref());
        let file = &game.components_file;
        let at = piece.id.span();
        value(&faces, &mut out, &what, "name", &piece.name, file, &at);
        translated(&faces, &mut out, &what, "name", &piece.names, file, &at);
        if let Some(label) = &piece.label {
            value(&faces, &mut out, &what, "label", label, file, &at);
        }
        if let Some(label) = piece.back.as_ref().and_then(|b| b.label.as_ref()) {
            value(&faces, &mut out, &what, "back.label", label, file, &at);
        }
    }
    let mut said: Vec<(Vec<char>, Problem, Vec<String>)> = Vec::new();
    for (missing, name, problem) in out {
        match said.iter_mut().find(|(m, _, _)| *m == missing) {
            Some((_, _, also)) => also.push(name),
            None => said.push((missing, problem, Vec::new())),
        }
    }
    said.into_iter()
        .map(|(_, problem, also)| {
            let elsewhere = match also.len() {
                0 => String::new(),
                n => format!(
                    "; the same characters are in {n} more value(s): {}",
                    also.join(", ")
                ),
            };
            problem.help(format!(
                "add a font that has them to the game's fonts/ folder (a character the text's \
                 own face lacks is set in another face of the game, of the same weight and \
                 slant where one has it), or write the text without them{elsewhere}"
            ))
        })
        .collect()
}

/// The characters of `text` no face can draw, each once, in the order written.
pub fn undrawable(faces: &GameFaces, text: &str) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    for c in text.chars() {
        if !out.contains(&c) && !faces.can_draw(c) {
            out.push(c);
        }
    }
    out
}

/// The warnings for a value's translations (`KEY.<lang>` of `what`), each as [`value`].
fn translated(
    faces: &GameFaces,
    out: &mut Vec<Found>,
    what: &str,
    key: &str,
    texts: &std::collections::BTreeMap<String, String>,
    file: &SourceFile,
    at: &Range<usize>,
) {
    for (lang, text) in texts {
        value(faces, out, what, &format!("{key}.{lang}"), text, file, at);
    }
}

/// The warning for one value (`key` of `what`), when it has characters no face can draw:
/// placed at the first of them where the value is written in `file`, looked for from `at`
/// (the value itself, or the record holding it), else at `at`.
fn value(
    faces: &GameFaces,
    out: &mut Vec<Found>,
    what: &str,
    key: &str,
    text: &str,
    file: &SourceFile,
    at: &Range<usize>,
) {
    let missing = undrawable(faces, text);
    let Some(&first) = missing.first() else {
        return;
    };
    let listed: Vec<String> = missing
        .iter()
        .map(|c| format!("U+{:04X} `{c}`", u32::from(*c)))
        .collect();
    let (one, them, box_) = if missing.len() == 1 {
        ("a character", "it prints", "a box")
    } else {
        ("characters", "they print", "boxes")
    };
    let message = format!(
        "{what}: `{key}` has {one} no font of the game or bundled with printplay can draw \
         ({}); {them} as {box_}",
        listed.join(", ")
    );
    let span = place(file, at, key, text, first).unwrap_or_else(|| at.clone());
    out.push((
        missing,
        format!("`{key}` of {what}"),
        Problem::warning(message).at(file, span, "written here"),
    ));
}

/// Where `c` of the value `text` is written in `file`: inside the span `at` when the value
/// is written there, else in the record around `at`, after the value's key when the record
/// writes one, at the line of the value that holds it.
fn place(
    file: &SourceFile,
    at: &Range<usize>,
    key: &str,
    text: &str,
    c: char,
) -> Option<Range<usize>> {
    let len = c.len_utf8();
    if let Some(inside) = file.text.get(at.clone())
        && let Some(i) = inside.find(c)
        && inside.contains(text.lines().next().unwrap_or(""))
    {
        return Some(at.start + i..at.start + i + len);
    }
    let record = crate::diag::place::in_record;
    // After the key (`text = `, `fi = ` in a table of names), when the record writes it.
    let last_key = key.rsplit('.').next().unwrap_or(key);
    let from = [format!("{last_key} ="), format!("{last_key}=")]
        .iter()
        .find_map(|k| record(file, at, k))
        .unwrap_or_else(|| at.clone());
    // The value's line up to the character, as written (no escapes in it), else the
    // character alone.
    let upto = &text[..text.find(c)? + len];
    let line = &upto[upto.rfind('\n').map_or(0, |i| i + 1)..];
    record(file, &from, line)
        .map(|r| r.end - len..r.end)
        .or_else(|| record(file, &from, &c.to_string()))
}
