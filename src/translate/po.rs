//! A small, strict gettext PO writer and reader: the subset a translation of a rules file needs
//! (one `msgctxt` per entry, no plurals), written the way GNU gettext writes it and read back
//! without trusting the file (bounded size, every error placed at its line, never a panic).

use std::fmt::Write as _;

/// The largest PO file `translate import` reads.
pub const PO_MAX_BYTES: usize = 16 << 20;
/// The most entries a PO file may hold.
pub const PO_MAX_ENTRIES: usize = 100_000;

/// One message of a PO file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Entry {
    /// `#.` comments (for the translator, from the program).
    pub comments: Vec<String>,
    /// `#:` references.
    pub references: Vec<String>,
    /// Whether `#, fuzzy` is set.
    pub fuzzy: bool,
    /// `#| msgid`: the source text the translation was made from, for a fuzzy entry.
    pub previous: Option<String>,
    pub msgctxt: Option<String>,
    pub msgid: String,
    pub msgstr: String,
    /// The line the entry starts on (when read).
    pub line: usize,
}

/// A PO file: its header's fields (`Language: fi`) and its entries.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Catalog {
    /// A comment above the header, line by line.
    pub title: Vec<String>,
    pub header: Vec<(String, String)>,
    pub entries: Vec<Entry>,
}

/// A problem reading a PO file, at a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoError {
    pub line: usize,
    pub message: String,
}

/// A string as a PO string literal (or several, one per line, after an empty one, when it
/// holds a newline before its end), prefixed by `keyword`.
fn write_string(out: &mut String, prefix: &str, keyword: &str, s: &str) {
    let pieces: Vec<&str> = s.split_inclusive('\n').collect();
    if pieces.len() <= 1 {
        let _ = writeln!(out, "{prefix}{keyword} \"{}\"", escape(s));
        return;
    }
    let _ = writeln!(out, "{prefix}{keyword} \"\"");
    for p in pieces {
        let _ = writeln!(out, "{prefix}\"{}\"", escape(p));
    }
}

/// Escapes a string for a PO literal: backslash, quote, the C control escapes, and any other
/// control character as an octal escape.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

impl Catalog {
    /// The PO file's text: the same bytes for the same catalog.
    pub fn write(&self) -> String {
        let mut out = String::new();
        for t in &self.title {
            let _ = writeln!(out, "# {t}");
        }
        out.push_str("msgid \"\"\nmsgstr \"\"\n");
        for (k, v) in &self.header {
            let _ = writeln!(out, "\"{}\"", escape(&format!("{k}: {v}\n")));
        }
        for e in &self.entries {
            out.push('\n');
            for c in &e.comments {
                for line in c.lines() {
                    let _ = writeln!(out, "#. {line}");
                }
            }
            for r in &e.references {
                let _ = writeln!(out, "#: {r}");
            }
            if e.fuzzy {
                out.push_str("#, fuzzy\n");
            }
            if let Some(p) = &e.previous {
                if let Some(c) = &e.msgctxt {
                    write_string(&mut out, "#| ", "msgctxt", c);
                }
                write_string(&mut out, "#| ", "msgid", p);
            }
            if let Some(c) = &e.msgctxt {
                write_string(&mut out, "", "msgctxt", c);
            }
            write_string(&mut out, "", "msgid", &e.msgid);
            write_string(&mut out, "", "msgstr", &e.msgstr);
        }
        out
    }

    /// The value of a header field.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Reads a PO file. Plural entries, a second `msgctxt`/`msgid`/`msgstr` in one entry, a
    /// string that is not closed, a bad escape or a charset other than UTF-8 are errors at
    /// their line.
    pub fn read(text: &str) -> Result<Catalog, PoError> {
        if text.len() > PO_MAX_BYTES {
            return Err(PoError {
                line: 1,
                message: format!(
                    "the file is {} bytes; a PO file is at most {} MB",
                    text.len(),
                    PO_MAX_BYTES >> 20
                ),
            });
        }
        let mut reader = Reader::default();
        for (i, raw) in text.split('\n').enumerate() {
            reader.line(i + 1, raw.strip_suffix('\r').unwrap_or(raw))?;
        }
        reader.finish()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Ctxt,
    Id,
    Str,
    PrevCtxt,
    PrevId,
}

#[derive(Default)]
struct Reader {
    catalog: Catalog,
    entry: Entry,
    /// Which strings the entry being read has.
    has: Vec<Field>,
    /// The field continuation lines add to.
    current: Option<Field>,
    header_seen: bool,
}

fn err(line: usize, message: impl Into<String>) -> PoError {
    PoError {
        line,
        message: message.into(),
    }
}

impl Reader {
    fn line(&mut self, n: usize, line: &str) -> Result<(), PoError> {
        let line = line.trim_start();
        if line.is_empty() {
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("#|") {
            let rest = rest.trim_start();
            let (field, lit) = if let Some(l) = rest.strip_prefix("msgctxt") {
                (Field::PrevCtxt, l)
            } else if let Some(l) = rest.strip_prefix("msgid") {
                (Field::PrevId, l)
            } else if rest.starts_with('"') {
                let f = self
                    .current
                    .filter(|f| matches!(f, Field::PrevCtxt | Field::PrevId));
                let Some(f) = f else {
                    return Err(err(n, "a `#|` string that continues no `#| msgid`"));
                };
                let s = unquote(n, rest)?;
                self.append(f, &s);
                return Ok(());
            } else {
                return Err(err(n, "a `#|` line that is not `#| msgctxt` or `#| msgid`"));
            };
            self.start_field(n, field)?;
            let s = unquote(n, lit.trim_start())?;
            self.append(field, &s);
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("#~") {
            // An obsolete entry: kept by tools, not a text of the game.
            let _ = rest;
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix('#') {
            if self.has.iter().any(|f| matches!(f, Field::Id | Field::Str)) {
                self.flush(n)?;
            }
            if let Some(flags) = rest.strip_prefix(',') {
                if flags.split(',').any(|f| f.trim() == "fuzzy") {
                    self.entry.fuzzy = true;
                }
            } else if let Some(r) = rest.strip_prefix(':') {
                self.entry.references.push(r.trim().to_string());
            } else if let Some(c) = rest.strip_prefix('.') {
                self.entry.comments.push(c.trim_start().to_string());
            } else if !self.header_seen && self.catalog.entries.is_empty() && self.has.is_empty() {
                // A translator's comment above the header: the file's title.
                let t = rest.strip_prefix(' ').unwrap_or(rest);
                self.catalog.title.push(t.to_string());
            }
            self.current = None;
            return Ok(());
        }
        if line.starts_with('"') {
            let Some(f) = self.current else {
                return Err(err(
                    n,
                    "a string that continues no `msgid`, `msgstr` or `msgctxt`",
                ));
            };
            let s = unquote(n, line)?;
            self.append(f, &s);
            return Ok(());
        }
        let (word, rest) = line.split_at(line.find([' ', '\t', '"']).unwrap_or(line.len()));
        let field = match word {
            "msgctxt" => Field::Ctxt,
            "msgid" => Field::Id,
            "msgstr" => Field::Str,
            "msgid_plural" => {
                return Err(err(
                    n,
                    "a plural entry (`msgid_plural`): the rules' texts have none",
                ));
            }
            w if w.starts_with("msgstr[") => {
                return Err(err(
                    n,
                    "a plural form (`msgstr[N]`): the rules' texts have none",
                ));
            }
            w => return Err(err(n, format!("`{}` is not a PO keyword", first_chars(w)))),
        };
        // A new entry starts at its `msgctxt`, or at its `msgid` when it has none.
        let starts = match field {
            Field::Ctxt => true,
            Field::Id => !self.has.contains(&Field::Ctxt) || self.has.contains(&Field::Id),
            _ => false,
        };
        if starts && self.has.iter().any(|f| matches!(f, Field::Id | Field::Str)) {
            self.flush(n)?;
        }
        self.start_field(n, field)?;
        let s = unquote(n, rest.trim_start())?;
        self.append(field, &s);
        Ok(())
    }

    fn start_field(&mut self, n: usize, field: Field) -> Result<(), PoError> {
        if self.has.contains(&field) {
            return Err(err(n, "a second string of the same kind in one entry"));
        }
        if field == Field::Str && !self.has.contains(&Field::Id) {
            return Err(err(n, "a `msgstr` without its `msgid`"));
        }
        if self.entry.line == 0 {
            self.entry.line = n;
        }
        self.has.push(field);
        self.current = Some(field);
        Ok(())
    }

    fn append(&mut self, field: Field, s: &str) {
        let e = &mut self.entry;
        match field {
            Field::Ctxt => e.msgctxt.get_or_insert_with(String::new).push_str(s),
            Field::Id => e.msgid.push_str(s),
            Field::Str => e.msgstr.push_str(s),
            Field::PrevId => e.previous.get_or_insert_with(String::new).push_str(s),
            Field::PrevCtxt => {}
        }
    }

    /// Ends the entry being read.
    fn flush(&mut self, n: usize) -> Result<(), PoError> {
        let entry = std::mem::take(&mut self.entry);
        let has = std::mem::take(&mut self.has);
        self.current = None;
        if !has.contains(&Field::Str) {
            return Err(err(entry.line.max(1), "an entry without its `msgstr`"));
        }
        if entry.msgctxt.is_none() && entry.msgid.is_empty() {
            if self.header_seen || !self.catalog.entries.is_empty() {
                return Err(err(entry.line, "a second header (an empty `msgid`)"));
            }
            self.header_seen = true;
            for l in entry.msgstr.lines() {
                let Some((k, v)) = l.split_once(':') else {
                    return Err(err(
                        entry.line,
                        format!("a header line without `:`: `{}`", first_chars(l)),
                    ));
                };
                self.catalog
                    .header
                    .push((k.trim().to_string(), v.trim().to_string()));
            }
            if let Some(ct) = self.catalog.field("Content-Type") {
                let charset = ct
                    .split(';')
                    .find_map(|p| p.trim().strip_prefix("charset="))
                    .unwrap_or("UTF-8");
                if !charset.eq_ignore_ascii_case("UTF-8") {
                    return Err(err(
                        entry.line,
                        format!(
                            "the file says its charset is `{}`; save it as UTF-8",
                            first_chars(charset)
                        ),
                    ));
                }
            }
            return Ok(());
        }
        if self.catalog.entries.len() >= PO_MAX_ENTRIES {
            return Err(err(n, format!("more than {PO_MAX_ENTRIES} entries")));
        }
        self.catalog.entries.push(entry);
        Ok(())
    }

    fn finish(mut self) -> Result<Catalog, PoError> {
        if !self.has.is_empty() {
            let line = self.entry.line;
            self.flush(line)?;
        }
        Ok(self.catalog)
    }
}

/// At most 40 characters of a string, for messages.
fn first_chars(s: &str) -> String {
    s.chars().take(40).collect()
}

/// The content of one PO string literal `"..."` (nothing may follow it but spaces).
fn unquote(n: usize, lit: &str) -> Result<String, PoError> {
    let Some(body) = lit.strip_prefix('"') else {
        return Err(err(n, "a string must start with `\"`"));
    };
    let mut out = String::new();
    let mut chars = body.chars();
    loop {
        let Some(c) = chars.next() else {
            return Err(err(n, "a string that is not closed on its line"));
        };
        match c {
            '"' => break,
            '\\' => {
                let Some(e) = chars.next() else {
                    return Err(err(n, "a string that is not closed on its line"));
                };
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'a' => out.push('\u{7}'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'v' => out.push('\u{b}'),
                    '\\' | '"' | '\'' | '?' => out.push(e),
                    '0'..='7' => {
                        let mut v = e.to_digit(8).unwrap_or(0);
                        for _ in 0..2 {
                            let mut peek = chars.clone();
                            match peek.next().and_then(|d| d.to_digit(8)) {
                                Some(d) => {
                                    v = v * 8 + d;
                                    chars = peek;
                                }
                                None => break,
                            }
                        }
                        match char::from_u32(v) {
                            Some(c) if v < 0x80 => out.push(c),
                            _ => return Err(err(n, "an octal escape beyond ASCII")),
                        }
                    }
                    e => {
                        return Err(err(n, format!("an unknown escape `\\{e}`")));
                    }
                }
            }
            c => out.push(c),
        }
    }
    if !chars.as_str().trim().is_empty() {
        return Err(err(n, "text after a string's closing `\"`"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn catalog(msgstr: &str, fuzzy: bool) -> Catalog {
        Catalog {
            title: vec!["A title".into()],
            header: vec![
                ("Content-Type".into(), "text/plain; charset=UTF-8".into()),
                ("Language".into(), "fi".into()),
            ],
            entries: vec![Entry {
                comments: vec!["A note\non two lines".into()],
                references: vec!["rules.en.toml:3".into()],
                fuzzy,
                previous: fuzzy.then(|| "Old \"text\"\nline two\n".to_string()),
                msgctxt: Some("goal".into()),
                msgid: "Win\tthe \\ game.\n".into(),
                msgstr: msgstr.into(),
                line: 0,
            }],
        }
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        for fuzzy in [false, true] {
            let c = catalog("Voita \"peli\".\nToinen rivi\u{1}\r\n", fuzzy);
            let text = c.write();
            let back = Catalog::read(&text).unwrap();
            assert_eq!(back.entries[0].msgstr, c.entries[0].msgstr);
            assert_eq!(back.entries[0].msgid, c.entries[0].msgid);
            assert_eq!(back.entries[0].previous, c.entries[0].previous);
            assert_eq!(back.entries[0].fuzzy, fuzzy);
            assert_eq!(back.header, c.header);
            assert_eq!(back.write(), text);
        }
    }

    #[test]
    fn malformed_files_are_refused_at_their_line() {
        for (text, line, words) in [
            ("msgid \"a\"\nmsgstr \"b\n", 2, "not closed"),
            ("msgid \"a\"\nmsgstr \"b\\q\"\n", 2, "unknown escape"),
            ("msgid \"a\"\nmsgid_plural \"as\"\n", 2, "plural"),
            ("msgid \"a\"\nmsgstr[0] \"b\"\n", 2, "plural"),
            ("\n\nmsgstr \"b\"\n", 3, "without its `msgid`"),
            (
                "msgid \"a\"\nmsgstr \"b\"\nmsgstr \"c\"\n",
                3,
                "second string",
            ),
            ("bogus \"x\"\n", 1, "not a PO keyword"),
            ("\"x\"\n", 1, "continues no"),
            (
                "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=latin1\\n\"\n",
                1,
                "charset",
            ),
            ("msgid \"a\"\n", 1, "without its `msgstr`"),
            ("msgid \"a\" x\nmsgstr \"\"\n", 1, "after a string"),
        ] {
            let e = Catalog::read(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e:?}");
            assert!(e.message.contains(words), "{text:?}: {e:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Any Unicode text survives the round trip, and reading arbitrary text never panics.
        #[test]
        fn any_unicode_msgstr_round_trips(s in "\\PC*|[\\x00-\\x7f\u{80}-\u{10ffff}]{0,64}") {
            let c = catalog(&s, false);
            let back = Catalog::read(&c.write()).unwrap();
            prop_assert_eq!(&back.entries[0].msgstr, &s);
        }

        #[test]
        fn reading_arbitrary_text_never_panics(s in "(msgid|msgstr|msgctxt|#|#\\||\"|\\\\|\n| |[a-z]|\\PC){0,80}") {
            let _ = Catalog::read(&s);
        }
    }
}
