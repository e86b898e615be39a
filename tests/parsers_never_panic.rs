//! Random and mutated input to the SFEN, USI-move and game-record parsers:
//! errors are fine, panics are not, and accepted SFENs and records must
//! round-trip.

use gyoku::util::rng::XorShift64;
use gyoku::{Move, Position};

const SEEDS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
];
const ALPHABET: &[u8] = b"0123456789/+-* abcdefghiklnprsgwKLNPRSGBb\t\r\n\xff";

fn mutate(rng: &mut XorShift64, text: &str) -> Vec<u8> {
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
    let mut rng = XorShift64::new(0x5EED_1234_ABCD_0001);
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
    let mut rng = XorShift64::new(0xDEAD_BEEF_0000_0042);
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

/// Characters record mutations draw from: the notation's kanji, KIF and CSA
/// punctuation, digits, line ends.
const RECORD_ALPHABET: &[&str] = &[
    "１",
    "５",
    "９",
    "一",
    "五",
    "九",
    "同",
    "　",
    "歩",
    "香",
    "桂",
    "銀",
    "金",
    "角",
    "飛",
    "玉",
    "と",
    "成",
    "不",
    "打",
    "左",
    "右",
    "直",
    "上",
    "寄",
    "引",
    "竜",
    "馬",
    "▲",
    "△",
    "(",
    ")",
    "：",
    ":",
    "*",
    "'",
    "+",
    "-",
    "%",
    "P",
    "I",
    "T",
    "N",
    "$",
    ",",
    "/",
    "|",
    "v",
    "0",
    "1",
    "7",
    "9",
    "\n",
    " ",
    "まで",
    "手合割",
    "投了",
    "FU",
    "OU",
    "00",
];

fn mutate_text(rng: &mut XorShift64, text: &str) -> String {
    let mut chars: Vec<String> = text.chars().map(String::from).collect();
    for _ in 0..1 + rng.below(4) {
        let pos = rng.below(chars.len() + 1);
        let piece = RECORD_ALPHABET[rng.below(RECORD_ALPHABET.len())].to_string();
        match rng.below(5) {
            0 if pos < chars.len() => {
                chars.remove(pos);
            }
            1 if pos < chars.len() => chars[pos] = piece,
            2 => chars.truncate(pos),
            _ => chars.insert(pos, piece),
        }
    }
    chars.concat()
}

/// Mutated and truncated KIF, KI2, CSA and USI records (as text and as
/// bytes in both encodings): errors are fine, panics are not, and whatever
/// is accepted writes out and reads back with the same moves.
#[test]
fn mutated_records_never_panic_and_accepted_ones_round_trip() {
    use gyoku::record::{self, Encoding, FileFormat, Format};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records");
    let mut seeds: Vec<(String, Format)> = Vec::new();
    for name in ["match-even.csa", "match-two-piece.csa", "cshogi-lance.kifu"] {
        let path = std::path::Path::new(dir).join(name);
        let format = FileFormat::from_path(&path).unwrap();
        let r = record::read(&std::fs::read(&path).unwrap(), format).unwrap();
        for f in [Format::Kif, Format::Ki2, Format::Csa, Format::Usi] {
            let mut short = r.clone();
            short.moves.truncate(40);
            seeds.push((record::write_str(&short, f).unwrap(), f));
        }
    }
    let formats = [Format::Kif, Format::Ki2, Format::Csa, Format::Usi];
    let mut rng = XorShift64::new(0x5EED_0034_0000_0001);
    let mut accepted = 0;
    for i in 0..3000 {
        let (seed, format) = &seeds[i % seeds.len()];
        let text = mutate_text(&mut rng, seed);
        // Mostly the seed's own format; sometimes another one.
        let format = if rng.below(4) == 0 {
            formats[rng.below(4)]
        } else {
            *format
        };
        let bytes = if rng.below(8) == 0 {
            let mut b = text.clone().into_bytes();
            b.truncate(rng.below(b.len() + 1));
            b
        } else {
            text.clone().into_bytes()
        };
        for encoding in [Encoding::Utf8, Encoding::ShiftJis] {
            let _ = record::read(&bytes, FileFormat { format, encoding });
        }
        let Ok(r) = record::read_str(&text, format) else {
            continue;
        };
        accepted += 1;
        for out in formats {
            let written = record::write_str(&r, out).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let back = record::read_str(&written, out)
                .unwrap_or_else(|e| panic!("{out:?}: {e}\n{written}"));
            assert_eq!(back.move_list(), r.move_list(), "{out:?}\n{text}");
        }
    }
    assert!(
        accepted > 300,
        "mutation too destructive: {accepted} accepted"
    );
}

#[test]
fn random_record_text_never_panics() {
    use gyoku::record::{self, Format};
    let mut rng = XorShift64::new(0xC0FF_EE00_0000_0034);
    for _ in 0..20_000 {
        let len = rng.below(12);
        let text: String = (0..len)
            .map(|_| RECORD_ALPHABET[rng.below(RECORD_ALPHABET.len())])
            .collect();
        for format in [Format::Kif, Format::Ki2, Format::Csa, Format::Usi] {
            let _ = record::read_str(&text, format);
        }
        let pos = Position::startpos();
        let _ = record::notation::parse_move(&pos, &text, None);
        let _ =
            record::notation::parse_move(&pos, &text, pos.legal_moves().first().map(|m| m.to()));
    }
}
