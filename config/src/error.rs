//! [`ConfigError`]: what is wrong, naming the field (or file) and the allowed values.

use std::fmt;
use std::path::Path;

/// A config that cannot be used: names the culprit field (or file) and the allowed values.
///
/// `message` is the whole sentence [`fmt::Display`] prints, e.g.
/// ``config field `data_width`: 384 is not one of 128, 256, 512, 1024`` or
/// ``config file x.toml: line 3, column 1: unknown field `foo`, expected one of ...``.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The field at fault, when there is one (an unknown field's name included).
    pub field: Option<String>,
    /// The complete human-readable text, as `Display` prints it.
    pub message: String,
}

impl ConfigError {
    /// An error in `field`: ``config field `field`: detail``.
    pub fn field(field: &str, detail: impl fmt::Display) -> ConfigError {
        ConfigError {
            field: Some(field.to_string()),
            message: format!("config field `{field}`: {detail}"),
        }
    }

    /// An error about no one field; `message` is the whole text.
    pub(crate) fn other(message: String) -> ConfigError {
        ConfigError {
            field: None,
            message,
        }
    }

    /// A TOML error (syntax, type, unknown or missing field) at its line and column in `text`.
    /// `field` is the field the toml crate names (unknown, missing or duplicate) or else the
    /// key of the line the error is on.
    pub(crate) fn from_toml(e: &toml::de::Error, text: &str) -> ConfigError {
        let detail = e.message().trim().replace('\n', "; ");
        let named = quoted_after(&detail, "unknown field `")
            .or_else(|| quoted_after(&detail, "missing field `"))
            .or_else(|| quoted_after(&detail, "duplicate key `"));
        // A missing field's span is the whole document: no useful line.
        let at = e.span().filter(|_| !detail.starts_with("missing field"));
        let at = at.map(|span| line_column(text, span.start));
        let keyed = at.and_then(|(line, _)| key_of_line(text, line));
        let location = at.map_or(String::new(), |(l, c)| format!("line {l}, column {c}: "));
        match (named, keyed) {
            (None, Some(key)) => ConfigError::field(&key, format!("{location}{detail}")),
            (named, _) => ConfigError {
                field: named,
                message: format!("config: {location}{detail}"),
            },
        }
    }

    /// The same error, read from the file at `path`: the message names the file.
    pub fn in_file(self, path: &Path) -> ConfigError {
        let rest = self
            .message
            .strip_prefix("config: ")
            .or_else(|| self.message.strip_prefix("config "))
            .unwrap_or(&self.message);
        ConfigError {
            message: format!("config file {}: {rest}", path.display()),
            field: self.field,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfigError {}

/// The text between `prefix` and the next backtick in `s`, if `s` contains `prefix`.
fn quoted_after(s: &str, prefix: &str) -> Option<String> {
    let rest = &s[s.find(prefix)? + prefix.len()..];
    Some(rest[..rest.find('`')?].to_string())
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// The key of a `key = value` line (1-based `line` of `text`), if it is a config field.
fn key_of_line(text: &str, line: usize) -> Option<String> {
    let (key, _) = text.lines().nth(line - 1)?.split_once('=')?;
    let key = key.trim();
    const FIELDS: [&str; 8] = [
        "data_width",
        "elem_widths",
        "addr_width",
        "id_width",
        "reads_in_flight",
        "max_burst_beats",
        "chunk_log2_max",
        "module_prefix",
    ];
    FIELDS.contains(&key).then(|| key.to_string())
}
