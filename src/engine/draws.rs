//! The random draws of a shuffle without the shuffle, for [`super::State::skip_determinize`]:
//! a bot that needs no determinized view must leave the game's generator exactly where
//! building the view would have left it, or seeded games would change.

use rand::{Rng, RngExt};

/// Draws from `rng` exactly what `slice.shuffle(rng)` (rand's `SliceRandom`) draws for a
/// slice of `len` elements, without a slice. rand shuffles by Fisher-Yates with the indices
/// taken from one draw per chunk of positions `m, m+1, ..., m+k-1` whose product fits in a
/// `u32`; only those chunk draws touch the generator. The tests hold this to rand's own
/// shuffle for every length up to 1000.
pub fn skip_shuffle<R: Rng + ?Sized>(rng: &mut R, len: usize) {
    for &(start, bound, _) in CHUNKS.iter() {
        if start as usize > len {
            return;
        }
        let _ = rng.random_range(..bound);
    }
    // Past the table (a slice of some hundreds of elements): the chunks one by one.
    let (last, _, count) = CHUNKS[CHUNKS.len() - 1];
    let mut m = last + count;
    while (m as usize) <= len {
        let (bound, count) = chunk(m);
        let _ = rng.random_range(..bound);
        m += count;
    }
}

/// The first chunks of a shuffle, worked out once: (first position, bound, positions).
/// The first position needs no draw (its index can only be 0), so they start at 2.
const CHUNKS: [(u32, u32, u32); 96] = chunks();

const fn chunks() -> [(u32, u32, u32); 96] {
    let mut out = [(0, 0, 0); 96];
    let mut m = 2;
    let mut i = 0;
    while i < out.len() {
        let (bound, count) = chunk(m);
        out[i] = (m, bound, count);
        m += count;
        i += 1;
    }
    out
}

/// The product `m * (m+1) * ... * (m+k-1)` that still fits in a `u32`, and `k`.
const fn chunk(m: u32) -> (u32, u32) {
    let mut product = m;
    let mut next = m + 1;
    while let Some(p) = product.checked_mul(next) {
        product = p;
        next += 1;
    }
    (product, next - m)
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn skipping_a_shuffle_draws_what_the_shuffle_draws() {
        for len in 0..=1000usize {
            let mut shuffled = ChaCha8Rng::seed_from_u64(len as u64);
            shuffled.set_stream(7);
            let mut skipped = shuffled.clone();
            let mut items: Vec<usize> = (0..len).collect();
            items.shuffle(&mut shuffled);
            super::skip_shuffle(&mut skipped, len);
            assert_eq!(
                shuffled.get_word_pos(),
                skipped.get_word_pos(),
                "length {len}"
            );
            assert_eq!(shuffled.next_u64(), skipped.next_u64(), "length {len}");
        }
    }
}
