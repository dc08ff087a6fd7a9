//! `changed.pdf`: only the cards to reprint (`build --changed-since REF` or `--cards ID,...`),
//! after a cover page saying what replaces what.
//!
//! The cards are laid out by the same sheet planner as `cards.pdf` ([`sheets::plan_cards`]),
//! with the build's paper, duplex, bleed, marks and back offset, so their backs register
//! exactly as there; every deck of one card size and back template shares sheets (as with
//! `--pack`), so a few cards of several decks fill as few sheets as they can. The cover
//! pages come first; under long- and short-edge duplex they are padded to a whole sheet, so
//! every sheet of cards still starts on a front.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use rayon::prelude::*;

use crate::diff::report::action;
use crate::diff::revision::{self, Since};
use crate::diff::{Status, diff_with_earlier, short};
use crate::model::Game;
use crate::render::faces::{CardFace, DeckFaces, Faces};
use crate::render::formats::pdf::{self, PageSpec};
use crate::render::sheets::layout::Duplex;
use crate::render::sheets::layout::{self, MM_PER_PT, PAPER_MARGIN};
use crate::render::sheets::{self, CardPage, Sheet};
use crate::render::{BuildOptions, GameBuild, Reprint};

/// The file this stage writes, in the game's output folder.
pub const FILE: &str = "changed.pdf";

/// What `changed.pdf` holds: its cover's lines, the cards' plan and every page drawn.
pub struct Reprinted {
    /// The cover's title and lines.
    pub title: String,
    pub lines: Vec<String>,
    /// Pages before the first sheet of cards (the cover, padded to a whole sheet).
    pub cover_pages: usize,
    /// Where every face of the cards goes, sheet by sheet (after the cover pages).
    pub plan: Vec<CardPage>,
    /// The cards to print, by id, with their copies.
    pub copies: BTreeMap<String, u32>,
    /// Every page: the cover, then the sheets of [`Self::plan`].
    pub pages: Vec<PageSpec>,
}

/// The build stage: `changed.pdf` when `--changed-since` or `--cards` asked for it.
pub fn stage(b: &GameBuild) -> Result<Vec<PathBuf>, String> {
    if b.options.reprint.is_none() {
        return Ok(Vec::new());
    }
    let r = reprinted(b.game, &b.faces, b.options)?;
    let bytes = pdf::write_pdf(&r.title, &r.pages, &b.faces.fonts)?;
    Ok(vec![b.write(FILE, &bytes)?])
}

/// The front pages (1-based, as a PDF reader counts them) each card is printed on.
fn pages_of(plan: &[CardPage]) -> BTreeMap<String, BTreeSet<usize>> {
    let mut out: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for (n, page) in plan.iter().enumerate() {
        for p in page.placed.iter().filter(|p| !p.back) {
            out.entry(p.card.clone()).or_default().insert(n + 1);
        }
    }
    out
}

/// "page 3" or "pages 3, 4".
fn pages_words(pages: Option<&BTreeSet<usize>>) -> String {
    let list: Vec<String> = pages
        .into_iter()
        .flatten()
        .map(ToString::to_string)
        .collect();
    match list.len() {
        0 => "no page".to_string(),
        1 => format!("page {}", list[0]),
        _ => format!("pages {}", list.join(", ")),
    }
}

/// Plans and draws `changed.pdf` for `game`, whose faces are `faces`.
pub fn reprinted(game: &Game, faces: &Faces, options: &BuildOptions) -> Result<Reprinted, String> {
    let sheet = options.sheet();
    let setting = format!(
        "Print it as cards.pdf was printed ({}, duplex {}), cut the cards and swap them for \
         the old copies named below.",
        sheet.paper.name(),
        duplex_words(sheet.duplex)
    );
    let (title, mut lines, copies) = match &options.reprint {
        None => return Err("no cards were asked for".to_string()),
        Some(Reprint::Cards(ids)) => {
            let plan = sheets::plan_cards(&faces.decks, &sheet)?;
            let pages = pages_of(&plan);
            let mut copies = BTreeMap::new();
            let mut lines = Vec::new();
            for (deck, card) in every_card(faces) {
                if ids.contains(&card.id) {
                    copies.insert(card.id.clone(), card.count);
                    lines.push(format!(
                        "{} “{}” ({}): {} cop{}; replaces card {} on {} of cards.pdf",
                        card.id,
                        card.name,
                        deck.name,
                        card.count,
                        if card.count == 1 { "y" } else { "ies" },
                        card.id,
                        pages_words(pages.get(&card.id))
                    ));
                }
            }
            (
                format!("{}: cards to reprint", game.info.name),
                lines,
                copies,
            )
        }
        Some(Reprint::Since(text)) => {
            let since = Since::parse(text);
            let (diff, _earlier, old_faces) =
                diff_with_earlier(game, Some(faces), &since, options.bleed)?;
            let old_pages = pages_of(&sheets::plan_cards(&old_faces.decks, &sheet)?);
            let built_from = match &diff.commit {
                Some(c) => format!("cards.pdf built from {} ({})", diff.since, short(c)),
                None => format!("cards.pdf built from {}", diff.since),
            };
            let mut copies = BTreeMap::new();
            let mut lines = Vec::new();
            for d in diff.designs.iter().filter(|d| d.kind == "card") {
                let what: Vec<&str> = d.changes.iter().map(|c| c.what.as_str()).collect();
                let mut line = format!(
                    "{} “{}” ({}), {}{}: {}",
                    d.id,
                    d.name,
                    d.group_name,
                    d.status.word(),
                    if what.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", what.join(", "))
                    },
                    action(d)
                );
                if d.status != Status::Added {
                    line.push_str(&format!(
                        "; {} {} on {} of {built_from}",
                        if d.copies_to_print() > 0 && (d.front || d.back) {
                            "replaces card"
                        } else {
                            "card"
                        },
                        d.id,
                        pages_words(old_pages.get(&d.id))
                    ));
                }
                lines.push(line);
                if d.copies_to_print() > 0 {
                    copies.insert(d.id.clone(), d.copies_to_print());
                }
            }
            // Pieces are not on these sheets: the cover names them, to print from tokens.pdf.
            for d in diff.designs.iter().filter(|d| d.kind == "piece") {
                lines.push(format!(
                    "piece {} “{}”, {}: {} (not in this file: print it from tokens.pdf)",
                    d.id,
                    d.name,
                    d.status.word(),
                    action(d)
                ));
            }
            let title = match &diff.commit {
                Some(c) => format!(
                    "{}: cards changed since {} ({})",
                    game.info.name,
                    diff.since,
                    short(c)
                ),
                None => format!("{}: cards changed since {}", game.info.name, diff.since),
            };
            (title, lines, copies)
        }
    };
    if lines.is_empty() {
        lines.push("No card changed: nothing to reprint.".to_string());
    }
    // The changelog's code marks (`journal`) are not printed.
    let lines: Vec<String> = lines.iter().map(|l| l.replace('`', "")).collect();
    let mut lines = lines;
    lines.insert(0, setting);
    // Only the cards to print, each as often as it is to be printed; decks of one size and
    // back share sheets.
    let decks: Vec<DeckFaces> = faces
        .decks
        .iter()
        .map(|d| DeckFaces {
            cards: d
                .cards
                .iter()
                .filter_map(|c| {
                    copies.get(&c.id).map(|n| CardFace {
                        count: *n,
                        ..c.clone()
                    })
                })
                .collect(),
            ..d.clone()
        })
        .collect();
    let packed = Sheet {
        pack: true,
        ..sheet
    };
    let plan = sheets::plan_cards(&decks, &packed)?;
    let label = format!("{} · reprint", game.info.name);
    let mut pages = cover(sheet.paper.mm(), &title, &lines);
    if matches!(sheet.duplex, Duplex::LongEdge | Duplex::ShortEdge) && pages.len() % 2 == 1 {
        pages.push(PageSpec::new(sheet.paper.mm(), String::new()));
    }
    let cover_pages = pages.len();
    pages.extend(
        plan.par_iter()
            .map(|page| sheets::draw_card_page(&label, &decks, page, sheet.marks, sheet.duplex))
            .collect::<Vec<_>>(),
    );
    Ok(Reprinted {
        title,
        lines,
        cover_pages,
        plan,
        copies,
        pages,
    })
}

/// Every card design with its deck, in the decks' order.
fn every_card(faces: &Faces) -> impl Iterator<Item = (&DeckFaces, &CardFace)> {
    faces
        .decks
        .iter()
        .flat_map(|d| d.cards.iter().map(move |c| (d, c)))
}

fn duplex_words(duplex: Duplex) -> &'static str {
    match duplex {
        Duplex::LongEdge => "long-edge",
        Duplex::ShortEdge => "short-edge",
        Duplex::Off => "off",
        Duplex::Fold => "fold",
    }
}

/// Type size of the cover's title and lines, in millimetres (14 pt and 10 pt).
const TITLE_SIZE: f64 = 14.0 * MM_PER_PT;
const LINE_SIZE: f64 = 10.0 * MM_PER_PT;

/// `text` broken at spaces into lines no wider than `width` at `size` (a word wider than a
/// line stands alone).
fn wrap(text: &str, size: f64, width: f64) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let longer = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && layout::text_width(&longer, size) > width {
            out.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = longer;
        }
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

/// The cover: the title, then each line wrapped to the page, on as many pages as they take.
fn cover(paper: (f64, f64), title: &str, lines: &[String]) -> Vec<PageSpec> {
    let margin = PAPER_MARGIN + 10.0;
    let width = paper.0 - 2.0 * margin;
    let row = LINE_SIZE * 1.45;
    let bottom = paper.1 - margin;
    let mut pages = Vec::new();
    let mut body = String::new();
    let mut y = margin + TITLE_SIZE;
    for t in wrap(title, TITLE_SIZE, width) {
        body.push_str(&layout::label(margin, y, TITLE_SIZE, "start", &t));
        y += TITLE_SIZE * 1.3;
    }
    y += LINE_SIZE;
    for line in lines {
        let wrapped = wrap(line, LINE_SIZE, width);
        // A line (with its continuation) that would run off the page starts the next one.
        if y + row * wrapped.len() as f64 > bottom && !body.is_empty() {
            pages.push(PageSpec::new(paper, std::mem::take(&mut body)));
            y = margin + LINE_SIZE;
        }
        for (i, part) in wrapped.iter().enumerate() {
            let indent = if i == 0 { 0.0 } else { 4.0 };
            body.push_str(&layout::label(margin + indent, y, LINE_SIZE, "start", part));
            y += row;
        }
        y += row * 0.4;
    }
    pages.push(PageSpec::new(paper, body));
    pages
}

/// Refuses a request that cannot be met before anything is built (exit 2): `--cards` naming
/// a card no named game has (with the nearest ids), or `--changed-since` naming a revision
/// git does not know in a game's folder (with git's reason) or a folder that holds no game
/// that loads (with why).
pub fn check_request(games: &[Game], reprint: &Reprint) -> Result<(), String> {
    match reprint {
        Reprint::Cards(ids) => {
            let known: BTreeSet<&str> = games
                .iter()
                .flat_map(|g| g.components.decks.iter().filter(|d| d.print))
                .flat_map(|d| d.cards.iter().map(|c| c.id.get_ref().as_str()))
                .collect();
            let unknown: Vec<String> = ids
                .iter()
                .filter(|id| !known.contains(id.as_str()))
                .map(|id| format!("`{id}` (nearest: {})", nearest(id, &known)))
                .collect();
            if unknown.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "--cards names no such card: {}",
                    unknown.join("; ")
                ))
            }
        }
        Reprint::Since(text) => {
            let since = Since::parse(text);
            games.iter().try_for_each(|g| match &since {
                // Another folder is loaded as the stage would load it (no copy is made).
                Since::Folder(_) => revision::earlier(g, &since).map(|_| ()),
                Since::Revision(rev) => revision::resolve(&g.dir, rev).map(|_| ()),
            })
        }
    }
}

/// Up to three of `known`, nearest `wanted` first (by Jaro-Winkler similarity).
fn nearest(wanted: &str, known: &BTreeSet<&str>) -> String {
    let mut scored: Vec<(f64, &str)> = known
        .iter()
        .map(|k| (strsim::jaro_winkler(wanted, k), *k))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    let near: Vec<String> = scored
        .iter()
        .take(3)
        .map(|(_, k)| format!("`{k}`"))
        .collect();
    if near.is_empty() {
        "the game has no cards".to_string()
    } else {
        near.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_lines_fit_and_keep_every_word() {
        let text = "one two three four five six seven eight nine ten eleven twelve";
        let lines = wrap(text, LINE_SIZE, 30.0);
        assert!(lines.len() > 1);
        for l in &lines {
            assert!(layout::text_width(l, LINE_SIZE) <= 30.0 || !l.contains(' '));
        }
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn a_long_cover_runs_onto_more_pages() {
        let lines: Vec<String> = (0..200).map(|i| format!("card {i} changed")).collect();
        let pages = cover((210.0, 297.0), "title", &lines);
        assert!(pages.len() >= 2, "{}", pages.len());
        let all: String = pages.iter().map(|p| p.body.clone()).collect();
        assert!(all.contains("card 0 changed") && all.contains("card 199 changed"));
    }
}
