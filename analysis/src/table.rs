//! A small table that renders as aligned text (terminal) or as a markdown table.

/// A table: a header, rows, and optional horizontal rules (text rendering only).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Row indices before which a rule is drawn.
    rules: Vec<usize>,
}

/// Numbers (possibly with a unit or `x`/`%` suffix) and `n/a` are right-aligned.
fn numeric(s: &str) -> bool {
    s == "n/a"
        || s.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+')
            && s.chars()
                .nth(1)
                .is_none_or(|c| c.is_ascii_digit() || c == '.')
}

impl Table {
    /// A table with these column titles.
    pub fn new(header: Vec<String>) -> Table {
        Table {
            header,
            ..Table::default()
        }
    }

    /// Appends a row (missing cells render empty, extra cells are kept).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Draws a rule before the next row in the text rendering.
    pub fn rule(&mut self) {
        self.rules.push(self.rows.len());
    }

    /// Rows added so far.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no row was added.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn cols(&self) -> usize {
        self.rows
            .iter()
            .map(Vec::len)
            .chain([self.header.len()])
            .max()
            .unwrap_or(0)
    }

    fn cell(r: &[String], c: usize) -> &str {
        r.get(c).map_or("", String::as_str)
    }

    /// Aligned plain text: text columns left-aligned, numbers right-aligned, two spaces apart.
    pub fn text(&self) -> String {
        let n = self.cols();
        let w: Vec<usize> = (0..n)
            .map(|c| {
                self.rows
                    .iter()
                    .chain([&self.header])
                    .map(|r| Self::cell(r, c).chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let total = w.iter().sum::<usize>() + 2 * n.saturating_sub(1);
        let line = |r: &[String]| {
            let cells: Vec<String> = (0..n)
                .map(|c| {
                    let s = Self::cell(r, c);
                    let wc = w[c];
                    if numeric(s) {
                        format!("{s:>wc$}")
                    } else {
                        format!("{s:<wc$}")
                    }
                })
                .collect();
            let mut l = cells.join("  ").trim_end().to_string();
            l.push('\n');
            l
        };
        let mut out = line(&self.header);
        out.push_str(&"-".repeat(total));
        out.push('\n');
        for (i, r) in self.rows.iter().enumerate() {
            if self.rules.contains(&i) {
                out.push_str(&"-".repeat(total));
                out.push('\n');
            }
            out.push_str(&line(r));
        }
        out
    }

    /// A GitHub-flavoured markdown table (numeric columns right-aligned).
    pub fn markdown(&self) -> String {
        let n = self.cols();
        let right: Vec<bool> = (0..n)
            .map(|c| !self.rows.is_empty() && self.rows.iter().all(|r| numeric(Self::cell(r, c))))
            .collect();
        let esc = |s: &str| s.replace('|', "\\|");
        let mut out = String::new();
        let header: Vec<String> = (0..n).map(|c| esc(Self::cell(&self.header, c))).collect();
        out.push_str(&format!("| {} |\n", header.join(" | ")));
        let seps: Vec<&str> = right
            .iter()
            .map(|&r| if r { "---:" } else { "---" })
            .collect();
        out.push_str(&format!("|{}|\n", seps.join("|")));
        for r in &self.rows {
            let cells: Vec<String> = (0..n).map(|c| esc(Self::cell(r, c))).collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> Table {
        let mut t = Table::new(vec!["name".into(), "ratio".into()]);
        t.row(vec!["a".into(), "2.500".into()]);
        t.rule();
        t.row(vec!["long|name".into(), "n/a".into()]);
        t
    }

    #[test]
    fn text_is_aligned() {
        assert_eq!(
            t().text(),
            "name       ratio\n----------------\na          2.500\n----------------\nlong|name    n/a\n"
        );
    }

    #[test]
    fn markdown_escapes_and_aligns() {
        assert_eq!(
            t().markdown(),
            "| name | ratio |\n|---|---:|\n| a | 2.500 |\n| long\\|name | n/a |\n"
        );
    }
}
