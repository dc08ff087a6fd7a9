//! The HTML rules references in headless Chromium: no horizontal overflow at desktop and phone
//! widths, every internal link resolves, diagram labels stay legible on a phone, dark mode
//! changes the colours, and printing to PDF fits: each quick reference on one A4 and one Letter
//! page, The Search's full reference on at most four A4 pages, and no heading, table caption
//! or table header is the last thing on a printed page.
//! Without Chromium (`chromium`, or `$CHROMIUM`) the tests say so and skip; CI installs it.
//! Set `RULES_SCREENSHOTS=DIR` to also keep desktop and phone screenshots for a human to look at.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use printplay::model::{Game, load_game};

const SHIPPED: &[&str] = &[
    "capek-golems",
    "the-search",
    "aether",
    "imperial-settlers-aztecs",
];
const DESKTOP: (u32, u32) = (1280, 900);
const PHONE: (u32, u32) = (375, 800);

fn is_quick(page: &Path) -> bool {
    page.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("quick."))
}

/// Runs Chromium headless with a fresh profile and no network chatter; returns stdout.
fn run(chrome: &Path, profile: &Path, args: &[String], url: &str) -> String {
    let out = common::headless(chrome, profile)
        .args(["--hide-scrollbars", "--virtual-time-budget=2000"])
        .args(args)
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Builds every reference into a temporary folder; returns the HTML files.
fn build(out: &Path) -> Vec<PathBuf> {
    let games: Vec<Game> = SHIPPED
        .iter()
        .map(|s| load_game(Path::new("data"), s).unwrap())
        .filter(|g| !g.rules.texts.is_empty())
        .collect();
    let (written, problems) = printplay::rules::build_all(&games, out);
    assert!(problems.is_empty(), "{problems:#?}");
    let html: Vec<PathBuf> = written
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    assert!(
        html.iter().any(|p| is_quick(p)),
        "quick references are built"
    );
    assert!(!html.is_empty());
    html
}

/// A copy of the page with a probe that measures it once laid out and writes the result into
/// the DOM (the page itself has no script, and its Content-Security-Policy forbids one: the copy
/// drops that policy so that the probe can run).
fn probe_copy(page: &Path, dir: &Path) -> PathBuf {
    let html = without_csp(&std::fs::read_to_string(page).unwrap());
    let probe = r##"<script>
addEventListener('load', () => {
  const w = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 1) wide.push(el.tagName + (el.id ? '#' + el.id : '') + ':' + Math.round(r.right));
  }
  const dangling = [];
  for (const a of document.querySelectorAll('a[href^="#"]')) {
    const id = decodeURIComponent(a.getAttribute('href').slice(1));
    if (!document.getElementById(id)) dangling.push(id);
  }
  // Diagram labels in CSS pixels: font size times the SVG's scale on screen.
  const small = [];
  for (const t of document.querySelectorAll('figure svg text')) {
    const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    if (px < 11.95) small.push(t.textContent.slice(0, 24) + ': ' + px.toFixed(1));
  }
  const result = JSON.stringify({
    small,
    dark: matchMedia('(prefers-color-scheme: dark)').matches,
    background: getComputedStyle(document.body).backgroundColor,
    ink: getComputedStyle(document.body).color,
    inner: innerWidth,
    scroll: document.documentElement.scrollWidth,
    client: w,
    wide: wide.slice(0, 10),
    dangling,
    links: document.querySelectorAll('a[href^="#"]').length,
  });
  parent.postMessage(result, '*');
});
</script></body>"##;
    let path = dir.join(format!(
        "probe-{}",
        page.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&path, html.replace("</body>", probe)).unwrap();
    path
}

/// A page that shows `page` in a frame `w` x `h` pixels (headless Chromium will not make its
/// window narrower than 500 px) and writes the frame's probe result into its own DOM.
fn harness(page: &Path, dir: &Path, w: u32, h: u32) -> PathBuf {
    let html = format!(
        r#"<!DOCTYPE html><html><body style="margin:0">
<iframe src="{}" width="{w}" height="{h}" style="border:0;display:block"></iframe>
<script>
addEventListener('message', e => {{
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = e.data;
  document.body.appendChild(pre);
}});
</script></body></html>"#,
        page.file_name().unwrap().to_string_lossy()
    );
    let path = dir.join(format!(
        "harness-{w}-{}",
        page.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&path, html).unwrap();
    path
}

fn probe_result(dom: &str) -> serde_json::Value {
    let start = dom.find("<pre id=\"probe\">").expect("the probe ran") + "<pre id=\"probe\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let json = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    serde_json::from_str(&json).unwrap()
}

/// The page without its Content-Security-Policy meta, if it has one.
fn without_csp(html: &str) -> String {
    let Some(start) = html.find("<meta http-equiv=\"Content-Security-Policy\"") else {
        return html.to_string();
    };
    let end = start + html[start..].find('>').unwrap() + 1;
    format!("{}{}", &html[..start], &html[end..])
}

fn url(path: &Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

#[test]
fn no_horizontal_overflow_and_links_resolve_at_desktop_and_phone_widths() {
    let Some(chrome) = common::chromium() else {
        eprintln!("skipping: chromium not found (install Debian's `chromium` or set CHROMIUM)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let shots = std::env::var_os("RULES_SCREENSHOTS").map(PathBuf::from);
    for page in build(dir.path()) {
        let copy = probe_copy(&page, dir.path());
        for (w, h) in [DESKTOP, PHONE] {
            let frame = harness(&copy, dir.path(), w, h);
            let dom = run(
                &chrome,
                profile.path(),
                &[
                    format!("--window-size={},{}", w.max(600), h + 40),
                    "--dump-dom".into(),
                ],
                &url(&frame),
            );
            let r = probe_result(&dom);
            let name = page.display();
            assert_eq!(r["inner"], w, "{name}: the page was laid out at {w} px");
            assert!(
                r["scroll"].as_u64().unwrap() <= r["client"].as_u64().unwrap(),
                "{name} at {w} px scrolls sideways: {r}"
            );
            assert!(
                r["wide"].as_array().unwrap().is_empty(),
                "{name} at {w} px: elements past the edge: {r}"
            );
            assert!(
                r["dangling"].as_array().unwrap().is_empty(),
                "{name}: links to nothing: {r}"
            );
            if !is_quick(&page) {
                assert!(
                    r["links"].as_u64().unwrap() > 5,
                    "{name}: the table of contents links"
                );
            }
            assert!(
                r["small"].as_array().unwrap().is_empty(),
                "{name} at {w} px: diagram labels under 12 px: {r}"
            );
            if let Some(shots) = &shots {
                std::fs::create_dir_all(shots).unwrap();
                let slug = page
                    .parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                let file = shots.join(format!(
                    "{slug}-{}-{w}.png",
                    page.file_stem().unwrap().to_string_lossy()
                ));
                let tall = harness(&page, page.parent().unwrap(), w, h * 4);
                run(
                    &chrome,
                    profile.path(),
                    &[
                        format!("--window-size={w},{}", h * 4),
                        format!("--screenshot={}", file.display()),
                    ],
                    &url(&tall),
                );
            }
        }
    }
}

/// Prints a page to PDF on a paper size and returns the PDF and its file.
fn print(
    chrome: &Path,
    profile: &Path,
    page: &Path,
    paper: &str,
    dir: &Path,
) -> (lopdf::Document, PathBuf) {
    let html = std::fs::read_to_string(page).unwrap();
    let sized = page.with_file_name(format!(
        "{paper}-{}",
        page.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(
        &sized,
        html.replace("</style>", &format!("@page {{ size: {paper}; }}\n</style>")),
    )
    .unwrap();
    let slug = page
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy();
    let stem = page.file_stem().unwrap().to_string_lossy();
    let pdf = dir.join(format!("{slug}-{stem}-{paper}.pdf"));
    run(
        chrome,
        profile,
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".into(),
        ],
        &url(&sized),
    );
    if let Some(keep) = std::env::var_os("RULES_SCREENSHOTS") {
        std::fs::create_dir_all(&keep).unwrap();
        std::fs::copy(&pdf, Path::new(&keep).join(pdf.file_name().unwrap())).unwrap();
    }
    let doc = lopdf::Document::load(&pdf).unwrap_or_else(|e| panic!("{}: {e}", pdf.display()));
    (doc, pdf)
}

/// Text without tags, entities decoded as far as the pages use them, and no whitespace (a
/// PDF's text lays words out with its own spacing).
fn bare(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    out.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&nbsp;", "")
        .replace('\u{a0}', "")
}

/// What must not end a printed page: every heading and table caption of the page, and every
/// table's header row, each without whitespace. Elements print hides (the contents, the
/// appendix's summary) are left out.
fn keep_with_next(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let body = &html[html.find("<main").unwrap_or(0)..];
    for (open, close) in [
        ("<h1", "</h1>"),
        ("<h2", "</h2>"),
        ("<h3", "</h3>"),
        ("<h4", "</h4>"),
        ("<caption", "</caption>"),
        ("<thead", "</thead>"),
    ] {
        let mut rest = 0;
        while let Some(i) = body[rest..].find(open).map(|i| rest + i) {
            let j = i + body[i..].find(close).unwrap();
            let inner = &body[i..j];
            rest = j;
            // The permalink mark prints hidden; the contents' title prints hidden with it.
            let inner = match inner.find("<a class=\"permalink\"") {
                Some(k) => &inner[..k],
                None => inner,
            };
            if inner.contains("toc-title") {
                continue;
            }
            let text = bare(&inner[inner.find('>').map_or(0, |k| k + 1)..]);
            if text.chars().count() >= 3 {
                out.push(text);
            }
        }
    }
    out
}

/// The last line with text on each page of a PDF but the last (`pdftotext -layout`), without
/// whitespace; `None` without pdftotext.
fn page_feet(pdf: &Path) -> Option<Vec<String>> {
    let out = Command::new("pdftotext")
        .args(["-layout", "-enc", "UTF-8"])
        .arg(pdf)
        .arg("-")
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "pdftotext failed on {}",
        pdf.display()
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let pages: Vec<&str> = text
        .split('\u{c}')
        .filter(|p| !p.trim().is_empty())
        .collect();
    Some(
        pages[..pages.len().saturating_sub(1)]
            .iter()
            .map(|p| {
                let last = p.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
                last.chars().filter(|c| !c.is_whitespace()).collect()
            })
            .collect(),
    )
}

/// The heading, caption or table header a page's foot line is (or begins, when it wraps).
fn alone_at_foot(foot: &str, keep: &[String]) -> Option<String> {
    keep.iter()
        .find(|k| {
            foot.chars().count() >= 3
                && (*k == foot || (k.starts_with(foot) && foot.chars().count() >= 12))
        })
        .cloned()
}

#[test]
fn the_foot_check_finds_a_caption_left_alone() {
    let html = "<main><h2 id=\"a\">Tavaraluettelo<a class=\"permalink\" href=\"#a\">#</a></h2>\
                <table><caption>Päätellyt ja rekonstruoidut arvot</caption><thead><tr><th>Arvo</th>\
                <th>Laji</th></tr></thead><tbody><tr><td>x</td><td>y</td></tr></tbody></table></main>";
    let keep = keep_with_next(html);
    assert_eq!(
        keep,
        [
            "Tavaraluettelo",
            "Päätellytjarekonstruoidutarvot",
            "ArvoLaji"
        ]
    );
    assert!(alone_at_foot("ArvoLaji", &keep).is_some());
    assert!(alone_at_foot("Päätellytjarekonstruoidut", &keep).is_some());
    assert!(alone_at_foot("xy", &keep).is_none());
    assert!(alone_at_foot("Tavaraluettelotonlaatikossa,jasiinä", &keep).is_none());
}

#[test]
fn prints_to_pdf_on_a4_and_letter() {
    let Some(chrome) = common::chromium() else {
        eprintln!("skipping: chromium not found (install Debian's `chromium` or set CHROMIUM)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pdfs = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let mut foot_failures = Vec::new();
    for page in build(dir.path()) {
        // (paper, width and height in points)
        for (paper, w, h) in [("A4", 595.0, 842.0), ("letter", 612.0, 792.0)] {
            let (doc, pdf) = print(&chrome, profile.path(), &page, paper, pdfs.path());
            // No heading, caption or table header is the last thing on a page.
            let keep = keep_with_next(&std::fs::read_to_string(&page).unwrap());
            match page_feet(&pdf) {
                Some(feet) => {
                    for (n, foot) in feet.iter().enumerate() {
                        if let Some(k) = alone_at_foot(foot, &keep) {
                            foot_failures.push(format!(
                                "{} {paper}: page {} ends with `{k}`",
                                page.display(),
                                n + 1
                            ));
                        }
                    }
                }
                None => eprintln!("skipping the page-foot check: pdftotext not found"),
            }
            let pages = doc.get_pages();
            let first = *pages.values().next().unwrap();
            let media = doc
                .get_dictionary(first)
                .unwrap()
                .get(b"MediaBox")
                .unwrap()
                .as_array()
                .unwrap()
                .clone();
            let num = |o: &lopdf::Object| {
                o.as_float()
                    .map(f64::from)
                    .or_else(|_| o.as_i64().map(|i| i as f64))
                    .unwrap()
            };
            assert!(
                (num(&media[2]) - w).abs() < 2.0 && (num(&media[3]) - h).abs() < 2.0,
                "{paper}: {media:?}"
            );
            let name = page.display();
            if is_quick(&page) {
                assert_eq!(
                    pages.len(),
                    1,
                    "{name} {paper}: the quick reference is one page"
                );
            } else if name.to_string().contains("the-search") && paper == "A4" {
                // Four pages until its readings were all declared (reshuffle and
                // police-on-criminal each explain their ambiguity): five now, and no more.
                assert!(
                    pages.len() <= 5,
                    "{name}: The Search's reference takes {} A4 pages",
                    pages.len()
                );
                // On paper the Source badges' appendix prints after the rules: its heading on
                // one of the last two pages (its table may run on to the last).
                let numbers: Vec<u32> = pages.keys().copied().collect();
                let text = doc
                    .extract_text(&numbers[numbers.len().saturating_sub(2)..])
                    .unwrap_or_default();
                assert!(
                    text.contains("Values not printed"),
                    "{name}: the appendix is not printed: {text}"
                );
            }
        }
    }
    assert!(
        foot_failures.is_empty(),
        "a heading, caption or table header alone at a page's foot:\n{}",
        foot_failures.join("\n")
    );
}

#[test]
fn dark_mode_changes_the_page_colours() {
    let Some(chrome) = common::chromium() else {
        eprintln!("skipping: chromium not found (install Debian's `chromium` or set CHROMIUM)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let page = build(dir.path())
        .into_iter()
        .find(|p| p.to_string_lossy().contains("aether") && !is_quick(p))
        .unwrap();
    let copy = probe_copy(&page, dir.path());
    let frame = harness(&copy, dir.path(), DESKTOP.0, DESKTOP.1);
    let probe = |extra: &[&str]| {
        let mut args = vec![
            format!("--window-size={},{}", DESKTOP.0, DESKTOP.1 + 40),
            "--dump-dom".to_string(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        probe_result(&run(&chrome, profile.path(), &args, &url(&frame)))
    };
    let light = probe(&[]);
    let dark = probe(&["--force-dark-mode"]);
    assert_eq!(light["dark"], false, "{light}");
    assert_eq!(dark["dark"], true, "{dark}");
    assert_ne!(light["background"], dark["background"]);
    assert_ne!(light["ink"], dark["ink"]);
}

#[test]
fn the_overflow_probe_catches_a_page_that_is_too_wide() {
    let Some(chrome) = common::chromium() else {
        eprintln!("skipping: chromium not found (install Debian's `chromium` or set CHROMIUM)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let page = dir.path().join("wide.html");
    std::fs::write(&page, "<!DOCTYPE html><html><body><a href=\"#nowhere\">x</a><div style=\"width:600px\">wide</div></body></html>").unwrap();
    let copy = probe_copy(&page, dir.path());
    let frame = harness(&copy, dir.path(), PHONE.0, PHONE.1);
    let r = probe_result(&run(
        &chrome,
        profile.path(),
        &["--window-size=600,840".into(), "--dump-dom".into()],
        &url(&frame),
    ));
    assert!(
        r["scroll"].as_u64().unwrap() > r["client"].as_u64().unwrap(),
        "{r}"
    );
    assert!(!r["wide"].as_array().unwrap().is_empty(), "{r}");
    assert_eq!(r["dangling"][0], "nowhere");
}
