//! What a publisher relies on `check` for in the rules prose: a `#` link to no anchor of its
//! page, a relative link to no published file, a code fence never closed, and a reference-style
//! link whose definition stands in another field (silently shown as text) are each warned about
//! at the prose's file, line and column.

mod common;

use common::Fixture;
use printplay::check::check_game_report;
use printplay::model::load_game;

#[test]
fn dead_links_unclosed_fences_and_dropped_references_are_warned_at_their_place() {
    let shipped = load_game(std::path::Path::new("data"), "aether").unwrap();
    let report = check_game_report(&shipped);
    let rule = |p: &printplay::diag::Problem| {
        matches!(
            p.rule.as_deref(),
            Some("a link leads somewhere" | "a code fence is closed")
        )
    };
    assert!(!report.warnings.iter().any(rule), "{:?}", report.warnings);

    let f = Fixture::with_games(&["aether"]);
    let cases = [
        (
            "(#laattojen-vaihtaminen)",
            "(#laattojen-vaihto)",
            "the link `#laattojen-vaihto` leads to no anchor of its page",
        ),
        (
            "Uhrattua elementaalia ei voi",
            "Katso [kortit](korti.pdf). Uhrattua elementaalia ei voi",
            "the relative link `korti.pdf` leads to no file",
        ),
        (
            "Eniten pisteitä kerännyt pelaaja voittaa.",
            "Eniten pisteitä kerännyt pelaaja voittaa.\n\n```\nkoodia",
            "the code fence ``` opened here is never closed",
        ),
        (
            "Kerää eniten pisteitä.",
            "Kerää eniten pisteitä ([säännöt][bgg]).",
            "the link `[bgg]` has no definition in its own text",
        ),
        (
            "Laattojen vaihtaminen\n\nEtkö",
            "Laattojen vaihtaminen\n\n[bgg]: https://boardgamegeek.com/\n\nEtkö",
            "",
        ),
    ];
    for (from, to, _) in &cases {
        f.edit("aether", "rules.fi.toml", from, to);
    }
    let text = std::fs::read_to_string(f.file("aether", "rules.fi.toml")).unwrap();
    let game = load_game(f.data(), "aether").unwrap();
    let report = check_game_report(&game);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    for (_, to, message) in cases.iter().filter(|c| !c.2.is_empty()) {
        let hit = report
            .warnings
            .iter()
            .find(|w| w.message.contains(message))
            .unwrap_or_else(|| panic!("no `{message}` in {:#?}", report.warnings));
        // Placed on the line of the edited text.
        let at = text.find(to).unwrap();
        let first = text[..at].matches('\n').count() + 1;
        let last = first + to.matches('\n').count();
        let place = hit.location().unwrap();
        let line: usize = place.rsplit(':').nth(1).unwrap().parse().unwrap();
        assert!(
            place.contains("rules.fi.toml") && (first..=last).contains(&line),
            "`{message}` at {place}, not on lines {first}-{last}"
        );
    }
}
