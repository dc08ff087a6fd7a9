//! Ids are unique and every reference names something that exists.

use std::collections::{BTreeMap, BTreeSet};

use toml::Spanned;

use super::{at_card, in_components, in_game_file};
use crate::diag::Problem;
use crate::diag::SourceFile;
use crate::model::{FieldType, Game};

pub fn check(game: &Game) -> Vec<Problem> {
    let mut out = unique_ids(game);
    out.extend(unique_invariant_ids(game));
    out.extend(symbol_fields(game));
    out.extend(piece_and_board_refs(game));
    out.extend(invariant_refs(game));
    out.extend(board_words(game));
    out.extend(card_words(game));
    out
}

/// Every id in a game is unique, whatever it names: output files are named by id.
fn unique_ids(game: &Game) -> Vec<Problem> {
    let c = &game.components;
    let here = |id| (&game.components_file, id);
    let ids = c
        .symbols
        .iter()
        .map(|s| here(&s.id))
        .chain(c.decks.iter().map(|d| here(&d.id)))
        .chain(
            c.decks
                .iter()
                .flat_map(|d| d.cards.iter().map(|card| (game.card_file(card), &card.id))),
        )
        .chain(c.pieces.iter().map(|p| here(&p.id)))
        .chain(c.boards.iter().map(|b| here(&b.id)))
        .chain(c.tracks.iter().map(|t| here(&t.id)));
    let mut seen: BTreeMap<&str, (&SourceFile, &Spanned<String>)> = BTreeMap::new();
    let mut out = Vec::new();
    for (file, id) in ids {
        if id.get_ref().is_empty() || !id.get_ref().chars().all(is_id_char) {
            out.push(
                Problem::data(format!(
                    "id `{}` must be lower-case letters, digits and dashes",
                    id.get_ref()
                ))
                .at(file, id.span(), "here"),
            );
        }
        if let Some((first_file, first)) = seen.insert(id.get_ref(), (file, id)) {
            let (line, _) = first_file.line_col(first.span().start);
            out.push(
                Problem::data(format!("duplicate id `{}`", id.get_ref()))
                    .at(file, id.span(), "here")
                    .help(
                        if std::ptr::eq(first_file, file) && first_file.sheet.is_none() {
                            format!("it is first used on line {line}")
                        } else {
                            // A spreadsheet's cell, not a line of the CSV text it is read as.
                            format!(
                                "it is first used at {}",
                                first_file.place(first.span().start)
                            )
                        },
                    ),
            );
        }
    }
    out
}

/// Invariant ids are unique: a failing invariant is reported by its id.
fn unique_invariant_ids(game: &Game) -> Vec<Problem> {
    let mut seen: BTreeMap<&str, &Spanned<String>> = BTreeMap::new();
    let mut out = Vec::new();
    for inv in &game.invariants {
        if let Some(first) = seen.insert(inv.id.get_ref(), &inv.id) {
            let (line, _) = game.game_file.line_col(first.span().start);
            out.push(
                in_game_file(
                    game,
                    inv.id.span(),
                    format!("duplicate invariant id `{}`", inv.id.get_ref()),
                )
                .help(format!("it is first used on line {line}")),
            );
        }
    }
    out
}

fn is_id_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'
}

/// Symbol-typed card fields name a symbol of their declared group.
fn symbol_fields(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    for deck in &game.components.decks {
        for (name, decl) in &deck.fields {
            if !matches!(decl.kind, FieldType::Symbol | FieldType::Symbols) {
                continue;
            }
            let Some(group) = &decl.group else {
                out.push(in_components(
                    game,
                    deck.id.span(),
                    format!(
                        "field `{name}` of deck `{}` is a symbol field but names no `group`",
                        deck.id.get_ref()
                    ),
                ));
                continue;
            };
            for card in &deck.cards {
                let Some(value) = card.fields.get(name) else {
                    continue;
                };
                let ids: Vec<&str> = match value.get_ref() {
                    toml::Value::String(s) => vec![s.as_str()],
                    toml::Value::Array(a) => a.iter().filter_map(|v| v.as_str()).collect(),
                    _ => continue, // wrong types are reported by the value checks
                };
                for id in ids {
                    if !game.symbols_in(group).any(|s| s.id.get_ref() == id) {
                        out.push(
                            at_card(
                                game,
                                card,
                                value.span(),
                                format!("`{id}` does not name a symbol of group `{group}`"),
                            )
                            .help(known(
                                game.symbols_in(group).map(|s| s.id.get_ref().as_str()),
                            )),
                        );
                    }
                }
            }
        }
    }
    out
}

fn piece_and_board_refs(game: &Game) -> Vec<Problem> {
    let c = &game.components;
    let mut out = Vec::new();
    for piece in &c.pieces {
        if let Some(sym) = &piece.symbol
            && game.symbol(sym).is_none()
        {
            out.push(dangling(
                game,
                piece.id.span(),
                sym,
                "a symbol",
                c.symbols.iter().map(|s| s.id.get_ref().as_str()),
            ));
        }
    }
    for board in &c.boards {
        out.extend(square_grounds(game, board));
        let mut coords = BTreeSet::new();
        let group = board.cell_group().unwrap_or_default();
        for cell in board.hex_cells() {
            if !game
                .symbols_in(group)
                .any(|s| s.id.get_ref() == cell.kind.get_ref())
            {
                out.push(dangling(
                    game,
                    cell.kind.span(),
                    cell.kind.get_ref(),
                    &format!("a symbol of group `{group}`"),
                    game.symbols_in(group).map(|s| s.id.get_ref().as_str()),
                ));
            }
            if let Some(p) = &cell.piece
                && game.piece(p).is_none()
            {
                out.push(dangling(
                    game,
                    cell.kind.span(),
                    p,
                    "a piece",
                    c.pieces.iter().map(|p| p.id.get_ref().as_str()),
                ));
            }
            if !coords.insert((cell.q, cell.r)) {
                out.push(in_components(
                    game,
                    cell.kind.span(),
                    format!(
                        "board `{}` lists the hex q={}, r={} twice",
                        board.id.get_ref(),
                        cell.q,
                        cell.r
                    ),
                ));
            }
        }
    }
    let card_ids: Vec<&str> = c
        .decks
        .iter()
        .flat_map(|d| d.cards.iter().map(|c| c.id.get_ref().as_str()))
        .collect();
    for track in &c.tracks {
        if let Some(card) = &track.card
            && !card_ids.contains(&card.as_str())
        {
            out.push(dangling(
                game,
                track.id.span(),
                card,
                "a card",
                card_ids.iter().copied(),
            ));
        }
    }
    out
}

/// Invariants name decks, piece kinds and parameters that exist.
fn invariant_refs(game: &Game) -> Vec<Problem> {
    let c = &game.components;
    let mut out = Vec::new();
    for inv in &game.invariants {
        let span = inv.id.span();
        for deck in &inv.decks {
            if game.deck(deck).is_none() {
                out.push(
                    in_game_file(
                        game,
                        span.clone(),
                        format!(
                            "invariant `{}` counts deck `{deck}`, which does not exist",
                            inv.id.get_ref()
                        ),
                    )
                    .help(known(c.decks.iter().map(|d| d.id.get_ref().as_str()))),
                );
            }
        }
        for kind in &inv.pieces {
            if game.pieces_of_kind(kind).next().is_none() {
                out.push(
                    in_game_file(
                        game,
                        span.clone(),
                        format!(
                            "invariant `{}` counts piece kind `{kind}`, which no piece has",
                            inv.id.get_ref()
                        ),
                    )
                    .help(known(c.pieces.iter().map(|p| p.kind.as_str()))),
                );
            }
        }
        let params = [&inv.equals_param, &inv.min_param, &inv.max_param];
        for param in params
            .into_iter()
            .flatten()
            .filter(|p| game.param_int(p).is_err())
        {
            out.push(in_game_file(game, span.clone(), format!("invariant `{}` compares with parameter `{param}`, which is not an integer parameter", inv.id.get_ref())));
        }
    }
    out
}

fn dangling<'a>(
    game: &Game,
    span: std::ops::Range<usize>,
    id: &str,
    what: &str,
    known_ids: impl Iterator<Item = &'a str>,
) -> Problem {
    in_components(game, span, format!("`{id}` does not name {what}")).help(known(known_ids))
}

pub(super) fn known<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    let mut ids: Vec<&str> = ids.collect();
    ids.sort();
    ids.dedup();
    if ids.is_empty() {
        "there are none".to_string()
    } else {
        format!("known: {}", ids.join(", "))
    }
}

/// The grounds of a square grid's cells are symbols of its `cell_group`, and its cells lie
/// on the grid.
fn square_grounds(game: &Game, board: &crate::model::Board) -> Vec<Problem> {
    let crate::model::BoardKind::Square(grid) = &board.kind else {
        return Vec::new();
    };
    let id = board.id.get_ref();
    let mut out = Vec::new();
    let grounds = grid
        .ground
        .iter()
        .chain(grid.at.iter().filter_map(|c| c.ground.as_ref()));
    for ground in grounds {
        match board.cell_group() {
            Some(group) => {
                if !game
                    .symbols_in(group)
                    .any(|s| s.id.get_ref() == ground.get_ref())
                {
                    out.push(dangling(
                        game,
                        ground.span(),
                        ground.get_ref(),
                        &format!("a symbol of group `{group}`"),
                        game.symbols_in(group).map(|s| s.id.get_ref().as_str()),
                    ));
                }
            }
            None => out.push(super::in_components(
                game,
                ground.span(),
                format!(
                    "board `{id}` gives a cell the ground `{}` but has no `cell_group` to find it in",
                    ground.get_ref()
                ),
            )),
        }
    }
    for cell in &grid.at {
        if !(1..=grid.rows).contains(&cell.row) || !(1..=grid.columns).contains(&cell.column) {
            out.push(
                Problem::data(format!(
                    "board `{id}` has {} rows and {} columns: there is no cell at row {}, column {}",
                    grid.rows, grid.columns, cell.row, cell.column
                ))
                .at(&game.components_file, board.id.span(), "this board"),
            );
        }
    }
    out
}

/// Every word a board's template prints from `[print_labels]` is there in each language the
/// game is published in, since the build prints the board in each: a missing one is an
/// error at that language's `rules.<lang>.toml`.
fn board_words(game: &Game) -> Vec<Problem> {
    let mut out = Vec::new();
    for board in &game.components.boards {
        let Some(template) = board.template.as_deref() else {
            continue;
        };
        let rel = format!("templates/{template}.svg");
        let Ok(text) = crate::model::paths::read_in(&game.dir, &rel).map(String::from_utf8) else {
            continue;
        };
        let Ok(text) = text else {
            continue;
        };
        let words = crate::render::sheets::boards::label_names(&text);
        for lang in &game.info.languages {
            let Some(rules) = game.rules.texts.get(lang) else {
                continue;
            };
            for word in words
                .iter()
                .filter(|w| !rules.text.print_labels.contains_key(*w))
            {
                out.push(missing_board_word(
                    &rules.file,
                    board.id.get_ref(),
                    template,
                    word,
                ));
            }
        }
    }
    out
}

/// Every word a card's template (front, back, its own) prints from `[print_labels]` is there
/// in each language the cards are printed in (the first alone for a `multilingual` deck,
/// or a game printing its cards in one language): a missing one is an error at that
/// language's `rules.<lang>.toml`, once per template and word.
fn card_words(game: &Game) -> Vec<Problem> {
    use crate::render::faces::languages::{card_languages, first_language};
    let mut said: Vec<(String, String, String)> = Vec::new();
    let mut out = Vec::new();
    for deck in game.components.decks.iter().filter(|d| d.print) {
        let langs: Vec<&str> = match card_languages(game) {
            l if l.is_empty() || deck.multilingual => vec![first_language(game)],
            l => l,
        };
        let named = [deck.template.as_str(), deck.back.template.as_str()]
            .into_iter()
            .chain(deck.templates.values().map(|t| t.get_ref().as_str()))
            .chain(deck.cards.iter().flat_map(|c| {
                c.template
                    .iter()
                    .map(|t| t.get_ref().as_str())
                    .chain(c.back.iter().map(|b| b.get_ref().template.as_str()))
            }));
        for template in named {
            let rel = format!("templates/{template}.svg");
            let Ok(Ok(text)) = crate::model::paths::read_in(&game.dir, &rel).map(String::from_utf8)
            else {
                continue;
            };
            let words = crate::render::sheets::boards::label_names(&text);
            for &lang in &langs {
                let Some(rules) = game.rules.texts.get(lang) else {
                    continue;
                };
                for word in words
                    .iter()
                    .filter(|w| !rules.text.print_labels.contains_key(*w))
                {
                    let key = (template.to_string(), word.clone(), lang.to_string());
                    if said.contains(&key) {
                        continue;
                    }
                    said.push(key);
                    out.push(missing_word(
                        &rules.file,
                        &format!("deck `{}`", deck.id.get_ref()),
                        template,
                        word,
                        &crate::render::faces::languages::cards_file(
                            (langs.len() > 1).then_some(lang),
                        ),
                    ));
                }
            }
        }
    }
    out
}

fn missing_board_word(file: &SourceFile, board: &str, template: &str, word: &str) -> Problem {
    missing_word(
        file,
        &format!("board `{board}`"),
        template,
        word,
        "the board PDF of this language",
    )
}

fn missing_word(file: &SourceFile, what: &str, template: &str, word: &str, pdf: &str) -> Problem {
    const TABLE: &str = "[print_labels]";
    let problem = Problem::data(format!(
        "{what} prints the word `labels.{word}` (template `{template}`), which this language \
         does not give"
    ))
    .because(crate::diag::Cause::MissingLabel(word.to_string()))
    .help(format!(
        "add `{word} = \"...\"` under {TABLE}: {pdf} prints it"
    ));
    match file.text.find(TABLE) {
        Some(at) => problem.at(file, at..at + TABLE.len(), "here"),
        None => problem.in_file(file),
    }
}
