//! Small seeded random number generators, so that tests, data generation
//! and tuning are repeatable without an extra dependency.
//!
//! Two algorithms, because seeded results already depend on each: the
//! tuner, trainer, data generator and [`crate::nnue::Network::random`] draw
//! from [`SplitMix64`]; the randomised tests (random games, fuzzing) and the
//! Zobrist keys from [`XorShift64`] (the keys through the `const`
//! [`xorshift64`] step). Neither is for anything that needs unpredictable
//! numbers.

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and good enough for
/// picking opening moves and shuffling training batches. Any seed works.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the tiny modulo bias does not matter here.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// One step of Marsaglia's xorshift64 (shifts 13, 7, 17): the next state,
/// which is also the output. A `const fn` so that tables can be built at
/// compile time. Zero maps to zero; every other state has period 2^64 - 1.
pub const fn xorshift64(state: u64) -> u64 {
    let mut x = state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

/// Marsaglia's xorshift64 generator (see [`xorshift64`]): the random games
/// and fuzz inputs of the tests. The seed must not be zero (the generator
/// would only ever return zero).
#[derive(Clone, Debug)]
pub struct XorShift64(u64);

impl XorShift64 {
    /// A generator started from `seed` (not zero).
    pub fn new(seed: u64) -> XorShift64 {
        debug_assert_ne!(seed, 0, "xorshift64 stays at zero");
        XorShift64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = xorshift64(self.0);
        self.0
    }

    /// A number in `0..n` (`n > 0`), with the same small modulo bias as
    /// [`SplitMix64::below`].
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequences are fixed: seeded tests and data depend on them.
    #[test]
    fn sequences_are_the_published_algorithms() {
        let mut splitmix = SplitMix64::new(0);
        assert_eq!(splitmix.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut xorshift = XorShift64::new(1);
        assert_eq!(xorshift.next_u64(), 0x4082_2041);
        assert_eq!(xorshift.next_u64(), xorshift64(0x4082_2041));
    }

    #[test]
    fn below_stays_below_and_shuffle_permutes() {
        let mut rng = SplitMix64::new(3);
        let mut xs = XorShift64::new(3);
        for n in 1..50 {
            assert!(rng.below(n) < n && xs.below(n) < n);
        }
        let mut items: Vec<u32> = (0..100).collect();
        rng.shuffle(&mut items);
        assert_ne!(items, (0..100).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..100).collect::<Vec<_>>());
    }
}
