//! Assembles one rules reference (a game in a language) into the context the templates render:
//! sections of blocks (prose, tables, figures), each already in the output format's markup.

use std::collections::BTreeMap;

use serde::Serialize;

use super::diagrams::{self, Figure};
use super::markdown;
use super::messages::Messages;
use super::placeholders::{Resolver, Val, Wording, fill};
use super::{Assets, Format, OutFile};
use crate::diag::Problem;
use crate::model::{Game, LangRules, Prose, SectionId, Source};

/// What the page template receives.
#[derive(Debug, Serialize)]
pub struct PageContext {
    pub lang: String,
    pub title: String,
    /// Credits: label and value, already escaped for the format.
    pub credits: Vec<(String, String)>,
    pub msg: BTreeMap<String, String>,
    pub sections: Vec<Section>,
    pub css: String,
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
    /// A table; `header` and every cell are rendered markup.
    Table {
        caption: String,
        header: Vec<String>,
        rows: Vec<Vec<Cell>>,
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
}

pub fn build(
    game: &Game,
    lang: &str,
    format: Format,
    assets: &Assets,
    sim_charts: &[String],
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
    };
    let (mut sections, extra_files) = w.sections(assets);
    if !sim_charts.is_empty() {
        let block = w.sim_links(sim_charts);
        if let Some(s) = sections
            .iter_mut()
            .find(|s| s.id == SectionId::Variants.key())
        {
            s.blocks.push(block);
        }
    }
    if !w.problems.is_empty() {
        return Err(w.problems);
    }
    let credits = w.credits();
    if !w.problems.is_empty() {
        return Err(w.problems);
    }
    Ok(Page {
        context: PageContext {
            lang: lang.to_string(),
            title: game.name_in(lang).to_string(),
            credits,
            msg: msgs.text.clone(),
            sections,
            css: assets.css.clone(),
        },
        extra_files,
    })
}

impl Writer<'_> {
    fn msg(&mut self, key: &str) -> String {
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
        let wording = Wording {
            separator: &self.msgs.list_separator,
            plural: self.msgs.plural,
            nouns: vec![&self.rules.text.nouns, &self.msgs.nouns],
        };
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
        match self.format {
            Format::Html => markdown::to_html(&md),
            Format::Md => md.trim().to_string(),
        }
    }

    /// A short text (table cell, caption) in the output format.
    fn inline(&mut self, prose: &Prose) -> String {
        let md = self.filled(prose);
        match self.format {
            Format::Html => markdown::to_inline_html(&md),
            Format::Md => markdown::as_cell(&md),
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
        let rulebook_lang = self
            .msgs
            .text
            .get(&format!("language_{}", info.rulebook_language));
        if let Some(book) = &info.rulebook {
            let rulebook = match rulebook_lang {
                Some(l) => format!("{} ({l})", self.plain(book)),
                None => self.plain(book),
            };
            out.push((self.msg("source_rulebook"), rulebook));
        }
        out
    }

    fn sections(&mut self, assets: &Assets) -> (Vec<Section>, Vec<OutFile>) {
        let mut files = Vec::new();
        let mut sections = Vec::new();
        for id in SectionId::ALL {
            let mut blocks = match id {
                SectionId::Overview => vec![self.prose_block(&self.rules.text.overview.clone())],
                SectionId::Goal => vec![self.prose_block(&self.rules.text.goal.clone())],
                SectionId::Setup => vec![self.prose_block(&self.rules.text.setup.clone())],
                SectionId::Turn => vec![self.prose_block(&self.rules.text.turn.clone())],
                SectionId::End => vec![self.prose_block(&self.rules.text.end.clone())],
                SectionId::Quick => vec![self.prose_block(&self.rules.text.quick.clone())],
                SectionId::Components => vec![self.components_table()],
                SectionId::Variants => self.variants(),
                SectionId::Glossary => self.glossary(),
                SectionId::Unprinted => self.unprinted(),
            };
            if id == SectionId::Glossary && blocks.is_empty() {
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
            let title = self.msg(&format!("section_{}", id.key()));
            sections.push(Section {
                id: id.key().to_string(),
                anchor: heading_anchor(&title),
                title,
                blocks,
            });
        }
        (sections, files)
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
            caption: self.msg(caption),
            header: header.iter().map(|h| self.plain(h)).collect(),
            rows,
        }
    }

    /// The components table: every deck, piece (or piece kind), board and track of the data.
    fn components_table(&mut self) -> Block {
        let game = self.game;
        let mut rows = Vec::new();
        for d in &game.components.decks {
            let copies: i64 = d.cards.iter().map(|c| i64::from(c.count.0)).sum();
            let mut sources = vec![&d.counts];
            sources.extend(d.fields.values().map(|f| &f.source));
            sources.extend(d.cards.iter().flat_map(|c| c.sources.values()));
            let name = d.names.get(self.lang).unwrap_or(&d.name).clone();
            rows.push(self.component_row(
                &format!("deck.{}", d.id.get_ref()),
                &name,
                copies,
                &sources,
            ));
        }
        let mut kinds_done = Vec::new();
        for p in &game.components.pieces {
            let kind_key = format!("pieces.{}", p.kind);
            if self.rules.text.components.contains_key(&kind_key) {
                if kinds_done.contains(&p.kind) {
                    continue;
                }
                kinds_done.push(p.kind.clone());
                let all: Vec<_> = game.pieces_of_kind(&p.kind).collect();
                let copies = all.iter().map(|x| i64::from(x.count.0)).sum();
                let sources: Vec<&Source> = all.iter().map(|x| &x.source).collect();
                rows.push(self.component_row(&kind_key, &p.kind, copies, &sources));
            } else {
                let name = p.names.get(self.lang).unwrap_or(&p.name).clone();
                rows.push(self.component_row(
                    &format!("piece.{}", p.id.get_ref()),
                    &name,
                    p.count.0.into(),
                    &[&p.source],
                ));
            }
        }
        for b in &game.components.boards {
            let name = b.names.get(self.lang).unwrap_or(&b.name).clone();
            rows.push(self.component_row(
                &format!("board.{}", b.id.get_ref()),
                &name,
                1,
                &[&b.source],
            ));
        }
        for t in &game.components.tracks {
            let name = t.names.get(self.lang).unwrap_or(&t.name).clone();
            rows.push(self.component_row(
                &format!("track.{}", t.id.get_ref()),
                &name,
                1,
                &[&t.source],
            ));
        }
        self.table(
            "components_caption",
            &["col_component", "col_count", "col_purpose", "col_source"],
            rows,
        )
    }

    fn component_row(
        &mut self,
        key: &str,
        default_name: &str,
        count: i64,
        sources: &[&Source],
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
        let worst = sources
            .iter()
            .map(|s| match s {
                Source::Printed(_) | Source::Original(_) => 0,
                Source::Inferred(_) => 1,
                Source::Reconstructed(_) => 2,
            })
            .max()
            .unwrap_or(0);
        let word = self.msg(["printed", "inferred", "reconstructed"][worst]);
        let source = match (self.format, worst) {
            (Format::Html, 2) => format!(
                "<a class=\"badge\" href=\"#unprinted\">{}</a>",
                html_escape(&word)
            ),
            (Format::Html, _) => html_escape(&word),
            (Format::Md, 2) => format!(
                "**[{}](#{})**",
                markdown::escape_cell(&word),
                heading_anchor(&self.msg("section_unprinted"))
            ),
            (Format::Md, _) => markdown::escape_cell(&word),
        };
        vec![
            (self.plain(&name), None),
            (count.to_string(), None),
            (purpose, None),
            (source, None),
        ]
    }

    fn variants(&mut self) -> Vec<Block> {
        let mut blocks = Vec::new();
        if let Some(intro) = self.rules.text.variants_intro.clone() {
            blocks.push(self.prose_block(&intro));
        }
        if self.rules.text.variants.is_empty() {
            let none = self.msg("no_variants");
            blocks.push(Block::Prose {
                body: self.paragraph(&none),
            });
        }
        for v in self.rules.text.variants.clone() {
            blocks.push(Block::Heading {
                id: format!("variant-{}", v.id.get_ref()),
                text: self.plain(&v.title),
            });
            let ambiguity_label = self.msg("variant_ambiguity");
            let reading_label = self.msg("variant_reading");
            let option_label = self.msg("variant_option");
            let ambiguity = self.filled(&v.ambiguity);
            let reading = self.filled(&v.reading);
            let option = format!("`--variant {}={}`", v.id.get_ref(), v.default);
            let others = if v.values.is_empty() {
                String::new()
            } else {
                let values: Vec<String> = v.values.iter().map(|x| format!("`{x}`")).collect();
                format!(" ({}: {})", self.msg("variant_values"), values.join(", "))
            };
            let md = format!(
                "**{}** {}\n\n**{}** {}\n\n**{}** {option}{others}\n",
                markdown::escape(&ambiguity_label),
                ambiguity.trim(),
                markdown::escape(&reading_label),
                reading.trim(),
                markdown::escape(&option_label),
            );
            blocks.push(Block::Prose {
                body: match self.format {
                    Format::Html => markdown::to_html(&md),
                    Format::Md => md.trim().to_string(),
                },
            });
        }
        blocks
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

    /// Every value the rulebook does not print, with its reason (from `Game::unprinted()`).
    fn unprinted(&mut self) -> Vec<Block> {
        let intro = self.msg("unprinted_intro");
        let mut blocks = vec![Block::Prose {
            body: self.paragraph(&intro),
        }];
        let reason_lang = (self.lang != "en").then(|| "en".to_string());
        let rows: Vec<_> = self
            .game
            .unprinted()
            .into_iter()
            .map(|p| {
                let kind = self.msg(p.source.kind());
                let value = match self.format {
                    // A break opportunity after each dot keeps long paths from splitting mid-word.
                    Format::Html => format!(
                        "<code>{}</code>",
                        html_escape(&p.path).replace('.', ".<wbr>")
                    ),
                    Format::Md => format!("`{}`", p.path.replace('`', "'")),
                };
                vec![
                    (value, None),
                    (self.plain(&kind), None),
                    (self.plain(p.source.reason()), reason_lang.clone()),
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
                            Format::Md => text.alt.replace(['[', ']', '\n'], " "),
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
