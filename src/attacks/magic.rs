//! Magic-bitboard lookups for bishop attacks, and the slow ray walker that
//! builds the table and checks it (and the rook lookups of `rook.rs`) in
//! tests.
//!
//! The 81-bit masked occupancy is multiplied by a 128-bit magic and the top
//! bits of the product form the index. (Folding the occupancy into 64 bits
//! first, as chess engines can, leaves mask bits near bit 63 that a 64-bit
//! multiply can only carry upward a few places, so suitable magics become
//! extremely rare; the 128-bit product costs three multiplies and always
//! leaves at least 33 bits of headroom above bit 80.)

use crate::bitboard::Bitboard;
use crate::types::Square;
use once_cell::sync::Lazy;

use super::magic_numbers::BISHOP_MAGICS;

/// The four orthogonal directions as (file, rank) steps.
pub(crate) const ROOK_DIRECTIONS: [(i8, i8); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
/// The four diagonal directions as (file, rank) steps.
pub(crate) const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];

/// Attacks of a slider on `sq` moving along `directions`, stopping at (and
/// including) the first occupied square: the slow reference.
pub fn sliding_attacks_slow(sq: Square, occupied: Bitboard, directions: &[(i8, i8)]) -> Bitboard {
    let mut attacks = Bitboard::EMPTY;
    for &(df, dr) in directions {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            attacks = attacks.with(next);
            if occupied.contains(next) {
                break;
            }
            cur = next;
        }
    }
    attacks
}

/// Squares whose occupancy matters for a slider on `sq`: every ray square
/// except the last one on each ray (a piece there changes nothing).
fn relevant_mask(sq: Square, directions: &[(i8, i8)]) -> Bitboard {
    let mut mask = Bitboard::EMPTY;
    for &(df, dr) in directions {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            mask = mask.with(next);
            cur = next;
        }
    }
    mask
}

/// Per-square magic parameters: where the square's slice of the table
/// starts, the mask, the multiplier and the shift.
#[derive(Clone, Copy)]
struct MagicEntry {
    mask: u128,
    magic: u128,
    shift: u32,
    offset: usize,
}

/// One slider's lookup table for all squares.
pub(crate) struct SliderTable {
    entries: [MagicEntry; 81],
    attacks: Vec<Bitboard>,
}

impl SliderTable {
    #[inline(always)]
    pub(crate) fn attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let e = &self.entries[sq.index()];
        let index = ((occupied.0 & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        // Indexing stays bounds-checked: the check is cheap next to the
        // cache miss and keeps this module free of `unsafe`.
        self.attacks[e.offset + index]
    }
}

/// Every subset of `mask`, by the carry-rippler enumeration.
fn subsets(mask: u128) -> Vec<u128> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub: u128 = 0;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

/// Builds a table from known magics; `None` if a magic maps two
/// occupancies with different attacks to one slot.
fn build_table(directions: &[(i8, i8)], magics: &[u128; 81]) -> Option<SliderTable> {
    let mut attacks = Vec::new();
    let mut entries = [MagicEntry {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 81];
    for sq in Square::all() {
        let mask = relevant_mask(sq, directions).0;
        let occupancies = subsets(mask);
        let reference: Vec<Bitboard> = occupancies
            .iter()
            .map(|&occ| sliding_attacks_slow(sq, Bitboard(occ), directions))
            .collect();
        let magic = magics[sq.index()];
        let table = fill_table(mask, magic, &occupancies, &reference)?;
        entries[sq.index()] = MagicEntry {
            mask,
            magic,
            shift: 128 - mask.count_ones(),
            offset: attacks.len(),
        };
        attacks.extend_from_slice(&table);
    }
    Some(SliderTable { entries, attacks })
}

/// The attack list of one square in index order, if `magic` is collision-free.
fn fill_table(
    mask: u128,
    magic: u128,
    occupancies: &[u128],
    reference: &[Bitboard],
) -> Option<Vec<Bitboard>> {
    let bits = mask.count_ones();
    let mut table = vec![None; 1 << bits];
    for (occ, &attacks) in occupancies.iter().zip(reference) {
        let slot = &mut table[(occ.wrapping_mul(magic) >> (128 - bits)) as usize];
        match slot {
            None => *slot = Some(attacks),
            Some(existing) if *existing == attacks => {}
            Some(_) => return None,
        }
    }
    Some(
        table
            .into_iter()
            .map(|a| a.unwrap_or(Bitboard::EMPTY))
            .collect(),
    )
}

/// Bishop table, built on first use.
pub(crate) static BISHOP_TABLE: Lazy<SliderTable> = Lazy::new(|| {
    build_table(&BISHOP_DIRECTIONS, &BISHOP_MAGICS).expect("bishop magics are collision-free")
});

#[cfg(test)]
mod tests {
    use super::*;

    /// Small deterministic generator (xorshift64*) for magic candidates.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn sparse(&mut self) -> u128 {
            let hi = self.next() & self.next() & self.next();
            let lo = self.next() & self.next() & self.next();
            (hi as u128) << 64 | lo as u128
        }
    }

    /// Finds a magic for one square by trial, returning it with the square's
    /// attack list in index order.
    fn find_magic(mask: u128, occupancies: &[u128], reference: &[Bitboard], rng: &mut Rng) -> u128 {
        let bits = mask.count_ones();
        let shift = 128 - bits;
        let size = 1usize << bits;
        let mut table = vec![Bitboard::EMPTY; size];
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 120).count_ones() < 6 {
                continue;
            }
            let mut ok = true;
            for (occ, &attacks) in occupancies.iter().zip(reference) {
                let index = (occ.wrapping_mul(magic) >> shift) as usize;
                if epoch[index] != attempt {
                    epoch[index] = attempt;
                    table[index] = attacks;
                } else if table[index] != attacks {
                    ok = false;
                    break;
                }
            }
            if ok {
                return magic;
            }
        }
    }

    /// Prints fresh magic tables; run with
    /// `cargo test --release print_magics -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn print_magics() {
        for (name, dirs, seed) in [(
            "BISHOP_MAGICS",
            &BISHOP_DIRECTIONS,
            0xD1B5_4A32_D192_ED03u64,
        )] {
            let mut rng = Rng(seed);
            println!("const {name}: [u128; 81] = [");
            for sq in Square::all() {
                let mask = relevant_mask(sq, dirs).0;
                let occupancies = subsets(mask);
                let reference: Vec<Bitboard> = occupancies
                    .iter()
                    .map(|&occ| sliding_attacks_slow(sq, Bitboard(occ), dirs))
                    .collect();
                println!(
                    "    0x{:032X},",
                    find_magic(mask, &occupancies, &reference, &mut rng)
                );
            }
            println!("];");
        }
    }

    fn random_occupancy(rng: &mut Rng) -> Bitboard {
        // Mix dense and sparse boards so that both near and far blockers occur.
        let dense = rng.next().is_multiple_of(3);
        let bits = ((rng.next() as u128) << 64 | rng.next() as u128) & Bitboard::ALL.0;
        let thin = ((rng.next() as u128) << 64 | rng.next() as u128) & Bitboard::ALL.0;
        Bitboard(if dense { bits } else { bits & thin })
    }

    #[test]
    fn rook_and_bishop_lookups_match_the_ray_walker() {
        let mut rng = Rng(12345);
        for _ in 0..2000 {
            let occ = random_occupancy(&mut rng);
            for sq in Square::all() {
                assert_eq!(
                    crate::attacks::rook_attacks(sq, occ),
                    sliding_attacks_slow(sq, occ, &ROOK_DIRECTIONS),
                    "rook on {sq}"
                );
                assert_eq!(
                    BISHOP_TABLE.attacks(sq, occ),
                    sliding_attacks_slow(sq, occ, &BISHOP_DIRECTIONS),
                    "bishop on {sq}"
                );
            }
        }
    }

    #[test]
    fn corner_rook_mask_has_fourteen_bits() {
        assert_eq!(
            relevant_mask(Square::new(0, 0), &ROOK_DIRECTIONS).count(),
            14
        );
        assert_eq!(
            relevant_mask(Square::new(4, 4), &BISHOP_DIRECTIONS).count(),
            12
        );
    }
}
