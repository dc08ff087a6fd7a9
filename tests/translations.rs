//! Translations that know when they are stale: marks, `check`'s warning at the translated key,
//! `translate status`, and the PO round trip through GNU gettext's `msgfmt --check`.

mod common;

use std::path::Path;
use std::process::Command;

use common::Fixture;
use printplay::check::check_game_report;
use printplay::model::load_game;
use printplay::translate::{self, State};

/// Aether with its English goal inverted.
fn inverted() -> Fixture {
    let f = Fixture::with_games(&["aether"]);
    f.edit(
        "aether",
        "rules.en.toml",
        "Score the most points.",
        "Score the fewest points.",
    );
    f
}

#[test]
fn inverting_the_english_goal_makes_check_warn_at_the_finnish_key() {
    let shipped = load_game(Path::new("data"), "aether").unwrap();
    let report = check_game_report(&shipped);
    assert!(
        !report
            .warnings
            .iter()
            .any(|w| w.message.contains("translated from an older version")),
        "the shipped translation is marked and current: {:?}",
        report.warnings
    );
    let c = translate::coverage(&shipped, "fi").unwrap();
    assert_eq!(c.count(State::Done), c.keys.len(), "every text is done");

    let f = inverted();
    let game = load_game(f.data(), "aether").unwrap();
    let report = check_game_report(&game);
    let stale: Vec<_> = report
        .warnings
        .iter()
        .filter(|w| w.message.contains("translated from an older version"))
        .collect();
    assert_eq!(stale.len(), 1, "{stale:?}");
    let fi = std::fs::read_to_string(f.file("aether", "rules.fi.toml")).unwrap();
    let line = fi[..fi.find("goal = ").unwrap()].matches('\n').count() + 1;
    let place = stale[0].location().unwrap();
    assert!(
        place.ends_with(&format!("rules.fi.toml:{line}:8")),
        "warned at {place}, not at the Finnish goal (line {line})"
    );
    assert!(stale[0].message.contains("`goal`"), "{}", stale[0].message);
    assert!(report.problems.is_empty(), "{:?}", report.problems);

    // `translate status` counts it stale and names it.
    let c = translate::coverage(&game, "fi").unwrap();
    assert_eq!(c.count(State::Stale), 1);
    assert_eq!(c.keys_in(State::Stale).collect::<Vec<_>>(), ["goal"]);
    let run = f.run(&["translate", "status", "aether"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("1 stale"), "{}", run.stdout);
    assert!(run.stdout.contains("stale    goal"), "{}", run.stdout);

    // The rules page says so where the text is, visibly.
    let assets = printplay::rules::Assets::load_default().unwrap();
    for format in [printplay::rules::Format::Html, printplay::rules::Format::Md] {
        let page = &printplay::rules::render(&game, "fi", format, &assets).unwrap()[0].text;
        assert_eq!(
            page.matches("Käännös voi olla vanhentunut").count(),
            1,
            "{format:?}"
        );
        let shipped_page =
            &printplay::rules::render(&shipped, "fi", format, &assets).unwrap()[0].text;
        assert!(!shipped_page.contains("Käännös voi olla vanhentunut"));
    }

    // Marking it again (after translating) makes it current.
    let run = f.run(&["translate", "mark", "aether", "fi", "goal"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let game = load_game(f.data(), "aether").unwrap();
    assert_eq!(translate::stale_keys(&game, "fi"), Vec::<String>::new());
}

/// `msgfmt --check` accepts the file; skipped (said on stderr) where gettext is missing, as
/// the other tests that need a tool skip without it (`.ci/run` installs it).
fn msgfmt_check(po: &Path) {
    let Ok(out) = Command::new("msgfmt")
        .args(["--check", "-o", "/dev/null"])
        .arg(po)
        .output()
    else {
        eprintln!("skipping msgfmt --check: msgfmt (gettext) not found");
        return;
    };
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "msgfmt --check: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_po_round_trip_passes_msgfmt_and_reimports_byte_identical() {
    let f = inverted();
    let po = f.data().join("fi.po");
    let po_s = po.to_str().unwrap();
    let run = f.run(&["translate", "export", "aether", "fi", "--out", po_s]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    msgfmt_check(&po);
    let first = std::fs::read_to_string(&po).unwrap();
    // The stale text is fuzzy, keyed by msgctxt, with the English it was made from.
    let goal = &first[first.find("msgctxt \"goal\"").unwrap() - 200..];
    assert!(
        goal.contains("#, fuzzy\n#| msgctxt \"goal\"\n#| msgid \"\"\n#| \"Score the most points.")
    );
    assert_eq!(first.matches("#, fuzzy").count(), 1);

    let before = std::fs::read(f.file("aether", "rules.fi.toml")).unwrap();
    let marks = std::fs::read(f.file("aether", "translated.fi.toml")).unwrap();
    let run = f.run(&["translate", "import", "aether", "fi", po_s]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("nothing to write"), "{}", run.stdout);
    assert_eq!(
        std::fs::read(f.file("aether", "rules.fi.toml")).unwrap(),
        before
    );
    assert_eq!(
        std::fs::read(f.file("aether", "translated.fi.toml")).unwrap(),
        marks
    );
    let again = f.data().join("again.po");
    let run = f.run(&[
        "translate",
        "export",
        "aether",
        "fi",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(&again).unwrap(),
        first,
        "export is byte-identical"
    );

    // The translator retranslates the goal and clears fuzzy: the text is written into
    // rules.fi.toml in place, marked, and check is quiet again.
    let edited: String = first
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("#|") && *l != "#, fuzzy\n")
        .collect();
    let edited = edited.replacen(
        "\"Kerää eniten pisteitä.",
        "\"Kerää \\\"vähiten\\\" pisteitä.",
        1,
    );
    assert!(edited.contains("vähiten") && !edited.contains("#, fuzzy"));
    std::fs::write(&po, &edited).unwrap();
    msgfmt_check(&po);
    let run = f.run(&["translate", "import", "aether", "fi", po_s]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("1 text changed, 1 marked"),
        "{}",
        run.stdout
    );
    let game = load_game(f.data(), "aether").unwrap();
    assert!(
        game.rules.texts["fi"]
            .text
            .goal
            .get_ref()
            .starts_with("Kerää \"vähiten\" pisteitä.")
    );
    let c = translate::coverage(&game, "fi").unwrap();
    assert_eq!(c.count(State::Done), c.keys.len());
    let after = std::fs::read_to_string(f.file("aether", "rules.fi.toml")).unwrap();
    let before = String::from_utf8(before).unwrap();
    assert_eq!(
        before.lines().count(),
        after.lines().count(),
        "only the goal's text changed"
    );
    let differing = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differing, 1);
}

#[test]
fn import_refuses_unknown_keys_and_malformed_files_at_their_line() {
    let f = Fixture::with_games(&["aether"]);
    let po = f.data().join("fi.po");
    let po_s = po.to_str().unwrap();
    let run = f.run(&["translate", "export", "aether", "fi", "--out", po_s]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&po).unwrap();
    let before = std::fs::read(f.file("aether", "rules.fi.toml")).unwrap();
    let line_of = |t: &str, s: &str| t[..t.find(s).unwrap()].matches('\n').count() + 1;

    let unknown = text.replacen("msgctxt \"goal\"", "msgctxt \"gaol\"", 1);
    std::fs::write(&po, &unknown).unwrap();
    let run = f.run(&["translate", "import", "aether", "fi", po_s]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let at = format!("fi.po:{}:1", line_of(&unknown, "msgctxt \"gaol\""));
    assert!(run.stderr.contains("`gaol` is not a key"), "{}", run.stderr);
    assert!(run.stderr.contains(&at), "{at}: {}", run.stderr);

    let broken = text.replacen("msgstr \"\"\n\"Kerää", "msgstr \"\"\n\"Kerää \\q", 1);
    std::fs::write(&po, &broken).unwrap();
    let run = f.run(&["translate", "import", "aether", "fi", po_s]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let at = format!("fi.po:{}:1", line_of(&broken, "\"Kerää \\q"));
    assert!(run.stderr.contains("unknown escape"), "{}", run.stderr);
    assert!(run.stderr.contains(&at), "{at}: {}", run.stderr);
    assert_eq!(
        std::fs::read(f.file("aether", "rules.fi.toml")).unwrap(),
        before
    );
}

/// The glossary and style checks find, at the key, each kind of sentence a native reading of
/// the Finnish Aether found (../shared/reviews/aether-fi.md): two colons in one sentence (the
/// page's label counts), a label its own sentence repeats, a pronoun that can refer to two
/// nouns, a word the language's glossary rules out and one the game's glossary rules out.
#[test]
fn the_finnish_style_checks_find_the_reviews_patterns_at_their_key() {
    let shipped = load_game(Path::new("data"), "aether").unwrap();
    let style = |w: &printplay::diag::Problem| {
        w.rule.as_deref().is_some_and(|r| {
            [
                "a sentence has at most one colon",
                "a sentence does not repeat its label",
                "an unambiguous pronoun",
                "the language's words",
                "the prose uses the glossary's terms",
            ]
            .contains(&r)
        })
    };
    let report = check_game_report(&shipped);
    let found: Vec<_> = report
        .warnings
        .iter()
        .chain(&report.problems)
        .filter(|w| style(w))
        .collect();
    assert!(
        found.is_empty(),
        "the shipped Finnish reads clean: {found:?}"
    );

    let f = Fixture::with_games(&["aether"]);
    let cases = [
        (
            "Alkuvalmisteluja on kaksi. Normaalissa",
            "Alkuvalmisteluja on kaksi: normaalissa",
            "Alkuvalmisteluja",
            "`variant.setup.ambiguity`: a sentence with 2 colons",
        ),
        (
            "Kirjasta ei selviä, mitkä",
            "Sääntökirja ei näytä, mitkä",
            "Sääntökirja ei näytä",
            "`variant.setup.ambiguity`: the label `Sääntökirja:` is repeated",
        ),
        (
            "vastaelementin laatta vähentää voimaa yhdellä",
            "vastaelementin laatta heikentää sitä yhdellä",
            "heikentää sitä",
            "`turn`: `heikentää sitä` reads two ways",
        ),
        (
            "laudan tyhjään\nkuusikulmioon",
            "laudan tyhjään\nheksaan",
            "heksaan",
            "`turn`: says `heksa` where the language's term is `kuusikulmio`",
        ),
        (
            "ottaa näkösuojan",
            "ottaa sermin",
            "sermin",
            "says `sermi` where the glossary's term is `näkösuoja`",
        ),
    ];
    for (from, to, _, _) in &cases {
        f.edit("aether", "rules.fi.toml", from, to);
    }
    let text = std::fs::read_to_string(f.file("aether", "rules.fi.toml")).unwrap();
    let game = load_game(f.data(), "aether").unwrap();
    let report = check_game_report(&game);
    let all: Vec<_> = report.warnings.iter().chain(&report.problems).collect();
    for (_, _, at, message) in cases {
        let offset = text.find(at).unwrap();
        let line = text[..offset].matches('\n').count() + 1;
        let col = text[..offset].rsplit('\n').next().unwrap().chars().count() + 1;
        let hit = all
            .iter()
            .find(|p| p.message.contains(message))
            .unwrap_or_else(|| panic!("no `{message}` in {all:#?}"));
        let place = hit.location().unwrap();
        assert!(
            place.ends_with(&format!("rules.fi.toml:{line}:{col}"))
                || place.ends_with(&format!("rules.fi.toml:{line}:1")),
            "`{message}` at {place}, not at line {line} col {col}"
        );
    }
}
