//! Command-line entry points: `gyoku` alone runs the USI engine; the
//! subcommands are tools for developers and testers.

use crate::perft::{parse_suite, print_divide, thread_pool};
use crate::position::Position;
use std::time::Instant;

const USAGE: &str = "usage: gyoku                         run the USI engine on stdin/stdout
       gyoku perft <depth> [<sfen>] [--threads N]
       gyoku perft-suite <file> [--threads N]
       gyoku mate-suite <file> [--time-ms N] [--hash-mb N] [--out FILE]
       gyoku bench [depth] [--threads N] [--hash MB] [--evalfile NET|builtin|linear]   (1 thread, 16 MB, the built-in net by default; --linear = --evalfile linear)
       gyoku evalbench [<positions>] [<passes>]
       gyoku tune gen|fit|init ... (see `gyoku tune help`)
       gyoku nnue train --data FILES --out NET ... (the NNUE trainer; `gyoku nnue help`)
       gyoku makebook --out FILE [--positions 1000] [--plies 16] [--depth 10] [--multipv 3] [--margin 40] [--branch-plies 6]
       gyoku nnue export --format yaneuraou|gyoku IN OUT   (net file conversion)
       gyoku gensfen --out DIR [--chunks A..B] [--games-per-chunk N] [--seed S] [--nodes M] ... [--threads T]
       gyoku gensfen-info [--dump] FILE...   (NNUE training records: see `gyoku gensfen --help`)
       gyoku convert IN OUT [--from FMT] [--to FMT]   (game records: KIF, KI2, CSA, USI)
       gyoku analyse RECORD [--movetime MS | --nodes N] [--multipv K] [--out FILE] [--svg FILE]";

/// Runs the command line `args` (without the program name); returns the exit code.
pub fn run(args: &[String]) -> i32 {
    // Bench defaults to one thread (a deterministic node count), unlike perft.
    if args.first().map(String::as_str) == Some("bench") {
        return bench_command(&args[1..]);
    }
    let (args, threads) = match take_threads(args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return 2;
        }
    };
    match args.first().map(String::as_str) {
        None => crate::usi::run(),
        Some("perft") => perft_command(&args[1..], threads),
        Some("perft-suite") => perft_suite_command(&args[1..], threads),
        Some("mate-suite") => crate::tools::mate_suite::run(&args[1..]),
        Some("evalbench") => crate::tools::evalbench::run(&args[1..]),
        Some("tune") => crate::tools::tune::run(&args[1..], threads),
        Some("nnue") => crate::tools::train::run(&args[1..], threads),
        Some("makebook") => makebook_command(&args[1..]),
        Some("gensfen") => crate::tools::datagen::run_gensfen(&args[1..], threads),
        Some("gensfen-info") => crate::tools::datagen::info::run(&args[1..]),
        Some("convert") => crate::tools::records::convert(&args[1..]),
        Some("analyse" | "analyze") => crate::tools::records::analyse(&args[1..], threads),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            0
        }
        Some(other) => {
            eprintln!("unknown command '{other}'\n{USAGE}");
            2
        }
    }
}

fn take_threads(args: &[String]) -> Result<(Vec<String>, usize), String> {
    let mut rest = Vec::new();
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--threads" {
            let value = iter.next().ok_or("--threads needs a number")?;
            threads = value
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("bad thread count '{value}'"))?;
        } else {
            rest.push(arg.clone());
        }
    }
    Ok((rest, threads))
}

fn perft_command(args: &[String], threads: usize) -> i32 {
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("perft needs a depth\n{USAGE}");
        return 2;
    };
    let sfen = args[1..].join(" ");
    let pos = if sfen.is_empty() || sfen == "startpos" {
        Position::startpos()
    } else {
        match Position::from_tsume_sfen(sfen.trim_start_matches("sfen ")) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad sfen: {e}");
                return 2;
            }
        }
    };
    let stdout = std::io::stdout();
    match print_divide(&mut stdout.lock(), &pos, depth, threads) {
        Ok(_) => 0,
        Err(_) => 1,
    }
}

fn perft_suite_command(args: &[String], threads: usize) -> i32 {
    let Some(path) = args.first() else {
        eprintln!("perft-suite needs a file\n{USAGE}");
        return 2;
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return 2;
        }
    };
    let entries = match parse_suite(&text) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{path}: {e}");
            return 2;
        }
    };
    let pool = thread_pool(threads);
    let (mut passed, mut failed) = (0, 0);
    for entry in &entries {
        let result = Position::from_tsume_sfen(&entry.sfen)
            .map(|pos| crate::perft::perft_parallel(&pos, entry.depth, pool.as_ref()));
        match result {
            Ok(n) if n == entry.nodes => {
                passed += 1;
                println!("ok {} depth {} nodes {}", entry.sfen, entry.depth, n);
            }
            Ok(n) => {
                failed += 1;
                println!(
                    "FAIL expected {} got {} depth {} sfen {}",
                    entry.nodes, n, entry.depth, entry.sfen
                );
            }
            Err(e) => {
                failed += 1;
                println!("FAIL bad sfen ({e}) sfen {}", entry.sfen);
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    i32::from(failed > 0)
}

fn bench_command(args: &[String]) -> i32 {
    let mut depth = crate::tools::bench::DEFAULT_DEPTH;
    let mut threads = 1;
    let mut hash_mb = 16;
    // What the engine plays with by default: the built-in network.
    let mut network = Some(crate::eval::default_network());
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let parsed = match arg.as_str() {
            "--linear" => {
                network = None;
                Some(())
            }
            "--evalfile" => match iter
                .next()
                .map(|v| crate::eval::EvalChoice::parse(v).network())
            {
                Some(Ok(net)) => {
                    network = net;
                    Some(())
                }
                Some(Err(e)) => {
                    eprintln!("EvalFile {e}");
                    return 2;
                }
                None => None,
            },
            "--threads" => iter
                .next()
                .and_then(|v| v.parse().ok())
                .map(|n: usize| threads = n.max(1)),
            "--hash" => iter
                .next()
                .and_then(|v| v.parse().ok())
                .map(|n: usize| hash_mb = n.max(1)),
            other => other.parse().ok().map(|d: u32| depth = d.max(1)),
        };
        if parsed.is_none() {
            eprintln!("bad bench argument '{arg}'\n{USAGE}");
            return 2;
        }
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    match crate::tools::bench::run(depth, threads, hash_mb, network, Some(&mut lock)) {
        Ok(_) => 0,
        Err(_) => 1,
    }
}

fn makebook_command(args: &[String]) -> i32 {
    let mut config = crate::tools::makebook::MakeConfig::default();
    let mut out = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let value = iter.next();
        let ok = match (arg.as_str(), value) {
            ("--out", Some(v)) => {
                out = Some(v.clone());
                true
            }
            ("--positions", Some(v)) => v.parse().map(|n| config.positions = n).is_ok(),
            ("--plies", Some(v)) => v.parse().map(|n| config.plies = n).is_ok(),
            ("--depth", Some(v)) => v.parse().map(|n| config.depth = n).is_ok(),
            ("--multipv", Some(v)) => v.parse().map(|n| config.multipv = n).is_ok(),
            ("--margin", Some(v)) => v.parse().map(|n| config.margin = n).is_ok(),
            ("--branch-plies", Some(v)) => v.parse().map(|n| config.branch_plies = n).is_ok(),
            ("--hash", Some(v)) => v.parse().map(|n| config.hash_mb = n).is_ok(),
            _ => false,
        };
        if !ok {
            eprintln!("bad makebook argument '{arg}'\n{USAGE}");
            return 2;
        }
    }
    let Some(out) = out else {
        eprintln!("makebook needs --out FILE\n{USAGE}");
        return 2;
    };
    let start = Instant::now();
    let (book, order) = crate::tools::makebook::make_book(&config, |done| {
        if done % 50 == 0 {
            eprintln!("{done} positions, {:.0} s", start.elapsed().as_secs_f64());
        }
    });
    if let Err(e) = std::fs::write(&out, book.write(&order)) {
        eprintln!("{out}: {e}");
        return 1;
    }
    eprintln!(
        "wrote {out}: {} positions in {:.0} s ({config:?})",
        order.len(),
        start.elapsed().as_secs_f64()
    );
    0
}
