//! Game records over the library and the binary: the files in
//! tests/data/records (written by cshogi, the CSA ones exactly as
//! shared/tools/match/match.py writes them), random games and short
//! self-play games go CSA -> KIF -> CSA and CSA -> KI2 -> CSA with the
//! same moves, ends and winners; `gyoku convert` and `gyoku analyse` work
//! on files and report bad input by line.

use gyoku::record::{self, EndKind, FileFormat, Format, GameEnd, Record};
use gyoku::search::{BestMove, Limits, SearchControl, SearchOptions, Searcher, SilentReporter};
use gyoku::util::rng::XorShift64;
use gyoku::{Move, Position};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records");

fn fixtures() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(DATA)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "usi"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    files
}

fn load(path: &Path) -> Record {
    let format = FileFormat::from_path(path).unwrap();
    let bytes = std::fs::read(path).unwrap();
    record::read(&bytes, format).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// CSA -> `via` -> CSA keeps the start, the moves, times where `via` has
/// them, the end's winner and the names.
fn assert_round_trip(r: &Record, label: &str) {
    let csa = record::write_str(r, Format::Csa).unwrap();
    let from_csa = record::read_str(&csa, Format::Csa).unwrap();
    assert_eq!(from_csa.move_list(), r.move_list(), "{label}: CSA");
    for via in [Format::Kif, Format::Ki2] {
        let text = record::write_str(&from_csa, via).unwrap();
        let middle =
            record::read_str(&text, via).unwrap_or_else(|e| panic!("{label} {via:?}: {e}\n{text}"));
        let back = record::read_str(
            &record::write_str(&middle, Format::Csa).unwrap(),
            Format::Csa,
        )
        .unwrap();
        assert_eq!(back.start_sfen, r.start_sfen, "{label} via {via:?}");
        assert_eq!(back.move_list(), r.move_list(), "{label} via {via:?}");
        assert_eq!(back.winner(), r.winner(), "{label} via {via:?}");
        assert_eq!(back.end.is_some(), r.end.is_some(), "{label} via {via:?}");
        assert_eq!(
            (&back.black, &back.white),
            (&r.black, &r.white),
            "{label} via {via:?}"
        );
        if via == Format::Kif {
            let times = |x: &Record| {
                x.moves
                    .iter()
                    .map(|m| m.time_ms.map(|t| t / 1000))
                    .collect::<Vec<_>>()
            };
            assert_eq!(times(&back), times(r), "{label} via KIF");
            assert_eq!(back.end, r.end, "{label} via KIF");
        }
    }
}

#[test]
fn fixtures_read_as_their_usi_twins_say() {
    for path in fixtures() {
        let r = load(&path);
        let twin = std::fs::read_to_string(path.with_extension("usi")).unwrap();
        let expected = record::read_str(&twin, Format::Usi).unwrap();
        assert_eq!(r.start_sfen, expected.start_sfen, "{}", path.display());
        assert_eq!(r.move_list(), expected.move_list(), "{}", path.display());
        assert!(r.moves.len() >= 50, "{}", path.display());
        assert!(r.end.is_some(), "{}", path.display());
        assert!(
            r.moves.iter().all(|m| m.time_ms.is_some()),
            "{}",
            path.display()
        );
    }
}

#[test]
fn match_py_records_name_players_headers_and_results() {
    let r = load(&Path::new(DATA).join("match-two-piece.csa"));
    assert_eq!(r.handicap(), Some("二枚落ち"));
    assert_eq!(
        (r.black.as_deref(), r.white.as_deref()),
        (Some("gyoku-a"), Some("gyoku-b"))
    );
    assert_eq!(r.header(record::keys::EVENT), Some("match.py"));
    assert_eq!(
        r.end.as_ref().map(|e| e.kind.clone()),
        Some(EndKind::Repetition)
    );
    assert_eq!(
        r.end.as_ref().unwrap().comments,
        ["result 1/2-1/2 (sente view): fixture"]
    );
    let kif = record::write_str(&r, Format::Kif).unwrap();
    assert!(
        kif.contains("手合割：二枚落ち\n下手：gyoku-a\n上手：gyoku-b\n"),
        "{kif}"
    );
    assert!(
        kif.contains("千日手\n*result 1/2-1/2 (sente view): fixture\nまで"),
        "{kif}"
    );
    // cshogi's KIF writer gets the まで line wrong in handicap games; the
    // 投了 move line decides.
    let lance = load(&Path::new(DATA).join("cshogi-lance.kifu"));
    assert_eq!(lance.handicap(), Some("香落ち"));
    assert_eq!(lance.winner(), Some(gyoku::Color::Black));
}

#[test]
fn fixtures_round_trip_through_kif_and_ki2() {
    for path in fixtures() {
        assert_round_trip(&load(&path), &path.display().to_string());
    }
}

fn random_game(rng: &mut XorShift64, start: &str, plies: usize) -> Record {
    let pos = Position::from_sfen(start).unwrap();
    let mut p = pos.clone();
    let mut moves: Vec<Move> = Vec::new();
    while moves.len() < plies {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        // Captures first when there are some: recaptures, promoted pieces.
        let captures: Vec<Move> = legal.iter().copied().filter(|&m| p.is_capture(m)).collect();
        let m = if !captures.is_empty() && rng.below(2) == 0 {
            captures[rng.below(captures.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        p.do_move(m);
        moves.push(m);
    }
    let mut r = Record::from_moves(&pos, &moves);
    for (i, m) in r.moves.iter_mut().enumerate() {
        m.time_ms = Some(1000 * (i as u64 % 7));
    }
    r.black = Some("ランダム先手".into());
    r.white = Some("random gote".into());
    r.end = Some(GameEnd::new(if p.is_checkmate() {
        EndKind::Mate
    } else {
        EndKind::Resign
    }));
    r
}

#[test]
fn random_games_round_trip_from_every_handicap() {
    let mut rng = XorShift64::new(0x0034_5EED_0000_0001);
    for (name, sfen) in record::handicap::HANDICAPS {
        for _ in 0..3 {
            let r = random_game(&mut rng, sfen, 150);
            assert_round_trip(&r, name);
        }
    }
}

/// A short self-play game with the library's search (a few hundred nodes a
/// move): the kind of game `gyoku analyse` is for.
fn self_play(start: &Position, plies: usize) -> Record {
    let mut searcher = Searcher::new(1, 1);
    let limits = Limits {
        nodes: Some(300),
        ..Limits::default()
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut end = None;
    while moves.len() < plies {
        let control = SearchControl::new(Instant::now(), None, false);
        let outcome = searcher.search(
            &pos,
            &limits,
            &SearchOptions::default(),
            &control,
            &SilentReporter,
        );
        match outcome.best {
            BestMove::Move { best, .. } => {
                pos.do_move(best);
                moves.push(best);
            }
            BestMove::Resign => {
                end = Some(if pos.is_checkmate() {
                    EndKind::Mate
                } else {
                    EndKind::Resign
                });
                break;
            }
            BestMove::DeclareWin => {
                end = Some(EndKind::DeclareWin);
                break;
            }
        }
    }
    let mut r = Record::from_moves(start, &moves);
    r.end = Some(GameEnd::new(end.unwrap_or(EndKind::Abort)));
    r
}

#[test]
fn self_play_games_round_trip() {
    let two_piece = record::handicap::sfen_of("二枚落ち").unwrap();
    for start in [
        Position::startpos(),
        Position::from_sfen(two_piece).unwrap(),
    ] {
        let r = self_play(&start, 80);
        assert!(r.moves.len() >= 20);
        assert_round_trip(&r, "self-play");
    }
}

fn gyoku(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gyoku"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gyoku-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn convert_picks_formats_by_extension_and_flag() {
    let csa = Path::new(DATA).join("match-even.csa");
    let kif = scratch("even.kif");
    let (code, _, err) = gyoku(&["convert", csa.to_str().unwrap(), kif.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&kif).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "a .kif file is Shift_JIS"
    );
    let (code, usi, err) = gyoku(&["convert", kif.to_str().unwrap(), "-", "--to", "usi"]);
    assert_eq!(code, 0, "{err}");
    let twin = std::fs::read_to_string(Path::new(DATA).join("match-even.usi")).unwrap();
    assert_eq!(usi, twin);
    let (code, ki2, _) = gyoku(&["convert", csa.to_str().unwrap(), "-", "--to", "ki2u"]);
    assert_eq!(code, 0);
    assert!(ki2.contains("先手：gyoku-a\n後手：gyoku-b\n"), "{ki2}");
}

#[test]
fn convert_reports_bad_records_by_line() {
    let bad = scratch("bad.kifu");
    std::fs::write(
        &bad,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ７六歩(73)\n",
    )
    .unwrap();
    let (code, _, err) = gyoku(&["convert", bad.to_str().unwrap(), "-", "--to", "csa"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.kifu: line 4: move 2 '７六歩(73)' cannot be played"),
        "{err}"
    );
    let (code, _, err) = gyoku(&["convert", bad.to_str().unwrap(), "out.xyz"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot tell the format of 'out.xyz'"), "{err}");
}

#[test]
fn analyse_annotates_every_move_and_summarises() {
    let mut rng = XorShift64::new(77);
    let r = random_game(&mut rng, gyoku::START_SFEN, 12);
    let input = scratch("short.csa");
    std::fs::write(&input, record::write_str(&r, Format::Csa).unwrap()).unwrap();
    let out = scratch("short.kifu");
    let svg = scratch("short.svg");
    let (code, stdout, stderr) = gyoku(&[
        "analyse",
        input.to_str().unwrap(),
        "--nodes",
        "300",
        "--multipv",
        "2",
        "--hash",
        "4",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let progress: Vec<&str> = stderr.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(progress.len(), r.moves.len(), "{stderr}");
    assert!(progress[0].starts_with("[   1/12] ▲"), "{stderr}");
    assert!(stdout.contains("Evaluation curve"), "{stdout}");
    assert!(stdout.contains("▲ 先手 ランダム先手: "), "{stdout}");
    let annotated = record::read_str(&std::fs::read_to_string(&out).unwrap(), Format::Kif).unwrap();
    assert_eq!(annotated.move_list(), r.move_list());
    for m in &annotated.moves {
        assert!(
            m.comments.iter().any(|c| c.starts_with("#評価値=")),
            "{:?}",
            m.comments
        );
        assert!(
            m.comments.iter().any(|c| c.starts_with("#読み筋=")),
            "{:?}",
            m.comments
        );
    }
    assert!(annotated
        .comments
        .iter()
        .any(|c| c.starts_with("#読み筋=▲")));
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("<polyline"));
    // Analysing the annotated record again replaces the old analysis.
    let (code, again, _) = gyoku(&[
        "analyse",
        out.to_str().unwrap(),
        "--nodes",
        "100",
        "--threads",
        "1",
        "--hash",
        "1",
    ]);
    assert_eq!(code, 0);
    let again = record::read_str(&again, Format::Kif).unwrap();
    assert!(again.moves.iter().all(|m| m
        .comments
        .iter()
        .filter(|c| c.starts_with("#評価値="))
        .count()
        == 1));
}
