//! The module arrows point one way: the developer tools in `src/tools/`
//! use the engine, and no engine module uses a tool. Outside `src/tools/`
//! only `src/cli.rs` (the subcommands) may name `tools`.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's code with `//` comments dropped and no whitespace left, so
/// that paths split over lines or spaced out read as one word.
fn code_without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .flat_map(str::chars)
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// Whether `code` (from [`code_without_comments`]) reaches into the tools:
/// a path through `tools`, or `tools` in a `use crate::{...}` group.
fn names_tools(code: &str) -> bool {
    let is_tools = |word: &str| word == "tools";
    if ["crate::tools", "gyoku::tools", "super::tools"]
        .iter()
        .any(|path| code.contains(path))
    {
        return true;
    }
    ["usecrate::{", "usegyoku::{"].iter().any(|start| {
        code.match_indices(start).any(|(at, _)| {
            let group = &code[at..];
            let group = &group[..group.find(';').unwrap_or(group.len())];
            group
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(is_tools)
        })
    })
}

#[test]
fn no_engine_module_uses_a_tool() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 50, "found only {} files", files.len());
    let offenders: Vec<String> = files
        .iter()
        .filter(|p| !p.starts_with(src.join("tools")) && *p != &src.join("cli.rs"))
        .filter(|p| names_tools(&code_without_comments(&std::fs::read_to_string(p).unwrap())))
        .map(|p| p.strip_prefix(root).unwrap().display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "engine modules that use src/tools (only cli.rs may): {offenders:?}"
    );
}

#[test]
fn the_check_sees_the_ways_of_naming_a_tool() {
    let check = |text: &str| names_tools(&code_without_comments(text));
    assert!(check("use crate::tools::tune::dataset;"));
    assert!(check("let x = crate::tools ::\n bench::run();"));
    assert!(check("use crate::{\n    eval,\n    tools::train,\n};"));
    assert!(check("use gyoku::tools::mate_suite::parse_suite;"));
    assert!(!check("// see crate::tools::tune\nlet tools = 1;"));
    assert!(!check("pub mod tools;\nuse crate::{eval, search};"));
}
