//! The random draws of a shuffle without the shuffle, for [`super::State::skip_determinize`]:
//! a bot that needs no determinized view must leave the game's generator exactly where
//! building the view would have left it, or seeded games would change.

use rand::Rng;

/// Draws from `rng` exactly what `slice.shuffle(rng)` (rand's `SliceRandom`) draws for a
/// slice of `len` elements, without a slice. rand shuffles by Fisher-Yates with the indices
/// taken from one draw per chunk of positions `m, m+1, ..., m+k-1` whose product fits in a
/// `u32`; only those chunk draws touch the generator. The tests hold this to rand's own
/// shuffle for every length up to 1000.
#[inline(always)]
pub fn skip_shuffle<R: Rng + ?Sized>(rng: &mut R, len: usize) {
    // Most piles a game skips are short: a chunk or two (up to 19 cards), without a call.
    for &(start, bound, _) in &CHUNKS[..INLINE_CHUNKS] {
        if start as usize > len {
            return;
        }
        skip_below(rng, bound);
    }
    if CHUNKS[INLINE_CHUNKS].0 as usize <= len {
        skip_later_chunks(rng, len);
    }
}

/// Chunks [`skip_shuffle`] draws without a call.
const INLINE_CHUNKS: usize = 2;

/// The chunks of [`skip_shuffle`] after the first [`INLINE_CHUNKS`].
#[inline(never)]
fn skip_later_chunks<R: Rng + ?Sized>(rng: &mut R, len: usize) {
    for &(start, bound, _) in &CHUNKS[INLINE_CHUNKS..] {
        if start as usize > len {
            return;
        }
        skip_below(rng, bound);
    }
    // Past the table (a slice of some hundreds of elements): the chunks one by one.
    let (last, _, count) = CHUNKS[CHUNKS.len() - 1];
    let mut m = last + count;
    while (m as usize) <= len {
        let (bound, count) = chunk(m);
        skip_below(rng, bound);
        m += count;
    }
}

/// Draws from `rng` exactly the words `rng.random_range(..bound)` draws for a `u32` bound,
/// without working out the value. rand samples by Canon's method: one word, whose product with
/// the bound gives the value in its high half; a second word only when the low half falls in
/// the last `bound` values, where the first word alone could be biased. The value is never
/// needed, only whether that second word is drawn.
#[inline(always)]
fn skip_below<R: Rng + ?Sized>(rng: &mut R, bound: u32) {
    let low_half = (u64::from(rng.next_u32()) * u64::from(bound)) as u32;
    if low_half > bound.wrapping_neg() {
        rng.next_u32();
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

    #[test]
    fn skipping_a_bounded_draw_takes_the_words_rand_takes() {
        use rand::RngExt;
        let mut second_words = 0;
        for (i, bound) in [2u32, 7, 1000, 479_001_600, 3_000_000_000, u32::MAX]
            .into_iter()
            .enumerate()
        {
            let mut drawn = ChaCha8Rng::seed_from_u64(i as u64);
            let mut skipped = drawn.clone();
            for _ in 0..10_000 {
                let before = drawn.get_word_pos();
                let _ = drawn.random_range(..bound);
                second_words += usize::from(drawn.get_word_pos() - before == 2);
                super::skip_below(&mut skipped, bound);
                assert_eq!(
                    drawn.get_word_pos(),
                    skipped.get_word_pos(),
                    "bound {bound}"
                );
            }
        }
        assert!(
            second_words > 1000,
            "the second word was drawn {second_words} times"
        );
    }
}
