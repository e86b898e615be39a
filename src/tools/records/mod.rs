//! `gyoku convert` and `gyoku analyse`: argument parsing and file handling
//! around the record readers, writers and the analysis.

pub mod analyse;
pub mod chart;

use crate::record::{FileFormat, Format, Record, RecordError};
use analyse::AnalyseOptions;
use std::io::{Read, Write};
use std::path::Path;

/// Usage of the two commands.
pub const USAGE: &str = "usage: gyoku convert IN OUT [--from FMT] [--to FMT]
       gyoku analyse RECORD [--from FMT] [--movetime MS | --nodes N | --depth D] [--multipv K]
                     [--out FILE] [--svg FILE] [--hash MB] [--evalfile NET|linear] [--threads N]
formats: kif (Shift_JIS), kifu (UTF-8), ki2, ki2u, csa, usi; by extension unless given;
'-' reads standard input or writes standard output (then --from/--to are needed)";

/// Parses `--flag value` pairs and positional arguments.
struct Args {
    positional: Vec<String>,
    flags: Vec<(String, String)>,
}

impl Args {
    fn parse(args: &[String], flags: &[&str]) -> Result<Args, String> {
        let mut out = Args {
            positional: Vec::new(),
            flags: Vec::new(),
        };
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            if arg.starts_with("--") {
                if !flags.contains(&arg.as_str()) {
                    return Err(format!("unknown option '{arg}'"));
                }
                let value = iter.next().ok_or_else(|| format!("{arg} needs a value"))?;
                out.flags.push((arg.clone(), value.clone()));
            } else {
                out.positional.push(arg.clone());
            }
        }
        Ok(out)
    }

    fn get(&self, flag: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(f, _)| f == flag)
            .map(|(_, v)| v.as_str())
    }

    fn number<T: std::str::FromStr>(&self, flag: &str) -> Result<Option<T>, String> {
        match self.get(flag) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| format!("bad number '{v}' for {flag}")),
        }
    }
}

fn file_format(path: &str, flag: Option<&str>) -> Result<FileFormat, String> {
    match flag {
        Some(name) => FileFormat::from_name(name).ok_or_else(|| format!("unknown format '{name}'")),
        None if path == "-" => Err("'-' needs --from or --to".to_string()),
        None => FileFormat::from_path(Path::new(path)).ok_or_else(|| {
            format!("cannot tell the format of '{path}' from its extension; use --from/--to")
        }),
    }
}

fn read_input(path: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let result = if path == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes).map(|_| ()))
    };
    result.map_err(|e| format!("cannot read {path}: {e}"))?;
    Ok(bytes)
}

fn write_output(path: &str, bytes: &[u8]) -> Result<(), String> {
    let result = if path == "-" {
        std::io::stdout().write_all(bytes)
    } else {
        std::fs::write(path, bytes)
    };
    result.map_err(|e| format!("cannot write {path}: {e}"))
}

/// Reads the record at `path` (format by `flag` or extension).
pub fn load(path: &str, flag: Option<&str>) -> Result<Record, String> {
    let format = file_format(path, flag)?;
    let bytes = read_input(path)?;
    crate::record::read(&bytes, format).map_err(|e| format!("{path}: {e}"))
}

fn save(record: &Record, path: &str, format: FileFormat) -> Result<(), String> {
    let bytes =
        crate::record::write(record, format).map_err(|e: RecordError| format!("{path}: {e}"))?;
    write_output(path, &bytes)
}

fn exit_code(result: Result<(), String>, usage_error: bool) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) if usage_error => {
            eprintln!("{e}\n{USAGE}");
            2
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// `gyoku convert IN OUT [--from FMT] [--to FMT]`; returns the exit code.
pub fn convert(args: &[String]) -> i32 {
    let parsed =
        Args::parse(args, &["--from", "--to"]).and_then(|a| match a.positional.as_slice() {
            [input, output] => {
                let from = file_format(input, a.get("--from"))?;
                let to = file_format(output, a.get("--to"))?;
                Ok((input.clone(), output.clone(), from, to))
            }
            _ => Err("convert needs an input and an output file".to_string()),
        });
    let (input, output, from, to) = match parsed {
        Ok(x) => x,
        Err(e) => return exit_code(Err(e), true),
    };
    let result = read_input(&input)
        .and_then(|bytes| crate::record::read(&bytes, from).map_err(|e| format!("{input}: {e}")))
        .and_then(|record| save(&record, &output, to));
    exit_code(result, false)
}

fn analyse_options(a: &Args, threads: usize) -> Result<AnalyseOptions, String> {
    let mut opts = AnalyseOptions {
        threads,
        ..AnalyseOptions::default()
    };
    opts.movetime_ms = a.number("--movetime")?;
    opts.nodes = a.number("--nodes")?;
    opts.depth = a.number("--depth")?;
    let limits = [
        opts.movetime_ms.is_some(),
        opts.nodes.is_some(),
        opts.depth.is_some(),
    ];
    match limits.iter().filter(|&&x| x).count() {
        0 => opts.movetime_ms = Some(1000),
        1 => {}
        _ => return Err("give one of --movetime, --nodes and --depth".to_string()),
    }
    opts.multipv = a.number("--multipv")?.unwrap_or(1usize).max(1);
    opts.hash_mb = a.number("--hash")?.unwrap_or(64usize).max(1);
    // The engine's evaluation unless told otherwise: the built-in network.
    opts.network = crate::eval::EvalChoice::parse(a.get("--evalfile").unwrap_or("<empty>"))
        .network()
        .map_err(|e| format!("EvalFile {e}"))?;
    Ok(opts)
}

/// `gyoku analyse RECORD ...`; returns the exit code.
pub fn analyse(args: &[String], threads: usize) -> i32 {
    let flags = [
        "--from",
        "--movetime",
        "--nodes",
        "--depth",
        "--multipv",
        "--out",
        "--svg",
        "--hash",
        "--evalfile",
    ];
    let parsed = Args::parse(args, &flags).and_then(|a| match a.positional.as_slice() {
        [input] => {
            let opts = analyse_options(&a, threads)?;
            let out = a
                .get("--out")
                .map(|path| (path.to_string(), output_format(path)));
            Ok((
                input.clone(),
                a.get("--from").map(str::to_string),
                opts,
                out,
                a.get("--svg").map(str::to_string),
            ))
        }
        _ => Err("analyse needs one record file".to_string()),
    });
    let (input, from, opts, out, svg) = match parsed {
        Ok(x) => x,
        Err(e) => return exit_code(Err(e), true),
    };
    exit_code(
        run_analysis(&input, from.as_deref(), &opts, out, svg.as_deref()),
        false,
    )
}

/// The analysed game is written as KIF: Shift_JIS for `.kif`, UTF-8 otherwise.
fn output_format(path: &str) -> FileFormat {
    let sjis = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("kif"));
    FileFormat {
        format: Format::Kif,
        encoding: if sjis {
            crate::record::Encoding::ShiftJis
        } else {
            crate::record::Encoding::Utf8
        },
    }
}

fn run_analysis(
    input: &str,
    from: Option<&str>,
    opts: &AnalyseOptions,
    out: Option<(String, FileFormat)>,
    svg: Option<&str>,
) -> Result<(), String> {
    let record = load(input, from)?;
    let positions = record.positions().map_err(|e| format!("{input}: {e}"))?;
    eprintln!(
        "analysing {} moves ({} per position)",
        record.moves.len(),
        match (opts.movetime_ms, opts.nodes, opts.depth) {
            (Some(ms), _, _) => format!("{ms} ms"),
            (_, Some(n), _) => format!("{n} nodes"),
            (_, _, Some(d)) => format!("depth {d}"),
            _ => String::new(),
        }
    );
    let analysis = analyse::analyse(&record, opts, &mut |i, a| {
        eprintln!("{}", analyse::progress_line(&record, &positions, a, i));
    })
    .map_err(|e| format!("{input}: {e}"))?;
    let annotated = analyse::annotate(&record, &analysis).map_err(|e| e.to_string())?;
    let summary = analyse::summary(&record, &analysis);
    match &out {
        Some((path, format)) => {
            save(&annotated, path, *format)?;
            print!("{summary}");
        }
        None => {
            let text =
                crate::record::write_str(&annotated, Format::Kif).map_err(|e| e.to_string())?;
            write_output("-", text.as_bytes())?;
            eprint!("{summary}");
        }
    }
    if let Some(path) = svg {
        write_output(path, analyse::svg(&record, &analysis).as_bytes())?;
    }
    Ok(())
}
