//! `gyoku gensfen-info [--dump] FILE...`: counts and validates record files
//! before training; `--dump` also prints every record as a line
//! `sfen<TAB>move<TAB>score<TAB>result` (for checks with other tools).

use super::packed::{PackedSfenValue, RECORD_BYTES};
use std::io::{Read, Write};

/// Upper bounds (exclusive) of the score histogram's buckets; the last
/// bucket holds everything from the last bound up.
const BUCKET_BOUNDS: [i16; 10] = [
    -29_999, -3000, -1000, -300, -100, 101, 301, 1001, 3001, 30_000,
];

/// Labels of the histogram buckets.
const BUCKET_LABELS: [&str; 11] = [
    "mated (<= -30000)",
    "-29999..-3001",
    "-3000..-1001",
    "-1000..-301",
    "-300..-101",
    "-100..100",
    "101..300",
    "301..1000",
    "1001..3000",
    "3001..29999",
    "mating (>= 30000)",
];

/// Errors quoted in full; later ones are only counted.
const MAX_QUOTED_ERRORS: usize = 5;

/// What a scan of records found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Records read.
    pub records: u64,
    /// Results 1, 0 and -1 (side to move's view).
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Records that failed validation.
    pub invalid: u64,
    /// Positions with the side to move in check.
    pub in_check: u64,
    /// Records whose move captures.
    pub captures: u64,
    /// Records whose move promotes.
    pub promotions: u64,
    /// Sum of game plies (for the mean).
    pub ply_sum: u64,
    /// Counts per score bucket.
    pub histogram: [u64; 11],
    /// Bytes after the last whole record.
    pub trailing_bytes: u64,
    /// The first few validation errors, with record indices.
    pub errors: Vec<String>,
}

impl Stats {
    /// Counts and validates one record (`index` is used in error texts).
    pub fn add(&mut self, index: u64, record: &PackedSfenValue) {
        self.records += 1;
        match record.game_result {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.ply_sum += u64::from(record.game_ply);
        let bucket = BUCKET_BOUNDS
            .iter()
            .position(|&b| record.score < b)
            .unwrap_or(BUCKET_BOUNDS.len());
        self.histogram[bucket] += 1;
        match record.validate() {
            Ok((pos, mv)) => {
                self.in_check += u64::from(pos.in_check());
                self.captures += u64::from(pos.is_capture(mv));
                self.promotions += u64::from(mv.is_promotion());
            }
            Err(e) => {
                self.invalid += 1;
                if self.errors.len() < MAX_QUOTED_ERRORS {
                    self.errors.push(format!("record {index}: {e}"));
                }
            }
        }
    }

    /// Adds another scan's counts (quoted errors are kept up to the limit).
    pub fn merge(&mut self, other: &Stats) {
        self.records += other.records;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.invalid += other.invalid;
        self.in_check += other.in_check;
        self.captures += other.captures;
        self.promotions += other.promotions;
        self.ply_sum += other.ply_sum;
        for (a, b) in self.histogram.iter_mut().zip(other.histogram) {
            *a += b;
        }
        self.trailing_bytes += other.trailing_bytes;
        for e in &other.errors {
            if self.errors.len() < MAX_QUOTED_ERRORS {
                self.errors.push(e.clone());
            }
        }
    }

    /// Whether every record was valid and no bytes were left over.
    pub fn is_clean(&self) -> bool {
        self.invalid == 0 && self.trailing_bytes == 0
    }

    /// A short report, one fact per line.
    pub fn report(&self, name: &str) -> String {
        let n = self.records.max(1) as f64;
        let pct = |x: u64| 100.0 * x as f64 / n;
        let mut out = format!(
            "{name}: {} records, {} invalid, W/D/L {}/{}/{} ({:.1}%/{:.1}%/{:.1}%), \
             in check {} ({:.1}%), move captures {} ({:.1}%), promotes {} ({:.1}%), \
             mean ply {:.1}\n",
            self.records,
            self.invalid,
            self.wins,
            self.draws,
            self.losses,
            pct(self.wins),
            pct(self.draws),
            pct(self.losses),
            self.in_check,
            pct(self.in_check),
            self.captures,
            pct(self.captures),
            self.promotions,
            pct(self.promotions),
            self.ply_sum as f64 / n
        );
        if self.trailing_bytes > 0 {
            out.push_str(&format!(
                "  {} trailing bytes (not a whole {RECORD_BYTES}-byte record)\n",
                self.trailing_bytes
            ));
        }
        for e in &self.errors {
            out.push_str(&format!("  {e}\n"));
        }
        out.push_str("  score histogram:\n");
        for (label, count) in BUCKET_LABELS.iter().zip(self.histogram) {
            out.push_str(&format!(
                "    {label:>18} {count:>10} {:5.1}%\n",
                pct(count)
            ));
        }
        out
    }
}

/// Scans a stream of records; with `dump`, writes each one as a text line
/// to it (`?` for a field that does not decode).
pub fn scan(mut input: impl Read, mut dump: Option<&mut dyn Write>) -> std::io::Result<Stats> {
    let mut stats = Stats::default();
    let mut buf = [0u8; RECORD_BYTES];
    loop {
        let mut filled = 0;
        while filled < RECORD_BYTES {
            match input.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if filled < RECORD_BYTES {
            stats.trailing_bytes = filled as u64;
            return Ok(stats);
        }
        let record = PackedSfenValue::from_bytes(&buf);
        if let Some(out) = dump.as_mut() {
            let sfen = record
                .position()
                .map_or_else(|e| format!("? ({e})"), |p| p.to_sfen());
            let mv = record
                .best_move()
                .map_or("?".to_string(), |m| m.to_string());
            writeln!(
                out,
                "{sfen}\t{mv}\t{}\t{}",
                record.score, record.game_result
            )?;
        }
        stats.add(stats.records, &record);
    }
}

/// Runs `gyoku gensfen-info [--dump] FILE...`; exit code 0 when every
/// file is clean, 1 when a record is invalid, 2 on bad usage or an
/// unreadable file. With `--dump` the records go to stdout and the
/// reports to stderr.
pub fn run(args: &[String]) -> i32 {
    let dump = args.iter().any(|a| a == "--dump");
    let files: Vec<&String> = args.iter().filter(|a| *a != "--dump").collect();
    if files.is_empty() {
        eprintln!("usage: gyoku gensfen-info [--dump] FILE...");
        return 2;
    }
    let report = |text: String| {
        if dump {
            eprint!("{text}");
        } else {
            print!("{text}");
        }
    };
    let mut total = Stats::default();
    for name in &files {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let sink: Option<&mut dyn Write> = if dump { Some(&mut out) } else { None };
        let stats = std::fs::File::open(name)
            .and_then(|f| scan(std::io::BufReader::with_capacity(1 << 20, f), sink))
            .and_then(|s| out.flush().map(|_| s));
        drop(out);
        match stats {
            Ok(stats) => {
                report(stats.report(name));
                total.merge(&stats);
            }
            Err(e) => {
                eprintln!("cannot read {name}: {e}");
                return 2;
            }
        }
    }
    if files.len() > 1 {
        report(total.report("total"));
    }
    i32::from(!total.is_clean())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::position::Position;
    use crate::tools::datagen::packed::PackedSfen;

    fn record(score: i16, result: i8) -> PackedSfenValue {
        PackedSfenValue {
            sfen: PackedSfen::pack(&Position::startpos()).unwrap(),
            score,
            mv: Move::from_usi("2g2f").unwrap().bits(),
            game_ply: 1,
            game_result: result,
            padding: 0,
        }
    }

    #[test]
    fn counts_buckets_results_and_errors() {
        let mut bytes = Vec::new();
        for (score, result) in [(0, 1), (-32000, -1), (31990, 1), (150, 0), (-100, 0)] {
            bytes.extend_from_slice(&record(score, result).to_bytes());
        }
        let mut bad = record(0, 0);
        bad.mv = Move::from_usi("2g2e").unwrap().bits();
        bytes.extend_from_slice(&bad.to_bytes());
        bytes.extend_from_slice(&[1, 2, 3]);
        let mut text = Vec::new();
        let stats = scan(&bytes[..], Some(&mut text)).unwrap();
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6);
        assert_eq!(
            lines[0],
            format!("{}\t2g2f\t0\t1", crate::position::START_SFEN)
        );
        assert_eq!(stats.records, 6);
        assert_eq!((stats.wins, stats.draws, stats.losses), (2, 3, 1));
        assert_eq!(stats.invalid, 1);
        assert_eq!(stats.trailing_bytes, 3);
        assert_eq!(stats.histogram[0], 1);
        assert_eq!(stats.histogram[4], 0);
        assert_eq!(stats.histogram[5], 3);
        assert_eq!(stats.histogram[6], 1);
        assert_eq!(stats.histogram[10], 1);
        assert!(stats.errors[0].starts_with("record 5:"));
        assert!(!stats.is_clean());
        assert!(stats.report("x").contains("6 records, 1 invalid"));
    }
}
