//! Finding and loading an `EvalFile`.
//!
//! Path rule: an absolute path is used as given; a relative one is tried
//! against the working directory first and then against the folder of the
//! engine's executable (GUIs start engines from various working
//! directories, and users keep nets beside the binary). `<empty>` or an
//! empty value means "no file".

use super::{NetError, Network};
use std::path::{Path, PathBuf};

/// Why an `EvalFile` could not be used.
#[derive(Debug)]
pub enum LoadError {
    /// No file at any of the places tried.
    NotFound(Vec<PathBuf>),
    /// The file exists but could not be read.
    Io(PathBuf, std::io::Error),
    /// The file is not a network gyoku can use.
    Format(PathBuf, NetError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NotFound(tried) => {
                let tried: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
                write!(f, "no such file (tried {})", tried.join(", "))
            }
            LoadError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            LoadError::Format(path, e) => write!(f, "{}: {e}", path.display()),
        }
    }
}

impl std::error::Error for LoadError {}

/// Whether an option value means "no file".
pub fn is_empty_value(value: &str) -> bool {
    let value = value.trim();
    value.is_empty() || value == "<empty>"
}

/// The places a relative `value` is looked for, in order.
pub fn candidates(value: &str) -> Vec<PathBuf> {
    let path = Path::new(value.trim());
    if path.is_absolute() {
        return vec![path.to_path_buf()];
    }
    let mut out = vec![path.to_path_buf()];
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    {
        out.push(dir.join(path));
    }
    out
}

/// Loads the network `value` names (see the module docs for the path
/// rule). The engine loads through `crate::eval::load_network`, which also
/// checks a network's dynamic terms against the build.
pub fn load(value: &str) -> Result<Network, LoadError> {
    load_with_path(value).map(|(net, _)| net)
}

/// [`load`], also giving the path the network was found at.
pub fn load_with_path(value: &str) -> Result<(Network, PathBuf), LoadError> {
    let tried = candidates(value);
    let Some(path) = tried.iter().find(|p| p.is_file()).cloned() else {
        return Err(LoadError::NotFound(tried));
    };
    let bytes = std::fs::read(&path).map_err(|e| LoadError::Io(path.clone(), e))?;
    match Network::read(&bytes) {
        Ok(net) => Ok((net, path)),
        Err(e) => Err(LoadError::Format(path, e)),
    }
}
