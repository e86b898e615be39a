//! Random and mutated input to the SFEN and USI-move parsers: errors are
//! fine, panics are not, and accepted SFENs must round-trip.

use gyoku::{Move, Position};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEEDS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
];
const ALPHABET: &[u8] = b"0123456789/+-* abcdefghiklnprsgwKLNPRSGBb\t\r\n\xff";

fn mutate(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let pos = rng.below(bytes.len() + 1);
        match rng.below(3) {
            0 if pos < bytes.len() => {
                bytes.remove(pos);
            }
            1 if pos < bytes.len() => bytes[pos] = ALPHABET[rng.below(ALPHABET.len())],
            _ => bytes.insert(pos, ALPHABET[rng.below(ALPHABET.len())]),
        }
    }
    bytes
}

#[test]
fn mutated_sfens_never_panic_and_accepted_ones_round_trip() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut accepted = 0;
    for i in 0..100_000 {
        let bytes = mutate(&mut rng, SEEDS[i % SEEDS.len()]);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(pos) = Position::from_sfen(&text) {
            accepted += 1;
            let again = Position::from_sfen(&pos.to_sfen()).expect("formatted SFEN parses");
            assert_eq!(again.to_sfen(), pos.to_sfen());
            assert_eq!(again.key(), pos.key());
            // The generator must cope with whatever the parser accepts.
            let _ = pos.legal_moves();
        }
    }
    assert!(
        accepted > 1000,
        "mutation too destructive: {accepted} accepted"
    );
}

#[test]
fn random_strings_never_panic() {
    let mut rng = Rng(0xDEAD_BEEF_0000_0042);
    let pos = Position::startpos();
    for _ in 0..100_000 {
        let len = rng.below(24);
        let bytes: Vec<u8> = (0..len)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())])
            .collect();
        let text = String::from_utf8_lossy(&bytes);
        let _ = Position::from_sfen(&text);
        let _ = Move::from_usi(&text);
        let _ = pos.parse_usi_move(&text);
    }
}

#[test]
fn every_16_bit_move_is_handled_by_is_legal() {
    let pos = Position::from_sfen(SEEDS[1]).unwrap();
    for bits in 1..=u16::MAX {
        if let Some(m) = Move::from_bits(bits) {
            let _ = pos.is_legal(m);
            let _ = m.to_string();
        }
    }
}
