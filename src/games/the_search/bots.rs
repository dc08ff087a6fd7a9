use super::engine::SearchState;
use crate::engine::Bot;

pub fn by_name(_name: &str) -> Option<Box<dyn Bot<SearchState>>> {
    None
}
