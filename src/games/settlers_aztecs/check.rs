//! The deck-building rules of Imperial Settlers: Aztecs that need logic beyond counting:
//! copy classes, the standard format's single expansion, the one-for-one replacement of base
//! designs, and common cards from the base game only. The counts (110 cards, 46 blessings,
//! 30 = 3 x 3 + 6 x 2 + 9 x 1) are declared as invariants in `game.toml`.

use std::collections::{BTreeMap, BTreeSet};

use super::param_strs;
use crate::diag::Problem;
use crate::diag::place::{in_components, rule_problem};
use crate::model::{Card, Deck, Game};

const COPIES_RULE: &str = "A faction design is used in exactly as many copies as its copy icon \
                           shows (rulebook: Building a Faction deck)";
const STRUCTURE_RULE: &str = "A faction deck has a fixed number of designs of each copy class \
                              (rulebook: Building a Faction deck)";
const FACTION_RULE: &str = "A faction deck holds the cards of one faction \
                            (rulebook: Building a Faction deck)";
const SLOT_RULE: &str = "Each card of a deck list stands for a faction card of the expansion or \
                         base game, with that card's affiliation and copy icon \
                         (rulebook: Preparation, affiliation icons)";
const EXPANSION_RULE: &str = "Standard format: faction cards come from the base game plus \
                              exactly one expansion (rulebook: STANDARD Format)";
const REPLACE_RULE: &str = "Each expansion design added removes a base design with the same copy \
                            count (rulebook: Building a Faction deck)";
const COMMON_RULE: &str = "Standard format: common cards come only from the base game \
                           (rulebook: STANDARD Format)";
const TRICOLOR_RULE: &str = "The tricolor token stands for one of the blessing colours it names \
                             (rulebook: Blessing)";

/// The rule numbers and data layout this check reads from `game.toml`.
struct Rules {
    deck_size: i64,
    /// (copies, designs of that class), in the data's order.
    classes: Vec<(i64, i64)>,
    standard: bool,
    max_expansions: usize,
    base: String,
    pools: Vec<String>,
    lists: Vec<String>,
    common: String,
    tricolor: Vec<String>,
}

/// Every deck-building problem in the game's data; empty when all rules hold.
pub fn check(game: &Game) -> Vec<Problem> {
    let rules = match read_rules(game) {
        Ok(r) => r,
        Err(problems) => return problems,
    };
    let mut out = structure_params(game, &rules);
    let pools = match pool_decks(game, &rules) {
        Ok(p) => p,
        Err(mut problems) => {
            out.append(&mut problems);
            return out;
        }
    };
    for deck in pools.iter().copied() {
        out.extend(copy_counts(game, deck));
    }
    let slots = Slots::new(&pools);
    out.extend(base_sets(game, &rules, &slots));
    for name in &rules.lists {
        match game.deck(name) {
            Some(deck) => out.extend(deck_list(game, &rules, &slots, deck)),
            None => out.push(rule_problem(
                game,
                STRUCTURE_RULE,
                Some("deck_lists"),
                format!("`deck_lists` names deck `{name}`, which does not exist"),
            )),
        }
    }
    out.extend(common_deck(game, &rules));
    out.extend(tricolor(game, &rules));
    out
}

fn read_rules(game: &Game) -> Result<Rules, Vec<Problem>> {
    let bad = |param: &str, msg: String| vec![rule_problem(game, STRUCTURE_RULE, Some(param), msg)];
    let int = |p: &str| game.param_int(p).map_err(|m| bad(p, m));
    let ints = |p: &str| game.param_ints(p).map_err(|m| bad(p, m));
    let strs = |p: &str| param_strs(game, p).map_err(|m| bad(p, m));
    let text = |p: &str| game.param_str(p).map(str::to_string).map_err(|m| bad(p, m));
    let copies = ints("copy_classes")?;
    let designs = ints("designs_per_class")?;
    if copies.len() != designs.len() {
        return Err(bad(
            "designs_per_class",
            format!(
                "`copy_classes` lists {} classes but `designs_per_class` {}",
                copies.len(),
                designs.len()
            ),
        ));
    }
    let format = text("deck_format")?;
    let standard = match format.as_str() {
        "standard" => true,
        "open" => false,
        other => {
            return Err(bad(
                "deck_format",
                format!("`deck_format` is `{other}`; use `standard` or `open`"),
            ));
        }
    };
    let max_expansions = int("standard_max_expansions")?;
    Ok(Rules {
        deck_size: int("faction_deck_size")?,
        classes: copies.into_iter().zip(designs).collect(),
        standard,
        max_expansions: usize::try_from(max_expansions).unwrap_or(0),
        base: text("base_affiliation")?,
        pools: strs("faction_card_decks")?,
        lists: strs("deck_lists")?,
        common: text("common_deck")?,
        tricolor: strs("tricolor_acts_as")?,
    })
}

/// The structure's classes must add up to the deck size: 3 x 3 + 6 x 2 + 9 x 1 = 30.
fn structure_params(game: &Game, rules: &Rules) -> Vec<Problem> {
    let total: i64 = rules.classes.iter().map(|(c, d)| c * d).sum();
    if total == rules.deck_size {
        return Vec::new();
    }
    let terms: Vec<String> = rules
        .classes
        .iter()
        .map(|(c, d)| format!("{d} x {c}"))
        .collect();
    vec![rule_problem(
        game,
        STRUCTURE_RULE,
        Some("designs_per_class"),
        format!(
            "the copy classes give {} = {total} cards, but `faction_deck_size` is {}",
            terms.join(" + "),
            rules.deck_size
        ),
    )]
}

fn pool_decks<'a>(game: &'a Game, rules: &Rules) -> Result<Vec<&'a Deck>, Vec<Problem>> {
    let mut decks = Vec::new();
    let mut missing = Vec::new();
    for name in &rules.pools {
        match game.deck(name) {
            Some(d) => decks.push(d),
            None => missing.push(rule_problem(
                game,
                SLOT_RULE,
                Some("faction_card_decks"),
                format!("`faction_card_decks` names deck `{name}`, which does not exist"),
            )),
        }
    }
    if missing.is_empty() {
        Ok(decks)
    } else {
        Err(missing)
    }
}

/// Every design of a pool deck or deck list is present in its copy class's number of copies.
fn copy_counts(game: &Game, deck: &Deck) -> Vec<Problem> {
    let mut out = Vec::new();
    for card in &deck.cards {
        let count = i64::from(card.count.0);
        match card.int("copies") {
            Some(copies) if copies == count => {}
            Some(copies) => out.push(
                at_card(
                    game,
                    card,
                    COPIES_RULE,
                    format!(
                        "card `{}` of deck `{}` has copy class {copies} but count {count}",
                        card.id.get_ref(),
                        deck.id.get_ref()
                    ),
                )
                .help("use all copies of a design, or none"),
            ),
            None => out.push(at_card(
                game,
                card,
                COPIES_RULE,
                format!(
                    "card `{}` of deck `{}` has no `copies` field (its copy class)",
                    card.id.get_ref(),
                    deck.id.get_ref()
                ),
            )),
        }
    }
    out
}

fn at_card(game: &Game, card: &Card, rule: &str, message: String) -> Problem {
    in_components(game, card.id.span(), message).rule(rule)
}

/// The faction card slots of the pool decks, by id.
struct Slots<'a> {
    by_id: BTreeMap<&'a str, &'a Card>,
}

impl<'a> Slots<'a> {
    fn new(pools: &[&'a Deck]) -> Self {
        let by_id = pools
            .iter()
            .flat_map(|d| d.cards.iter())
            .map(|c| (c.id.get_ref().as_str(), c))
            .collect();
        Slots { by_id }
    }

    /// The base-game designs of a faction.
    fn base_of(&self, faction: &str, base: &str) -> Vec<&'a Card> {
        self.by_id
            .values()
            .copied()
            .filter(|c| c.str("faction") == Some(faction) && c.str("affiliation") == Some(base))
            .collect()
    }

    fn factions(&self) -> BTreeSet<&'a str> {
        self.by_id
            .values()
            .filter_map(|c| c.str("faction"))
            .collect()
    }
}

/// Designs per copy class among `cards`, in the order of the rules' classes.
fn class_counts<'c>(cards: impl Iterator<Item = &'c Card>) -> BTreeMap<i64, i64> {
    let mut counts = BTreeMap::new();
    for card in cards {
        *counts.entry(card.int("copies").unwrap_or(0)).or_insert(0) += 1;
    }
    counts
}

/// Describes a class tally against the rules: `3 triples` style, as `designs x copies`.
fn structure_mismatch(rules: &Rules, counts: &BTreeMap<i64, i64>) -> Option<String> {
    let expected: BTreeMap<i64, i64> = rules.classes.iter().copied().collect();
    let mut keys: BTreeSet<i64> = expected.keys().copied().collect();
    keys.extend(counts.keys().copied());
    let wrong: Vec<String> = keys
        .into_iter()
        .filter(|k| expected.get(k).copied().unwrap_or(0) != counts.get(k).copied().unwrap_or(0))
        .map(|k| {
            format!(
                "{} designs in {k} copies where {} are needed",
                counts.get(&k).copied().unwrap_or(0),
                expected.get(&k).copied().unwrap_or(0)
            )
        })
        .collect();
    (!wrong.is_empty()).then(|| wrong.join("; "))
}

/// A faction's base-game set in the pool is a full faction deck; deck lists replace within it.
fn base_sets(game: &Game, rules: &Rules, slots: &Slots) -> Vec<Problem> {
    let mut out = Vec::new();
    for faction in slots.factions() {
        let base = slots.base_of(faction, &rules.base);
        if base.is_empty() {
            continue; // the base game's own cards of this faction are not in our data
        }
        if let Some(msg) = structure_mismatch(rules, &class_counts(base.iter().copied())) {
            out.push(at_card(
                game,
                base[0],
                STRUCTURE_RULE,
                format!("the base-game set of faction `{faction}` is not a faction deck: {msg}"),
            ));
        }
    }
    out
}

/// All the rules one deck list must obey.
fn deck_list(game: &Game, rules: &Rules, slots: &Slots, deck: &Deck) -> Vec<Problem> {
    let mut out = copy_counts(game, deck);
    if let Some(msg) = structure_mismatch(rules, &class_counts(deck.cards.iter())) {
        out.push(
            Problem::data(format!("deck list `{}`: {msg}", deck.id.get_ref()))
                .rule(STRUCTURE_RULE)
                .at(&game.components_file, deck.id.span(), "this deck list"),
        );
    }
    let Some(faction) = one_faction(game, deck, &mut out) else {
        return out;
    };
    out.extend(slot_links(game, slots, deck));
    if rules.standard {
        out.extend(one_expansion(game, rules, deck));
        out.extend(replacements(game, rules, slots, deck, faction));
    }
    out
}

/// The faction of a deck list, or a problem when its cards name several (or none).
fn one_faction<'a>(game: &Game, deck: &'a Deck, out: &mut Vec<Problem>) -> Option<&'a str> {
    let factions: BTreeSet<&str> = deck.cards.iter().filter_map(|c| c.str("faction")).collect();
    if factions.len() == 1 {
        return factions.into_iter().next();
    }
    out.push(
        Problem::data(format!(
            "deck list `{}` holds cards of {} factions: {}",
            deck.id.get_ref(),
            factions.len(),
            factions.into_iter().collect::<Vec<_>>().join(", ")
        ))
        .rule(FACTION_RULE)
        .at(&game.components_file, deck.id.span(), "this deck list"),
    );
    None
}

/// Each card of a list names an existing slot and agrees with its faction, affiliation, copies.
fn slot_links(game: &Game, slots: &Slots, deck: &Deck) -> Vec<Problem> {
    let mut out = Vec::new();
    for card in &deck.cards {
        let id = card.id.get_ref();
        let Some(design) = card.str("design") else {
            out.push(at_card(
                game,
                card,
                SLOT_RULE,
                format!("card `{id}` names no `design` slot"),
            ));
            continue;
        };
        let Some(slot) = slots.by_id.get(design) else {
            out.push(at_card(
                game,
                card,
                SLOT_RULE,
                format!(
                    "card `{id}` stands for design `{design}`, which no faction card deck holds"
                ),
            ));
            continue;
        };
        for field in ["faction", "affiliation"] {
            if card.str(field) != slot.str(field) {
                out.push(at_card(
                    game,
                    card,
                    SLOT_RULE,
                    format!(
                        "card `{id}` has {field} `{}` but its design `{design}` has `{}`",
                        card.str(field).unwrap_or("(none)"),
                        slot.str(field).unwrap_or("(none)")
                    ),
                ));
            }
        }
        if card.int("copies") != slot.int("copies") {
            out.push(at_card(
                game,
                card,
                SLOT_RULE,
                format!(
                    "card `{id}` has copy class {:?} but its design `{design}` has {:?}",
                    card.int("copies"),
                    slot.int("copies")
                ),
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for card in &deck.cards {
        if let Some(design) = card.str("design")
            && !seen.insert(design)
        {
            out.push(at_card(
                game,
                card,
                COPIES_RULE,
                format!(
                    "design `{design}` appears twice in deck list `{}`; list it once with all its copies",
                    deck.id.get_ref()
                ),
            ));
        }
    }
    out
}

/// Standard format: besides base-game cards, the list uses the cards of one expansion at most.
fn one_expansion(game: &Game, rules: &Rules, deck: &Deck) -> Vec<Problem> {
    let expansions: BTreeSet<&str> = deck
        .cards
        .iter()
        .filter_map(|c| c.str("affiliation"))
        .filter(|a| *a != rules.base)
        .collect();
    if expansions.len() <= rules.max_expansions {
        return Vec::new();
    }
    vec![
        Problem::data(format!(
            "deck list `{}` mixes the faction cards of {} expansions ({}); the standard format allows {}",
            deck.id.get_ref(),
            expansions.len(),
            expansions.into_iter().collect::<Vec<_>>().join(", "),
            rules.max_expansions
        ))
        .rule(EXPANSION_RULE)
        .at(&game.components_file, deck.id.span(), "this deck list")
        .help("set `deck_format = \"open\"` in game.toml for an open-format deck"),
    ]
}

/// Deck = the faction's base set, minus one base design per expansion design of the same copy
/// class, plus those expansion designs.
fn replacements(
    game: &Game,
    rules: &Rules,
    slots: &Slots,
    deck: &Deck,
    faction: &str,
) -> Vec<Problem> {
    let base_set = slots.base_of(faction, &rules.base);
    if base_set.is_empty() {
        return vec![
            Problem::data(format!(
                "deck list `{}` is for faction `{faction}`, whose base-game designs are not in the data, so its replacements cannot be checked",
                deck.id.get_ref()
            ))
            .rule(REPLACE_RULE)
            .at(&game.components_file, deck.id.span(), "this deck list"),
        ];
    }
    let mut out = Vec::new();
    let present: BTreeSet<&str> = deck.cards.iter().filter_map(|c| c.str("design")).collect();
    let mut replaced: BTreeMap<&str, &Card> = BTreeMap::new();
    for card in &deck.cards {
        let is_base = card.str("affiliation") == Some(rules.base.as_str());
        match (is_base, card.str("replaces")) {
            (true, None) => {}
            (true, Some(_)) => out.push(at_card(
                game,
                card,
                REPLACE_RULE,
                format!(
                    "card `{}` is a base-game card; only expansion cards replace others",
                    card.id.get_ref()
                ),
            )),
            (false, None) => out.push(at_card(
                game,
                card,
                REPLACE_RULE,
                format!(
                    "expansion card `{}` ({} copies) replaces no base design",
                    card.id.get_ref(),
                    card.int("copies").unwrap_or(0)
                ),
            )),
            (false, Some(target)) => {
                out.extend(replacement(game, card, target, &base_set, &present));
                if let Some(first) = replaced.insert(target, card) {
                    out.push(at_card(
                        game,
                        card,
                        REPLACE_RULE,
                        format!(
                            "base design `{target}` is replaced twice, by `{}` and `{}`",
                            first.id.get_ref(),
                            card.id.get_ref()
                        ),
                    ));
                }
            }
        }
    }
    for base in &base_set {
        let id = base.id.get_ref().as_str();
        if !present.contains(id) && !replaced.contains_key(id) {
            out.push(
                Problem::data(format!(
                    "deck list `{}` leaves out base design `{id}` ({} copies) without an expansion design replacing it",
                    deck.id.get_ref(),
                    base.int("copies").unwrap_or(0)
                ))
                .rule(REPLACE_RULE)
                .at(&game.components_file, deck.id.span(), "this deck list"),
            );
        }
    }
    out
}

/// One `replaces` link: it names a base design of the faction, of the same copy class, that
/// the list does not also hold.
fn replacement(
    game: &Game,
    card: &Card,
    target: &str,
    base_set: &[&Card],
    present: &BTreeSet<&str>,
) -> Vec<Problem> {
    let id = card.id.get_ref();
    let Some(base) = base_set.iter().find(|b| b.id.get_ref() == target) else {
        return vec![at_card(
            game,
            card,
            REPLACE_RULE,
            format!("card `{id}` replaces `{target}`, which is not a base design of its faction"),
        )];
    };
    let mut out = Vec::new();
    if base.int("copies") != card.int("copies") {
        out.push(at_card(
            game,
            card,
            REPLACE_RULE,
            format!(
                "card `{id}` ({} copies) replaces `{target}` ({} copies); the copy counts must match",
                card.int("copies").unwrap_or(0),
                base.int("copies").unwrap_or(0)
            ),
        ));
    }
    if present.contains(target) {
        out.push(at_card(
            game,
            card,
            REPLACE_RULE,
            format!("card `{id}` replaces `{target}`, but the deck list still holds `{target}`"),
        ));
    }
    out
}

/// Standard format: every common card comes from the base game.
fn common_deck(game: &Game, rules: &Rules) -> Vec<Problem> {
    let Some(deck) = game.deck(&rules.common) else {
        return vec![rule_problem(
            game,
            COMMON_RULE,
            Some("common_deck"),
            format!(
                "`common_deck` names deck `{}`, which does not exist",
                rules.common
            ),
        )];
    };
    if !rules.standard {
        return Vec::new();
    }
    deck.cards
        .iter()
        .filter(|c| c.str("affiliation") != Some(rules.base.as_str()))
        .map(|c| {
            at_card(
                game,
                c,
                COMMON_RULE,
                format!(
                    "common card `{}` comes from `{}`, not the base game (`{}`)",
                    c.id.get_ref(),
                    c.str("affiliation").unwrap_or("(none)"),
                    rules.base
                ),
            )
        })
        .collect()
}

/// The tricolor's colours are blessing colours that have tokens of their own.
fn tricolor(game: &Game, rules: &Rules) -> Vec<Problem> {
    let token_colours: BTreeSet<&str> = game
        .pieces_of_kind("blessing")
        .filter(|p| p.fields.get("tricolor").and_then(|v| v.get_ref().as_bool()) != Some(true))
        .filter_map(|p| p.symbol.as_deref())
        .collect();
    rules
        .tricolor
        .iter()
        .filter(|c| !token_colours.contains(c.as_str()))
        .map(|c| {
            rule_problem(
                game,
                TRICOLOR_RULE,
                Some("tricolor_acts_as"),
                format!("`tricolor_acts_as` names `{c}`, which is not a blessing token colour"),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testdata::{edited, edits, shipped};
    use super::*;
    use crate::check::check_game;
    use crate::model::{COMPONENTS_FILE, GAME_FILE};

    /// The problems of `game` whose rule mentions `rule_part`, as text.
    fn with_rule(game: &Game, rule_part: &str) -> Vec<String> {
        check(game)
            .into_iter()
            .filter(|p| p.rule.as_deref().is_some_and(|r| r.contains(rule_part)))
            .map(|p| p.to_string())
            .collect()
    }

    #[test]
    fn shipped_data_passes_every_check() {
        let game = shipped();
        let problems: Vec<String> = check_game(&game).iter().map(|p| p.to_string()).collect();
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn module_is_registered_for_the_game() {
        let game = shipped();
        let module = crate::games::module(game.info.engine.as_deref().unwrap());
        assert_eq!(module.map(|m| m.id()), Some(super::super::ID));
    }

    #[test]
    fn copy_count_must_match_copy_class() {
        let game = edited(
            COMPONENTS_FILE,
            "count = 3\ntext = \"Proxy: stands for your regular Aztec design with 3",
            "count = 2\ntext = \"Proxy: stands for your regular Aztec design with 3",
        );
        let found = with_rule(&game, "copy icon");
        assert!(
            found.iter().any(|p| p.contains("example-regular-triple-a")
                && p.contains("copy class 3 but count 2")
                && p.contains("Building a Faction deck")),
            "{found:#?}"
        );
    }

    #[test]
    fn pool_design_copy_count_is_checked() {
        let game = edited(
            COMPONENTS_FILE,
            "id = \"barbarians-aztecs-triple-a\"\nname = \"Barbarians Aztecs triple A\"\ncount = 3",
            "id = \"barbarians-aztecs-triple-a\"\nname = \"Barbarians Aztecs triple A\"\ncount = 1",
        );
        let found = with_rule(&game, "copy icon");
        assert!(
            found
                .iter()
                .any(|p| p.contains("barbarians-aztecs-triple-a") && p.contains("count 1")),
            "{found:#?}"
        );
    }

    #[test]
    fn two_expansions_break_the_standard_format() {
        // Swap one Atlanteans single for the Why Can't We Be Friends single of the same slot.
        let game = edited(
            COMPONENTS_FILE,
            "affiliation = \"atlanteans-expansion\", copies = 1, design = \"aztec-atlanteans-single-a\"",
            "affiliation = \"why-cant-we-be-friends\", copies = 1, design = \"aztec-wcwbf-single-a\"",
        );
        let found = with_rule(&game, "STANDARD Format");
        assert!(
            found.iter().any(|p| p.contains("2 expansions")
                && p.contains("atlanteans-expansion")
                && p.contains("why-cant-we-be-friends")),
            "{found:#?}"
        );
    }

    #[test]
    fn open_format_allows_two_expansions() {
        let mix = (
            COMPONENTS_FILE,
            "affiliation = \"atlanteans-expansion\", copies = 1, design = \"aztec-atlanteans-single-a\"",
            "affiliation = \"why-cant-we-be-friends\", copies = 1, design = \"aztec-wcwbf-single-a\"",
        );
        let standard = edits(&[mix]);
        assert!(!with_rule(&standard, "STANDARD Format").is_empty());
        let open = edits(&[mix, (GAME_FILE, "value = \"standard\"", "value = \"open\"")]);
        assert!(with_rule(&open, "STANDARD Format").is_empty());
        assert!(with_rule(&open, "same copy count").is_empty());
    }

    #[test]
    fn replacement_must_keep_the_copy_class() {
        // The Atlanteans triple claims to replace a regular double instead of a triple.
        let game = edited(
            COMPONENTS_FILE,
            "replaces = \"aztec-regular-triple-c\"",
            "replaces = \"aztec-regular-double-a\"",
        );
        let found = with_rule(&game, "same copy count");
        assert!(
            found
                .iter()
                .any(|p| p.contains("(3 copies) replaces `aztec-regular-double-a` (2 copies)")),
            "{found:#?}"
        );
        assert!(
            found
                .iter()
                .any(|p| p.contains("still holds `aztec-regular-double-a`")),
            "{found:#?}"
        );
        assert!(
            found
                .iter()
                .any(|p| p.contains("leaves out base design `aztec-regular-triple-c`")),
            "{found:#?}"
        );
    }

    #[test]
    fn expansion_card_must_replace_something() {
        let game = edited(
            COMPONENTS_FILE,
            ", replaces = \"aztec-regular-single-g\"",
            "",
        );
        let found = with_rule(&game, "same copy count");
        assert!(
            found.iter().any(|p| p.contains("replaces no base design")),
            "{found:#?}"
        );
        assert!(
            found
                .iter()
                .any(|p| p.contains("leaves out base design `aztec-regular-single-g`")),
            "{found:#?}"
        );
    }

    #[test]
    fn deck_list_must_keep_the_structure() {
        // A single turned into a double: 10 designs of the wrong classes.
        let game = edited(
            COMPONENTS_FILE,
            "count = 1\ntext = \"Proxy: stands for your regular Aztec design with 1 copy in this slot.\"\nfields = { faction = \"aztecs\", affiliation = \"base-game\", copies = 1",
            "count = 2\ntext = \"Proxy: stands for your regular Aztec design with 1 copy in this slot.\"\nfields = { faction = \"aztecs\", affiliation = \"base-game\", copies = 2",
        );
        let found = with_rule(&game, "fixed number of designs");
        assert!(
            found
                .iter()
                .any(|p| p.contains("7 designs in 2 copies where 6 are needed")
                    && p.contains("8 designs in 1 copies where 9 are needed")),
            "{found:#?}"
        );
        let slot = with_rule(&game, "affiliation icons");
        assert!(
            slot.iter().any(|p| p.contains("copy class Some(2)")),
            "{slot:#?}"
        );
    }

    #[test]
    fn deck_list_holds_one_faction() {
        let game = edited(
            COMPONENTS_FILE,
            "fields = { faction = \"aztecs\", affiliation = \"base-game\", copies = 3, design = \"aztec-regular-triple-a\" }",
            "fields = { faction = \"romans\", affiliation = \"base-game\", copies = 3, design = \"aztec-regular-triple-a\" }",
        );
        let found = with_rule(&game, "one faction");
        assert!(
            found
                .iter()
                .any(|p| p.contains("2 factions: aztecs, romans")),
            "{found:#?}"
        );
    }

    #[test]
    fn dangling_design_is_reported() {
        let game = edited(
            COMPONENTS_FILE,
            "design = \"aztec-regular-triple-a\"",
            "design = \"aztec-regular-triple-z\"",
        );
        let found = with_rule(&game, "affiliation icons");
        assert!(
            found
                .iter()
                .any(|p| p.contains("`aztec-regular-triple-z`, which no faction card deck holds")),
            "{found:#?}"
        );
    }

    #[test]
    fn common_cards_only_from_the_base_game() {
        let game = edited(
            COMPONENTS_FILE,
            "fields = { colours = [\"pink\"], affiliation = \"base-game\" }",
            "fields = { colours = [\"pink\"], affiliation = \"aztecs-expansion\" }",
        );
        let found = with_rule(&game, "common cards come only from the base game");
        assert!(
            found
                .iter()
                .any(|p| p.contains("common card `common-pink` comes from `aztecs-expansion`")),
            "{found:#?}"
        );
    }

    #[test]
    fn structure_parameters_must_add_up() {
        let game = edited(GAME_FILE, "value = [3, 6, 9]", "value = [3, 6, 8]");
        let found = with_rule(&game, "fixed number of designs");
        assert!(
            found
                .iter()
                .any(|p| p.contains("8 x 1 = 29 cards, but `faction_deck_size` is 30")),
            "{found:#?}"
        );
    }

    #[test]
    fn tricolor_colours_must_be_blessing_colours() {
        let game = edited(
            GAME_FILE,
            "value = [\"brown\", \"grey\", \"red\"]",
            "value = [\"brown\", \"grey\", \"orange\"]",
        );
        let found = with_rule(&game, "tricolor");
        assert!(
            found.iter().any(|p| p.contains("names `orange`")),
            "{found:#?}"
        );
    }

    /// Breaks the data and returns the ids of the declared invariants that fail.
    fn failing_invariants(from: &str, to: &str) -> Vec<String> {
        let game = edited(COMPONENTS_FILE, from, to);
        crate::check::evaluate_invariants(&game)
            .into_iter()
            .filter_map(|p| {
                let rest = p.message.strip_prefix("invariant `")?;
                Some(rest[..rest.find('`')?].to_string())
            })
            .collect()
    }

    #[test]
    fn each_declared_invariant_catches_its_break() {
        let cases: &[(&str, &str, &[&str])] = &[
            (
                "id = \"aztec-magic-triple-a\"\nname = \"Aztec 3 Is a Magic Number triple A\"\ncount = 3",
                "id = \"aztec-magic-triple-a\"\nname = \"Aztec 3 Is a Magic Number triple A\"\ncount = 2",
                &[
                    "expansion-cards-110",
                    "aztec-cards-60",
                    "aztec-affiliated-sets",
                ],
            ),
            (
                "id = \"romans-aztecs-single-a\"\nname = \"Romans Aztecs single A\"\ncount = 1",
                "id = \"romans-aztecs-single-a\"\nname = \"Romans Aztecs single A\"\ncount = 0",
                &["expansion-cards-110", "other-factions-10-each"],
            ),
            (
                "id = \"aztec-regular-single-a\"\nname = \"Aztec regular single A\"\ncount = 1",
                "id = \"aztec-regular-single-a\"\nname = \"Aztec regular single A\"\ncount = 2",
                &["aztec-regular-set"],
            ),
            (
                "kind = \"blessing\"\ncount = 5",
                "kind = \"blessing\"\ncount = 4",
                &["blessings-46", "blessing-sets"],
            ),
            (
                "kind = \"blessing\"\ncount = 1",
                "kind = \"blessing\"\ncount = 2",
                &["blessings-46", "tricolor-1"],
            ),
            (
                "kind = \"statue\"\ncount = 3",
                "kind = \"statue\"\ncount = 2",
                &["statues-9", "statue-sets"],
            ),
            (
                "id = \"common-brown\"\nname = \"Brown common cards\"\ncount = 16",
                "id = \"common-brown\"\nname = \"Brown common cards\"\ncount = 17",
                &["common-deck-84"],
            ),
            (
                "id = \"divided-brown\"\nname = \"Brown common cards\"\ncount = 15",
                "id = \"divided-brown\"\nname = \"Brown common cards\"\ncount = 14",
                &["common-divided-example-84"],
            ),
            (
                "kind = \"faction-board\"\ncount = 1",
                "kind = \"faction-board\"\ncount = 2",
                &["faction-board-1"],
            ),
            (
                "kind = \"faction-marker\"\ncount = 1",
                "kind = \"faction-marker\"\ncount = 2",
                &["faction-marker-1"],
            ),
            (
                "count = 3\ntext = \"Proxy: stands for your regular Aztec design with 3 copies in this slot.\"\nfields = { faction = \"aztecs\", affiliation = \"base-game\", copies = 3",
                "count = 2\ntext = \"Proxy: stands for your regular Aztec design with 3 copies in this slot.\"\nfields = { faction = \"aztecs\", affiliation = \"base-game\", copies = 2",
                &[
                    "faction-deck-30",
                    "faction-deck-triples",
                    "faction-deck-doubles",
                ],
            ),
            (
                "count = 1\ntext = \"Proxy: stands for your regular Aztec design with 1 copy in this slot.\"",
                "count = 0\ntext = \"Proxy: stands for your regular Aztec design with 1 copy in this slot.\"",
                &["faction-deck-30"],
            ),
        ];
        for (from, to, expected) in cases {
            let failing = failing_invariants(from, to);
            for id in *expected {
                assert!(
                    failing.iter().any(|f| f == id),
                    "breaking `{to}` should fail `{id}`, failed: {failing:?}"
                );
            }
        }
        assert!(crate::check::evaluate_invariants(&shipped()).is_empty());
    }

    /// Every parameter, taken away in turn: the check, the odds table and the Pray analysis
    /// report it (or do without it) and never panic.
    #[test]
    fn missing_parameters_are_reported_not_panics() {
        let game = shipped();
        for name in game.params.keys() {
            let header = format!("[params.{name}]");
            let broken = edited(GAME_FILE, &header, &format!("[params.{name}-gone]"));
            let problems = check_game(&broken);
            let table = super::super::pray_odds_table(&broken);
            let analysis = super::super::analyze(&broken, &super::super::Request::default());
            let missing = |m: &String| m.contains(name.as_str());
            let noticed = problems.iter().any(|p| p.message.contains(name.as_str()))
                || table.as_ref().err().is_some_and(missing)
                || analysis.as_ref().err().is_some_and(missing);
            let documentation_only = ["recommended_max_players"];
            assert!(
                noticed || documentation_only.contains(&name.as_str()),
                "nothing noticed that `{name}` is missing"
            );
        }
    }
}
