//! Style checks every game's prose gets in every language, each warned about at the key of
//! the text (file:line:col of the words): a sentence with two colons, a label its own sentence
//! repeats ("Sääntökirja: … Sääntökirja ei näytä …"), the constructions a language's message
//! file flags as ambiguous, and the words it says to avoid whatever the game.

use std::ops::Range;

use toml::Spanned;

use super::Assets;
use super::validate::{contains_word, place};
use crate::diag::Problem;
use crate::messages::Messages;
use crate::model::{Game, LangRules};
use crate::translate::{Text, texts};

/// Every style warning of a game's prose.
pub fn check(game: &Game, assets: &Assets) -> Vec<Problem> {
    let mut out = Vec::new();
    for (lang, lr) in &game.rules.texts {
        let Some(msgs) = assets.messages(lang) else {
            continue;
        };
        let Ok(all) = texts(&lr.file) else { continue };
        for t in &all {
            out.extend(text_problems(lr, msgs, t));
        }
    }
    out
}

/// Where a word (or a form starting so) first stands in a language's texts: its key and its
/// place in the file, for a problem about it.
pub fn first_use(lr: &LangRules, word: &str) -> Option<(String, Range<usize>)> {
    let word = word.to_lowercase();
    let all = texts(&lr.file).ok()?;
    all.iter().find_map(|t| {
        let lower = t.value.to_lowercase();
        let (i, _) = lower
            .match_indices(&word)
            .find(|(i, _)| starts_word(&lower, *i))?;
        let range = if lower.len() == t.value.len() {
            i..i + word.len()
        } else {
            0..t.value.len()
        };
        let prose = Spanned::new(t.span.clone(), t.value.clone());
        Some((t.key.clone(), place(&lr.file, &prose, range)))
    })
}

/// The label the page prints before a text (`Sääntökirja:` before a variant's ambiguity).
fn page_label<'a>(msgs: &'a Messages, key: &str) -> Option<&'a str> {
    let rest = key.strip_prefix("variant.")?;
    if rest.ends_with(".ambiguity") {
        msgs.get("variant_ambiguity").ok()
    } else if rest.ends_with(".reading") {
        msgs.get("variant_reading").ok()
    } else {
        None
    }
}

/// Texts that are words for a form of a noun or a printed label, not sentences.
fn is_words(key: &str) -> bool {
    key.starts_with("nouns.")
        || key.starts_with("print_labels.")
        || key.contains(".labels.")
        || key.ends_with(".name")
}

fn warn(lr: &LangRules, t: &Text, range: Range<usize>, message: String, rule: &str) -> Problem {
    let prose = Spanned::new(t.span.clone(), t.value.clone());
    Problem::warning(format!("`{}`: {message}", t.key))
        .at(&lr.file, place(&lr.file, &prose, range), "here")
        .rule(rule.to_string())
}

fn text_problems(lr: &LangRules, msgs: &Messages, t: &Text) -> Vec<Problem> {
    let mut out = Vec::new();
    let value = t.value.as_str();
    let lower = value.to_lowercase();
    // Lower-casing keeps byte offsets when no character changes its length in UTF-8.
    let same_offsets = lower.len() == value.len();
    let found = |needle: &str| -> Vec<Range<usize>> {
        let n = needle.to_lowercase();
        if n.is_empty() {
            return Vec::new();
        }
        lower
            .match_indices(&n)
            .map(|(i, m)| {
                if same_offsets {
                    i..i + m.len()
                } else {
                    0..value.len()
                }
            })
            .collect()
    };
    for f in &msgs.style.flagged {
        for at in found(&f.text) {
            out.push(warn(
                lr,
                t,
                at,
                format!("`{}` reads two ways: {}", f.text, f.why),
                "an unambiguous pronoun",
            ));
        }
    }
    for a in &msgs.style.avoid {
        let word = a.word.to_lowercase();
        for at in found(&word) {
            if !same_offsets || starts_word(&lower, at.start) {
                out.push(warn(
                    lr,
                    t,
                    at,
                    format!(
                        "says `{}` where the language's term is `{}`",
                        a.word, a.instead
                    ),
                    "the language's words",
                ));
            }
        }
    }
    if is_words(&t.key) {
        return out;
    }
    let label = page_label(msgs, &t.key);
    for (i, unit) in units(value).into_iter().enumerate() {
        let text = &value[unit.clone()];
        // The unit's own label: the page's (`Sääntökirja:`) before the first, or a bold or
        // italic one it opens with (`**Pisteet:**`).
        let (own, body_start) = match (i, label) {
            (0, Some(l)) => (Some(l.trim_end_matches(':').trim().to_string()), 0),
            _ => match inline_label(text) {
                Some((l, end)) => (Some(l), end),
                None => (None, 0),
            },
        };
        let page_colon = usize::from(i == 0 && label.is_some());
        for (k, s) in sentences(text).into_iter().enumerate() {
            let colons = colons(&text[s.clone()]) + if k == 0 { page_colon } else { 0 };
            if msgs.style.one_colon && colons >= 2 {
                out.push(warn(
                    lr,
                    t,
                    unit.start + s.start..unit.start + s.end,
                    format!(
                        "a sentence with {colons} colons{}; end the sentence at one of them",
                        if k == 0 && page_colon == 1 {
                            format!(" (the page prints `{}` before it)", label.unwrap_or(""))
                        } else {
                            String::new()
                        }
                    ),
                    "a sentence has at most one colon",
                ));
            }
        }
        if let Some(own) = own.filter(|_| msgs.style.label_not_repeated) {
            let word = own.to_lowercase();
            // A placeholder's name (`{params.hand_size card}`) is not a word the reader sees.
            let body = without_placeholder_names(&text[body_start..].to_lowercase());
            let same = body.len() == text.len() - body_start;
            if !word.is_empty()
                && let Some((at, _)) = body
                    .match_indices(&word)
                    .find(|(i, _)| contains_word(&body[*i..], &word) && starts_word(&body, *i))
            {
                let start = unit.start + body_start + if same { at } else { 0 };
                let end = if same { start + word.len() } else { unit.end };
                out.push(warn(
                    lr,
                    t,
                    start..end,
                    format!(
                        "the label `{own}:` is repeated by its own text; say it another way \
                         (not with a pronoun that could mean the label)"
                    ),
                    "a sentence does not repeat its label",
                ));
            }
        }
    }
    out
}

/// `text` with every `{...}` placeholder blanked out, byte for byte, so offsets still match.
fn without_placeholder_names(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            _ => {}
        }
        if depth > 0 || c == '}' {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a word starts at byte `i` of `s`.
fn starts_word(s: &str, i: usize) -> bool {
    s[..i]
        .chars()
        .next_back()
        .is_none_or(|c| !c.is_alphanumeric() && c != '-')
}

/// The paragraphs and list items of a Markdown text, as ranges of it.
fn units(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        let item = is_item(trimmed);
        if (trimmed.is_empty() || item || trimmed.starts_with('#'))
            && let Some(s) = start.take()
        {
            out.push(s..offset);
        }
        if !trimmed.is_empty() {
            if trimmed.starts_with('#') {
                out.push(offset..offset + line.len());
            } else if start.is_none() {
                start = Some(offset + (line.len() - line.trim_start().len()));
            }
        }
        offset += line.len();
    }
    if let Some(s) = start {
        out.push(s..text.len());
    }
    out
}

fn is_item(line: &str) -> bool {
    line.starts_with("- ")
        || line.starts_with("* ")
        || line
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// A label a unit opens with, after its list marker: `**Pisteet:**` or `*Halutessasi:*`; the
/// label's words and where the text after it starts.
fn inline_label(unit: &str) -> Option<(String, usize)> {
    let mut rest = unit;
    if is_item(rest) {
        rest = rest.split_once(' ')?.1;
    }
    let skipped = unit.len() - rest.len();
    for mark in ["**", "*"] {
        if let Some(inner) = rest.strip_prefix(mark)
            && let Some(close) = inner.find(&format!(":{mark}"))
        {
            let words = &inner[..close];
            if !words.is_empty() && !words.contains('\n') && words.chars().count() <= 40 {
                let end = skipped + mark.len() + close + 1 + mark.len();
                return Some((words.trim().to_string(), end));
            }
        }
    }
    None
}

/// The sentences of a unit, as ranges of it: each ends after `.`, `!` or `?` followed by white
/// space (or the end).
fn sentences(unit: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = unit.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|(_, n)| n.is_whitespace()) {
            out.push(start..i + c.len_utf8());
            start = i + c.len_utf8();
        }
    }
    if unit[start..].trim().len() > 1 {
        out.push(start..unit.len());
    }
    out
}

/// The colons of a sentence that a reader sees: not those inside `{placeholders}`, `code`,
/// link targets or after a URL's scheme.
fn colons(sentence: &str) -> usize {
    let mut n = 0;
    let mut brace = 0usize;
    let mut code = false;
    let mut target = false;
    let mut prev = ' ';
    let mut chars = sentence.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' => code = !code,
            '{' if !code => brace += 1,
            '}' if !code => brace = brace.saturating_sub(1),
            '(' if prev == ']' => target = true,
            ')' if target => target = false,
            ':' if !code && brace == 0 && !target && chars.peek() != Some(&'/') => n += 1,
            _ => {}
        }
        prev = c;
    }
    n
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_placeholder_name_is_not_a_word_the_label_repeats() {
        let text = "**hand:** {params.hand_size card} in hand";
        let blank = without_placeholder_names(text);
        assert_eq!(blank.len(), text.len());
        assert!(!blank.contains("hand_size"), "{blank}");
        // The words outside placeholders stay where they were.
        assert_eq!(&blank[..9], "**hand:**");
        assert!(blank.ends_with(" in hand"));
    }
    use super::*;

    #[test]
    fn colons_are_counted_as_a_reader_sees_them() {
        assert_eq!(
            colons("Kaksi: yksi {a:b} ja [x](#y:z) `c:d` https://e: f"),
            2
        );
        assert_eq!(sentences("Yksi. Kaksi: kolme? Neljä").len(), 3);
        assert_eq!(sentences("Luku 2.5 ei pääty.").len(), 1);
    }

    #[test]
    fn units_are_paragraphs_and_items() {
        let t = "Para one\ngoes on.\n\n- item **Bold:** a\n- item two\n1. three\n";
        let u: Vec<&str> = units(t).into_iter().map(|r| t[r].trim()).collect();
        assert_eq!(
            u,
            [
                "Para one\ngoes on.",
                "- item **Bold:** a",
                "- item two",
                "1. three"
            ]
        );
        assert_eq!(
            inline_label("- **Pisteet:** kolme").map(|(l, _)| l),
            Some("Pisteet".into())
        );
        assert_eq!(
            inline_label("1. *Halutessasi:* uhraa"),
            Some(("Halutessasi".into(), 17))
        );
    }
}
