//! The laid-out rulebooks of the shipped games, walked page by page: nothing a page may not
//! end with ends one, a question stays with its answer, a table's header with its first
//! row; and the page bound holds against a text without end.

use std::path::Path;

use super::layout::{Item, Placed, Unit, paginate};
use super::*;
use crate::model::load_game;

const SHIPPED: [&str; 4] = [
    "aether",
    "capek-golems",
    "the-search",
    "imperial-settlers-aztecs",
];

fn own(placed: &[Placed]) -> Vec<usize> {
    placed
        .iter()
        .filter(|p| !p.repeat)
        .map(|p| p.unit)
        .collect()
}

#[test]
fn no_page_ends_with_a_heading_and_no_question_is_split() {
    let assets = Assets::load_default().unwrap();
    for slug in SHIPPED {
        let game = load_game(Path::new("data"), slug).unwrap();
        for lang in crate::rules::languages(&game) {
            let mut book = Book::new(&game, &lang, &assets).unwrap();
            for paper in [Paper::A4, Paper::Letter, Paper::A5] {
                let laid = book.lay_out(paper).unwrap();
                let at = format!("{slug} {lang} {paper:?}");
                let mut seen_heading = false;
                let mut page_of_group = std::collections::BTreeMap::new();
                for (p, page) in laid.pages.iter().enumerate() {
                    let units = own(&page.placed);
                    assert!(!units.is_empty(), "{at}: page {} is empty", p + 1);
                    let last: &Unit = &laid.units[*units.last().unwrap()];
                    if p + 1 < laid.pages.len() {
                        assert!(
                            !last.keep_with_next,
                            "{at}: page {} ends with `{}`, which keeps with what follows",
                            p + 1,
                            last.text()
                        );
                        assert!(
                            !last.role.as_ref().is_some_and(Role::is_heading),
                            "{at}: page {} ends with the heading `{}`",
                            p + 1,
                            last.text()
                        );
                    }
                    for &u in &units {
                        let unit = &laid.units[u];
                        seen_heading |= unit.role == Some(Role::Question);
                        if let Some(g) = unit.group {
                            let first = *page_of_group.entry(g).or_insert(p);
                            assert_eq!(
                                first,
                                p,
                                "{at}: question group {g} split across pages ({})",
                                unit.text()
                            );
                        }
                        // A table's header never ends a page and its rows go on under a
                        // repeated header.
                        if let Some(h) = unit.header
                            && !unit.is_header
                        {
                            assert!(
                                page.placed.iter().any(|pl| pl.unit == h),
                                "{at}: page {} holds rows of a table without its header",
                                p + 1
                            );
                        }
                    }
                }
                assert!(laid.pages.len() <= crate::limits::RULEBOOK_MAX_PAGES);
                // The Search's questions are set as questions, each grouped with its answer.
                if slug == "the-search" {
                    assert!(seen_heading, "{at}: no question");
                }
            }
        }
    }
}

/// Paragraph lines: no line alone at a page's foot (its first) or head (its last).
#[test]
fn keeps_are_set_for_headings_intros_and_short_paragraphs() {
    let assets = Assets::load_default().unwrap();
    let game = load_game(Path::new("data"), "capek-golems").unwrap();
    let mut book = Book::new(&game, "en", &assets).unwrap();
    let laid = book.lay_out(Paper::A4).unwrap();
    let headings: Vec<&Unit> = laid
        .units
        .iter()
        .filter(|u| u.role.as_ref().is_some_and(Role::is_heading))
        .collect();
    assert!(headings.len() > 5, "{} headings", headings.len());
    assert!(headings.iter().all(|u| u.keep_with_next));
    // Every table's caption keeps with the table.
    for (i, u) in laid.units.iter().enumerate() {
        if u.is_header
            && let Some(before) = i.checked_sub(1).map(|b| &laid.units[b])
            && before.role == Some(Role::Caption)
        {
            assert!(
                before.keep_with_next,
                "caption `{}` may end a page",
                before.text()
            );
        }
    }
}

#[test]
fn a_text_without_end_stops_at_the_page_bound() {
    let unit = Unit {
        height: 100.0,
        space_before: 0.0,
        keep_with_next: false,
        items: vec![Item::Rule {
            x: 0.0,
            y: 0.0,
            w: 1.0,
            h: 1.0,
            shade: 0.5,
        }],
        block: 0,
        role: None,
        header: None,
        is_header: false,
        anchors: Vec::new(),
        outline: None,
        section: 0,
        group: None,
    };
    let units = vec![unit; 200_000];
    let max = crate::limits::RULEBOOK_MAX_PAGES;
    assert_eq!(paginate(&units, 700.0, max).err(), Some(max + 1));
    // A chain of units that may not be broken, longer than a page, still goes on: the page
    // breaks where it must.
    let mut chained = units[..30].to_vec();
    chained.iter_mut().for_each(|u| u.keep_with_next = true);
    let pages = paginate(&chained, 700.0, max).unwrap();
    assert_eq!(pages.len(), 5);
}
