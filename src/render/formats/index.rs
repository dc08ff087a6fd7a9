//! `output/<slug>/index.html`: one page that shows what a build made: every card and token
//! image, grouped by deck and kind, with the backs (each deck's, each card's and piece's
//! own) and the boards, and links to the PDFs and rules pages. It is static HTML
//! (no script, no remote load, a Content-Security-Policy that forbids both). While
//! `printplay watch` runs it carries a refresh so the open page follows each rebuild; when
//! `watch` stops it is written again without one. When the data does not build, `watch`
//! writes the page with the problems on it, above the files of the last build that worked.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::diag::Problem;
use crate::model::Game;
use crate::render::xml_escape;

/// The file name of the gallery inside a game's output folder.
pub const INDEX_FILE: &str = "index.html";

/// Seconds between reloads of the page while `watch` runs.
const LIVE_RELOAD_SECONDS: u32 = 1;

/// Writes the gallery of what `dir` (a game's output folder) holds now.
pub fn write_index(game: &Game, dir: &Path, live: bool) -> Result<PathBuf, String> {
    write_status(Some(game), &game.slug, dir, live, &[])
}

/// Writes the gallery of what `dir` holds now, with `problems` (why the data did not build)
/// above it; `game` is `None` when the data does not even load, and the page then shows the
/// images the folder holds by file name.
pub fn write_status(
    game: Option<&Game>,
    slug: &str,
    dir: &Path,
    live: bool,
    problems: &[Problem],
) -> Result<PathBuf, String> {
    let html = status_html(game, slug, dir, live, problems);
    let path = dir.join(INDEX_FILE);
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))
        .and_then(|()| {
            crate::output::write_atomic(&path, html.as_bytes())
                .map_err(|e| format!("{}: {e}", path.display()))
        })?;
    Ok(path)
}

/// The gallery page; only files that exist in `dir` are shown or linked.
pub fn index_html(game: &Game, dir: &Path, live: bool) -> String {
    status_html(Some(game), &game.slug, dir, live, &[])
}

/// The gallery page with the problems that stopped the last build, if any.
pub fn status_html(
    game: Option<&Game>,
    slug: &str,
    dir: &Path,
    live: bool,
    problems: &[Problem],
) -> String {
    let mut page = String::new();
    let title = xml_escape(game.map_or(slug, |g| g.info.name.as_str()));
    page.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    page.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         img-src 'self'; style-src 'unsafe-inline'\">\n",
    );
    page.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    if live {
        let _ = writeln!(
            page,
            "<meta http-equiv=\"refresh\" content=\"{LIVE_RELOAD_SECONDS}\">"
        );
    }
    let _ = writeln!(page, "<title>{title}: print files</title>");
    page.push_str(STYLE);
    page.push_str("</head>\n<body>\n");
    let _ = writeln!(page, "<h1>{title}</h1>");
    if live {
        page.push_str("<p class=\"note\">Rebuilt by <code>printplay watch</code>; this page reloads itself while it runs.</p>\n");
    }
    page.push_str(&problem_list(problems));
    page.push_str(&links(dir));
    match game {
        Some(game) => {
            page.push_str(&card_gallery(game, dir));
            page.push_str(&token_gallery(game, dir));
            page.push_str(&board_gallery(game, dir));
        }
        None => page.push_str(&image_files(dir)),
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// Why the data did not build, each problem as `check` prints it (escaped: the data's own
/// text is in it).
fn problem_list(problems: &[Problem]) -> String {
    if problems.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<section class=\"problems\">\n<h2>Not built: {}</h2>\n\
         <p>The files below are from the last build that worked. Fix these and save; the page \
         follows.</p>\n",
        crate::messages::count_of(problems.len(), "problem", "problems")
    );
    for p in problems {
        let _ = writeln!(out, "<pre>{}</pre>", xml_escape(&p.render(false)));
    }
    out.push_str("</section>\n");
    out
}

/// A figure per PNG image the folder holds, by file name: the gallery of a game whose data
/// does not load, so its cards cannot be named.
fn image_files(dir: &Path) -> String {
    // `png/` and its language folders (`png/<lang>/`, cards printed in several languages).
    let listed = |sub: &str| -> Vec<String> {
        std::fs::read_dir(dir.join("png").join(sub))
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| !n.starts_with('.'))
            .collect()
    };
    let top = listed("");
    let mut names: Vec<String> = top
        .iter()
        .filter(|n| n.ends_with(".png"))
        .cloned()
        .chain(
            top.iter()
                .filter(|n| dir.join("png").join(n).is_dir())
                .flat_map(|sub| {
                    listed(sub)
                        .into_iter()
                        .filter(|n| n.ends_with(".png"))
                        .map(move |n| format!("{sub}/{n}"))
                }),
        )
        .collect();
    if names.is_empty() {
        return String::new();
    }
    names.sort();
    let figures: String = names
        .iter()
        .map(|n| {
            let (file, name) = (xml_escape(&format!("png/{n}")), xml_escape(n));
            format!(
                "<figure><a href=\"{file}\"><img src=\"{file}\" alt=\"{name}\" loading=\"lazy\"></a>\
                 <figcaption>{name}</figcaption></figure>\n"
            )
        })
        .collect();
    format!("<h2>Images</h2>\n<div class=\"grid\">\n{figures}</div>\n")
}

const STYLE: &str = "<style>
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 1rem auto; max-width: 80rem; padding: 0 1rem; }
ul.files { columns: 16rem; }
.grid { display: flex; flex-wrap: wrap; gap: 0.75rem; }
figure { margin: 0; width: 9rem; }
.boards figure { width: 20rem; }
figure img { width: 100%; height: auto; border: 1px solid #8888; }
figcaption { font-size: 0.8rem; overflow-wrap: anywhere; }
.note { font-style: italic; }
.problems { border: 2px solid #c0392b; padding: 0 1rem; }
.problems pre { white-space: pre-wrap; overflow-wrap: anywhere; }
</style>
";

/// Links to every PDF, rules page and Tabletop Simulator object the folder holds (its own and
/// those of `shop/` and `tts/`), sorted by path.
fn links(dir: &Path) -> String {
    let mut names: Vec<String> = ["", "shop/", "tts/", "sim/"]
        .iter()
        .flat_map(|sub| {
            std::fs::read_dir(dir.join(sub))
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .filter_map(move |e| e.file_name().to_str().map(|n| format!("{sub}{n}")))
        })
        .filter(|n| n != INDEX_FILE && !n.rsplit('/').next().unwrap_or("").starts_with('.'))
        .filter(|n| {
            [".pdf", ".html", ".md", ".json"]
                .iter()
                .any(|x| n.ends_with(x))
        })
        .collect();
    names.sort();
    let mut out = String::from("<h2>Files</h2>\n<ul class=\"files\">\n");
    for n in &names {
        let n = xml_escape(n);
        let _ = writeln!(out, "<li><a href=\"{n}\">{n}</a></li>");
    }
    out.push_str("</ul>\n");
    out
}

/// A figure per card design whose image the build wrote, grouped by deck, then the deck's
/// back and each card's own back; a game printing its cards in several languages shows each
/// deck in each language (`png/<lang>/<id>.png`), with its cards' names in that language.
fn card_gallery(game: &Game, dir: &Path) -> String {
    use crate::render::faces::languages::{card_languages, card_name, deck_name, image_file};
    let langs = card_languages(game);
    let mut out = String::new();
    for deck in &game.components.decks {
        let sections: Vec<Option<&str>> = if langs.is_empty() || deck.multilingual {
            vec![None]
        } else {
            langs.iter().copied().map(Some).collect()
        };
        for lang in sections {
            let mut figures: String = deck
                .cards
                .iter()
                .filter_map(|c| {
                    let name = lang.map_or(c.name.as_str(), |l| card_name(c, l));
                    figure(
                        dir,
                        &image_file(c.id.get_ref(), lang),
                        name,
                        Some(c.count.0),
                    )
                })
                .collect();
            let deck_title = match lang {
                Some(l) => deck_name(deck, l).to_string(),
                None => deck.name.clone(),
            };
            let back = format!("{deck_title} (back)");
            figures.extend(figure(
                dir,
                &crate::render::deck_back_image(deck.id.get_ref(), lang),
                &back,
                None,
            ));
            for c in deck.cards.iter().filter(|c| c.back.is_some()) {
                let name = lang.map_or(c.name.as_str(), |l| card_name(c, l));
                let name = format!("{name} (back)");
                figures.extend(figure(
                    dir,
                    &crate::render::back_image(c.id.get_ref(), lang),
                    &name,
                    None,
                ));
            }
            if !figures.is_empty() {
                let heading = match lang {
                    Some(l) => format!("{deck_title} ({l})"),
                    None => deck_title,
                };
                let _ = write!(
                    out,
                    "<h2>{}</h2>\n<div class=\"grid\">\n{figures}</div>\n",
                    xml_escape(&heading)
                );
            }
        }
    }
    out
}

/// A figure per printed piece whose image the build wrote, and its back.
fn token_gallery(game: &Game, dir: &Path) -> String {
    let mut figures = String::new();
    for p in game.components.pieces.iter().filter(|p| p.print) {
        let id = p.id.get_ref();
        figures.extend(figure(
            dir,
            &format!("png/{id}.png"),
            &p.name,
            Some(p.count.0),
        ));
        let back = format!("{} (back)", p.name);
        figures.extend(figure(
            dir,
            &crate::render::back_image(id, None),
            &back,
            None,
        ));
    }
    if figures.is_empty() {
        return String::new();
    }
    format!("<h2>Tokens and tiles</h2>\n<div class=\"grid\">\n{figures}</div>\n")
}

/// A figure per board image the build wrote, in each language it prints in.
fn board_gallery(game: &Game, dir: &Path) -> String {
    let mut figures = String::new();
    for job in crate::render::faces::drawn::board_jobs(game) {
        let id = job.board.id.get_ref();
        let name = match job.suffix {
            Some(lang) => format!("{id} ({lang})"),
            None => id.clone(),
        };
        figures.extend(figure(
            dir,
            &crate::render::board_image(id, job.suffix),
            &name,
            None,
        ));
    }
    if figures.is_empty() {
        return String::new();
    }
    format!("<h2>Boards</h2>\n<div class=\"grid boards\">\n{figures}</div>\n")
}

/// A figure of the image `file` (relative to `dir`) when the build wrote it, captioned with
/// `name` and how many copies print.
fn figure(dir: &Path, file: &str, name: &str, count: Option<u32>) -> Option<String> {
    if !dir.join(file).is_file() {
        return None;
    }
    let (file, name) = (xml_escape(file), xml_escape(name));
    let copies = count.map_or(String::new(), |n| format!(" &times; {n}"));
    Some(format!(
        "<figure><a href=\"{file}\"><img src=\"{file}\" alt=\"{name}\" loading=\"lazy\"></a>\
         <figcaption>{name}{copies}</figcaption></figure>\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_that_does_not_load_shows_its_problems_and_the_images_left() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::create_dir_all(dir.join("png")).unwrap();
        std::fs::write(dir.join("png/a-card.png"), b"png").unwrap();
        // A card printed per language has its image in its language's folder.
        std::fs::create_dir_all(dir.join("png/fi")).unwrap();
        std::fs::write(dir.join("png/fi/a-card.png"), b"png").unwrap();
        std::fs::write(dir.join("cards.pdf"), b"pdf").unwrap();
        let problems = [Problem::data("field `<b>` & \"x\" ]]> is wrong")];
        let live = status_html(None, "my-game", dir, true, &problems);
        assert!(live.contains("<meta http-equiv=\"refresh\""), "{live}");
        assert!(live.contains("Not built: 1 problem<"), "{live}");
        assert!(
            live.contains("field `&lt;b&gt;` &amp; &quot;x&quot; ]]&gt; is wrong"),
            "{live}"
        );
        assert!(!live.contains("<b>"), "{live}");
        assert!(live.contains("src=\"png/a-card.png\"") && live.contains("href=\"cards.pdf\""));
        assert!(live.contains("src=\"png/fi/a-card.png\""), "{live}");
        let settled = status_html(None, "my-game", dir, false, &problems);
        assert!(!settled.contains("refresh"), "{settled}");
        assert!(settled.contains("Not built"), "{settled}");
        let clean = status_html(None, "my-game", dir, false, &[]);
        assert!(
            !clean.contains("Not built") && !clean.contains("refresh"),
            "{clean}"
        );
    }

    /// The gallery shows every deck's back, each card's and piece's own back, and each board,
    /// as the build's `png` stage wrote them (the scaffold's Lua game has each kind).
    #[test]
    fn the_gallery_shows_backs_tokens_and_boards() {
        let tmp = tempfile::tempdir().unwrap();
        crate::scaffold::new_game_with_engine(tmp.path(), "g", "lua").unwrap();
        let out = tmp.path().join("out");
        let options = crate::render::BuildOptions {
            out: out.clone(),
            only: ["png", "index"].map(String::from).into_iter().collect(),
            ..Default::default()
        };
        let report = crate::pipeline::build(tmp.path(), &["g".to_string()], &options, &|_| {});
        assert!(
            report.problems().iter().all(Problem::is_warning),
            "{:?}",
            report.problems()
        );
        let game = crate::model::load_game(tmp.path(), "g").unwrap();
        let html = std::fs::read_to_string(out.join("g").join(INDEX_FILE)).unwrap();
        let mut shown = Vec::new();
        for deck in &game.components.decks {
            shown.push(crate::render::deck_back_image(deck.id.get_ref(), None));
            for c in deck.cards.iter().filter(|c| c.back.is_some()) {
                shown.push(crate::render::back_image(c.id.get_ref(), None));
            }
        }
        for p in &game.components.pieces {
            if p.print && (p.back.is_some() || p.back_art.is_some()) {
                shown.push(crate::render::back_image(p.id.get_ref(), None));
            }
        }
        for b in &game.components.boards {
            shown.push(crate::render::board_image(b.id.get_ref(), None));
        }
        assert!(shown.len() >= 4, "{shown:?}");
        for file in shown {
            assert!(out.join("g").join(&file).is_file(), "{file} not written");
            assert!(
                html.contains(&format!("src=\"{file}\"")),
                "{file} not shown"
            );
        }
        assert!(html.contains("<h2>Boards</h2>"), "{html}");
    }
}
