//! The rulebook's blocks measured into units (a line, a table row, a figure) and the units
//! paginated: headings, captions and questions are kept with what follows, a question with
//! its answer, a table's title and intro with its first rows, no paragraph leaves one line
//! alone at a page's foot or head, and a table's header row is repeated on the next page.

use std::sync::Arc;

use super::text::{self, Fonts, Frag, Line};

/// Millimetres to points.
pub const PT_PER_MM: f32 = 72.0 / 25.4;

/// A page size of the rulebook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
    /// A5 pages, imposed two to an A4 landscape sheet for the booklet.
    A5,
}

/// The shape of the pages: size, margins, type sizes (points).
#[derive(Debug, Clone, Copy)]
pub struct Geometry {
    pub width: f32,
    pub height: f32,
    pub top: f32,
    pub bottom: f32,
    /// The margin at the spine (left on a right-hand page).
    pub inner: f32,
    pub outer: f32,
    pub body: f32,
}

impl Geometry {
    pub fn of(paper: Paper) -> Geometry {
        let mm = PT_PER_MM;
        match paper {
            Paper::A4 => Geometry {
                width: 210.0 * mm,
                height: 297.0 * mm,
                top: 22.0 * mm,
                bottom: 22.0 * mm,
                inner: 22.0 * mm,
                outer: 22.0 * mm,
                body: 10.5,
            },
            Paper::Letter => Geometry {
                width: 612.0,
                height: 792.0,
                top: 22.0 * mm,
                bottom: 22.0 * mm,
                inner: 22.0 * mm,
                outer: 22.0 * mm,
                body: 10.5,
            },
            Paper::A5 => Geometry {
                width: 148.5 * mm,
                height: 210.0 * mm,
                top: 16.0 * mm,
                bottom: 16.0 * mm,
                inner: 16.0 * mm,
                outer: 13.0 * mm,
                body: 9.0,
            },
        }
    }

    /// The width of the text column.
    pub fn measure(&self) -> f32 {
        self.width - self.inner - self.outer
    }

    /// The height the units of a page may fill.
    pub fn room(&self) -> f32 {
        self.height - self.top - self.bottom
    }
}

/// What a block of text is, for its size, its face, its tag and how it keeps.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// The game's name on the first page.
    Title,
    /// A section's heading (level 2), or the appendix's.
    Section,
    /// A heading inside a section (level 3): a variant, a prose heading.
    Sub,
    /// A question a player asks (level 3), kept with its answer.
    Question,
    Body,
    /// A figure's or table's caption, set smaller.
    Caption,
    /// A line of the contents: the page of its target at the right.
    Toc(String),
}

impl Role {
    pub fn is_heading(&self) -> bool {
        matches!(
            self,
            Role::Title | Role::Section | Role::Sub | Role::Question
        )
    }
}

/// A table cell: its text, and a drawing before it (a symbol's swatch).
#[derive(Debug, Clone)]
pub struct Cell {
    pub frags: Vec<Frag>,
    pub icon: Option<Arc<usvg::Tree>>,
}

/// One block of the rulebook, in reading order.
#[derive(Debug, Clone)]
pub enum Block {
    Text {
        role: Role,
        frags: Vec<Frag>,
        /// Indent (points) and the list item's bullet or number.
        indent: f32,
        label: Option<String>,
        /// The list the item belongs to (for its tag), numbered or not.
        list: Option<(usize, bool)>,
        /// The ids and anchors that point here.
        anchors: Vec<String>,
        /// Not to end a page: an intro before a table, an answer's question.
        keep_with_next: bool,
        /// Lines not to be split across pages: a question's answer.
        whole: bool,
        /// The outline entry: level and title.
        outline: Option<(usize, String)>,
    },
    Table {
        anchors: Vec<String>,
        header: Vec<Cell>,
        rows: Vec<Vec<Cell>>,
        /// Keep the last row with what follows (a diagram's explanation).
        keep_with_next: bool,
    },
    Figure {
        anchors: Vec<String>,
        tree: Arc<usvg::Tree>,
        alt: String,
        keep_with_next: bool,
    },
}

/// Which tag a piece of content belongs to: a block, and a cell of a table (row 0 the
/// header), or a list item's label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct TagPath {
    pub block: usize,
    pub cell: Option<(usize, usize)>,
    pub label: bool,
}

/// Something drawn, placed relative to its unit's top-left corner (points, y down).
#[derive(Debug, Clone)]
pub enum Item {
    Text {
        x: f32,
        baseline: f32,
        size: f32,
        line: Line,
        /// The fragments the line's words index.
        frags: Arc<Vec<Frag>>,
        tag: TagPath,
    },
    Rule {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        shade: f32,
    },
    Svg {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        tree: Arc<usvg::Tree>,
        tag: TagPath,
    },
    /// A contents line's page number, right-aligned at `x`.
    PageRef {
        x: f32,
        baseline: f32,
        size: f32,
        target: String,
        tag: TagPath,
    },
}

/// The smallest thing a page holds.
#[derive(Debug, Clone)]
pub struct Unit {
    pub height: f32,
    pub space_before: f32,
    /// A page may not end after this unit.
    pub keep_with_next: bool,
    pub items: Vec<Item>,
    pub block: usize,
    pub role: Option<Role>,
    /// A table's header row, repeated on the pages its table goes on to.
    pub header: Option<usize>,
    pub is_header: bool,
    /// The ids and anchors of the place, set on the block's first unit.
    pub anchors: Vec<String>,
    pub outline: Option<(usize, String)>,
    /// The section the unit is in (an index into the section titles).
    pub section: usize,
    /// The question-and-answer group it belongs to.
    pub group: Option<usize>,
}

/// A unit placed on a page: its top (points from the text area's top), and whether it is a
/// repeated table header (an artifact: its content is tagged once, where it first is).
#[derive(Debug, Clone, Copy)]
pub struct Placed {
    pub y: f32,
    pub unit: usize,
    pub repeat: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Page {
    pub placed: Vec<Placed>,
}

fn size_of(role: &Role, body: f32) -> f32 {
    match role {
        Role::Title => body * 2.0,
        Role::Section => body * 1.4,
        Role::Sub | Role::Question => body * 1.1,
        Role::Body | Role::Toc(_) => body,
        Role::Caption => body * 0.88,
    }
}

/// A block's place in the book: its section, its question group.
pub struct Placing {
    pub section: usize,
    pub group: Option<usize>,
}

/// Measures the blocks into units for `geo`.
pub fn measure(
    fonts: &mut Fonts,
    blocks: &[Block],
    placing: &[Placing],
    geo: &Geometry,
) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    let width = geo.measure();
    for (b, block) in blocks.iter().enumerate() {
        let first = units.len();
        let place = &placing[b];
        let unit = |height: f32, items: Vec<Item>, role: Option<Role>| Unit {
            height,
            space_before: 0.0,
            keep_with_next: false,
            items,
            block: b,
            role,
            header: None,
            is_header: false,
            anchors: Vec::new(),
            outline: None,
            section: place.section,
            group: place.group,
        };
        match block {
            Block::Text {
                role,
                frags,
                indent,
                label,
                anchors,
                keep_with_next,
                whole,
                outline,
                ..
            } => {
                let size = size_of(role, geo.body);
                let heading = role.is_heading();
                let leading = size * if heading { 1.25 } else { 1.38 };
                let toc_room = if matches!(role, Role::Toc(_)) {
                    size * 3.0
                } else {
                    0.0
                };
                let lines =
                    text::break_lines(fonts, frags, size, width - indent - toc_room, heading);
                let frags = Arc::new(frags.clone());
                let n = lines.len();
                for (i, line) in lines.into_iter().enumerate() {
                    let mut items = vec![Item::Text {
                        x: *indent,
                        baseline: size * 0.95,
                        size,
                        line,
                        frags: frags.clone(),
                        tag: TagPath {
                            block: b,
                            cell: None,
                            label: false,
                        },
                    }];
                    if i == 0
                        && let Some(l) = label
                    {
                        let lf = text::plain(l, text::Style::default());
                        let ll = text::break_lines(fonts, &lf, size, *indent, false);
                        if let Some(first) = ll.into_iter().next() {
                            items.push(Item::Text {
                                x: (indent - first.width - size * 0.4).max(0.0),
                                baseline: size * 0.95,
                                size,
                                line: first,
                                frags: Arc::new(lf),
                                tag: TagPath {
                                    block: b,
                                    cell: None,
                                    label: true,
                                },
                            });
                        }
                    }
                    if i + 1 == n
                        && let Role::Toc(target) = role
                    {
                        items.push(Item::PageRef {
                            x: width,
                            baseline: size * 0.95,
                            size,
                            target: target.clone(),
                            tag: TagPath {
                                block: b,
                                cell: None,
                                label: false,
                            },
                        });
                    }
                    let mut u = unit(leading, items, Some(role.clone()));
                    // No line alone at a page's foot or head; a heading's, a question's
                    // and an answer's lines all together.
                    u.keep_with_next = if i + 1 == n {
                        *keep_with_next || heading
                    } else {
                        heading || *whole || i == 0 || i + 2 == n
                    };
                    units.push(u);
                }
                let gap = match role {
                    Role::Title => 0.0,
                    Role::Section => geo.body * 1.6,
                    Role::Sub | Role::Question => geo.body * 0.9,
                    Role::Toc(_) => 0.0,
                    Role::Body | Role::Caption if label.is_some() => geo.body * 0.15,
                    Role::Body | Role::Caption => geo.body * 0.5,
                };
                units[first].space_before = gap;
                if let Some(u) = units.last_mut()
                    && matches!(role, Role::Title | Role::Section)
                {
                    u.height += geo.body * 0.3;
                }
                units[first].anchors = anchors.clone();
                units[first].outline = outline.clone();
            }
            Block::Table {
                anchors,
                header,
                rows,
                keep_with_next,
            } => {
                let size = geo.body * 0.88;
                let cols = header.len().max(1);
                let widths = column_widths(fonts, header, rows, size, width);
                let pad = size * 0.35;
                let mut all: Vec<(usize, &Vec<Cell>)> = vec![(0, header)];
                all.extend(rows.iter().enumerate().map(|(i, r)| (i + 1, r)));
                let n = all.len();
                for (r, row) in all {
                    let mut items = Vec::new();
                    let mut height: f32 = 0.0;
                    let mut x = 0.0;
                    for c in 0..cols {
                        let w = widths.get(c).copied().unwrap_or(0.0);
                        let Some(cell) = row.get(c) else {
                            x += w;
                            continue;
                        };
                        let icon = if cell.icon.is_some() { size * 1.4 } else { 0.0 };
                        let lines = text::break_lines(
                            fonts,
                            &cell.frags,
                            size,
                            w - 2.0 * pad - icon,
                            r == 0,
                        );
                        let leading = size * 1.3;
                        let frags = Arc::new(cell.frags.clone());
                        let tag = TagPath {
                            block: b,
                            cell: Some((r, c)),
                            label: false,
                        };
                        if let Some(tree) = &cell.icon {
                            items.push(Item::Svg {
                                x: x + pad,
                                y: pad,
                                w: size * 1.1,
                                h: size * 1.1,
                                tree: tree.clone(),
                                tag,
                            });
                        }
                        let nl = lines.len() as f32;
                        for (i, line) in lines.into_iter().enumerate() {
                            items.push(Item::Text {
                                x: x + pad + icon,
                                baseline: pad + size * 0.95 + leading * i as f32,
                                size,
                                line,
                                frags: frags.clone(),
                                tag,
                            });
                        }
                        height = height.max(2.0 * pad + leading * nl).max(icon + 2.0 * pad);
                        x += w;
                    }
                    if r == 0 {
                        items.insert(
                            0,
                            Item::Rule {
                                x: 0.0,
                                y: 0.0,
                                w: width,
                                h: height,
                                shade: 0.9,
                            },
                        );
                    }
                    items.push(Item::Rule {
                        x: 0.0,
                        y: height - 0.4,
                        w: width,
                        h: 0.4,
                        shade: 0.6,
                    });
                    let mut u = unit(height, items, None);
                    u.is_header = r == 0;
                    u.header = Some(first);
                    // The header with the first row, and the last row with a caption.
                    u.keep_with_next = r == 0 || (r + 1 == n && *keep_with_next);
                    units.push(u);
                }
                units[first].space_before = geo.body * 0.6;
                units[first].anchors = anchors.clone();
            }
            Block::Figure {
                anchors,
                tree,
                keep_with_next,
                ..
            } => {
                let (tw, th) = (tree.size().width(), tree.size().height());
                // At the size the HTML page shows it (a CSS pixel is 0.75 pt), at most the
                // measure's width and two fifths of a page's height.
                let max_h = geo.room() * 0.4;
                let mut w = width.min(tw.max(1.0) * 0.75);
                let mut h = w * th / tw.max(1.0);
                if h > max_h {
                    h = max_h;
                    w = h * tw / th.max(1.0);
                }
                let x = (width - w) / 2.0;
                let items = vec![Item::Svg {
                    x,
                    y: 0.0,
                    w,
                    h,
                    tree: tree.clone(),
                    tag: TagPath {
                        block: b,
                        cell: None,
                        label: false,
                    },
                }];
                let mut u = unit(h, items, None);
                u.space_before = geo.body * 0.6;
                u.keep_with_next = *keep_with_next;
                u.anchors = anchors.clone();
                units.push(u);
            }
        }
    }
    units
}

/// Column widths: each column its natural width when all fit; else its widest word, and the
/// rest of the measure shared in proportion to what each would take more.
fn column_widths(
    fonts: &mut Fonts,
    header: &[Cell],
    rows: &[Vec<Cell>],
    size: f32,
    width: f32,
) -> Vec<f32> {
    let cols = header.len().max(1);
    let pad = size * 0.7;
    let mut min = vec![0.0f32; cols];
    let mut max = vec![0.0f32; cols];
    for (r, row) in std::iter::once(header)
        .chain(rows.iter().map(Vec::as_slice))
        .enumerate()
    {
        for (c, cell) in row.iter().enumerate().take(cols) {
            let (lo, hi) = text::natural_widths(fonts, &cell.frags, size, r == 0);
            let icon = if cell.icon.is_some() { size * 1.4 } else { 0.0 };
            min[c] = min[c].max(lo + pad + icon);
            max[c] = max[c].max(hi + pad + icon);
        }
    }
    let total_max: f32 = max.iter().sum();
    if total_max <= width {
        // Spread what is left, so the table spans the measure.
        let extra = (width - total_max) / cols as f32;
        return max.iter().map(|m| m + extra).collect();
    }
    let total_min: f32 = min.iter().sum();
    if total_min >= width {
        return min.iter().map(|m| m * width / total_min).collect();
    }
    let more: f32 = max
        .iter()
        .zip(&min)
        .map(|(a, b)| a - b)
        .sum::<f32>()
        .max(1e-3);
    min.iter()
        .zip(&max)
        .map(|(lo, hi)| lo + (width - total_min) * (hi - lo) / more)
        .collect()
}

/// The units on pages of `room` points: a unit that does not fit starts the next page, and
/// the page breaks instead after the last unit a page may end with. At most `max_pages`
/// pages, else `Err` with the count reached.
pub fn paginate(units: &[Unit], room: f32, max_pages: usize) -> Result<Vec<Page>, usize> {
    let mut pages = Vec::new();
    let mut page = Page::default();
    let mut y = 0.0;
    let mut i = 0;
    while i < units.len() {
        let u = &units[i];
        let gap = if page.placed.is_empty() {
            0.0
        } else {
            u.space_before
        };
        let alone = page.placed.iter().all(|p| p.repeat);
        if alone || y + gap + u.height <= room {
            page.placed.push(Placed {
                y: y + gap,
                unit: i,
                repeat: false,
            });
            y += gap + u.height;
            i += 1;
            continue;
        }
        // Break after the last unit the page may end with; what follows it goes over.
        let own: Vec<usize> = page
            .placed
            .iter()
            .filter(|p| !p.repeat)
            .map(|p| p.unit)
            .collect();
        if let Some(k) = own.iter().rposition(|&u| !units[u].keep_with_next)
            && k + 1 < own.len()
        {
            i = own[k + 1];
            page.placed.retain(|p| p.repeat || p.unit < i);
        }
        pages.push(std::mem::take(&mut page));
        if pages.len() >= max_pages {
            return Err(pages.len() + 1);
        }
        y = 0.0;
        // A table going on: its header row again.
        if let Some(h) = units[i].header
            && !units[i].is_header
        {
            page.placed.push(Placed {
                y: 0.0,
                unit: h,
                repeat: true,
            });
            y = units[h].height;
        }
    }
    if !page.placed.is_empty() {
        pages.push(page);
    }
    Ok(pages)
}

impl Unit {
    /// The text the unit shows, its words joined as set (for tests and reading back).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for item in &self.items {
            if let Item::Text { line, .. } = item {
                for (_, word) in &line.words {
                    if word.space > 0.0 && !out.is_empty() {
                        out.push(' ');
                    }
                    for s in &word.shaped {
                        out.push_str(&s.text);
                    }
                }
                out.push(' ');
            }
        }
        out.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}
