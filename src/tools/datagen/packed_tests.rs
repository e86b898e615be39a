use super::*;
use crate::position::START_SFEN;
use crate::util::rng::SplitMix64;

/// A two-piece handicap (White without rook and bishop: both go to the
/// piece box), packed: the expected bytes of cshogi's own test
/// `TestBoard.to_psfen_issue17` (TadaoYamaoka/cshogi, `test/test.cpp`);
/// YaneuraOu's packer is written to match cshogi bit for bit.
const HANDICAP_SFEN: &str = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
const HANDICAP_PACKED: [u8; 32] = [
    89, 164, 81, 34, 12, 171, 68, 252, 44, 167, 68, 56, 94, 137, 240, 72, 132, 87, 34, 60, 167, 68,
    56, 86, 137, 248, 88, 70, 137, 48, 188, 126,
];

/// Positions packed by the cshogi Python package (version 1.1.0, whose
/// packer YaneuraOu matches): hands of both colours in their fixed order,
/// promoted pieces, and a gold in the piece box.
const CSHOGI_PACKED: [(&str, [u8; 32]); 2] = [
    (
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        [
            35, 129, 81, 10, 134, 245, 21, 233, 0, 71, 60, 62, 213, 1, 0, 32, 197, 39, 88, 83, 0,
            4, 203, 72, 18, 63, 195, 249, 144, 36, 235, 188,
        ],
    ),
    (
        "lns1k1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1",
        [
            88, 164, 81, 34, 12, 235, 103, 34, 126, 150, 83, 34, 28, 36, 194, 35, 17, 72, 132, 231,
            148, 8, 199, 250, 155, 136, 143, 101, 148, 8, 195, 217,
        ],
    ),
];

fn round_trip(pos: &Position) {
    let packed = PackedSfen::pack(pos).unwrap_or_else(|e| panic!("{e}: {}", pos.to_sfen()));
    let back = packed
        .unpack(pos.game_ply())
        .unwrap_or_else(|e| panic!("{e}: {}", pos.to_sfen()));
    assert_eq!(back.to_sfen(), pos.to_sfen());
    assert_eq!(back.key(), pos.key());
    assert_eq!(PackedSfen::pack(&back), Ok(packed));
}

#[test]
fn handicap_position_matches_cshogi() {
    let pos = Position::from_sfen(HANDICAP_SFEN).unwrap();
    assert_eq!(PackedSfen::pack(&pos), Ok(PackedSfen(HANDICAP_PACKED)));
    let back = PackedSfen(HANDICAP_PACKED).unpack(1).unwrap();
    assert_eq!(back.to_sfen(), HANDICAP_SFEN);
}

#[test]
fn hands_and_piece_box_match_cshogi() {
    for (sfen, bytes) in CSHOGI_PACKED {
        let pos = Position::from_sfen(sfen).unwrap();
        assert_eq!(PackedSfen::pack(&pos), Ok(PackedSfen(bytes)), "{sfen}");
        assert_eq!(PackedSfen(bytes).unpack(1).unwrap().to_sfen(), sfen);
    }
}

#[test]
fn start_position_round_trips() {
    let pos = Position::startpos();
    let packed = PackedSfen::pack(&pos).unwrap();
    assert_eq!(packed.unpack(1).unwrap().to_sfen(), START_SFEN);
    // Side to move is bit 0; the kings follow (5i = 44, 5a = 36).
    assert_eq!(packed.0[0], 44 << 1);
    assert_eq!(packed.0[1] & 0x7F, 36);
    let white = Position::from_sfen(&START_SFEN.replace(" b ", " w ")).unwrap();
    let mut bytes = packed.0;
    bytes[0] |= 1;
    assert_eq!(PackedSfen::pack(&white), Ok(PackedSfen(bytes)));
}

#[test]
fn special_positions_round_trip() {
    for sfen in [
        // Everything in one hand, or split between the hands.
        "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
        "4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b RBGGSSNNLL9Prbggssnnll9p 7",
        // Promoted pieces of both colours.
        "+L+N+S1k1+S+N+L/1+R5+B1/+P+P+P+P+P+P+P+P+P/9/9/9/+p+p+p+p+p+p+p+p+p/1+b5+r1/+l+n+s1K1+s+n+l w Gg 99",
        // Handicaps: the missing pieces go to the piece box (golds too).
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "lns1k1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1",
    ] {
        round_trip(&Position::from_sfen(sfen).unwrap());
    }
}

#[test]
fn packing_a_kingless_position_is_an_error() {
    let pos = Position::from_tsume_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
    assert_eq!(
        PackedSfen::pack(&pos),
        Err(PackError::MissingKing(Color::Black))
    );
}

/// Plays random games (captures preferred half the time, so that hands
/// fill up) and round-trips every position on the way.
#[test]
fn random_games_round_trip() {
    let mut rng = SplitMix64::new(7);
    let (mut captures, mut promotions, mut drops, mut biggest_hand) = (0, 0, 0, 0);
    for _ in 0..60 {
        let mut pos = Position::startpos();
        for _ in 0..300 {
            round_trip(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let takes: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m))
                .collect();
            let m = if !takes.is_empty() && rng.below(2) == 0 {
                takes[rng.below(takes.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            captures += usize::from(pos.is_capture(m));
            promotions += usize::from(m.is_promotion());
            drops += usize::from(m.is_drop());
            pos.do_move(m);
            for color in Color::ALL {
                biggest_hand = biggest_hand.max(pos.hand(color).total());
            }
        }
    }
    assert!(captures > 1000 && promotions > 100 && drops > 1000);
    assert!(biggest_hand >= 25, "hands never filled: {biggest_hand}");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = SplitMix64::new(11);
    let mut ok = 0;
    for _ in 0..20_000 {
        let mut bytes = [0u8; RECORD_BYTES];
        for b in bytes.iter_mut() {
            *b = rng.next_u64() as u8;
        }
        let record = PackedSfenValue::from_bytes(&bytes);
        assert_eq!(record.to_bytes(), bytes);
        if record.validate().is_ok() {
            ok += 1;
        }
    }
    // Random bits nearly never decode to a valid position.
    assert!(ok < 10);
}

/// Flipping bits of valid records gives nearly valid bytes: a better test
/// of the decoder's error paths than uniform noise. Whatever decodes must
/// re-pack to an equivalent position.
#[test]
fn corrupted_records_never_panic() {
    let mut rng = SplitMix64::new(3);
    let mut pos = Position::startpos();
    let mut decoded = 0;
    for ply in 0..2000 {
        let moves = pos.legal_moves();
        if moves.is_empty() || ply % 150 == 0 {
            pos = Position::startpos();
            continue;
        }
        pos.do_move(moves[rng.below(moves.len())]);
        let packed = PackedSfen::pack(&pos).unwrap();
        for _ in 0..10 {
            let mut bytes = packed.0;
            for _ in 0..=rng.below(3) {
                let bit = rng.below(256);
                bytes[bit / 8] ^= 1 << (bit % 8);
            }
            if let Ok(p) = PackedSfen(bytes).unpack(1) {
                decoded += 1;
                let again = PackedSfen::pack(&p).unwrap();
                assert_eq!(again.unpack(1).unwrap().to_sfen(), p.to_sfen());
            }
        }
    }
    assert!(decoded > 0);
}

#[test]
fn bad_bytes_give_the_right_errors() {
    let mut bytes = HANDICAP_PACKED;
    // Black king on square 81 (YaneuraOu's "no king").
    bytes[0] = (bytes[0] & 1) | (81 << 1);
    assert_eq!(
        PackedSfen(bytes).unpack_raw(),
        Err(PackError::BadKingSquare(Color::Black, 81))
    );
    let mut bytes = HANDICAP_PACKED;
    // White king on Black's king square.
    bytes[1] = (bytes[1] & 0x80) | 44;
    assert_eq!(
        PackedSfen(bytes).unpack_raw(),
        Err(PackError::KingsOnOneSquare)
    );
    assert!(PackedSfen([0; 32]).unpack_raw().is_err());
    assert!(PackedSfen([0xFF; 32]).unpack_raw().is_err());
}

#[test]
fn record_layout_is_little_endian_and_40_bytes() {
    let start = PackedSfen::pack(&Position::startpos()).unwrap();
    let record = PackedSfenValue {
        sfen: start,
        score: -2,
        mv: Move::from_usi("7g7f").unwrap().bits(),
        game_ply: 0x0102,
        game_result: -1,
        padding: 0,
    };
    let bytes = record.to_bytes();
    assert_eq!(&bytes[..32], &start.0);
    assert_eq!(&bytes[32..], &[0xFE, 0xFF, 59, 30, 0x02, 0x01, 0xFF, 0]);
    assert_eq!(PackedSfenValue::from_bytes(&bytes), record);
    let (pos, mv) = record.validate().unwrap();
    assert_eq!(pos.game_ply(), 0x0102);
    assert_eq!(mv.to_string(), "7g7f");
    let bad = PackedSfenValue { mv: 0, ..record };
    assert_eq!(bad.validate().err(), Some(PackError::IllegalMove(0)));
    let bad = PackedSfenValue {
        game_result: 2,
        ..record
    };
    assert_eq!(bad.validate().err(), Some(PackError::BadResult(2)));
}

/// YaneuraOu's Move16: `to + (from << 7)`, promotion `1 << 15`; a drop is
/// `to + (kind << 7) + (1 << 14)` with PAWN=1 .. ROOK=6, GOLD=7. Squares
/// are `file * 9 + rank` as ours.
#[test]
fn moves_use_yaneuraou_encoding() {
    let sq = |s: &str| Square::from_usi(s.as_bytes()).unwrap().index() as u16;
    assert_eq!(sq("7f"), 6 * 9 + 5);
    let bits = |s: &str| Move::from_usi(s).unwrap().bits();
    assert_eq!(bits("7g7f"), sq("7f") + (sq("7g") << 7));
    assert_eq!(bits("8h2b+"), sq("2b") + (sq("8h") << 7) + (1 << 15));
    assert_eq!(bits("P*5e"), sq("5e") + (1 << 7) + (1 << 14));
    assert_eq!(bits("B*5e"), sq("5e") + (5 << 7) + (1 << 14));
    assert_eq!(bits("R*5e"), sq("5e") + (6 << 7) + (1 << 14));
    assert_eq!(bits("G*5e"), sq("5e") + (7 << 7) + (1 << 14));
}
