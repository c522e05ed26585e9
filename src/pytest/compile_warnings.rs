//! Warnings Python and pytest issue while pytest imports a test file, before any test runs: an
//! invalid escape sequence in a string (`"\d"`: `DeprecationWarning` up to Python 3.11,
//! `SyntaxWarning` since 3.12), `is` with a literal (`SyntaxWarning`), and an `assert` of a tuple,
//! which pytest's assertion rewriting reports (`PytestAssertRewriteWarning`). Under a filter that
//! turns them into errors the file fails to collect, so none of its tests passes
//! (`extract::session`). (A compiled file pytest cached is not compiled again, so the warning is
//! only issued the first time: the extractor takes that first run.)

use crate::walk::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, CmpOp, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::source::SourceMap;

/// One warning issued while the file is compiled: its categories (the first that applies to the
/// interpreter), message and line.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileWarning {
    pub categories: &'static [&'static str],
    pub message: String,
    pub line: u32,
}

/// The warnings compiling `body` issues.
pub fn compile_warnings(body: &[Stmt], map: &SourceMap) -> Vec<CompileWarning> {
    let mut finder = Finder {
        map,
        found: Vec::new(),
    };
    finder.visit_body(body);
    finder.found
}

struct Finder<'m, 'a> {
    map: &'m SourceMap<'a>,
    found: Vec<CompileWarning>,
}

impl Finder<'_, '_> {
    fn escapes(&mut self, range: TextRange, raw: bool, bytes: bool) {
        if raw {
            return;
        }
        let text = self.map.text(range);
        let mut chars = text.char_indices();
        while let Some((_, c)) = chars.next() {
            if c != '\\' {
                continue;
            }
            let Some((_, next)) = chars.next() else { break };
            let valid = matches!(
                next,
                '\n' | '\r'
                    | '\\'
                    | '\''
                    | '"'
                    | 'a'
                    | 'b'
                    | 'f'
                    | 'n'
                    | 'r'
                    | 't'
                    | 'v'
                    | 'x'
                    | '0'..='7'
            ) || (!bytes && matches!(next, 'N' | 'u' | 'U'));
            if !valid {
                self.found.push(CompileWarning {
                    categories: &["DeprecationWarning", "SyntaxWarning"],
                    message: format!("invalid escape sequence '\\{next}'"),
                    line: self.map.line(range.start()),
                });
                return;
            }
        }
    }
}

/// A literal `is` compares with: a number, a string, bytes, or a tuple of them.
fn is_literal(e: &Expr) -> bool {
    match e {
        Expr::NumberLiteral(_) | Expr::StringLiteral(_) | Expr::BytesLiteral(_) => true,
        Expr::Tuple(t) => t
            .elts
            .iter()
            .all(|e| is_literal(e) || matches!(e, Expr::NoneLiteral(_) | Expr::BooleanLiteral(_))),
        _ => false,
    }
}

impl<'a> Visitor<'a> for Finder<'_, '_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if let Stmt::Assert(a) = stmt {
            if matches!(a.test.as_ref(), Expr::Tuple(t) if !t.elts.is_empty()) {
                self.found.push(CompileWarning {
                    categories: &["PytestAssertRewriteWarning"],
                    message: "assertion is always true, perhaps remove parentheses?".into(),
                    line: self.map.line(a.range.start()),
                });
            }
            // pytest's rewriting stores a comparison's operands in temporaries first, so the
            // compiler sees no `is` with a literal in the assert's own comparison.
            if let Expr::Compare(c) = a.test.as_ref() {
                self.visit_expr(&c.left);
                c.comparators.iter().for_each(|e| self.visit_expr(e));
                if let Some(msg) = &a.msg {
                    self.visit_expr(msg);
                }
                return;
            }
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Compare(c) = expr {
            let operands: Vec<&Expr> = std::iter::once(c.left.as_ref())
                .chain(c.comparators.iter())
                .collect();
            for (i, op) in c.ops.iter().enumerate() {
                if matches!(op, CmpOp::Is | CmpOp::IsNot)
                    && (is_literal(operands[i]) || is_literal(operands[i + 1]))
                {
                    self.found.push(CompileWarning {
                        categories: &["SyntaxWarning"],
                        message: "\"is\" with a literal. Did you mean \"==\"?".into(),
                        line: self.map.line(c.range.start()),
                    });
                }
            }
        }
        visitor::walk_expr(self, expr);
    }

    fn visit_string_literal(&mut self, s: &'a ast::StringLiteral) {
        self.escapes(s.range(), s.flags.prefix().is_raw(), false);
    }

    fn visit_bytes_literal(&mut self, b: &'a ast::BytesLiteral) {
        self.escapes(b.range(), b.flags.prefix().is_raw(), true);
    }

    fn visit_f_string(&mut self, f: &'a ast::FString) {
        let raw = f.flags.prefix().is_raw();
        for element in &f.elements {
            if let ast::InterpolatedStringElement::Literal(l) = element {
                self.escapes(l.range(), raw, false);
            }
        }
        visitor::walk_f_string(self, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(source: &str) -> Vec<(Vec<&'static str>, String, u32)> {
        let parsed = ruff_python_parser::parse_module(source).unwrap();
        let map = SourceMap::new(source, parsed.tokens());
        compile_warnings(&parsed.syntax().body, &map)
            .into_iter()
            .map(|w| (w.categories.to_vec(), w.message, w.line))
            .collect()
    }

    #[test]
    fn finds_what_compiling_warns() {
        assert_eq!(found("x = 'a\\d'\n")[0].1, "invalid escape sequence '\\d'");
        assert!(found("x = r'a\\d'\ny = 'a\\n\\x41\\N{EN DASH}\\\\'\nz = b'\\n'\n").is_empty());
        assert_eq!(found("y = b'\\N'\n").len(), 1);
        assert_eq!(found("z = f'{1}\\w'\n").len(), 1);
        assert!(found("z = rf'{1}\\w'\n").is_empty());
        assert_eq!(found("def t():\n    y = x is 1\n")[0].2, 2);
        assert!(
            found("def t():\n    assert x is 1\n").is_empty(),
            "pytest rewrites it"
        );
        assert!(found("assert x is None and y is not True\n").is_empty());
        assert_eq!(
            found("assert (x, 'why')\n")[0].0,
            ["PytestAssertRewriteWarning"]
        );
        assert!(found("assert ()\n").is_empty());
    }
}
