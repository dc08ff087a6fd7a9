//! Rules references are safe by construction: hostile data (a `javascript:` link, a remote
//! image, `<script>` in a title and in prose) fails `check` at its place and writes nothing;
//! the Markdown escapes the title; `printplay rules` writes to `--out DIR/<slug>/` like `build`
//! and keeps the previous files when the data has problems.

mod common;

use std::path::Path;

use common::Fixture;
use printplay::model::load_game;
use printplay::rules::{Assets, Format, render};

const GAME: &str = "the-search";

/// The Search with hostile data in its title and its prose; returns the lines of each edit.
fn hostile(f: &Fixture) -> Vec<(&'static str, usize)> {
    let title = f.edit(
        GAME,
        "game.toml",
        "name = \"Aether Captains: The Search\"",
        "name = \"The Search<script>alert(1)</script>\"",
    );
    let link = f.edit(
        GAME,
        "rules.en.toml",
        "A criminal is loose",
        "[Click](javascript:alert(document.cookie)) A criminal is loose",
    );
    let image = f.edit(
        GAME,
        "rules.en.toml",
        "**The criminal wins** by either",
        "![tracker](https://evil.example/pixel.png) **The criminal wins** by either",
    );
    let script = f.edit(
        GAME,
        "rules.en.toml",
        "The game ends the moment",
        "<script>alert(2)</script> The game ends the moment",
    );
    vec![
        ("game.toml", title),
        ("rules.en.toml", link),
        ("rules.en.toml", image),
        ("rules.en.toml", script),
    ]
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.path().is_dir() {
                out.extend(files_under(&e.path()));
            } else {
                out.push(e.path().display().to_string());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn hostile_data_fails_check_at_each_place_and_writes_nothing() {
    let f = Fixture::with_games(&[GAME]);
    let places = hostile(&f);
    let check = f.run(&["check", GAME]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    for (file, line) in &places {
        assert!(
            check.stderr.contains(&format!("{file}:{line}:")),
            "no problem at {file}:{line}: {}",
            check.stderr
        );
    }
    assert!(check.stderr.contains("javascript:"), "{}", check.stderr);
    assert!(check.stderr.contains("remote"), "{}", check.stderr);
    assert!(check.stderr.contains("raw HTML"), "{}", check.stderr);
    assert!(check.stderr.contains("HTML markup"), "{}", check.stderr);

    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().to_str().unwrap();
    let rules = f.run(&["rules", GAME, "--out", out_dir]);
    assert_eq!(rules.code, 1, "{}", rules.stderr);
    assert!(
        files_under(out.path()).is_empty(),
        "{:?}",
        files_under(out.path())
    );
    let build = f.run(&["build", GAME, "--out", out_dir]);
    assert_eq!(build.code, 1, "{}", build.stderr);
    assert!(
        files_under(out.path()).is_empty(),
        "{:?}",
        files_under(out.path())
    );
}

#[test]
fn rules_writes_under_out_slug_and_keeps_the_previous_files_on_problems() {
    let f = Fixture::with_games(&[GAME]);
    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().to_str().unwrap();
    let good = f.run(&["rules", GAME, "--out", out_dir]);
    assert_eq!(good.code, 0, "{}", good.stderr);
    let page = out.path().join(GAME).join("rules.en.html");
    let quick = out.path().join(GAME).join("quick.en.md");
    assert!(page.is_file() && quick.is_file(), "{}", good.stdout);
    let before = std::fs::read(&page).unwrap();
    f.edit(
        GAME,
        "rules.en.toml",
        "A criminal is loose",
        "[x](javascript:void(0)) A criminal is loose",
    );
    let bad = f.run(&["rules", GAME, "--out", out_dir]);
    assert_eq!(bad.code, 1, "{}", bad.stderr);
    assert!(bad.stdout.contains("not written"), "{}", bad.stdout);
    assert_eq!(
        std::fs::read(&page).unwrap(),
        before,
        "the previous page is kept"
    );
}

#[test]
fn renderers_drop_unsafe_links_and_images_even_unchecked() {
    let f = Fixture::with_games(&[GAME]);
    hostile(&f);
    let game = load_game(f.data(), GAME).unwrap();
    let assets = Assets::load_default().unwrap();
    for file in render(&game, "en", Format::Html, &assets).unwrap() {
        let text = file.text.to_lowercase();
        assert!(!text.contains("javascript:"), "{}", file.name);
        assert!(!text.contains("evil.example"), "{}", file.name);
        assert!(!text.contains("<script"), "{}", file.name);
    }
    // Markdown: what a renderer would make of it holds no raw HTML, no unsafe link or image.
    for file in render(&game, "en", Format::Md, &assets).unwrap() {
        if !file.name.ends_with(".md") {
            continue;
        }
        let opts = printplay::rules::markdown::options();
        for event in pulldown_cmark::Parser::new_ext(&file.text, opts) {
            match event {
                pulldown_cmark::Event::Html(h) | pulldown_cmark::Event::InlineHtml(h) => {
                    panic!("{}: raw HTML {h}", file.name)
                }
                pulldown_cmark::Event::Start(pulldown_cmark::Tag::Link { dest_url, .. })
                | pulldown_cmark::Event::Start(pulldown_cmark::Tag::Image { dest_url, .. }) => {
                    assert!(
                        !dest_url.contains("javascript") && !dest_url.contains("evil.example"),
                        "{}: {dest_url}",
                        file.name
                    );
                }
                _ => {}
            }
        }
    }
}

#[test]
fn the_markdown_title_and_names_are_escaped() {
    let f = Fixture::with_games(&[GAME]);
    f.edit(
        GAME,
        "game.toml",
        "name = \"Aether Captains: The Search\"",
        "name = \"*The* [Search](http://x) # _1_\"",
    );
    let game = load_game(f.data(), GAME).unwrap();
    let assets = Assets::load_default().unwrap();
    for file in render(&game, "en", Format::Md, &assets).unwrap() {
        if !file.name.ends_with(".md") {
            continue;
        }
        let html = printplay::rules::markdown::to_html(&file.text);
        let h1_start = html.find("<h1").unwrap();
        let h1 = &html[h1_start..html[h1_start..].find("</h1>").unwrap() + h1_start];
        assert!(
            h1.contains("*The* [Search](http://x) # _1_"),
            "{}: the title is shown as written: {h1}",
            file.name
        );
        assert!(!html.contains("href=\"http://x\""), "{}", file.name);
    }
}

#[test]
fn en_and_fi_pages_link_to_each_other_with_hreflang() {
    let game = load_game(Path::new("data"), "aether").unwrap();
    let assets = Assets::load_default().unwrap();
    for (lang, other, name) in [("en", "fi", "suomi"), ("fi", "en", "English")] {
        for (i, page) in ["rules", "quick"].iter().enumerate() {
            let files = render(&game, lang, Format::Html, &assets).unwrap();
            let html = &files[i].text;
            let target = format!("{page}.{other}.html");
            assert!(
                html.contains(&format!(
                    "<link rel=\"alternate\" hreflang=\"{other}\" href=\"{target}\">"
                )),
                "{lang} {page}: no alternate link"
            );
            assert!(
                html.contains(&format!(
                    "<a href=\"{target}\" hreflang=\"{other}\" lang=\"{other}\">{name}</a>"
                )),
                "{lang} {page}: no visible switch"
            );
        }
    }
}

#[test]
fn the_full_page_links_its_quick_reference_and_back() {
    let game = load_game(Path::new("data"), GAME).unwrap();
    let assets = Assets::load_default().unwrap();
    let files = render(&game, "en", Format::Html, &assets).unwrap();
    assert_eq!(files[0].name, "rules.en.html");
    assert_eq!(files[1].name, "quick.en.html");
    assert!(files[0].text.contains("href=\"quick.en.html\""));
    assert!(files[1].text.contains("href=\"rules.en.html\""));
    // The appendix is collapsed, after the rules.
    let page = &files[0].text;
    let appendix = page.find("<details class=\"appendix\"").unwrap();
    assert!(page.find("id=\"turn\"").unwrap() < appendix);
    assert!(page.find("id=\"unprinted\"").unwrap() > appendix);
}

#[test]
fn the_gallery_shows_the_images_the_build_wrote_and_links_the_print_files() {
    let f = Fixture::with_games(&[GAME]);
    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().to_str().unwrap();
    // `rules` alone: no images beside the reference, so no gallery.
    let alone = f.run(&["rules", GAME, "--out", out_dir]);
    assert_eq!(alone.code, 0, "{}", alone.stderr);
    let page = out.path().join(GAME).join("rules.en.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("class=\"gallery\""),
        "a gallery of missing images"
    );
    // The build writes the images first, then the reference that shows them.
    let build = f.run(&["build", GAME, "--out", out_dir]);
    assert_eq!(build.code, 0, "{}", build.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    let game = load_game(f.data(), GAME).unwrap();
    for card in game.components.decks.iter().flat_map(|d| &d.cards) {
        let src = format!("src=\"png/{}.png\"", card.id.get_ref());
        assert!(html.contains(&src), "the gallery lacks {src}");
        assert!(
            out.path()
                .join(GAME)
                .join(format!("png/{}.png", card.id.get_ref()))
                .is_file()
        );
    }
    assert!(html.contains("<a href=\"cards.pdf\">") && html.contains("<a href=\"tokens.pdf\">"));
    // Images only from the page's own place: no `file:` source (which allowed any
    // file://host), no scheme at all.
    let csp_start = html.find("http-equiv=\"Content-Security-Policy\"").unwrap();
    let csp: String = html[csp_start..]
        .chars()
        .take_while(|c| *c != '>')
        .collect();
    let img_src = csp
        .split(';')
        .find(|d| d.trim().starts_with("img-src"))
        .unwrap();
    assert_eq!(img_src.trim(), "img-src 'self'", "{csp}");
    // And under that policy Chromium loads every image of the gallery (a blocked load is
    // logged to the console); skipped without Chromium.
    if let Some(chrome) = common::chromium() {
        let profile = tempfile::tempdir().unwrap();
        let run = common::headless(&chrome, profile.path())
            .args(["--enable-logging=stderr", "--v=0", "--dump-dom"])
            .arg(format!("file://{}", page.canonicalize().unwrap().display()))
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&run.stderr);
        assert!(
            !log.contains("Content Security Policy"),
            "an image the policy blocks: {log}"
        );
        assert!(String::from_utf8_lossy(&run.stdout).contains("src=\"png/"));
    }
    // Every image has its size, so the page does not jump while they load.
    for (i, _) in html.match_indices("<img ") {
        let tag: String = html[i..].chars().take_while(|c| *c != '>').collect();
        assert!(
            tag.contains(" width=\"") && tag.contains(" height=\"") && tag.contains(" alt=\""),
            "{tag}"
        );
    }
}

/// The hostile cases the HTML never showed but the Markdown did: a link reference definition
/// in one prose field used from another, an indented code block in a component's purpose
/// (flattened into a table cell), and HTML and quotes in a diagram's alt text.
fn more_hostile(f: &Fixture) {
    f.edit(
        GAME,
        "rules.en.toml",
        "- leaving a marker on all",
        "[x]: javascript:alert(document.cookie)\n[y]: https://evil.example/def.png\n\n- leaving a marker on all",
    );
    f.edit(
        GAME,
        "rules.en.toml",
        "The game ends the moment",
        "Click [x] or [x][] or see ![y]. The game ends the moment",
    );
    f.edit(
        GAME,
        "rules.en.toml",
        "and {deck.map[icon=police-station].cards} police station.\n",
        "and {deck.map[icon=police-station].cards} police station.\n\n    <script>alert(3)</script>\n    <img src=https://evil.example/cell.png>\n    [c](javascript:alert(6))\n\n<a\n\nhref=x onmouseover=alert(7)>\n",
    );
    f.edit(
        GAME,
        "rules.en.toml",
        "alt = \"A grid of map cards",
        "alt = \"A grid <img src=x onmouseover=alert(4)> \\\" onmouseover=\\\"alert(5) <b title=\\\"x\\\">of map cards",
    );
}

/// What is live in an HTML text: an element that runs or loads (script, iframe...), an event
/// attribute, a script or data URL in a link, or a source loaded from outside the page's folder.
fn live_parts(html: &str) -> Vec<String> {
    let lower = html.to_lowercase();
    let mut found = Vec::new();
    let bytes = lower.as_bytes();
    let mut i = 0;
    while let Some(at) = lower[i..].find('<') {
        let start = i + at;
        i = start + 1;
        let name: String = lower[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if name.is_empty() {
            continue;
        }
        if [
            "script", "iframe", "object", "embed", "style", "link", "meta", "base", "form", "svg",
            "math", "frame", "applet",
        ]
        .contains(&name.as_str())
        {
            found.push(format!("<{name}> element"));
        }
        // The attributes, up to the tag's end (quotes respected).
        let mut j = i + name.len();
        while j < bytes.len() && bytes[j] != b'>' {
            while j < bytes.len() && (bytes[j] as char).is_ascii_whitespace()
                || bytes.get(j) == Some(&b'/')
            {
                j += 1;
            }
            let attr_start = j;
            while j < bytes.len() && !matches!(bytes[j], b'=' | b'>' | b' ' | b'\n' | b'\t' | b'/')
            {
                j += 1;
            }
            let attr = &lower[attr_start..j];
            let mut value = String::new();
            if bytes.get(j) == Some(&b'=') {
                j += 1;
                match bytes.get(j) {
                    Some(&q @ (b'"' | b'\'')) => {
                        let end = lower[j + 1..]
                            .find(q as char)
                            .map_or(lower.len(), |e| j + 1 + e);
                        value = lower[j + 1..end].to_string();
                        j = (end + 1).min(lower.len());
                    }
                    _ => {
                        let end = lower[j..]
                            .find(|c: char| c.is_ascii_whitespace() || c == '>')
                            .map_or(lower.len(), |e| j + e);
                        value = lower[j..end].to_string();
                        j = end;
                    }
                }
            }
            let value = value
                .replace("&#x3a;", ":")
                .replace("&#58;", ":")
                .replace("&colon;", ":")
                .chars()
                .filter(|c| !c.is_whitespace() && !c.is_control())
                .collect::<String>();
            if attr.starts_with("on") {
                found.push(format!("<{name} {attr}=...>"));
            }
            if [
                "href",
                "src",
                "srcset",
                "action",
                "formaction",
                "poster",
                "xlink:href",
            ]
            .contains(&attr)
                && ["javascript:", "vbscript:", "data:"]
                    .iter()
                    .any(|s| value.starts_with(s))
            {
                found.push(format!("<{name} {attr}=\"{value}\">"));
            }
            if ["src", "srcset", "poster"].contains(&attr)
                && ["http:", "https:", "//", "file:"]
                    .iter()
                    .any(|s| value.starts_with(s))
            {
                found.push(format!("<{name} {attr}=\"{value}\"> (a remote load)"));
            }
            if attr.is_empty() && j < bytes.len() && bytes[j] != b'>' {
                j += 1;
            }
        }
    }
    found
}

#[test]
fn the_detector_finds_what_is_live() {
    let live = live_parts(
        "<p><a href=\"javascript:x\">a</a><img src=x onmouseover=\"y\"><img src='https://e.org/p.png'><script>1</script></p>",
    );
    assert_eq!(live.len(), 4, "{live:?}");
    assert!(
        live_parts(
            "<p>&lt;script&gt; <a href=\"#turn\">t</a> <img src=\"map.svg\" alt=\"on=x\"></p>"
        )
        .is_empty()
    );
}

/// Every Markdown page of the hostile corpus (the HTML test's, plus the cases only Markdown
/// showed), rendered by two real CommonMark implementations in their most permissive settings
/// (`tests/tools/render_markdown.py`: cmark-gfm and markdown-it, raw HTML on, every link
/// target allowed), carries nothing live. Skipped where Python or the renderers are missing
/// (`pip install cmarkgfm markdown-it-py`; `.ci/run` installs them).
#[test]
fn markdown_pages_carry_nothing_live_in_two_commonmark_renderers() {
    let f = Fixture::with_games(&[GAME]);
    hostile(&f);
    more_hostile(&f);
    let game = load_game(f.data(), GAME).unwrap();
    let assets = Assets::load_default().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for file in render(&game, "en", Format::Md, &assets).unwrap() {
        if file.name.ends_with(".md") {
            let path = dir.path().join(&file.name);
            std::fs::write(&path, &file.text).unwrap();
            files.push(path);
        }
    }
    assert!(files.len() >= 2, "the page and the quick reference");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tools/render_markdown.py");
    let out = match std::process::Command::new("python3")
        .arg(&script)
        .args(&files)
        .output()
    {
        Ok(out) if out.status.code() == Some(3) => {
            eprintln!("skipped: {}", String::from_utf8_lossy(&out.stderr));
            return;
        }
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: python3: {e}");
            return;
        }
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rendered: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut renderers = 0;
    for (file, by) in rendered.as_object().unwrap() {
        for (renderer, html) in by.as_object().unwrap() {
            renderers += 1;
            let html = html.as_str().unwrap();
            let live = live_parts(html);
            assert!(live.is_empty(), "{file} in {renderer}: {live:?}\n{html}");
            // The hostile words are still there, as text.
            if file.ends_with("rules.en.md") {
                assert!(
                    html.contains("&lt;script&gt;alert(3)"),
                    "{file} in {renderer}"
                );
            }
        }
    }
    assert_eq!(renderers, files.len() * 2);
}
