//! The generated data reference (`printplay reference`) against the schemas and the loader:
//! every key of every schema has its row in the section of its table, the keys of each
//! alternative form (`oneOf`/`anyOf`: a diagram's kinds, a custom card size, a source's
//! `inferred`) under a heading that names when the form applies; and every TOML example the
//! reference gives (a code span `key = value`) is written into a real game's data where its
//! table stands and loaded by the real loader, which must accept it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use printplay::reference;
use printplay::schema::{FileKind, json_schema};
use serde_json::Value;

mod common;

/// The data kinds whose pages are checked, with the file of a game folder each describes
/// (`None`: a spreadsheet row, no TOML file).
const KINDS: [(FileKind, Option<&str>); 5] = [
    (FileKind::Game, Some("game.toml")),
    (FileKind::Components, Some("components.toml")),
    (FileKind::Rules, Some("rules.en.toml")),
    (FileKind::RulesMeta, Some("rules.toml")),
    (FileKind::Sheet, None),
];

fn schema(kind: FileKind) -> Value {
    serde_json::from_str(&json_schema(kind)).expect("schema JSON")
}

/// A page's sections: `""` for the text before the first `## `, each `## Name` by its name,
/// each `### Name: form` by its whole heading; a `## ` section's text includes its `### `.
fn sections(page: &str) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let (mut h2, mut h3) = (String::new(), None::<String>);
    for line in page.lines() {
        if let Some(name) = line.strip_prefix("## ") {
            h2 = name.trim().to_string();
            h3 = None;
        } else if let Some(name) = line.strip_prefix("### ") {
            h3 = Some(name.trim().to_string());
        }
        for key in std::iter::once(h2.clone()).chain(h3.clone()) {
            let s = out.entry(key).or_default();
            s.push_str(line);
            s.push('\n');
        }
    }
    out
}

/// The keys of a section's table rows (`` | `key` | ``).
fn row_keys(section: &str) -> Vec<String> {
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(k, _)| k.to_string())
        .filter(|k| k != "Key")
        .collect()
}

/// Every table with keys in a schema, with where it is: the root, a definition, or an
/// alternative of a definition (`(def, Some(alternative))`); any other place is refused, so
/// that a table nested elsewhere cannot go unlisted.
fn tables(schema: &Value) -> Vec<(String, Option<usize>, &Value)> {
    fn walk(v: &Value, place: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if m.contains_key("properties") || m.contains_key("patternProperties") {
                    out.push(place.to_string());
                }
                for (k, x) in m {
                    walk(x, &format!("{place}/{k}"), out);
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    walk(x, &format!("{place}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let mut places = Vec::new();
    walk(schema, "", &mut places);
    let mut out = Vec::new();
    for place in places {
        let parts: Vec<&str> = place.split('/').skip(1).collect();
        match parts.as_slice() {
            [] => out.push((String::new(), None, schema)),
            ["$defs", name] => out.push((name.to_string(), None, &schema["$defs"][name])),
            ["$defs", name, "oneOf" | "anyOf", i] => {
                let i: usize = i.parse().unwrap();
                let alt = &schema["$defs"][name][parts[2]][i];
                out.push((name.to_string(), Some(i), alt));
            }
            _ => panic!("a table with keys at {place}: the reference does not say where it is"),
        }
    }
    out
}

fn keys_of(obj: &Value) -> Vec<String> {
    let mut keys: Vec<String> = obj
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, _)| k.clone())
        .collect();
    keys.extend(
        obj.get("patternProperties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(p, _)| p.clone()),
    );
    keys
}

/// What is wrong with a data page against its schema: keys without a row in their table's
/// section, alternatives without a section of their own that names when they apply.
fn missing_keys(kind: FileKind, page: &str) -> Vec<String> {
    let schema = schema(kind);
    let sections = sections(page);
    let mut problems = Vec::new();
    for (def, alt, obj) in tables(&schema) {
        let Some(section) = sections.get(&def) else {
            problems.push(format!("{kind:?}: no section `## {def}`"));
            continue;
        };
        let wanted = keys_of(obj);
        let has_row = |text: &str, key: &str| {
            row_keys(text).iter().any(|k| k == key) || text.contains(&format!("(matching `{key}`)"))
        };
        match alt {
            None => {
                for key in &wanted {
                    if !has_row(section, key) {
                        problems.push(format!("{kind:?}: `{def}.{key}` has no row"));
                    }
                }
            }
            Some(i) => {
                // Its own `### Def: …` section, whose rows are exactly its keys, named for
                // when it applies: the value of the key that tells the forms apart, or the
                // keys it requires.
                let required: Vec<&str> = obj
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let tag = obj
                    .get("properties")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .find_map(|(k, p)| p.get("const").map(|c| format!("{k} = {c}")));
                let found = sections.iter().find(|(h, text)| {
                    h.starts_with(&format!("{def}: "))
                        && wanted.iter().all(|k| has_row(text, k))
                        && row_keys(text).len() == wanted.len()
                });
                match found {
                    None => problems.push(format!(
                        "{kind:?}: form {i} of `{def}` (keys {wanted:?}) has no section of its own"
                    )),
                    Some((heading, _)) => {
                        let named = match &tag {
                            Some(t) => heading.contains(t.as_str()),
                            None => required.iter().all(|k| heading.contains(k)),
                        };
                        if !named {
                            problems.push(format!(
                                "{kind:?}: `### {heading}` does not say when form {i} of `{def}` applies ({})",
                                tag.clone().unwrap_or_else(|| required.join(", "))
                            ));
                        }
                    }
                }
            }
        }
    }
    problems
}

#[test]
fn every_key_of_every_schema_has_its_row_alternatives_included() {
    let mut problems = Vec::new();
    let mut alternatives = 0;
    for (kind, _) in KINDS {
        let page = reference::schema_markdown(kind);
        problems.extend(missing_keys(kind, &page));
        alternatives += tables(&schema(kind))
            .iter()
            .filter(|(_, a, _)| a.is_some())
            .count();
    }
    assert!(problems.is_empty(), "{problems:#?}");
    // The forms the issue named: five diagram kinds, a custom card size, a measure's sum, four
    // sources in each of two files, a card's own back.
    assert!(alternatives >= 16, "{alternatives} alternative tables");
    // Every key of an alternative has its meaning (a one-key form's is the form's).
    let undocumented = reference::undocumented_keys();
    assert!(undocumented.is_empty(), "{undocumented:#?}");
}

#[test]
fn the_completeness_check_finds_a_missing_alternative() {
    // The same page with the custom card size's section taken out: the check must miss it.
    let page = reference::schema_markdown(FileKind::Components);
    let start = page
        .find("### CardSize: ")
        .expect("a section for the custom size");
    let end = start + page[start..].find("</div>").unwrap();
    let cut = format!("{}{}", &page[..start], &page[end..]);
    let problems = missing_keys(FileKind::Components, &cut);
    assert!(
        problems.iter().any(|p| p.contains("`CardSize`")),
        "{problems:#?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Examples

/// Game folders the examples are tried in: every shipped game, the book's example and the
/// game `printplay new` writes (in the returned folder).
fn games() -> (tempfile::TempDir, Vec<PathBuf>) {
    let mut out: Vec<PathBuf> = [
        "aether",
        "capek-golems",
        "imperial-settlers-aztecs",
        "the-search",
    ]
    .iter()
    .map(|s| common::repo().join("data").join(s))
    .collect();
    out.push(common::repo().join("docs/examples/field-guide"));
    let dir = tempfile::tempdir().unwrap();
    out.push(printplay::scaffold::new_game(dir.path(), "new-game").unwrap());
    (dir, out)
}

/// A schema node with `$ref` and optional (`anyOf [x, null]`) wrappers resolved: the
/// definition's name and its node, or the node itself.
fn resolve<'a>(schema: &'a Value, node: &'a Value) -> (Option<String>, &'a Value) {
    if let Some(r) = node.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap().to_string();
        return (Some(name.clone()), &schema["$defs"][&name]);
    }
    (None, node)
}

/// The alternatives of a node (itself when it has none).
fn forms<'a>(schema: &'a Value, node: &'a Value) -> Vec<(Option<String>, &'a Value)> {
    let (name, node) = resolve(schema, node);
    let alts: Vec<&Value> = ["oneOf", "anyOf"]
        .iter()
        .filter_map(|k| node.get(*k).and_then(Value::as_array))
        .flatten()
        .collect();
    if alts.is_empty() {
        return vec![(name, node)];
    }
    alts.into_iter()
        .flat_map(|a| {
            forms(schema, a)
                .into_iter()
                .map(|(n, x)| (n.or(name.clone()), x))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Where a table of the data stands: its path of keys and array indices from the file's root.
type DataPath = Vec<PathStep>;

#[derive(Debug, Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

/// Every table of a data file with the definitions it is an instance of (`""`: the root).
fn instances(schema: &Value, data: &toml::Value) -> Vec<(String, DataPath, Value)> {
    fn walk(
        schema: &Value,
        node: &Value,
        defs: Vec<String>,
        data: &toml::Value,
        path: DataPath,
        out: &mut Vec<(String, DataPath, Value)>,
    ) {
        for (name, form) in forms(schema, node) {
            let mut defs = defs.clone();
            defs.extend(name);
            match data {
                toml::Value::Table(t)
                    if form.get("type").and_then(Value::as_str) != Some("string") =>
                {
                    let props = form.get("properties").and_then(Value::as_object);
                    if let Some(props) = props {
                        // A form applies when the table has only its keys (with a tag, its tag).
                        let fits = t.keys().all(|k| props.contains_key(k))
                            || form.get("additionalProperties") != Some(&Value::Bool(false))
                                && !props.values().any(|p| p.get("const").is_some());
                        let tagged = props.iter().all(|(k, p)| match p.get("const") {
                            Some(c) => t.get(k).and_then(|v| v.as_str()) == c.as_str(),
                            None => true,
                        });
                        if !fits || !tagged {
                            continue;
                        }
                    }
                    for d in &defs {
                        out.push((d.clone(), path.clone(), form.clone()));
                    }
                    for (k, v) in t {
                        let mut p = path.clone();
                        p.push(PathStep::Key(k.clone()));
                        if let Some(child) = props.and_then(|m| m.get(k)) {
                            walk(schema, child, Vec::new(), v, p, out);
                        } else if let Some(child) =
                            form.get("additionalProperties").filter(|a| a.is_object())
                        {
                            walk(schema, child, Vec::new(), v, p, out);
                        }
                    }
                }
                toml::Value::Array(a) => {
                    if let Some(items) = form.get("items") {
                        for (i, v) in a.iter().enumerate() {
                            let mut p = path.clone();
                            p.push(PathStep::Index(i));
                            walk(schema, items, Vec::new(), v, p, out);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(
        schema,
        schema,
        vec![String::new()],
        data,
        Vec::new(),
        &mut out,
    );
    out
}

/// Whether a node (any of its forms) takes `key` as one of its own keys; the node of its value.
fn takes<'a>(schema: &'a Value, node: &'a Value, key: &str) -> Option<&'a Value> {
    forms(schema, node)
        .into_iter()
        .find_map(|(_, f)| f.get("properties").and_then(|p| p.get(key)))
}

/// Whether a value node leads to definition `def` (directly, optionally, as a list's items or
/// a map's values).
fn reaches(schema: &Value, node: &Value, def: &str) -> bool {
    forms(schema, node).into_iter().any(|(name, f)| {
        name.as_deref() == Some(def)
            || f.get("items").is_some_and(|i| reaches(schema, i, def))
            || f.get("additionalProperties")
                .filter(|a| a.is_object())
                .is_some_and(|a| reaches(schema, a, def))
    })
}

fn at<'a>(data: &'a mut toml::Value, path: &DataPath) -> &'a mut toml::Value {
    let mut v = data;
    for step in path {
        v = match step {
            PathStep::Key(k) => &mut v[k.as_str()],
            PathStep::Index(i) => &mut v[*i],
        };
    }
    v
}

/// One example of a page: the code span, the definition of the section it is in, and the key
/// of the row it is in (`None`: the section's prose).
#[derive(Debug)]
struct Example {
    span: String,
    def: String,
    row: Option<String>,
}

/// Every code span with ` = ` in a page's prose and rows (headings name forms, not examples).
fn examples(page: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut def = String::new();
    for line in page.lines() {
        if let Some(name) = line.strip_prefix("## ") {
            def = name.trim().to_string();
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let row = line
            .strip_prefix("| `")
            .and_then(|l| l.split_once('`'))
            .map(|(k, _)| k.to_string());
        for (i, span) in line.split('`').enumerate() {
            if i % 2 == 1 && span.contains(" = ") {
                out.push(Example {
                    span: span.to_string(),
                    def: def.clone(),
                    row: row.clone(),
                });
            }
        }
    }
    out
}

/// Writes the example into each table of the games' data where it belongs (its section's
/// table, or one its row leads to, or one holding its section's definition) and loads that
/// game with the real loader, until one accepts it. `Err` says why it is wrong: the first
/// table's refusal, or that no table of the data could hold it.
fn try_example(kind: FileKind, file: &str, ex: &Example, pool: &[PathBuf]) -> Result<(), String> {
    let schema = schema(kind);
    // The example as a TOML table: `key = value`, or the bare value of the row's key.
    let doc: toml::Table = match toml::from_str::<toml::Table>(&ex.span) {
        Ok(t) => t,
        Err(e) => match &ex.row {
            Some(row) => toml::from_str::<toml::Table>(&format!("{row} = {}", ex.span))
                .map_err(|_| format!("not TOML: {e}"))?,
            None => return Err(format!("not TOML: {e}")),
        },
    };
    // The definitions the row's value leads to (`deal`: TableDeal, whose `seat` an example
    // of the row may show).
    let section_node = if ex.def.is_empty() {
        &schema
    } else {
        &schema["$defs"][&ex.def]
    };
    let row_node = ex
        .row
        .as_deref()
        .and_then(|r| takes(&schema, section_node, r));
    let mut first_refusal = None;
    for game in pool {
        let Ok(text) = std::fs::read_to_string(game.join(file)) else {
            continue;
        };
        let data: toml::Value = toml::from_str(&text).expect("shipped data parses");
        let candidates: Vec<(DataPath, Value)> = instances(&schema, &data)
            .into_iter()
            .filter(|(def, _, node)| {
                doc.keys().all(|k| takes(&schema, node, k).is_some())
                    && (*def == ex.def
                        || row_node.is_some_and(|n| !def.is_empty() && reaches(&schema, n, def))
                        || ex.row.is_none()
                            && doc.keys().any(|k| {
                                takes(&schema, node, k)
                                    .is_some_and(|n| reaches(&schema, n, &ex.def))
                            }))
            })
            .map(|(_, p, n)| (p, n))
            .collect();
        // A few tables of each game: enough to find one whose neighbours suit the example.
        for (path, node) in candidates.into_iter().take(3) {
            let mut data = data.clone();
            let table = at(&mut data, &path).as_table_mut().expect("a table");
            for (k, v) in &doc {
                let child = takes(&schema, &node, k).unwrap();
                let is_map = forms(&schema, child).iter().any(|(_, f)| {
                    f.get("properties").is_none() && f.get("additionalProperties").is_some()
                });
                match (table.get_mut(k), v) {
                    // A map's entries are added to the map the data has (`names = { fi = … }`).
                    (Some(toml::Value::Table(have)), toml::Value::Table(add)) if is_map => {
                        have.extend(add.clone());
                    }
                    _ => {
                        table.insert(k.clone(), v.clone());
                    }
                }
            }
            let dir = tempfile::tempdir().unwrap();
            let slug = game.file_name().unwrap().to_str().unwrap().to_string();
            let dest = dir.path().join(&slug);
            common::copy_dir(game, &dest);
            std::fs::write(dest.join(file), toml::to_string(&data).unwrap()).unwrap();
            match printplay::model::load_game(dir.path(), &slug) {
                Ok(_) => return Ok(()),
                Err(problems) => {
                    let words: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
                    first_refusal.get_or_insert(format!(
                        "{file} of {slug} refuses it: {}",
                        words.join("; ")
                    ));
                }
            }
        }
    }
    Err(first_refusal.unwrap_or_else(|| {
        format!(
            "no table of `{}` in any game's {file} to try it in",
            if ex.def.is_empty() {
                "(top level)"
            } else {
                &ex.def
            }
        )
    }))
}

/// The examples of a page that are wrong; patterns (`{ sum = … }`) are not examples.
fn wrong_examples(kind: FileKind, file: &str, page: &str) -> (usize, Vec<String>) {
    let (_dir, pool) = games();
    let mut tried = 0;
    let mut wrong = Vec::new();
    for ex in examples(page) {
        if ex.span.contains('…') || ex.span.contains("...") {
            continue;
        }
        tried += 1;
        if let Err(why) = try_example(kind, file, &ex, &pool) {
            wrong.push(format!(
                "{kind:?} `{}` (in {}{}): {why}",
                ex.span,
                if ex.def.is_empty() {
                    "the top level"
                } else {
                    &ex.def
                },
                ex.row
                    .as_deref()
                    .map(|r| format!(", row `{r}`"))
                    .unwrap_or_default()
            ));
        }
    }
    (tried, wrong)
}

#[test]
fn every_example_in_the_reference_loads() {
    let mut tried = 0;
    let mut wrong = Vec::new();
    for (kind, file) in KINDS {
        let page = reference::schema_markdown(kind);
        let Some(file) = file else {
            assert!(
                examples(&page).is_empty(),
                "{kind:?} has no file to try examples in"
            );
            continue;
        };
        let (n, w) = wrong_examples(kind, file, &page);
        tried += n;
        wrong.extend(w);
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(tried >= 20, "only {tried} examples tried");
}

#[test]
fn a_card_size_the_program_refuses_fails_the_example_check() {
    // The example the reference once gave.
    let page = reference::schema_markdown(FileKind::Components);
    let bad = page.replace("{ width = 63, height = 88 }", "{ w = 63, h = 88 }");
    assert_ne!(bad, page);
    let (_, wrong) = wrong_examples(FileKind::Components, "components.toml", &bad);
    assert!(wrong.iter().any(|w| w.contains("w = 63")), "{wrong:#?}");
    // Nothing else is: the check fails on the example, not on the data around it.
    assert!(wrong.iter().all(|w| w.contains("w = 63")), "{wrong:#?}");
}
