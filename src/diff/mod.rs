//! What changed in a game since an earlier version: `printplay diff` (a changelog for testers)
//! and `build --changed-since` / `--cards` ([`changed`]: a `changed.pdf` of only the cards to
//! reprint).
//!
//! The earlier version ([`revision`]: a git revision of the game's folder, or another folder) is
//! loaded into the same model as the game itself, both are drawn, and designs are compared by
//! id: what the data says (name, text, each field, count, template, back) and what is printed
//! (the drawn front and back, and the bytes of every image they place). A design "changed"
//! when either differs; it is reprinted when its printed front or back differs (a template edit
//! reprints every card drawn with it), when it is new, or, for a larger count, its new copies.

pub mod changed;
pub mod report;
pub mod revision;

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Card, Game};
use crate::render::faces::{CardFace, DeckFaces, Faces, PieceFace};
use crate::render::{self, BuildOptions};
use revision::Since;

/// Whether a design is new, gone or different.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Added,
    Removed,
    Changed,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Removed => "removed",
            Status::Changed => "changed",
        }
    }
}

/// One thing that differs in a design: what (`text`, `field suit`, `art art/x.png`), and the
/// values before and after where there are values to show.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub what: String,
    pub was: Option<String>,
    pub now: Option<String>,
}

impl Change {
    fn values(what: impl Into<String>, was: String, now: String) -> Change {
        Change {
            what: what.into(),
            was: Some(was),
            now: Some(now),
        }
    }

    fn named(what: impl Into<String>) -> Change {
        Change {
            what: what.into(),
            was: None,
            now: None,
        }
    }
}

/// A card or piece design that was added, removed or changed.
#[derive(Debug, Clone)]
pub struct DesignDiff {
    /// `card` or `piece`.
    pub kind: &'static str,
    /// The deck's id (a piece: `pieces`).
    pub group: String,
    /// The deck's name (a piece: `Pieces`).
    pub group_name: String,
    pub id: String,
    pub name: String,
    pub status: Status,
    /// For a changed design, what differs, in a fixed order.
    pub changes: Vec<Change>,
    /// The printed front differs (always for an added or removed design).
    pub front: bool,
    /// The printed back differs.
    pub back: bool,
    /// Copies before (0 when added) and now (0 when removed).
    pub was_count: u32,
    pub count: u32,
}

impl DesignDiff {
    /// Copies to print now: every copy of a new design or of one whose printed face changed;
    /// else the new copies of a larger count; else none.
    pub fn copies_to_print(&self) -> u32 {
        match self.status {
            Status::Removed => 0,
            Status::Added => self.count,
            Status::Changed if self.front || self.back => self.count,
            Status::Changed => self.count.saturating_sub(self.was_count),
        }
    }
}

/// Everything that differs between a game and an earlier version of it.
#[derive(Debug, Clone)]
pub struct GameDiff {
    pub slug: String,
    pub name: String,
    /// The earlier version as the command line named it.
    pub since: String,
    /// The commit the revision named, when it is one.
    pub commit: Option<String>,
    /// Cards in deck order (the game's decks, then decks that are gone), then pieces.
    pub designs: Vec<DesignDiff>,
}

impl GameDiff {
    /// The designs of `kind` with `status`.
    pub fn count(&self, status: Status) -> usize {
        self.designs.iter().filter(|d| d.status == status).count()
    }

    /// The card designs to reprint, with their copies.
    pub fn reprint(&self) -> Vec<(&DesignDiff, u32)> {
        self.designs
            .iter()
            .filter(|d| d.kind == "card")
            .map(|d| (d, d.copies_to_print()))
            .filter(|(_, n)| *n > 0)
            .collect()
    }
}

/// The game `game` against its version at `since`, both drawn with `bleed`; `faces` are the
/// game's own faces when already drawn with it. The error is a usage error (exit 2): git's
/// reason, or why the earlier version does not load or draw.
pub fn diff_game(
    game: &Game,
    faces: Option<&Faces>,
    since: &Since,
    bleed: f64,
) -> Result<GameDiff, String> {
    diff_with_earlier(game, faces, since, bleed).map(|(diff, _, _)| diff)
}

/// [`diff_game`], with the earlier version and its faces.
pub fn diff_with_earlier(
    game: &Game,
    faces: Option<&Faces>,
    since: &Since,
    bleed: f64,
) -> Result<(GameDiff, revision::Earlier, Faces), String> {
    let earlier = revision::earlier(game, since)?;
    let options = BuildOptions {
        bleed,
        ..BuildOptions::default()
    };
    let old_faces = render::draw_faces(&earlier.game, &options)
        .map_err(|e| format!("the earlier version of {} does not draw: {e}", game.slug))?;
    let drawn;
    let faces = match faces {
        Some(f) => f,
        None => {
            drawn = render::draw_faces(game, &options)?;
            &drawn
        }
    };
    let mut diff = compare(&earlier.game, &old_faces, game, faces);
    diff.since = since.describe();
    diff.commit = earlier.commit.clone();
    Ok((diff, earlier, old_faces))
}

/// A game's folder, as its faces name files in it (the real path, as image hrefs are).
struct Folder {
    dir: std::path::PathBuf,
    /// The escaped prefix every href into the folder starts with.
    href: String,
}

impl Folder {
    fn of(game: &Game) -> Folder {
        let dir = game.dir.canonicalize().unwrap_or_else(|_| game.dir.clone());
        let href = render::xml_escape(&format!(
            "{}{}",
            dir.to_string_lossy(),
            std::path::MAIN_SEPARATOR
        ));
        Folder { dir, href }
    }

    /// The files of the folder a drawn face places, relative to it.
    fn art_of(&self, svg: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let needle = format!("href=\"{}", self.href);
        for (at, _) in svg.match_indices(&needle) {
            let rest = &svg[at + needle.len()..];
            if let Some(end) = rest.find('"') {
                out.insert(unescape(&rest[..end]));
            }
        }
        out
    }
}

/// An href as written by [`render::xml_escape`], read back.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The two versions side by side: their folders and drawn faces.
struct Pair<'a> {
    old: &'a Game,
    new: &'a Game,
    old_dir: Folder,
    new_dir: Folder,
}

impl Pair<'_> {
    /// The earlier face as the game's folder would have drawn it: its hrefs into the earlier
    /// folder moved into the game's, so that only what is drawn is compared.
    fn moved(&self, old_svg: &str) -> String {
        old_svg.replace(&self.old_dir.href, &self.new_dir.href)
    }

    /// The files of art placed on either face whose bytes differ between the versions (or
    /// that exist in one only).
    fn art_changed(&self, old_svg: &str, new_svg: &str) -> Vec<String> {
        let mut files = self.new_dir.art_of(new_svg);
        files.extend(self.new_dir.art_of(&self.moved(old_svg)));
        files
            .into_iter()
            .filter(|rel| {
                let old = std::fs::read(self.old_dir.dir.join(rel)).ok();
                let new = std::fs::read(self.new_dir.dir.join(rel)).ok();
                old != new
            })
            .collect()
    }

    /// Whether a template file of either folder differs (`templates/<name>.svg`).
    fn template_edited(&self, name: &str) -> bool {
        let rel = format!("templates/{name}.svg");
        let read = |g: &Game| {
            crate::model::read_source_in(&g.dir, &rel)
                .ok()
                .map(|f| f.text)
        };
        read(self.old) != read(self.new)
    }
}

/// Compares a game with an earlier version of it, both drawn with the same bleed.
pub fn compare(old: &Game, old_faces: &Faces, new: &Game, new_faces: &Faces) -> GameDiff {
    let pair = Pair {
        old,
        new,
        old_dir: Folder::of(old),
        new_dir: Folder::of(new),
    };
    let mut designs = Vec::new();
    let old_cards = cards_by_id(old, old_faces);
    let new_cards = cards_by_id(new, new_faces);
    for deck in &new_faces.decks {
        for face in &deck.cards {
            let now = &new_cards[face.id.as_str()];
            let diff = match old_cards.get(face.id.as_str()) {
                Some(was) => compare_card(&pair, was, now),
                None => Some(whole(now, Status::Added)),
            };
            designs.extend(diff);
        }
    }
    // Designs that are gone, in the earlier version's order.
    for deck in &old_faces.decks {
        for face in &deck.cards {
            if !new_cards.contains_key(face.id.as_str()) {
                designs.push(whole(&old_cards[face.id.as_str()], Status::Removed));
            }
        }
    }
    designs.extend(compare_pieces(&pair, &old_faces.pieces, &new_faces.pieces));
    GameDiff {
        slug: new.slug.clone(),
        name: new.info.name.clone(),
        since: String::new(),
        commit: None,
        designs,
    }
}

/// A card design as both sides of the comparison see it: its data, its drawing, its deck.
struct CardSide<'a> {
    card: Option<&'a Card>,
    face: &'a CardFace,
    deck: &'a DeckFaces,
}

impl CardSide<'_> {
    fn back(&self) -> &str {
        self.face.back_or(&self.deck.back)
    }
}

fn cards_by_id<'a>(game: &'a Game, faces: &'a Faces) -> BTreeMap<&'a str, CardSide<'a>> {
    let data: BTreeMap<&str, &Card> = game
        .components
        .decks
        .iter()
        .flat_map(|d| d.cards.iter())
        .map(|c| (c.id.get_ref().as_str(), c))
        .collect();
    faces
        .decks
        .iter()
        .flat_map(|deck| {
            deck.cards.iter().map(|face| {
                (
                    face.id.as_str(),
                    CardSide {
                        card: data.get(face.id.as_str()).copied(),
                        face,
                        deck,
                    },
                )
            })
        })
        .collect()
}

/// An added or removed card, whole.
fn whole(side: &CardSide, status: Status) -> DesignDiff {
    let count = side.face.count;
    DesignDiff {
        kind: "card",
        group: side.deck.id.clone(),
        group_name: side.deck.name.clone(),
        id: side.face.id.clone(),
        name: side.face.name.clone(),
        status,
        changes: Vec::new(),
        front: true,
        back: true,
        was_count: if status == Status::Removed { count } else { 0 },
        count: if status == Status::Removed { 0 } else { count },
    }
}

/// A value from the data as a changelog shows it: short, on one line.
fn shown(value: &str) -> String {
    const MAX: usize = 160;
    let one_line = value.replace(['\n', '\r'], " ");
    match one_line.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &one_line[..at]),
        None => one_line,
    }
}

fn quoted(value: Option<&str>) -> String {
    value.map_or_else(|| "(none)".to_string(), |v| format!("“{}”", shown(v)))
}

fn toml_shown(value: Option<&toml::Value>) -> String {
    value.map_or_else(|| "(none)".to_string(), |v| shown(&v.to_string()))
}

/// What differs between two versions of one card; `None` when nothing does.
fn compare_card(pair: &Pair, was: &CardSide, now: &CardSide) -> Option<DesignDiff> {
    let mut changes = Vec::new();
    if was.deck.id != now.deck.id {
        changes.push(Change::values(
            "deck",
            was.deck.id.clone(),
            now.deck.id.clone(),
        ));
    }
    if was.deck.size != now.deck.size {
        let size = |s: (f64, f64)| format!("{} x {} mm", s.0, s.1);
        changes.push(Change::values(
            "card size",
            size(was.deck.size),
            size(now.deck.size),
        ));
    }
    if was.face.name != now.face.name {
        changes.push(Change::values(
            "name",
            quoted(Some(&was.face.name)),
            quoted(Some(&now.face.name)),
        ));
    }
    if was.face.count != now.face.count {
        changes.push(Change::values(
            "count",
            was.face.count.to_string(),
            now.face.count.to_string(),
        ));
    }
    if let (Some(a), Some(b)) = (was.card, now.card) {
        card_data_changes(a, b, &mut changes);
    }
    if was.face.template != now.face.template {
        changes.push(Change::values(
            "front template",
            was.face.template.clone(),
            now.face.template.clone(),
        ));
    } else if pair.template_edited(&now.face.template) {
        changes.push(Change::named(format!(
            "template `{}` edited",
            now.face.template
        )));
    }
    let back_template = |s: &CardSide| {
        s.face
            .back
            .as_ref()
            .map_or(s.deck.back_template.clone(), |b| b.template.clone())
    };
    let (bt_was, bt_now) = (back_template(was), back_template(now));
    if bt_was != bt_now {
        changes.push(Change::values("back template", bt_was, bt_now));
    } else if pair.template_edited(&bt_now) {
        changes.push(Change::named(format!("back template `{bt_now}` edited")));
    }
    let front_art = pair.art_changed(&was.face.svg, &now.face.svg);
    let back_art = pair.art_changed(was.back(), now.back());
    for rel in front_art.iter().chain(&back_art).collect::<BTreeSet<_>>() {
        changes.push(Change::named(format!("art `{rel}` edited")));
    }
    let front = pair.moved(&was.face.svg) != now.face.svg
        || !front_art.is_empty()
        || was.deck.size != now.deck.size;
    let back = pair.moved(was.back()) != now.back()
        || !back_art.is_empty()
        || was.deck.size != now.deck.size;
    if (front || back) && changes.is_empty() {
        // Drawn differently with the same data, templates and art: a symbol, an icon, a font
        // or the deck's back settings.
        changes.push(Change::named(if front {
            "printed front"
        } else {
            "printed back"
        }));
    }
    if changes.is_empty() {
        return None;
    }
    Some(DesignDiff {
        kind: "card",
        group: now.deck.id.clone(),
        group_name: now.deck.name.clone(),
        id: now.face.id.clone(),
        name: now.face.name.clone(),
        status: Status::Changed,
        changes,
        front,
        back,
        was_count: was.face.count,
        count: now.face.count,
    })
}

/// What the data of a card says differently: text, translations, fields, own template and back.
fn card_data_changes(a: &Card, b: &Card, changes: &mut Vec<Change>) {
    if a.text != b.text {
        changes.push(Change::values(
            "text",
            quoted(a.text.as_deref()),
            quoted(b.text.as_deref()),
        ));
    }
    let langs: BTreeSet<&String> = a.texts.keys().chain(b.texts.keys()).collect();
    for lang in langs {
        let (x, y) = (a.texts.get(lang), b.texts.get(lang));
        if x != y {
            changes.push(Change::values(
                format!("text ({lang})"),
                quoted(x.map(String::as_str)),
                quoted(y.map(String::as_str)),
            ));
        }
    }
    let langs: BTreeSet<&String> = a.names.keys().chain(b.names.keys()).collect();
    for lang in langs {
        let (x, y) = (a.names.get(lang), b.names.get(lang));
        if x != y {
            changes.push(Change::values(
                format!("name ({lang})"),
                quoted(x.map(String::as_str)),
                quoted(y.map(String::as_str)),
            ));
        }
    }
    let keys: BTreeSet<&String> = a.fields.keys().chain(b.fields.keys()).collect();
    for key in keys {
        let (x, y) = (
            a.fields.get(key).map(|v| v.get_ref()),
            b.fields.get(key).map(|v| v.get_ref()),
        );
        if x != y {
            changes.push(Change::values(
                format!("field `{key}`"),
                toml_shown(x),
                toml_shown(y),
            ));
        }
    }
    let template = |c: &Card| c.template.as_ref().map(|t| t.get_ref().clone());
    if template(a) != template(b) {
        changes.push(Change::values(
            "own template",
            quoted(template(a).as_deref()),
            quoted(template(b).as_deref()),
        ));
    }
    let back = |c: &Card| c.back.as_ref().map(|t| format!("{:?}", t.get_ref()));
    if back(a) != back(b) {
        changes.push(Change::named("own back"));
    }
}

/// Pieces compared by id: count, name, drawn front and back, art.
fn compare_pieces(pair: &Pair, old: &[PieceFace], new: &[PieceFace]) -> Vec<DesignDiff> {
    let design = |p: &PieceFace, status, changes, was_count, count| DesignDiff {
        kind: "piece",
        group: "pieces".to_string(),
        group_name: "Pieces".to_string(),
        id: p.id.clone(),
        name: p.name.clone(),
        status,
        changes,
        front: true,
        back: p.back.is_some(),
        was_count,
        count,
    };
    let mut out = Vec::new();
    for p in new {
        let Some(was) = old.iter().find(|o| o.id == p.id) else {
            out.push(design(p, Status::Added, Vec::new(), 0, p.count));
            continue;
        };
        let mut changes = Vec::new();
        if was.name != p.name {
            changes.push(Change::values(
                "name",
                quoted(Some(&was.name)),
                quoted(Some(&p.name)),
            ));
        }
        if was.count != p.count {
            changes.push(Change::values(
                "count",
                was.count.to_string(),
                p.count.to_string(),
            ));
        }
        let art = pair.art_changed(&was.svg, &p.svg);
        for rel in &art {
            changes.push(Change::named(format!("art `{rel}` edited")));
        }
        let front = pair.moved(&was.svg) != p.svg || !art.is_empty();
        let back = was.back.as_deref().map(|b| pair.moved(b)) != p.back;
        if front && art.is_empty() {
            changes.push(Change::named("printed front"));
        }
        if back {
            changes.push(Change::named("printed back"));
        }
        if !changes.is_empty() {
            let mut d = design(p, Status::Changed, changes, was.count, p.count);
            d.front = front;
            d.back = back;
            out.push(d);
        }
    }
    for p in old.iter().filter(|p| !new.iter().any(|n| n.id == p.id)) {
        out.push(design(p, Status::Removed, Vec::new(), p.count, 0));
    }
    out
}

/// The shortest unambiguous name of a commit in a report.
pub fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}
