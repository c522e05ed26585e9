//! Offsets to editor positions: 1-based lines and character columns, as an editor shows them.

use ruff_python_ast::token::Tokens;
use ruff_source_file::LineIndex;
use ruff_text_size::{TextRange, TextSize};

use crate::model::Span;

pub struct SourceMap<'a> {
    pub source: &'a str,
    pub tokens: &'a Tokens,
    index: LineIndex,
}

impl<'a> SourceMap<'a> {
    pub fn new(source: &'a str, tokens: &'a Tokens) -> Self {
        SourceMap {
            source,
            tokens,
            index: LineIndex::from_source_text(source),
        }
    }

    pub fn line(&self, offset: TextSize) -> u32 {
        self.index.line_index(offset).get() as u32
    }

    /// 1-based line and 1-based column in characters.
    pub fn line_column(&self, offset: TextSize) -> (u32, u32) {
        let lc = self.index.line_column(offset, self.source);
        (lc.line.get() as u32, lc.column.get() as u32)
    }

    pub fn span(&self, range: TextRange) -> Span {
        Span {
            start: range.start().to_u32(),
            end: range.end().to_u32(),
            line: self.line(range.start()),
            end_line: self.line(range.end()),
        }
    }

    pub fn text(&self, range: TextRange) -> &'a str {
        &self.source[range]
    }

    /// A statement's text for a message: its first line, shortened.
    pub fn snippet(&self, range: TextRange) -> String {
        let text = self.text(range);
        let first = text.lines().next().unwrap_or("").trim_end();
        let mut out: String = first.chars().take(60).collect();
        if first.chars().count() > 60 || text.lines().nth(1).is_some() {
            out.push('…');
        }
        out
    }
}
