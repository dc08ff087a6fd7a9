//! Inline markup in the text of cards and pieces: `**bold**`, `*italic*` (`***both***`), an
//! icon `[id]`, a line break where the value has one, and `\*`, `\[`, `\]`, `\\` for the
//! characters themselves.
//!
//! Emphasis follows Markdown's rule of thumb: a run of asterisks opens when a non-space
//! follows it and closes when a non-space precedes it, and only a run closed by one of the
//! same length styles anything; every other asterisk prints as it is (`5 * 3`, `Worth 2*`).
//! `[...]` is an icon only when the game has one of that id; otherwise it prints as written.

/// The style of a run of text, on top of the face the template chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Style {
    pub bold: bool,
    pub italic: bool,
}

impl Style {
    pub const PLAIN: Style = Style {
        bold: false,
        italic: false,
    };

    /// The style in words, as messages name it.
    pub fn describe(self) -> &'static str {
        match (self.bold, self.italic) {
            (false, false) => "regular",
            (true, false) => "bold",
            (false, true) => "italic",
            (true, true) => "bold italic",
        }
    }
}

/// A piece of a word: styled text, or an icon by id.
#[derive(Debug, Clone, PartialEq)]
pub enum Frag {
    Text(String, Style),
    Icon(String),
}

/// What a text is made of, in order: words (with the style of the space before them) and
/// the line breaks the value asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Word { frags: Vec<Frag>, gap: Style },
    Break,
}

#[derive(Debug, Clone)]
enum Atom {
    Char(char),
    Space,
    Newline,
    Stars(usize),
    Icon(String),
}

/// Whitespace that separates words; a no-break space keeps its words together.
fn breaks_words(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\u{A0}' | '\u{202F}' | '\u{2007}')
}

fn atoms(text: &str, is_icon: &dyn Fn(&str) -> bool) -> Vec<Atom> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let mut len = c.len_utf8();
        match c {
            '\\' => match rest[1..].chars().next() {
                Some(e @ ('*' | '[' | ']' | '\\')) => {
                    out.push(Atom::Char(e));
                    len = 2;
                }
                _ => out.push(Atom::Char('\\')),
            },
            '*' => {
                let n = rest.chars().take_while(|&c| c == '*').count();
                out.push(Atom::Stars(n));
                len = n;
            }
            '[' => {
                let id = rest[1..]
                    .find(']')
                    .map(|close| &rest[1..1 + close])
                    .filter(|id| is_icon(id));
                match id {
                    Some(id) => {
                        out.push(Atom::Icon(id.to_string()));
                        len = id.len() + 2;
                    }
                    None => out.push(Atom::Char('[')),
                }
            }
            '\n' => out.push(Atom::Newline),
            c if breaks_words(c) => out.push(Atom::Space),
            c => out.push(Atom::Char(c)),
        }
        rest = &rest[len..];
    }
    out
}

/// What each atom of asterisks does: `Some(true)` opens a style, `Some(false)` closes one,
/// `None` prints.
fn pair_stars(atoms: &[Atom]) -> Vec<Option<bool>> {
    let blank = |a: Option<&Atom>| matches!(a, None | Some(Atom::Space | Atom::Newline));
    let mut role = vec![None; atoms.len()];
    let mut open: Vec<(usize, usize)> = Vec::new();
    for (i, a) in atoms.iter().enumerate() {
        let Atom::Stars(n) = *a else { continue };
        if n > 3 {
            continue;
        }
        let can_open = !blank(atoms.get(i + 1));
        let can_close = i > 0 && !blank(atoms.get(i - 1));
        if can_close && let Some(at) = open.iter().rposition(|&(_, m)| m == n) {
            role[open[at].0] = Some(true);
            role[i] = Some(false);
            open.truncate(at);
            continue;
        }
        if can_open {
            open.push((i, n));
        }
    }
    role
}

/// Parses a text into words and breaks; `is_icon` says which `[id]` are icons.
pub fn parse(text: &str, is_icon: &dyn Fn(&str) -> bool) -> Vec<Item> {
    let atoms = atoms(text, is_icon);
    let roles = pair_stars(&atoms);
    let mut out = Vec::new();
    let (mut bold, mut italic) = (0usize, 0usize);
    let mut word: Vec<Frag> = Vec::new();
    let mut gap = Style::PLAIN;
    let flush = |word: &mut Vec<Frag>, gap: Style, out: &mut Vec<Item>| {
        if !word.is_empty() {
            out.push(Item::Word {
                frags: std::mem::take(word),
                gap,
            });
        }
    };
    for (a, role) in atoms.iter().zip(&roles) {
        let style = Style {
            bold: bold > 0,
            italic: italic > 0,
        };
        match (a, role) {
            (Atom::Stars(n), Some(opens)) => {
                let step = |d: &mut usize| {
                    if *opens {
                        *d += 1
                    } else {
                        *d = d.saturating_sub(1)
                    }
                };
                if *n >= 2 {
                    step(&mut bold);
                }
                if *n != 2 {
                    step(&mut italic);
                }
            }
            (Atom::Stars(n), None) => {
                for _ in 0..*n {
                    push_char(&mut word, '*', style);
                }
            }
            (Atom::Char(c), _) => push_char(&mut word, *c, style),
            (Atom::Icon(id), _) => word.push(Frag::Icon(id.clone())),
            (Atom::Space, _) => {
                flush(&mut word, gap, &mut out);
                gap = style;
            }
            (Atom::Newline, _) => {
                flush(&mut word, gap, &mut out);
                out.push(Item::Break);
                gap = style;
            }
        }
    }
    flush(&mut word, gap, &mut out);
    out
}

fn push_char(word: &mut Vec<Frag>, c: char, style: Style) {
    if let Some(Frag::Text(t, s)) = word.last_mut()
        && *s == style
    {
        t.push(c);
        return;
    }
    word.push(Frag::Text(c.to_string(), style));
}

/// The `[id]` a text names (ids are lower-case letters, digits and dashes), escapes
/// respected: what `check` compares with the game's icons and symbols.
pub fn icon_refs(text: &str) -> Vec<String> {
    atoms(text, &is_id)
        .into_iter()
        .filter_map(|a| match a {
            Atom::Icon(id) => Some(id),
            _ => None,
        })
        .collect()
}

/// Whether a name could be an icon's id.
pub fn is_id(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The text as it prints, markup removed (icons as their `[id]`): for descriptions.
pub fn plain(text: &str, is_icon: &dyn Fn(&str) -> bool) -> String {
    let mut out = String::new();
    for item in parse(text, is_icon) {
        match item {
            Item::Break => out.push('\n'),
            Item::Word { frags, .. } => {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push(' ');
                }
                for f in frags {
                    match f {
                        Frag::Text(t, _) => out.push_str(&t),
                        Frag::Icon(id) => {
                            out.push('[');
                            out.push_str(&id);
                            out.push(']');
                        }
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: Style = Style {
        bold: true,
        italic: false,
    };
    const I: Style = Style {
        bold: false,
        italic: true,
    };
    const P: Style = Style::PLAIN;

    fn words(text: &str) -> Vec<Vec<(String, Style)>> {
        parse(text, &|id| id == "gear")
            .into_iter()
            .filter_map(|i| match i {
                Item::Word { frags, .. } => Some(
                    frags
                        .into_iter()
                        .map(|f| match f {
                            Frag::Text(t, s) => (t, s),
                            Frag::Icon(id) => (format!("<{id}>"), P),
                        })
                        .collect(),
                ),
                Item::Break => None,
            })
            .collect()
    }

    fn t(s: &str, style: Style) -> (String, Style) {
        (s.to_string(), style)
    }

    #[test]
    fn bold_and_italic_style_their_words() {
        assert_eq!(
            words("**Worth double** *now*"),
            [vec![t("Worth", B)], vec![t("double", B)], vec![t("now", I)]]
        );
        assert_eq!(
            words("un**do**ne ***all***"),
            [
                vec![t("un", P), t("do", B), t("ne", P)],
                vec![t(
                    "all",
                    Style {
                        bold: true,
                        italic: true
                    }
                )]
            ]
        );
        // Nested: italic inside bold.
        assert_eq!(
            words("**a *b* c**"),
            [
                vec![t("a", B)],
                vec![t(
                    "b",
                    Style {
                        bold: true,
                        italic: true
                    }
                )],
                vec![t("c", B)]
            ]
        );
    }

    #[test]
    fn stray_and_escaped_asterisks_print() {
        assert_eq!(
            words("5 * 3 = 2*"),
            [
                vec![t("5", P)],
                vec![t("*", P)],
                vec![t("3", P)],
                vec![t("=", P)],
                vec![t("2*", P)]
            ]
        );
        assert_eq!(
            words(r"\*not\* \[gear]"),
            [vec![t("*not*", P)], vec![t("[gear]", P)]]
        );
        assert_eq!(words("**open"), [vec![t("**open", P)]]);
        assert_eq!(words(r"a\b \\"), [vec![t(r"a\b", P)], vec![t(r"\", P)]]);
    }

    #[test]
    fn icons_are_known_ids_only() {
        assert_eq!(
            words("Pay [gear]x [nope]"),
            [
                vec![t("Pay", P)],
                vec![t("<gear>", P), t("x", P)],
                vec![t("[nope]", P)]
            ]
        );
        assert_eq!(icon_refs(r"[coin] \[fire] [Rule 3] [a-1]"), ["coin", "a-1"]);
    }

    #[test]
    fn the_space_takes_the_style_it_stands_in_and_breaks_are_kept() {
        let items = parse("**a b** c\nd", &|_| false);
        let gaps: Vec<Option<Style>> = items
            .iter()
            .map(|i| match i {
                Item::Word { gap, .. } => Some(*gap),
                Item::Break => None,
            })
            .collect();
        assert_eq!(gaps, [Some(P), Some(B), Some(P), None, Some(P)]);
        assert_eq!(plain("**a b** *c*\n\\*d", &|_| false), "a b c\n*d");
    }
}
