//! No SVG printplay publishes can act: a hostile SVG (a script, event attributes, a style
//! sheet and images from another site, a link to `javascript:`, embedded HTML) put in every
//! place a game folder can put one (card art, a piece's image, a board's art, an image a
//! template places by name, the template itself, an icon, an image the rules prose shows and
//! an SVG its link opens) is warned about by `check` at its file and line; every SVG the
//! build and the rules reference write, and every face the table serves, holds no script, no
//! event attribute and no reference outside itself, the same bytes from run to run; and
//! Chromium opening each of them as a document makes no request and shows no dialog.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::Fixture;
use common::server::{api, browser_script, browser_tools, http, link_of, start};

const GAME: &str = "hostile";

/// A drawing that would act if a browser opened it as it is; `who` names it in its alerts.
fn hostile_svg(who: &str) -> String {
    format!(
        r##"<?xml-stylesheet href="https://evil.example/{who}.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="60" height="40" viewBox="0 0 60 40" onload="alert('{who} onload')">
  <script>alert('{who} script'); fetch('https://evil.example/{who}/fetch');</script>
  <style>@import url(https://evil.example/{who}/import.css); circle {{ fill: url(https://evil.example/{who}/p.svg#g) }}</style>
  <rect width="60" height="40" fill="#3a5fa8" onclick="alert('{who} click')"/>
  <image href="https://evil.example/{who}/pixel.png" width="10" height="10"/>
  <image xlink:href="//evil.example/{who}/tracker.png" x="10" width="10" height="10"/>
  <a href="javascript:alert('{who} link')"><circle cx="30" cy="20" r="12" fill="#e0a020"/></a>
  <foreignObject width="60" height="40"><div xmlns="http://www.w3.org/1999/xhtml"><img src="https://evil.example/{who}/html.png"/><iframe src="javascript:alert('{who} frame')"></iframe></div></foreignObject>
  <set attributeName="href" to="javascript:alert('{who} set')"/>
</svg>
"##
    )
}

/// A new game (`printplay new`) with the hostile drawing in every place a game folder can
/// put an SVG; the template's lines that hold a script, for the warnings.
fn hostile_game() -> (Fixture, usize) {
    let f = Fixture {
        dir: tempfile::tempdir().unwrap(),
    };
    let new = f.run(&["new", GAME]);
    assert_eq!(new.code, 0, "{}", new.stderr);
    let write = |rel: &str, text: &str| {
        let path = f.file(GAME, rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    // Card art (the cards' `art` field) and the marker piece's image.
    write("art/emblem.svg", &hostile_svg("art"));
    // The game's icon.
    write("icons/marker.svg", &hostile_svg("icon"));
    // An image the prose shows, and an SVG a prose link opens.
    write("art/map.svg", &hostile_svg("prose"));
    write("art/plan.svg", &hostile_svg("linked"));
    f.edit(
        GAME,
        "rules.en.toml",
        "Describe a turn: its steps and every action.",
        "Describe a turn: its steps and every action. ![The map](art/map.svg) \
         [Open the plan](art/plan.svg) or [the map](art/map.svg#top).",
    );
    // A board's art.
    write("art/board.svg", &hostile_svg("board"));
    f.edit(
        GAME,
        "components.toml",
        "hex_mm = 30\n",
        "hex_mm = 30\nimage = \"art/board.svg\"\n",
    );
    // An image a template places by its name, and the template's own script.
    write("art/corner.svg", &hostile_svg("placed"));
    let template = f.file(GAME, "templates/card.svg");
    let mut text = std::fs::read_to_string(&template).unwrap();
    let line = text.lines().count() + 1;
    text.push_str(
        "<script>alert('template')</script>\n\
         {{ image(src=\"art/corner.svg\", x=1, y=1, w=6, h=4) }}\n",
    );
    std::fs::write(&template, text).unwrap();
    (f, line)
}

/// The files under `dir`, by their paths inside it.
fn files_under(dir: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let path = e.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Standard base64, as a `data:` URL holds it (spaces skipped).
fn base64(text: &str) -> Vec<u8> {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
    {
        let v = ABC.iter().position(|&a| a == c).expect("a base64 digit") as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Why an SVG document could act when opened, or `None` when it cannot: a script, embedded
/// HTML, a style sheet, an event attribute or a reference to anything but itself (`#id`)
/// and data inside it (`data:`, whose SVG is looked into the same way).
fn live(svg: &str) -> Option<String> {
    let lower = svg.to_ascii_lowercase();
    for bad in [
        "<script",
        "foreignobject",
        "<style",
        "javascript:",
        "evil",
        "<?xml-stylesheet",
    ] {
        if lower.contains(bad) {
            return Some(format!("it holds `{bad}`"));
        }
    }
    let doc = match usvg::roxmltree::Document::parse(svg) {
        Ok(d) => d,
        Err(e) => return Some(format!("it is not XML: {e}")),
    };
    for node in doc.descendants().filter(|n| n.is_element()) {
        for a in node.attributes() {
            let (name, value) = (a.name(), a.value().trim());
            if name.to_ascii_lowercase().starts_with("on") {
                return Some(format!("the event attribute `{name}`"));
            }
            if value.contains("url(") && !value.contains("url(#") {
                return Some(format!("`{name}=\"{value}\"`"));
            }
            if name == "href" || name == "src" {
                if value.starts_with('#') {
                    continue;
                }
                let Some(data) = value.strip_prefix("data:") else {
                    return Some(format!("the reference `{value}`"));
                };
                let (kind, payload) = data.split_once(',').unwrap_or((data, ""));
                if kind.starts_with("image/svg+xml") {
                    let inner = base64(payload);
                    if let Some(why) = live(&String::from_utf8_lossy(&inner)) {
                        return Some(format!("its inner SVG: {why}"));
                    }
                } else if !["image/png", "image/jpeg", "image/webp", "image/gif"]
                    .iter()
                    .any(|k| kind.starts_with(k))
                {
                    return Some(format!("data of kind `{kind}`"));
                }
            }
        }
    }
    None
}

#[test]
fn a_hostile_svg_in_every_place_is_warned_about_and_published_inert() {
    let (f, script_line) = hostile_game();

    // `check` passes (the copies are safe) and says, at each file, what its copies leave out.
    let check = f.run(&["check", GAME]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    for file in [
        "art/emblem.svg",
        "icons/marker.svg",
        "art/map.svg",
        "art/plan.svg",
        "art/board.svg",
        "art/corner.svg",
    ] {
        let at = format!("{GAME}/{file}:1:1");
        let warning = check
            .stderr
            .split("warning:")
            .find(|w| w.contains(&at))
            .unwrap_or_else(|| panic!("no warning at {at}: {}", check.stderr));
        for said in ["a script", "`onload`", "evil.example", "embedded HTML"] {
            assert!(warning.contains(said), "{file}: no `{said}`: {warning}");
        }
    }
    let at = format!("{GAME}/templates/card.svg:{script_line}:1");
    assert!(check.stderr.contains(&at), "{at}: {}", check.stderr);

    // Every SVG the build writes (print files, rules reference and its copies, gallery),
    // none of which can act, and the same bytes when the rules reference is written again.
    let out = tempfile::tempdir().unwrap();
    let again = tempfile::tempdir().unwrap();
    let build = f.run(&["build", GAME, "--out", out.path().to_str().unwrap()]);
    assert_eq!(build.code, 0, "{}", build.stderr);
    let rules = f.run(&["rules", GAME, "--out", again.path().to_str().unwrap()]);
    assert_eq!(rules.code, 0, "{}", rules.stderr);
    let first = files_under(&out.path().join(GAME));
    let second = files_under(&again.path().join(GAME));
    let svgs: Vec<(&String, &PathBuf)> =
        first.iter().filter(|(n, _)| n.ends_with(".svg")).collect();
    for name in ["art/map.svg", "art/plan.svg", "rules.icon.marker.svg"] {
        assert!(first.contains_key(name), "{name} is published: {first:?}");
    }
    for (name, path) in &svgs {
        let svg = std::fs::read_to_string(path).unwrap();
        assert_eq!(live(&svg), None, "{name}: {svg}");
        assert_eq!(
            std::fs::read(path).unwrap(),
            std::fs::read(&second[*name]).unwrap(),
            "{name} differs between two runs"
        );
    }
    // The pages link the copies, and nothing of the hostile files' reaches a page.
    let page = std::fs::read_to_string(&first["rules.en.html"]).unwrap();
    assert!(
        page.contains("src=\"art/map.svg\"") && page.contains("href=\"art/plan.svg\""),
        "{page}"
    );
    for (name, path) in &first {
        if [".html", ".md", ".json", ".svg"]
            .iter()
            .any(|x| name.ends_with(x))
        {
            let text = std::fs::read_to_string(path).unwrap();
            assert!(!text.contains("evil.example"), "{name}: {text}");
        }
    }

    // The table's faces, as the server sends them.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.sqlite").display().to_string();
    let data = f.data().to_str().unwrap().to_string();
    let server = start(
        &[
            "--data",
            &data,
            "table",
            GAME,
            "--seats",
            "a=person,b=person",
            "--seed",
            "3",
            "--port",
            "0",
            "--db",
            &db,
        ],
        3,
    );
    let me = api(&link_of(&server.lines, "player 1"));
    let (status, view) = http("GET", &me, b"");
    assert_eq!(status, 200, "{view}");
    let base = {
        let rest = me.strip_prefix("http://").unwrap();
        format!("http://{}", &rest[..rest.find('/').unwrap()])
    };
    let mut faces: Vec<String> = view
        .match_indices("/tables/")
        .filter_map(|(at, _)| {
            let end = view[at..].find('"').map_or(view.len(), |e| at + e);
            let url = &view[at..end];
            (url.contains("/faces/") && url.ends_with(".svg")).then(|| format!("{base}{url}"))
        })
        .collect();
    faces.sort();
    faces.dedup();
    assert!(!faces.is_empty(), "the view names no face: {view}");
    for url in &faces {
        let (status, svg) = http("GET", url, b"");
        assert_eq!(status, 200, "{url}");
        assert_eq!(live(&svg), None, "{url}: {svg}");
    }

    // Chromium opens each published SVG as a document, as a click on the link does.
    let Some((browser_dir, chromium)) = browser_tools() else {
        eprintln!("skipped the browser part: no Chromium or Playwright");
        return;
    };
    let mut docs: Vec<String> = svgs
        .iter()
        .map(|(_, p)| format!("file://{}", p.display()))
        .collect();
    docs.extend(faces);
    let cfg = serde_json::json!({ "exe": chromium, "docs": docs });
    let seen = browser_script(&browser_dir, "svg_inert.mjs", &cfg, dir.path());
    let seen = seen.as_array().unwrap();
    assert_eq!(seen.len(), docs.len(), "{seen:?}");
    for doc in seen {
        assert_eq!(doc["requests"], serde_json::json!([]), "{doc}");
        assert_eq!(doc["dialogs"], serde_json::json!([]), "{doc}");
        assert_eq!(doc["loaded"], true, "{doc}");
    }
}

#[test]
fn scheme_relative_links_are_refused_at_their_place_and_never_published() {
    let f = Fixture {
        dir: tempfile::tempdir().unwrap(),
    };
    assert_eq!(f.run(&["new", GAME]).code, 0);
    let line = f.edit(
        GAME,
        "rules.en.toml",
        "Describe a turn: its steps and every action.",
        "Describe a turn: see [the FAQ](//evil.example/faq).",
    );
    // An image whose name says another kind of file than it holds would be opened as that
    // kind (a PNG named `.html` as a page): refused where the prose shows it.
    let mut png = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png, 1, 1);
        encoder.set_color(png::ColorType::Rgba);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[0, 0, 0, 255]).unwrap();
    }
    std::fs::write(f.file(GAME, "art/page.html"), &png).unwrap();
    let shown = f.edit(
        GAME,
        "rules.en.toml",
        "Say when the game ends",
        "![A page](art/page.html) Say when the game ends",
    );
    let text = std::fs::read_to_string(f.file(GAME, "rules.en.toml")).unwrap();
    let column = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .find("[the FAQ]")
        .unwrap()
        + 1;
    let check = f.run(&["check", GAME]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    assert!(
        check
            .stderr
            .contains(&format!("rules.en.toml:{line}:{column}")),
        "{}",
        check.stderr
    );
    assert!(
        check.stderr.contains("without a scheme"),
        "{}",
        check.stderr
    );
    assert!(
        check.stderr.contains(&format!("rules.en.toml:{shown}:1"))
            && check
                .stderr
                .contains("is a PNG image, but its name does not end in .png"),
        "{}",
        check.stderr
    );
    let out = tempfile::tempdir().unwrap();
    let rules = f.run(&["rules", GAME, "--out", out.path().to_str().unwrap()]);
    assert_eq!(rules.code, 1, "{}", rules.stderr);
    assert!(!out.path().join(GAME).exists(), "nothing is written");
    // The renderers drop the link all the same, unchecked.
    let game = printplay::model::load_game(f.data(), GAME).unwrap();
    let assets = printplay::rules::Assets::load_default().unwrap();
    for format in [printplay::rules::Format::Html, printplay::rules::Format::Md] {
        for file in printplay::rules::render(&game, "en", format, &assets).unwrap() {
            assert!(
                !file.text.contains("evil.example"),
                "{}: {}",
                file.name,
                file.text
            );
        }
    }
}
