//! A deck's declared fields, looked up by name and listed in the order the data declares them.

use std::collections::BTreeMap;
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use toml::Spanned;

use super::FieldDecl;

/// `[deck.fields]`: each field's declaration by name (a map, as every check reads it), and the
/// order the data declares them in, which an exported sheet's columns follow.
#[derive(Debug, Clone, Default)]
pub struct DeclaredFields {
    by_name: BTreeMap<String, FieldDecl>,
    /// Every name of `by_name`, in declared order.
    order: Vec<String>,
}

impl DeclaredFields {
    /// The fields in the order the data declares them.
    pub fn declared(&self) -> impl Iterator<Item = (&String, &FieldDecl)> {
        self.order
            .iter()
            .filter_map(|name| self.by_name.get_key_value(name))
    }

    /// Adds (or replaces) a field; a new one is declared last.
    pub fn insert(&mut self, name: String, decl: FieldDecl) {
        if self.by_name.insert(name.clone(), decl).is_none() {
            self.order.push(name);
        }
    }
}

impl Deref for DeclaredFields {
    type Target = BTreeMap<String, FieldDecl>;

    fn deref(&self) -> &Self::Target {
        &self.by_name
    }
}

impl<'a> IntoIterator for &'a DeclaredFields {
    type Item = (&'a String, &'a FieldDecl);
    type IntoIter = std::collections::btree_map::Iter<'a, String, FieldDecl>;

    fn into_iter(self) -> Self::IntoIter {
        self.by_name.iter()
    }
}

impl FromIterator<(String, FieldDecl)> for DeclaredFields {
    fn from_iter<I: IntoIterator<Item = (String, FieldDecl)>>(iter: I) -> Self {
        let mut fields = DeclaredFields::default();
        for (name, decl) in iter {
            fields.insert(name, decl);
        }
        fields
    }
}

impl Serialize for DeclaredFields {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.declared())
    }
}

/// TOML tables reach serde sorted by key; the keys' places in the file give the order they
/// are declared in.
impl<'de> Deserialize<'de> for DeclaredFields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let placed = BTreeMap::<Spanned<String>, FieldDecl>::deserialize(deserializer)?;
        let mut placed: Vec<(Spanned<String>, FieldDecl)> = placed.into_iter().collect();
        placed.sort_by_key(|(name, _)| name.span().start);
        Ok(placed
            .into_iter()
            .map(|(name, decl)| (name.into_inner(), decl))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Deck {
        fields: DeclaredFields,
    }

    #[test]
    fn fields_keep_the_order_they_are_declared_in() {
        let deck: Deck = toml::from_str(
            r#"
            fields = { zeta = { type = "int", label = "Z" }, alpha = { type = "text", label = "A" } }
            "#,
        )
        .unwrap();
        let names: Vec<&String> = deck.fields.declared().map(|(n, _)| n).collect();
        assert_eq!(names, ["zeta", "alpha"]);
        // Looked up and iterated as a map.
        assert_eq!(deck.fields.get("alpha").unwrap().label, "A");
        let sorted: Vec<&String> = (&deck.fields).into_iter().map(|(n, _)| n).collect();
        assert_eq!(sorted, ["alpha", "zeta"]);

        let deck: Deck = toml::from_str(
            "[fields.mid]\ntype = \"int\"\nlabel = \"M\"\n[fields.aa]\ntype = \"int\"\nlabel = \"A\"\n[fields.zz]\ntype = \"bool\"\nlabel = \"Z\"\n",
        )
        .unwrap();
        let names: Vec<&String> = deck.fields.declared().map(|(n, _)| n).collect();
        assert_eq!(names, ["mid", "aa", "zz"]);
    }
}
