//! The rules document ([`crate::rules::document`], built in its Markdown form) as the blocks
//! the rulebook lays out: its structure (sections, headings, tables, figures) as the
//! document gives it, and each block's Markdown read with pulldown-cmark into styled text.

use std::collections::BTreeMap;
use std::sync::Arc;

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

use super::layout::{Block, Cell, Placing, Role};
use super::text::{self, Frag, Style};
use crate::render::faces::fonts::FontDb;
use crate::rules::document::{self, PageContext, heading_anchor};
use crate::rules::{OutFile, markdown};

/// The rulebook's blocks, where each is placed (section, question group), and the titles
/// of the sections (for the running heads; the first is the front matter's, empty).
pub struct Flow {
    pub blocks: Vec<Block>,
    pub placing: Vec<Placing>,
    pub sections: Vec<String>,
    pub title: String,
}

struct Builder<'a> {
    flow: Flow,
    section: usize,
    group: Option<usize>,
    groups: usize,
    lists: usize,
    fonts: &'a FontDb,
    files: &'a [OutFile],
    /// Diagrams already read, by file name (a book is laid out on three papers).
    trees: &'a mut BTreeMap<String, Arc<usvg::Tree>>,
    body: f32,
}

/// Markdown of one line (a title, a cell) as plain text: its escapes read.
fn unescape(md: &str) -> String {
    text::frags_of(Parser::new_ext(md, markdown::options()))
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if f.space_before && i > 0 {
                format!(" {}", f.text)
            } else {
                f.text.clone()
            }
        })
        .collect()
}

/// Inline Markdown as fragments.
fn inline(md: &str) -> Vec<Frag> {
    text::frags_of(Parser::new_ext(md, markdown::options()))
}

pub fn build(
    ctx: &PageContext,
    files: &[OutFile],
    fonts: &FontDb,
    trees: &mut BTreeMap<String, Arc<usvg::Tree>>,
    body: f32,
) -> Flow {
    let title = unescape(&ctx.title);
    let mut b = Builder {
        flow: Flow {
            blocks: Vec::new(),
            placing: Vec::new(),
            sections: vec![String::new()],
            title: title.clone(),
        },
        section: 0,
        group: None,
        groups: 0,
        lists: 0,
        fonts,
        files,
        trees,
        body,
    };
    let msg = |k: &str| ctx.msg.get(k).cloned().unwrap_or_default();
    let heading = format!("{title}: {}", msg("title_rules"));
    b.text(
        Role::Title,
        text::plain(&heading, Style::default()),
        vec!["top".into()],
    );
    // The credits, a line each.
    let mut credits = Vec::new();
    for (label, value) in &ctx.credits {
        if !credits.is_empty() {
            credits.push(Frag {
                text: String::new(),
                style: Style::default(),
                link: None,
                space_before: false,
                hard_break: true,
            });
        }
        credits.extend(text::plain(&format!("{}:", unescape(label)), bold()));
        let mut v = inline(value);
        if let Some(f) = v.first_mut() {
            f.space_before = true;
        }
        credits.extend(v);
    }
    b.text(Role::Body, credits, Vec::new());
    // The contents, each line with its page.
    b.text(
        Role::Sub,
        text::plain(&msg("contents"), Style::default()),
        vec!["contents".into()],
    );
    let mut n = 0;
    for s in &ctx.sections {
        n += 1;
        let t = format!("{n}. {}", unescape(&s.title));
        b.text(
            Role::Toc(s.id.clone()),
            text::plain(&t, Style::default()),
            Vec::new(),
        );
    }
    if !ctx.appendix.is_empty() {
        n += 1;
        let t = format!("{n}. {}", msg("appendix"));
        b.text(
            Role::Toc("appendix".into()),
            text::plain(&t, Style::default()),
            Vec::new(),
        );
    }
    for s in &ctx.sections {
        b.section(s, 0);
    }
    if !ctx.appendix.is_empty() {
        let t = msg("appendix");
        b.flow.sections.push(t.clone());
        b.section = b.flow.sections.len() - 1;
        b.heading(
            Role::Section,
            &t,
            vec!["appendix".into(), ctx.appendix_anchor.clone()],
            0,
        );
        for s in &ctx.appendix {
            b.section(s, 1);
        }
    }
    let footer = msg("footer");
    if !footer.is_empty() {
        b.text(
            Role::Caption,
            text::plain(&footer, Style::default()),
            Vec::new(),
        );
    }
    b.flow
}

fn bold() -> Style {
    Style {
        bold: true,
        ..Style::default()
    }
}

impl Builder<'_> {
    fn push(&mut self, block: Block) {
        self.flow.blocks.push(block);
        self.flow.placing.push(Placing {
            section: self.section,
            group: self.group,
        });
    }

    fn text(&mut self, role: Role, frags: Vec<Frag>, anchors: Vec<String>) {
        self.push(Block::Text {
            role,
            frags,
            indent: 0.0,
            label: None,
            list: None,
            anchors,
            keep_with_next: false,
            whole: false,
            outline: None,
        });
    }

    fn heading(&mut self, role: Role, title: &str, anchors: Vec<String>, level: usize) {
        self.push(Block::Text {
            role,
            frags: text::plain(title, Style::default()),
            indent: 0.0,
            label: None,
            list: None,
            anchors,
            keep_with_next: true,
            whole: false,
            outline: Some((level, title.to_string())),
        });
    }

    fn section(&mut self, s: &document::Section, level: usize) {
        let title = unescape(&s.title);
        self.flow.sections.push(title.clone());
        self.section = self.flow.sections.len() - 1;
        // The appendix's sections are headed one level down.
        let role = if level == 0 { Role::Section } else { Role::Sub };
        self.heading(role, &title, vec![s.id.clone(), s.anchor.clone()], level);
        let mut after_question = false;
        for (i, block) in s.blocks.iter().enumerate() {
            let next_is_table = matches!(
                s.blocks.get(i + 1),
                Some(document::Block::Table { .. } | document::Block::Key { .. })
            );
            let figure_table = matches!(block, document::Block::Table { id: Some(_), .. });
            match block {
                document::Block::Prose { body } => {
                    let caption = i > 0
                        && matches!(
                            s.blocks.get(i - 1),
                            Some(document::Block::Table { id: Some(_), .. })
                        );
                    self.prose(body, next_is_table, after_question, caption, level + 1);
                    self.group = None;
                    after_question = false;
                }
                document::Block::Heading { id, text } => {
                    let t = unescape(text);
                    let question = after_question || s.id == "variants";
                    if question {
                        self.groups += 1;
                        self.group = Some(self.groups);
                    }
                    let role = if id.starts_with("question-") {
                        Role::Question
                    } else {
                        Role::Sub
                    };
                    self.heading(role, &t, vec![id.clone(), heading_anchor(&t)], level + 1);
                    after_question = question;
                }
                document::Block::Table {
                    id,
                    caption,
                    header,
                    rows,
                } => {
                    let mut anchors: Vec<String> = id.iter().cloned().collect();
                    if !caption.is_empty() {
                        let mut frags = inline(caption);
                        for f in &mut frags {
                            f.style.bold = true;
                        }
                        self.push(Block::Text {
                            role: Role::Caption,
                            frags,
                            indent: 0.0,
                            label: None,
                            list: None,
                            anchors: std::mem::take(&mut anchors),
                            keep_with_next: true,
                            whole: true,
                            outline: None,
                        });
                    }
                    let cell = |md: &String| Cell {
                        frags: inline(md),
                        icon: None,
                    };
                    self.push(Block::Table {
                        anchors,
                        header: header.iter().map(cell).collect(),
                        rows: rows
                            .iter()
                            .map(|r| r.iter().map(|c| cell(&c.body)).collect())
                            .collect(),
                        keep_with_next: figure_table,
                    });
                }
                document::Block::Key { groups } => {
                    for g in groups {
                        let header = vec![
                            Cell {
                                frags: inline(&g.title),
                                icon: None,
                            },
                            Cell {
                                frags: Vec::new(),
                                icon: None,
                            },
                        ];
                        let rows = g
                            .items
                            .iter()
                            .map(|item| {
                                vec![
                                    Cell {
                                        frags: inline(&item.name),
                                        icon: self.swatch(&item.svg),
                                    },
                                    Cell {
                                        frags: inline(&item.mark),
                                        icon: None,
                                    },
                                ]
                            })
                            .collect();
                        self.push(Block::Table {
                            anchors: Vec::new(),
                            header,
                            rows,
                            keep_with_next: false,
                        });
                    }
                }
                // The card images and the print files beside the page: nothing to print.
                document::Block::Gallery { .. } => {}
                document::Block::Figure {
                    id,
                    title,
                    alt,
                    file,
                    caption,
                    ..
                } => {
                    let t = unescape(title);
                    let mut frags = text::plain(&t, bold());
                    frags.iter_mut().for_each(|f| f.style.bold = true);
                    self.push(Block::Text {
                        role: Role::Caption,
                        frags,
                        indent: 0.0,
                        label: None,
                        list: None,
                        anchors: vec![id.clone()],
                        keep_with_next: true,
                        whole: true,
                        outline: None,
                    });
                    let tree = match self.trees.get(file) {
                        Some(t) => Some(t.clone()),
                        None => {
                            let read = self.files.iter().find(|f| &f.name == file).and_then(|f| {
                                usvg::Tree::from_data(
                                    f.text.as_bytes(),
                                    &crate::render::svg_clean::options(self.fonts),
                                )
                                .ok()
                            });
                            let read = read.map(Arc::new);
                            if let Some(t) = &read {
                                self.trees.insert(file.clone(), t.clone());
                            }
                            read
                        }
                    };
                    if let Some(tree) = tree {
                        self.push(Block::Figure {
                            anchors: Vec::new(),
                            tree,
                            alt: unescape(alt),
                            keep_with_next: !caption.is_empty(),
                        });
                    }
                    if !caption.is_empty() {
                        let mut frags = inline(caption);
                        frags.iter_mut().for_each(|f| f.style.italic = true);
                        self.text(Role::Caption, frags, Vec::new());
                    }
                }
            }
        }
    }

    /// A key's swatch (an inline SVG of the HTML page) as a drawing.
    fn swatch(&self, svg: &str) -> Option<Arc<usvg::Tree>> {
        let svg = if svg.contains("xmlns=") {
            svg.to_string()
        } else {
            svg.replacen("<svg ", r#"<svg xmlns="http://www.w3.org/2000/svg" "#, 1)
        };
        usvg::Tree::from_str(&svg, &crate::render::svg_clean::options(self.fonts))
            .ok()
            .map(Arc::new)
    }

    /// A prose block's Markdown: paragraphs, headings, lists, quotes, code and tables.
    fn prose(&mut self, md: &str, intro: bool, answer: bool, caption: bool, level: usize) {
        let events: Vec<Event> = Parser::new_ext(md, markdown::options()).collect();
        let start = self.flow.blocks.len();
        let mut i = 0;
        // Open lists: their id, whether numbered, the next number.
        let mut lists: Vec<(usize, bool, u64)> = Vec::new();
        let mut quote = 0usize;
        while i < events.len() {
            match &events[i] {
                Event::Start(Tag::List(first)) => {
                    self.lists += 1;
                    lists.push((self.lists, first.is_some(), first.unwrap_or(1)));
                    i += 1;
                }
                Event::End(TagEnd::List(_)) => {
                    lists.pop();
                    i += 1;
                }
                Event::Start(Tag::BlockQuote(_)) => {
                    quote += 1;
                    i += 1;
                }
                Event::End(TagEnd::BlockQuote(_)) => {
                    quote = quote.saturating_sub(1);
                    i += 1;
                }
                Event::Start(Tag::Table(_)) => {
                    let end = find_end(&events, i, |e| matches!(e, Event::End(TagEnd::Table)));
                    self.prose_table(&events[i..end]);
                    i = end + 1;
                }
                Event::Start(Tag::Heading { level: h, .. }) => {
                    let end = find_end(&events, i, |e| matches!(e, Event::End(TagEnd::Heading(_))));
                    let frags = text::frags_of(events[i + 1..end].iter().cloned());
                    let t: Vec<&str> = frags.iter().map(|f| f.text.as_str()).collect();
                    let t = t.join(" ");
                    let depth = if *h <= HeadingLevel::H3 {
                        level
                    } else {
                        level + 1
                    };
                    self.heading(Role::Sub, &t, vec![heading_anchor(&t)], depth);
                    i = end + 1;
                }
                Event::Start(Tag::Item) => {
                    // The item's own text up to its first nested block or its end.
                    let end = find_end(&events, i, |e| {
                        matches!(e, Event::End(TagEnd::Item) | Event::Start(Tag::List(_)))
                    });
                    let depth = lists.len().max(1);
                    let (id, ordered, number) = lists.last().copied().unwrap_or((0, false, 1));
                    let label = if ordered {
                        format!("{number}.")
                    } else {
                        "•".into()
                    };
                    if let Some(l) = lists.last_mut() {
                        l.2 += 1;
                    }
                    let inner: Vec<Event> = events[i + 1..end]
                        .iter()
                        .filter(|e| {
                            !matches!(
                                e,
                                Event::Start(Tag::Paragraph) | Event::End(TagEnd::Paragraph)
                            )
                        })
                        .cloned()
                        .collect();
                    self.push(Block::Text {
                        role: Role::Body,
                        frags: text::frags_of(inner),
                        indent: self.body * 1.6 * depth as f32,
                        label: Some(label),
                        list: Some((id, ordered)),
                        anchors: Vec::new(),
                        keep_with_next: false,
                        whole: false,
                        outline: None,
                    });
                    i = if matches!(events.get(end), Some(Event::End(TagEnd::Item))) {
                        end + 1
                    } else {
                        end
                    };
                }
                Event::End(TagEnd::Item) => i += 1,
                Event::Start(Tag::Paragraph) => {
                    let end = find_end(&events, i, |e| matches!(e, Event::End(TagEnd::Paragraph)));
                    let frags = text::frags_of(events[i + 1..end].iter().cloned());
                    // A paragraph that introduces what follows ("You may also:") ends no page.
                    let introduces = frags.last().is_some_and(|f| f.text.ends_with(':'));
                    self.push(Block::Text {
                        role: if caption { Role::Caption } else { Role::Body },
                        frags,
                        indent: self.body * 1.6 * quote as f32,
                        label: None,
                        list: None,
                        anchors: Vec::new(),
                        keep_with_next: introduces,
                        whole: false,
                        outline: None,
                    });
                    i = end + 1;
                }
                Event::Start(Tag::CodeBlock(_)) => {
                    let end = find_end(&events, i, |e| matches!(e, Event::End(TagEnd::CodeBlock)));
                    let code: String = events[i + 1..end]
                        .iter()
                        .filter_map(|e| match e {
                            Event::Text(t) => Some(t.to_string()),
                            _ => None,
                        })
                        .collect();
                    for line in code.lines() {
                        self.text(
                            Role::Body,
                            text::plain(
                                line,
                                Style {
                                    code: true,
                                    ..Style::default()
                                },
                            ),
                            Vec::new(),
                        );
                    }
                    i = end + 1;
                }
                _ => i += 1,
            }
        }
        let end = self.flow.blocks.len();
        // An answer is one piece: its question stays with all of it.
        if answer {
            for b in &mut self.flow.blocks[start..end] {
                if let Block::Text {
                    keep_with_next,
                    whole,
                    ..
                } = b
                {
                    *whole = true;
                    *keep_with_next = true;
                }
            }
            if let Some(Block::Text { keep_with_next, .. }) = self.flow.blocks.get_mut(end - 1) {
                *keep_with_next = false;
            }
        }
        // The intro of a table stays with it.
        if intro
            && end > start
            && let Some(Block::Text { keep_with_next, .. }) = self.flow.blocks.get_mut(end - 1)
        {
            *keep_with_next = true;
        }
    }

    /// A GitHub table written in the prose.
    fn prose_table(&mut self, events: &[Event]) {
        let mut header = Vec::new();
        let mut rows: Vec<Vec<Cell>> = Vec::new();
        let mut in_head = false;
        let mut i = 0;
        while i < events.len() {
            match &events[i] {
                Event::Start(Tag::TableHead) => in_head = true,
                Event::End(TagEnd::TableHead) => in_head = false,
                Event::Start(Tag::TableRow) => rows.push(Vec::new()),
                Event::Start(Tag::TableCell) => {
                    let end = find_end(events, i, |e| matches!(e, Event::End(TagEnd::TableCell)));
                    let cell = Cell {
                        frags: text::frags_of(events[i + 1..end].iter().cloned()),
                        icon: None,
                    };
                    match (in_head, rows.last_mut()) {
                        (true, _) | (false, None) => header.push(cell),
                        (false, Some(r)) => r.push(cell),
                    }
                    i = end;
                }
                _ => {}
            }
            i += 1;
        }
        self.push(Block::Table {
            anchors: Vec::new(),
            header,
            rows,
            keep_with_next: false,
        });
    }
}

/// The index of the first event after `from` that `end` matches (or the last).
fn find_end(events: &[Event], from: usize, end: impl Fn(&Event) -> bool) -> usize {
    (from + 1..events.len())
        .find(|&j| end(&events[j]))
        .unwrap_or(events.len().saturating_sub(1).max(from))
}
