use super::*;
use crate::tools::datagen::packed::RECORD_BYTES;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gyoku-gensfen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn tiny_config(out_dir: PathBuf, threads: usize) -> GensfenConfig {
    GensfenConfig {
        out_dir,
        chunks: 3..4,
        games_per_chunk: 2,
        seed: 42,
        threads,
        nodes: Some(150),
        hash_mb: 1,
        progress_secs: 0,
        ..GensfenConfig::default()
    }
}

fn read_records(path: &Path) -> Vec<PackedSfenValue> {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes.len() % RECORD_BYTES, 0);
    bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| PackedSfenValue::from_bytes(c.try_into().unwrap()))
        .collect()
}

/// Results of one game's records agree with its winner, seen from each
/// record's side to move.
fn check_game_results(game: &GameRecord) {
    for (key, record) in &game.positions {
        let pos = record.position().unwrap();
        assert_eq!(pos.key(), *key);
        let expected = match game.winner {
            None => 0,
            Some(w) if w == pos.side_to_move() => 1,
            Some(_) => -1,
        };
        assert_eq!(record.game_result, expected, "{game:?}");
    }
}

#[test]
fn tiny_run_is_valid_deterministic_and_resumable() {
    let dir_a = temp_dir("a");
    let dir_b = temp_dir("b");
    let config = tiny_config(dir_a.clone(), 2);
    let summary = generate(&config).unwrap();
    assert_eq!((summary.chunks_written, summary.chunks_skipped), (1, 0));
    assert_eq!(summary.games, 2);
    let path = chunk_path(&dir_a, 3);
    assert!(!path.with_extension("bin.tmp").exists());
    let records = read_records(&path);
    assert_eq!(records.len() as u64, summary.positions);
    assert!(records.len() > 10, "only {} records", records.len());
    for record in &records {
        let (pos, _) = record.validate().unwrap();
        assert!(u32::from(record.game_ply) >= config.write_min_ply);
        assert_eq!(pos.game_ply(), u32::from(record.game_ply));
        assert!(pos.has_king(Color::Black) && pos.has_king(Color::White));
    }

    // The same games replayed on one thread: the file is their records,
    // deduplicated in game order, and each game's results agree.
    let mut searcher = Searcher::new(1, 1);
    let games: Vec<GameRecord> = (0..2)
        .map(|g| play_game(&config, &mut searcher, 3, g))
        .collect();
    for game in &games {
        check_game_results(game);
        assert!(game
            .positions
            .windows(2)
            .all(|w| w[0].1.game_ply < w[1].1.game_ply));
    }
    let (expected, dropped) = dedup_chunk(&games);
    assert_eq!(records, expected);
    assert_eq!(dropped, summary.duplicates);

    // Same seed, other thread count, other directory: the same bytes.
    let summary_b = generate(&tiny_config(dir_b.clone(), 1)).unwrap();
    assert_eq!(summary_b.chunks_written, 1);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(chunk_path(&dir_b, 3)).unwrap()
    );

    // Running again skips the finished chunk and leaves it alone.
    let before = std::fs::read(&path).unwrap();
    let again = generate(&config).unwrap();
    assert_eq!(
        (again.chunks_written, again.chunks_skipped, again.games),
        (0, 1, 0)
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);

    let _ = std::fs::remove_dir_all(&dir_a);
    let _ = std::fs::remove_dir_all(&dir_b);
}

#[test]
fn a_ply_limited_game_is_a_draw_written_from_the_start() {
    let config = GensfenConfig {
        nodes: Some(60),
        random_moves: 0,
        write_min_ply: 1,
        max_ply: 24,
        eval_limit: 30_000,
        ..GensfenConfig::default()
    };
    let mut searcher = Searcher::new(1, 1);
    let game = play_game(&config, &mut searcher, 0, 0);
    assert_eq!(
        (game.end, game.winner, game.plies),
        (GameEnd::MaxPly, None, 24)
    );
    assert_eq!(game.positions.len(), 24);
    assert_eq!(game.positions[0].1.game_ply, 1);
    assert_eq!(
        game.positions[0].1.sfen,
        PackedSfen::pack(&Position::startpos()).unwrap()
    );
    check_game_results(&game);
}

#[test]
fn random_plies_are_not_written() {
    let config = GensfenConfig {
        nodes: Some(60),
        random_moves: 5,
        random_plies: 10,
        write_min_ply: 1,
        max_ply: 12,
        eval_limit: 30_000,
        ..GensfenConfig::default()
    };
    let mut searcher = Searcher::new(1, 1);
    let game = play_game(&config, &mut searcher, 0, 1);
    assert_eq!(game.plies, 12);
    assert_eq!(game.positions.len(), 12 - 5);
    let a = play_game(&config, &mut searcher, 0, 1);
    let b = play_game(&config, &mut searcher, 0, 2);
    assert_eq!(a.positions, game.positions);
    assert_ne!(a.positions, b.positions);
}

#[test]
fn scores_follow_yaneuraou_conventions() {
    assert_eq!(record_score(Score::Cp(123)), 123);
    assert_eq!(record_score(Score::Cp(-50_000)), -29_999);
    assert_eq!(record_score(Score::Mate(3)), 31_997);
    assert_eq!(record_score(Score::Mate(-2)), -31_998);
    assert_eq!(record_score(Score::Mate(0)), -32_000);
}

#[test]
fn game_seeds_differ() {
    let seeds: HashSet<u64> = (0..10)
        .flat_map(|c| (0..10).map(move |g| game_seed(1, c, g)))
        .chain((0..10).map(|g| game_seed(2, 0, g)))
        .collect();
    assert_eq!(seeds.len(), 110);
}

#[test]
fn a_multipv_1_random_move_is_the_searchs_own_move() {
    // With one line the "random" move is the best one, searched with the
    // same limit as every other move: the game is the one without random
    // moves, less the positions at the random plies.
    let base = GensfenConfig {
        nodes: Some(60),
        random_moves: 0,
        write_min_ply: 1,
        max_ply: 16,
        eval_limit: 30_000,
        ..GensfenConfig::default()
    };
    let with_random = GensfenConfig {
        random_moves: 4,
        random_plies: 12,
        random_multipv: 1,
        ..base.clone()
    };
    let mut searcher = Searcher::new(1, 1);
    let plain = play_game(&base, &mut searcher, 0, 3);
    let picked = play_game(&with_random, &mut searcher, 0, 3);
    assert_eq!((picked.plies, picked.winner), (plain.plies, plain.winner));
    assert_eq!(picked.positions.len(), plain.positions.len() - 4);
    for p in &picked.positions {
        let same = plain.positions.iter().find(|q| q.0 == p.0);
        assert_eq!(Some(p), same, "ply {}", p.1.game_ply);
    }
}

#[test]
fn multipv_random_moves_vary_by_game_and_repeat_by_seed() {
    let config = GensfenConfig {
        nodes: Some(200),
        random_moves: 6,
        random_plies: 12,
        random_multipv: 4,
        random_multipv_diff: 400,
        max_ply: 14,
        write_min_ply: 1,
        eval_limit: 30_000,
        ..GensfenConfig::default()
    };
    let mut searcher = Searcher::new(1, 1);
    let games: Vec<_> = (0..4)
        .map(|g| play_game(&config, &mut searcher, 0, g))
        .collect();
    let again = play_game(&config, &mut searcher, 0, 2);
    assert_eq!(again.positions, games[2].positions);
    let distinct: HashSet<_> = games
        .iter()
        .map(|g| g.positions.last().map(|p| p.0))
        .collect();
    assert!(distinct.len() > 1, "four games ended in the same position");
}
