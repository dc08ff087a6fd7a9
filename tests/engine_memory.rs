//! Building an engine from a model many times (as `simulate --sweep` and `tune` do, once per
//! sweep point) keeps no memory once the engine and its games are dropped. The whole binary
//! counts the bytes its allocator holds, so it runs one test only.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicIsize, Ordering};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use printplay::engine::{Config, Engine};
use printplay::games::capek_golems::CapekEngine;
use printplay::model::load_game;

struct Counting;

static HELD: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn build_and_play(game: &printplay::model::Game) {
    let engine = CapekEngine::from_model(game).expect("the engine reads the shipped data");
    let state = engine
        .new_game(&Config::default(), &mut ChaCha8Rng::seed_from_u64(1))
        .expect("a game starts");
    drop(state.clone());
}

#[test]
fn capek_engines_built_per_sweep_point_are_freed() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let game = load_game(&data, "capek-golems").expect("shipped data loads");
    // The first builds intern the card ids (once per distinct id, for the whole run).
    build_and_play(&game);
    build_and_play(&game);
    let before = HELD.load(Ordering::Relaxed);
    for _ in 0..200 {
        build_and_play(&game);
    }
    let grown = HELD.load(Ordering::Relaxed) - before;
    assert!(
        grown < 4096,
        "200 engines built and dropped still hold {grown} bytes"
    );
}
