//! Assembles one rules reference (a game in a language) into the context the templates render:
//! sections of blocks (prose, tables, figures), each already in the output format's markup.

use std::collections::BTreeMap;

use serde::Serialize;

use super::diagrams::{self, Figure};
use super::markdown;
use super::placeholders::{Resolver, Val, Wording, fill};
use super::{Assets, Format, OutFile};
use crate::diag::Problem;
use crate::messages::Messages;
use crate::model::{Game, LangRules, Prose, SectionId, Source};

mod stale;

/// What the page templates receive (`page.*` for the full reference, `quick.*` for the one-page
/// quick reference).
#[derive(Debug, Serialize)]
pub struct PageContext {
    pub lang: String,
    /// The game's name, escaped for the format.
    pub title: String,
    /// Credits: label and value, already escaped for the format.
    pub credits: Vec<(String, String)>,
    pub msg: BTreeMap<String, String>,
    /// The rules, in the order a player reads them.
    pub sections: Vec<Section>,
    /// Where the values come from and engine matters, after the rules.
    pub appendix: Vec<Section>,
    /// The appendix heading's anchor in Markdown renderers.
    pub appendix_anchor: String,
    /// The same page in the game's other languages.
    pub alternates: Vec<Alternate>,
    /// The quick reference's file (from the full page) or the full page's (from the quick one).
    pub companion: String,
    /// The quick reference: its prose and the key of colours and symbols.
    pub quick: String,
    pub key: Vec<KeyGroup>,
    pub css: String,
}

/// A link to the same page in another language.
#[derive(Debug, Serialize)]
pub struct Alternate {
    pub lang: String,
    pub href: String,
    /// The language's name in itself (`suomi`).
    pub name: String,
}

/// One group of the colour and symbol key.
#[derive(Debug, Serialize)]
pub struct KeyGroup {
    pub title: String,
    pub items: Vec<KeyItem>,
}

#[derive(Debug, Serialize)]
pub struct KeyItem {
    /// The symbol drawn as a small inline SVG (HTML only).
    pub svg: String,
    pub name: String,
    /// The mark's name in words, so the key works without colour (Markdown, screen readers).
    pub mark: String,
}

/// A card or token image the build wrote, for the gallery.
#[derive(Debug, Serialize)]
pub struct GalleryItem {
    /// The image's path, escaped for the format.
    pub src: String,
    pub name: String,
    pub width: u32,
    pub height: u32,
}

#[derive(Debug, Serialize)]
pub struct Section {
    pub id: String,
    /// The anchor GitHub-style Markdown renderers give the section's heading.
    pub anchor: String,
    pub title: String,
    pub blocks: Vec<Block>,
}

/// One block of a section, in the output format's markup (HTML or Markdown).
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Block {
    /// Rendered prose.
    Prose { body: String },
    /// A level-3 heading inside a section.
    Heading { id: String, text: String },
    /// A table; `header` and every cell are rendered markup; `id` names a diagram's table.
    Table {
        id: Option<String>,
        caption: String,
        header: Vec<String>,
        rows: Vec<Vec<Cell>>,
    },
    /// The key of colours and symbols.
    Key { groups: Vec<KeyGroup> },
    /// The card and token images the build wrote, and the print files they come from.
    Gallery {
        intro: String,
        items: Vec<GalleryItem>,
        files: Vec<(String, String)>,
    },
    /// A diagram: inline SVG in HTML, a linked SVG file in Markdown.
    Figure {
        id: String,
        title: String,
        alt: String,
        svg: String,
        file: String,
        caption: String,
    },
}

#[derive(Debug, Serialize)]
pub struct Cell {
    pub body: String,
    /// The cell's language when it differs from the page's (provenance reasons are English).
    pub lang: Option<String>,
    /// The header of the cell's column, for narrow screens.
    pub label: String,
}

/// A page's context plus the files it links to.
pub struct Page {
    pub context: PageContext,
    pub extra_files: Vec<OutFile>,
}

/// Everything needed to write one reference.
struct Writer<'a> {
    game: &'a Game,
    lang: &'a str,
    format: Format,
    msgs: &'a Messages,
    rules: &'a LangRules,
    values: BTreeMap<String, Val>,
    problems: Vec<Problem>,
    /// Heading ids already used on the page.
    ids: BTreeMap<String, usize>,
}

pub fn build(
    game: &Game,
    lang: &str,
    format: Format,
    assets: &Assets,
    beside: &Beside,
) -> Result<Page, Vec<Problem>> {
    let msgs = assets.messages(lang).ok_or_else(|| {
        vec![Problem::data(format!(
            "{}: no message file for language `{lang}` (add templates/i18n/{lang}.toml)",
            game.slug
        ))]
    })?;
    let rules = game.rules.texts.get(lang).ok_or_else(|| {
        vec![
            Problem::data(format!(
                "{}: no rules prose in `{lang}`: write {}",
                game.slug,
                game.dir.join(crate::model::rules_text_file(lang)).display()
            ))
            .in_file(&game.game_file),
        ]
    })?;
    let values =
        diagrams::values(game).map_err(|e| vec![Problem::data(format!("{}: {e}", game.slug))])?;
    let mut w = Writer {
        game,
        lang,
        format,
        msgs,
        rules,
        values,
        problems: Vec::new(),
        ids: reserved_ids(),
    };
    let (sections, mut extra_files) = w.sections(assets, &SectionId::RULES, beside);
    let (mut appendix, appendix_files) = w.sections(assets, &SectionId::APPENDIX, beside);
    extra_files.extend(appendix_files);
    if !beside.sim_charts.is_empty() {
        let block = w.sim_links(&beside.sim_charts);
        if let Some(s) = appendix
            .iter_mut()
            .find(|s| s.id == SectionId::Options.key())
        {
            s.blocks.push(block);
        }
    }
    let quick = w.prose(&w.rules.text.quick.clone());
    // The quick page marks its stale texts as the full page's sections do theirs.
    let note = w.quick_stale_note();
    let quick = if note.is_empty() {
        quick
    } else {
        format!("{note}\n\n{quick}")
    };
    let key = w.key();
    let credits = w.credits();
    if !w.problems.is_empty() {
        return Err(w.problems);
    }
    let ext = format.extension();
    let alternates = game
        .info
        .languages
        .iter()
        .filter(|l| *l != lang)
        .map(|l| Alternate {
            lang: l.clone(),
            href: format!("rules.{l}.{ext}"),
            name: assets
                .messages(l)
                .map_or_else(|| l.clone(), |m| m.language.clone()),
        })
        .collect();
    Ok(Page {
        context: PageContext {
            lang: lang.to_string(),
            title: w.plain(game.name_in(lang)),
            credits,
            msg: page_messages(game, lang, msgs),
            sections,
            appendix,
            appendix_anchor: heading_anchor(
                page_messages(game, lang, msgs)
                    .get("appendix")
                    .map_or("", String::as_str),
            ),
            alternates,
            companion: format!("quick.{lang}.{ext}"),
            quick,
            key,
            css: assets.css.clone(),
        },
        extra_files,
    })
}

/// What lies beside a reference in its output folder, written by other commands: the build's
/// card and token images and print files, and the simulator's charts. The reference links
/// only what is there.
#[derive(Debug, Clone, Default)]
pub struct Beside {
    /// Chart file names under `sim/`.
    pub sim_charts: Vec<String>,
    /// Images under `png/`: the id of the card or piece (`<lang>/<id>` for a card printed
    /// once per language, `png/<lang>/<id>.png`) and the image's size in pixels.
    pub images: BTreeMap<String, (u32, u32)>,
    /// Print files beside the reference (`cards.pdf`, `tokens.pdf`, `board.pdf`, or
    /// `cards.<lang>.pdf` and `board.<lang>.pdf`, which only the page in that language
    /// links).
    pub print_files: Vec<String>,
}

/// A print file's kind and language: `board.fi.pdf` is (`board`, `fi`), `cards.pdf`
/// (`cards`, none).
fn print_file_parts(name: &str) -> (&str, Option<&str>) {
    let stem = name.trim_end_matches(".pdf");
    match stem.split_once('.') {
        Some((kind, lang)) => (kind, Some(lang)),
        None => (stem, None),
    }
}

/// Ids the page templates use themselves, so prose headings never take them.
fn reserved_ids() -> BTreeMap<String, usize> {
    let mut ids: BTreeMap<String, usize> = [
        "top",
        "main",
        "toc-title",
        "contents",
        "appendix",
        "languages",
    ]
    .iter()
    .map(|s| (s.to_string(), 1))
    .collect();
    for id in SectionId::RULES.iter().chain(&SectionId::APPENDIX) {
        ids.insert(id.key().to_string(), 1);
        ids.insert(format!("{}-h", id.key()), 1);
    }
    ids
}

impl Writer<'_> {
    /// An interface word; for an original design (no `rulebook`), its `<key>_original` form
    /// when the message file has one, which says nothing about a rulebook.
    fn msg(&mut self, key: &str) -> String {
        if self.game.is_original()
            && let Ok(s) = self.msgs.get(&format!("{key}_original"))
        {
            return s.to_string();
        }
        match self.msgs.get(key) {
            Ok(s) => s.to_string(),
            Err(e) => {
                self.problems.push(Problem::data(e));
                key.to_string()
            }
        }
    }

    /// Fills placeholders; problems point into the rules file.
    fn filled(&mut self, prose: &Prose) -> String {
        let resolver = Resolver {
            game: self.game,
            extra: &self.values,
        };
        let wording = Wording::new(self.msgs, Some(&self.rules.text.nouns));
        match fill(prose.get_ref(), &resolver, &wording) {
            Ok(s) => s,
            Err(errors) => {
                for e in errors {
                    self.problems
                        .push(super::validate::hole_problem(&self.rules.file, prose, &e));
                }
                String::new()
            }
        }
    }

    /// Prose as a block of the output format.
    fn prose(&mut self, prose: &Prose) -> String {
        let md = self.filled(prose);
        self.markup(&md)
    }

    /// Markdown (filled in) as a block of the output format; headings get ids and permalinks.
    fn markup(&mut self, md: &str) -> String {
        match self.format {
            Format::Html => {
                let label = self.msg("permalink");
                markdown::to_html_with_ids(md, &mut self.ids, &label)
            }
            Format::Md => {
                let linked = self.markdown_targets(md);
                markdown::to_safe_markdown(&linked).trim().to_string()
            }
        }
    }

    /// Cross-references name the HTML page's ids (`#turn`, `#variant-stacking`, `#fig-map`);
    /// in Markdown they become the anchors renderers give the headings they stand for.
    fn markdown_targets(&mut self, md: &str) -> String {
        let mut targets: Vec<(String, String)> = Vec::new();
        for id in SectionId::RULES.iter().chain(&SectionId::APPENDIX) {
            let title = self.msg(&format!("section_{}", id.key()));
            targets.push((id.key().to_string(), heading_anchor(&title)));
        }
        for v in &self.rules.text.variants {
            targets.push((
                format!("variant-{}", v.id.get_ref()),
                heading_anchor(&v.title),
            ));
        }
        for d in &self.game.rules.meta.diagrams {
            let title = self.msg(&format!("section_{}", d.section.key()));
            targets.push((format!("fig-{}", d.id.get_ref()), heading_anchor(&title)));
        }
        let mut out = md.to_string();
        for (id, anchor) in targets {
            out = out.replace(&format!("](#{id})"), &format!("](#{anchor})"));
        }
        out
    }

    /// A short text (table cell, caption) in the output format.
    fn inline(&mut self, prose: &Prose) -> String {
        let md = self.filled(prose);
        match self.format {
            Format::Html => markdown::to_inline_html(&md),
            Format::Md => markdown::as_cell(&markdown::to_safe_markdown(&md)),
        }
    }

    /// A plain value from the data, escaped for the format.
    fn plain(&self, text: &str) -> String {
        match self.format {
            Format::Html => html_escape(text),
            Format::Md => markdown::escape_cell(text),
        }
    }

    fn credits(&mut self) -> Vec<(String, String)> {
        let info = &self.game.info;
        let players = if info.players.min == info.players.max {
            info.players.min.to_string()
        } else {
            format!("{}–{}", info.players.min, info.players.max)
        };
        let mut out = vec![
            (self.msg("players"), players),
            (self.msg("designer"), self.plain(&info.designer)),
        ];
        if let Some(p) = &info.publisher {
            out.push((self.msg("publisher"), self.plain(p)));
        }
        if let Some(y) = info.year {
            out.push((self.msg("year"), y.to_string()));
        }
        // "(suomenkielinen)": the rulebook's language as an adjective where the file has one.
        let rulebook_lang = self
            .msgs
            .text
            .get(&format!("rulebook_language_{}", info.rulebook_language))
            .or_else(|| {
                self.msgs
                    .text
                    .get(&format!("language_{}", info.rulebook_language))
            });
        // The rulebook by its title (and its publisher, listed above), never its file name;
        // an original design cites none.
        if info.rulebook.is_some() {
            let title = self
                .game
                .rules
                .meta
                .rulebook_title
                .clone()
                .unwrap_or_else(|| info.name.clone());
            let rulebook = match rulebook_lang {
                Some(l) => format!("{} ({l})", self.plain(&title)),
                None => self.plain(&title),
            };
            out.push((self.msg("source_rulebook"), rulebook));
        }
        out
    }

    fn sections(
        &mut self,
        assets: &Assets,
        ids: &[SectionId],
        beside: &Beside,
    ) -> (Vec<Section>, Vec<OutFile>) {
        let mut files = Vec::new();
        let mut sections = Vec::new();
        for &id in ids {
            let mut blocks = match id {
                SectionId::Overview => vec![self.prose_block(&self.rules.text.overview.clone())],
                SectionId::Goal => vec![self.prose_block(&self.rules.text.goal.clone())],
                SectionId::Setup => vec![self.prose_block(&self.rules.text.setup.clone())],
                SectionId::Turn => vec![self.prose_block(&self.rules.text.turn.clone())],
                SectionId::End => vec![self.prose_block(&self.rules.text.end.clone())],
                SectionId::Quick => vec![self.prose_block(&self.rules.text.quick.clone())],
                SectionId::Components => self.components(beside),
                SectionId::Variants => self.variants(),
                SectionId::Glossary => {
                    let (mut blocks, icon_files) = self.icons();
                    files.extend(icon_files);
                    let mut terms = self.glossary();
                    terms.append(&mut blocks);
                    terms
                }
                SectionId::Unprinted => self.unprinted(),
                SectionId::Options => self.options(),
            };
            if id == SectionId::Glossary && blocks.is_empty() {
                continue;
            }
            if self.game.is_original() && self.says_only_of_a_rulebook(id, &blocks, beside) {
                continue;
            }
            for spec in self
                .game
                .rules
                .meta
                .diagrams
                .iter()
                .filter(|d| d.section == id)
            {
                if let Some((figure, file)) = self.figure(spec, assets) {
                    blocks.extend(figure);
                    files.extend(file);
                }
            }
            blocks.splice(0..0, self.stale_note(id));
            let title = self.msg(&format!("section_{}", id.key()));
            sections.push(Section {
                id: id.key().to_string(),
                anchor: heading_anchor(&title),
                title: self.plain(&title),
                blocks,
            });
        }
        (sections, files)
    }

    /// The components section: the table, the key of colours and symbols, the gallery.
    fn components(&mut self, beside: &Beside) -> Vec<Block> {
        let mut blocks = vec![self.components_table()];
        let groups = self.key();
        if !groups.is_empty() {
            blocks.push(Block::Key { groups });
        }
        blocks.extend(self.gallery(beside));
        blocks
    }

    /// Every symbol group of the game with its colours, each drawn with its mark and named.
    fn key(&mut self) -> Vec<KeyGroup> {
        let mut groups: Vec<String> = Vec::new();
        for s in &self.game.components.symbols {
            if !groups.contains(&s.group) {
                groups.push(s.group.clone());
            }
        }
        let mut out = Vec::new();
        for group in groups {
            let Some(title) = self.rules.text.symbol_groups.get(&group).cloned() else {
                self.problems.push(
                    Problem::data(format!(
                        "the rules prose has no name for the symbol group `{group}`: add it under [symbol_groups]"
                    ))
                    .in_file(&self.rules.file),
                );
                continue;
            };
            let items = self
                .game
                .symbols_in(&group)
                .map(|s| {
                    let name = s.names.get(self.lang).unwrap_or(&s.name).clone();
                    let mark_key = format!("mark_{}", s.mark);
                    let mark = self.msgs.get(&mark_key).unwrap_or(&s.mark).to_string();
                    KeyItem {
                        svg: format!(
                            r#"<svg class="swatch" width="22" height="22" viewBox="-1.1 -1.1 2.2 2.2" aria-hidden="true">{}</svg>"#,
                            crate::render::faces::marks::badge(s, 0.0, 0.0, 1.0)
                        ),
                        name: self.plain(&name),
                        mark: self.plain(&mark),
                    }
                })
                .collect();
            out.push(KeyGroup {
                title: self.plain(&title),
                items,
            });
        }
        out
    }

    /// The card and token images the build wrote beside the reference, in the data's order,
    /// linked to the print files they come from.
    fn gallery(&mut self, beside: &Beside) -> Option<Block> {
        let game = self.game;
        let mut named: Vec<(String, String)> = Vec::new();
        for d in &game.components.decks {
            for c in &d.cards {
                named.push((
                    c.id.get_ref().clone(),
                    c.names.get(self.lang).unwrap_or(&c.name).clone(),
                ));
            }
        }
        for p in &game.components.pieces {
            named.push((
                p.id.get_ref().clone(),
                p.names.get(self.lang).unwrap_or(&p.name).clone(),
            ));
        }
        const THUMB_WIDTH: u32 = 104;
        let items: Vec<GalleryItem> = named
            .into_iter()
            .filter_map(|(id, name)| {
                // The card's image in this page's language when it is printed in several.
                let in_lang = format!("{}/{id}", self.lang);
                let ((w, h), file) = match beside.images.get(&in_lang) {
                    Some(size) => (*size, format!("png/{in_lang}.png")),
                    None => (*beside.images.get(&id)?, format!("png/{id}.png")),
                };
                Some(GalleryItem {
                    src: match self.format {
                        Format::Html => html_escape(&file),
                        Format::Md => file,
                    },
                    name: self.plain(&name),
                    width: THUMB_WIDTH,
                    height: (f64::from(THUMB_WIDTH) * f64::from(h) / f64::from(w.max(1))).round()
                        as u32,
                })
            })
            .collect();
        if items.is_empty() {
            return None;
        }
        let files = beside
            .print_files
            .iter()
            .filter_map(|f| {
                let (stem, lang) = print_file_parts(f);
                if lang.is_some_and(|l| l != self.lang) {
                    return None;
                }
                Some((self.msg(&format!("file_{stem}")), f.clone()))
            })
            .collect();
        Some(Block::Gallery {
            intro: self.msg("gallery_intro"),
            items,
            files,
        })
    }

    fn prose_block(&mut self, prose: &Prose) -> Block {
        Block::Prose {
            body: self.prose(prose),
        }
    }

    fn table(
        &mut self,
        caption: &str,
        header_keys: &[&str],
        rows: Vec<Vec<(String, Option<String>)>>,
    ) -> Block {
        let header: Vec<String> = header_keys.iter().map(|k| self.msg(k)).collect();
        let rows = rows
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .zip(&header)
                    .map(|((body, lang), label)| Cell {
                        body,
                        lang,
                        label: label.clone(),
                    })
                    .collect()
            })
            .collect();
        Block::Table {
            id: None,
            caption: self.msg(caption),
            header: header.iter().map(|h| self.plain(h)).collect(),
            rows,
        }
    }

    /// The components table: every deck, piece (or piece kind), board and track of the data.
    /// Its Source column tells what is true of the count, and notes a reconstructed split or
    /// reconstructed values.
    fn components_table(&mut self) -> Block {
        let game = self.game;
        let mut rows = Vec::new();
        for d in &game.components.decks {
            let copies: i64 = d.cards.iter().map(|c| i64::from(c.count.0)).sum();
            let mut split = vec![&d.counts];
            split.extend(d.cards.iter().filter_map(|c| c.sources.get("count")));
            let mut values: Vec<&Source> = d.fields.values().map(|f| &f.source).collect();
            values.extend(
                d.cards
                    .iter()
                    .flat_map(|c| c.sources.iter())
                    .filter(|(k, _)| k.as_str() != "count")
                    .map(|(_, v)| v),
            );
            // A track printed on one of the deck's cards is counted with the deck: one row.
            let tracks: Vec<&crate::model::Track> = game
                .components
                .tracks
                .iter()
                .filter(|t| on_card_of(t, d))
                .collect();
            values.extend(tracks.iter().map(|t| &t.source));
            let name = d.names.get(self.lang).unwrap_or(&d.name).clone();
            let sources = CountSources {
                total_printed: self.total_is_printed(|i| i.decks == [d.id.get_ref().clone()]),
                split,
                values,
            };
            let mut row =
                self.component_row(&format!("deck.{}", d.id.get_ref()), &name, copies, &sources);
            for t in tracks {
                let key = format!("track.{}", t.id.get_ref());
                let Some(text) = self.rules.text.components.get(&key).cloned() else {
                    continue;
                };
                let track = text
                    .name
                    .clone()
                    .unwrap_or_else(|| t.names.get(self.lang).unwrap_or(&t.name).clone());
                let purpose = self.inline(&text.purpose);
                if let Some(cell) = row.get_mut(2) {
                    cell.0 = format!("{} {}: {purpose}", cell.0, self.plain(&track));
                }
            }
            rows.push(row);
        }
        let mut kinds_done = Vec::new();
        for p in &game.components.pieces {
            let kind_key = format!("pieces.{}", p.kind);
            let (key, name, group): (String, String, Vec<&crate::model::Piece>) =
                if self.rules.text.components.contains_key(&kind_key) {
                    if kinds_done.contains(&p.kind) {
                        continue;
                    }
                    kinds_done.push(p.kind.clone());
                    (
                        kind_key,
                        p.kind.clone(),
                        game.pieces_of_kind(&p.kind).collect(),
                    )
                } else {
                    let name = p.names.get(self.lang).unwrap_or(&p.name).clone();
                    (format!("piece.{}", p.id.get_ref()), name, vec![p])
                };
            let copies = group.iter().map(|x| i64::from(x.count.0)).sum();
            // A piece's source covers what is printed on it; its count is the invariant's.
            let total_printed = self.total_is_printed(|i| i.pieces == [p.kind.clone()]);
            let sources: Vec<&Source> = group.iter().map(|x| &x.source).collect();
            let sources = if total_printed {
                CountSources {
                    total_printed,
                    split: Vec::new(),
                    values: sources,
                }
            } else {
                CountSources {
                    total_printed,
                    split: sources,
                    values: Vec::new(),
                }
            };
            rows.push(self.component_row(&key, &name, copies, &sources));
        }
        for b in &game.components.boards {
            let name = b.names.get(self.lang).unwrap_or(&b.name).clone();
            let sources = CountSources {
                total_printed: true,
                split: Vec::new(),
                values: vec![&b.source],
            };
            rows.push(self.component_row(&format!("board.{}", b.id.get_ref()), &name, 1, &sources));
        }
        for t in &game.components.tracks {
            if game.components.decks.iter().any(|d| on_card_of(t, d)) {
                continue;
            }
            let name = t.names.get(self.lang).unwrap_or(&t.name).clone();
            let sources = CountSources {
                total_printed: true,
                split: Vec::new(),
                values: vec![&t.source],
            };
            rows.push(self.component_row(&format!("track.{}", t.id.get_ref()), &name, 1, &sources));
        }
        if self.game.is_original() {
            // The designer's own game: every value is theirs, and there is no rulebook to
            // have printed it.
            for row in &mut rows {
                row.truncate(3);
            }
            return self.table(
                "components_caption",
                &["col_component", "col_count", "col_purpose"],
                rows,
            );
        }
        self.table(
            "components_caption",
            &["col_component", "col_count", "col_purpose", "col_source"],
            rows,
        )
    }

    /// True when an invariant of the data checks a printed total of these cards or pieces: one
    /// deck or kind, every item counted, no filter or grouping.
    fn total_is_printed(&self, selects: impl Fn(&crate::model::Invariant) -> bool) -> bool {
        self.game.invariants.iter().any(|i| {
            selects(i)
                && i.filter.is_empty()
                && i.group_by.is_none()
                && i.measure == [crate::model::Measure::Cards]
                && (i.equals.is_some() || i.equals_param.is_some())
        })
    }

    fn component_row(
        &mut self,
        key: &str,
        default_name: &str,
        count: i64,
        sources: &CountSources,
    ) -> Vec<(String, Option<String>)> {
        let Some(text) = self.rules.text.components.get(key) else {
            self.problems.push(
                Problem::data(format!(
                    "{}: the rules prose has no [components.\"{key}\"] saying what it is for",
                    self.game.slug
                ))
                .in_file(&self.rules.file),
            );
            return Vec::new();
        };
        let name = text
            .name
            .clone()
            .unwrap_or_else(|| default_name.to_string());
        let purpose = self.inline(&text.purpose.clone());
        let split = worst(&sources.split);
        let values = worst(&sources.values);
        // The count itself: printed when an invariant checks a printed total, else as the split.
        let count_kind = if sources.total_printed { 0 } else { split };
        let mut source = self.badge(count_kind, None);
        if sources.total_printed && split > 0 {
            source.push_str(&self.source_note("note_split", split));
        }
        if values > 0 {
            source.push_str(&self.source_note("note_values", values));
        }
        vec![
            (self.plain(&name), None),
            (count.to_string(), None),
            (purpose, None),
            (source, None),
        ]
    }

    /// A provenance word (0 printed, 1 inferred, 2 reconstructed), as a badge linking to the
    /// appendix when the rulebook does not print it; `label` replaces the bare word.
    fn badge(&mut self, kind: usize, label: Option<String>) -> String {
        let word = self.msg(["printed", "inferred", "reconstructed"][kind.min(2)]);
        let text = label.unwrap_or(word);
        match (self.format, kind) {
            (Format::Html, 0) => html_escape(&text),
            (Format::Html, _) => format!(
                "<a class=\"badge badge-{}\" href=\"#unprinted\">{}</a>",
                ["printed", "inferred", "reconstructed"][kind.min(2)],
                html_escape(&text)
            ),
            (Format::Md, 0) => markdown::escape_cell(&text),
            (Format::Md, _) => format!(
                "**[{}](#{})**",
                markdown::escape_cell(&text),
                heading_anchor(&self.msg("section_unprinted"))
            ),
        }
    }

    /// A second line of the Source cell: "split: reconstructed".
    fn source_note(&mut self, key: &str, kind: usize) -> String {
        let word = self.msg(["printed", "inferred", "reconstructed"][kind.min(2)]);
        let label = self.msg(key).replacen("{}", &word, 1);
        let badge = self.badge(kind, Some(label));
        match self.format {
            Format::Html => format!("<br>{badge}"),
            Format::Md => format!("; {badge}"),
        }
    }

    /// The rulebook's open questions: each ambiguity with our reading, then the questions a new
    /// player asks that our reading settles. Engine options are in the appendix.
    fn variants(&mut self) -> Vec<Block> {
        let mut blocks = Vec::new();
        if let Some(intro) = self.rules.text.variants_intro.clone() {
            blocks.push(self.prose_block(&intro));
        }
        if self.rules.text.variants.is_empty()
            && self.rules.text.questions.is_empty()
            && !self.game.is_original()
        {
            let none = self.msg("no_variants");
            blocks.push(Block::Prose {
                body: self.paragraph(&none),
            });
        }
        let ambiguity_label = self.msg("variant_ambiguity");
        let reading_label = self.msg("variant_reading");
        for v in self.rules.text.variants.clone() {
            let id = format!("variant-{}", v.id.get_ref());
            self.ids.insert(id.clone(), 1);
            blocks.push(Block::Heading {
                id,
                text: self.plain(&v.title),
            });
            let ambiguity = self.filled(&v.ambiguity);
            let reading = self.filled(&v.reading);
            let md = format!(
                "**{}** {}\n\n**{}** {}\n",
                markdown::escape(&ambiguity_label),
                ambiguity.trim(),
                markdown::escape(&reading_label),
                reading.trim(),
            );
            blocks.push(Block::Prose {
                body: self.markup(&md),
            });
        }
        for (n, q) in self.rules.text.questions.clone().iter().enumerate() {
            let id = format!("question-{}", n + 1);
            self.ids.insert(id.clone(), 1);
            blocks.push(Block::Heading {
                id,
                text: self.plain(&q.question),
            });
            let answer = self.filled(&q.answer);
            let md = format!(
                "**{}** {}\n",
                markdown::escape(&reading_label),
                answer.trim()
            );
            blocks.push(Block::Prose {
                body: self.markup(&md),
            });
        }
        blocks
    }

    /// The appendix's engine options: each reading's name for `printplay simulate --variant`.
    fn options(&mut self) -> Vec<Block> {
        if self.game.is_original() && self.rules.text.variants.is_empty() {
            // No open question to play another way: the section holds only the charts.
            return Vec::new();
        }
        let intro = self.msg("options_intro");
        let mut blocks = vec![Block::Prose {
            body: self.paragraph(&intro),
        }];
        if self.rules.text.variants.is_empty() {
            return blocks;
        }
        let rows = self
            .rules
            .text
            .variants
            .clone()
            .iter()
            .map(|v| {
                let question = match self.format {
                    Format::Html => format!(
                        "<a href=\"#variant-{}\">{}</a>",
                        html_escape(v.id.get_ref()),
                        html_escape(&v.title)
                    ),
                    Format::Md => markdown::escape_cell(&v.title),
                };
                let option = self.code(&format!("{}={}", v.id.get_ref(), v.default));
                let others: Vec<String> = v
                    .values
                    .iter()
                    .filter(|x| **x != v.default)
                    .map(|x| self.code(x))
                    .collect();
                vec![(question, None), (option, None), (others.join(", "), None)]
            })
            .collect();
        blocks.push(self.table(
            "options_caption",
            &["col_question", "col_option", "col_values"],
            rows,
        ));
        blocks
    }

    /// An identifier as code that never breaks inside a word.
    fn code(&self, text: &str) -> String {
        match self.format {
            Format::Html => format!("<code class=\"id\">{}</code>", html_escape(text)),
            Format::Md => format!("`{}`", text.replace('`', "'")),
        }
    }

    /// Links to the simulation charts beside the reference.
    fn sim_links(&mut self, charts: &[String]) -> Block {
        let mut md = format!("{}\n\n", markdown::escape(&self.msg("sim_charts")));
        for name in charts {
            let label = markdown::escape(name.trim_end_matches(".svg"));
            md.push_str(&format!("- [{label}](sim/{name})\n"));
        }
        Block::Prose {
            body: match self.format {
                Format::Html => markdown::to_html(&md),
                Format::Md => md.trim().to_string(),
            },
        }
    }

    fn paragraph(&self, text: &str) -> String {
        match self.format {
            Format::Html => format!("<p>{}</p>", html_escape(text)),
            Format::Md => markdown::escape(text),
        }
    }

    /// The game's own icons, for the glossary: each drawn, named, and as text writes it. The
    /// drawing is a file beside the page (`rules.icon.ID.svg`, the image read through usvg, so
    /// nothing of the file but its drawing reaches it) that both formats link.
    fn icons(&mut self) -> (Vec<Block>, Vec<OutFile>) {
        let game = self.game;
        let mut rows = Vec::new();
        let mut files = Vec::new();
        for icon in &game.components.icons {
            let id = icon.id.get_ref();
            let Some(svg) =
                crate::render::faces::template::icon_svg(&game.dir, icon.image.get_ref())
            else {
                continue;
            };
            let file = format!("rules.icon.{id}.svg");
            let name = icon
                .names
                .get(self.lang)
                .or(icon.name.as_ref())
                .unwrap_or(id)
                .clone();
            let drawing = match self.format {
                Format::Html => format!(
                    r#"<img class="icon" src="{}" alt="{}" width="24" height="24">"#,
                    html_escape(&file),
                    html_escape(&name)
                ),
                Format::Md => format!("![{}]({file})", markdown::escape_cell(&name)),
            };
            let written = match self.format {
                Format::Html => format!("<code>[{}]</code>", html_escape(id)),
                Format::Md => format!("`[{id}]`"),
            };
            rows.push(vec![
                (drawing, None),
                (self.plain(&name), None),
                (written, None),
            ]);
            if !files.iter().any(|f: &OutFile| f.name == file) {
                files.push(OutFile {
                    name: file,
                    text: svg,
                });
            }
        }
        if rows.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let table = self.table(
            "icons_caption",
            &["col_icon", "col_name", "col_written"],
            rows,
        );
        (vec![table], files)
    }

    /// The glossary: this page's language first, then the game's other languages.
    fn glossary(&mut self) -> Vec<Block> {
        let terms = &self.game.rules.meta.terms;
        if terms.is_empty() {
            return Vec::new();
        }
        let mut langs = vec![self.lang.to_string()];
        langs.extend(
            self.game
                .info
                .languages
                .iter()
                .filter(|l| *l != self.lang)
                .cloned(),
        );
        let mut rows = Vec::new();
        for t in terms {
            let mut row = Vec::new();
            for l in &langs {
                let word = t.words.get(l).map(|w| w.get_ref().as_str()).unwrap_or("");
                let lang = (l != self.lang).then(|| l.clone());
                row.push((self.plain(word), lang));
            }
            let note = t.notes.get(self.lang).map(String::as_str).unwrap_or("");
            row.push((self.plain(note), None));
            rows.push(row);
        }
        let header_keys: Vec<String> = langs
            .iter()
            .map(|l| format!("language_{l}"))
            .chain(["col_note".to_string()])
            .collect();
        let keys: Vec<&str> = header_keys.iter().map(String::as_str).collect();
        let mut table = self.table("glossary_caption", &keys, rows);
        // Language names are lower case in some languages; a column header starts with a capital.
        if let Block::Table { header, rows, .. } = &mut table {
            for h in header.iter_mut() {
                *h = capitalise(h);
            }
            for cell in rows.iter_mut().flatten() {
                cell.label = capitalise(&cell.label);
            }
        }
        vec![table]
    }

    /// Every value the rulebook does not print, in words, rows that share a reason merged.
    fn unprinted(&mut self) -> Vec<Block> {
        let intro = self.msg("unprinted_intro");
        let mut blocks = vec![Block::Prose {
            body: self.paragraph(&intro),
        }];
        let separator = self.msg("value_separator");
        let rows: Vec<_> = super::provenance::rows(self.game, self.rules, self.lang, self.msgs)
            .into_iter()
            .map(|row| {
                let kind = self.msg(row.kind);
                vec![
                    (self.plain(&row.values.join(&separator)), None),
                    (self.plain(&kind), None),
                    (self.plain(&row.reason), row.reason_lang),
                ]
            })
            .collect();
        blocks.push(self.table(
            "unprinted_caption",
            &["col_value", "col_source", "col_reason"],
            rows,
        ));
        blocks
    }

    fn figure(
        &mut self,
        spec: &crate::model::DiagramSpec,
        assets: &Assets,
    ) -> Option<(Vec<Block>, Option<OutFile>)> {
        let id = spec.id.get_ref().clone();
        let Some(text) = self.rules.text.diagram.get(&id).cloned() else {
            self.problems.push(
                Problem::data(format!(
                    "{}: the rules prose has no [diagram.{id}] with its title, alt text and caption",
                    self.game.slug
                ))
                .in_file(&self.rules.file),
            );
            return None;
        };
        let caption = self.inline(&text.caption);
        let figure =
            match diagrams::draw(self.game, spec, &text, self.msgs, &assets.tera, self.lang) {
                Ok(f) => f,
                Err(e) => {
                    self.problems.push(Problem::data(format!(
                        "{}: diagram `{id}`: {e}",
                        self.game.slug
                    )));
                    return None;
                }
            };
        match figure {
            Figure::Table { header, rows } => {
                let rows = rows
                    .into_iter()
                    .map(|r| {
                        r.into_iter()
                            .zip(&header)
                            .map(|(body, label)| Cell {
                                body: self.plain(&body),
                                lang: None,
                                label: label.clone(),
                            })
                            .collect()
                    })
                    .collect();
                let table = Block::Table {
                    id: Some(format!("fig-{id}")),
                    caption: self.plain(&text.title),
                    header: header.iter().map(|h| self.plain(h)).collect(),
                    rows,
                };
                let explanation = Block::Prose {
                    body: match self.format {
                        Format::Html => format!("<p class=\"caption\">{caption}</p>"),
                        Format::Md => caption,
                    },
                };
                Some((vec![table, explanation], None))
            }
            Figure::Svg(svg) => {
                let file = format!("rules.{}.{id}.svg", self.lang);
                let extra = (self.format == Format::Md).then(|| OutFile {
                    name: file.clone(),
                    text: svg.clone(),
                });
                Some((
                    vec![Block::Figure {
                        id: format!("fig-{id}"),
                        title: self.plain(&text.title),
                        alt: match self.format {
                            Format::Html => html_escape(&text.alt),
                            Format::Md => markdown::escape_cell(&text.alt),
                        },
                        svg: if self.format == Format::Html {
                            svg
                        } else {
                            String::new()
                        },
                        file,
                        caption,
                    }],
                    extra,
                ))
            }
        }
    }
}

impl Writer<'_> {
    /// For an original design, whether a section would only speak of a rulebook the game does
    /// not have: where the values come from (the designer's own, all of them), open questions
    /// when there are none, and the simulator's readings when there are none and no charts.
    fn says_only_of_a_rulebook(&self, id: SectionId, blocks: &[Block], beside: &Beside) -> bool {
        match id {
            SectionId::Unprinted => true,
            SectionId::Variants => blocks.is_empty(),
            SectionId::Options => blocks.is_empty() && beside.sim_charts.is_empty(),
            _ => false,
        }
    }
}

/// The interface words the page templates receive: for an original design, each key's
/// `<key>_original` form where the message file has one (the footer and the appendix's
/// title say nothing about a rulebook).
fn page_messages(game: &Game, lang: &str, msgs: &Messages) -> BTreeMap<String, String> {
    let mut text = msgs.text.clone();
    // A page with one other language names it in the label's own grammar ("Sivu englanniksi").
    if let [other] = game
        .info
        .languages
        .iter()
        .filter(|l| *l != lang)
        .collect::<Vec<_>>()
        .as_slice()
        && let Some(label) = msgs.text.get(&format!("language_switch_{other}"))
    {
        text.insert("language_switch".to_string(), label.clone());
    }
    if game.is_original() {
        for (key, value) in &msgs.text {
            if let Some(plain) = key.strip_suffix("_original") {
                text.insert(plain.to_string(), value.clone());
            }
        }
    }
    text
}

/// The provenance of a component's count and values.
struct CountSources<'a> {
    /// An invariant checks the total against a printed number.
    total_printed: bool,
    /// The sources of how the total splits into designs.
    split: Vec<&'a Source>,
    /// The sources of the values printed on the component.
    values: Vec<&'a Source>,
}

/// The least certain of some sources: 0 printed, 1 inferred, 2 reconstructed.
/// True when the track is printed on a card of the deck.
fn on_card_of(track: &crate::model::Track, deck: &crate::model::Deck) -> bool {
    track
        .card
        .as_ref()
        .is_some_and(|c| deck.cards.iter().any(|x| x.id.get_ref() == c))
}

fn worst(sources: &[&Source]) -> usize {
    sources
        .iter()
        .map(|s| match s {
            Source::Printed(_) | Source::Original(_) => 0,
            Source::Inferred(_) => 1,
            Source::Reconstructed(_) => 2,
        })
        .max()
        .unwrap_or(0)
}

/// Escapes text for HTML element content and attribute values.
pub fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The anchor a GitHub-style renderer gives a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces turned into `-`, everything else dropped.
pub fn heading_anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The text with its first letter in upper case.
fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
