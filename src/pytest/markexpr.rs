//! `-m` mark expressions (`_pytest/mark/expression.py`): `or`, `and`, `not`, parentheses and mark
//! names, true for a test when it carries a mark of that name (its own, a parametrize case's, its
//! classes' or its module's). A name with keyword arguments (`-m "device(serial='123')"`) matches on
//! the marks' arguments, which the extractor does not evaluate: such an expression is refused.

/// A parsed mark expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarkExpr {
    /// The empty expression: every test is selected.
    Any,
    Name(String),
    Not(Box<MarkExpr>),
    And(Box<MarkExpr>, Box<MarkExpr>),
    Or(Box<MarkExpr>, Box<MarkExpr>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    LParen,
    RParen,
    Or,
    And,
    Not,
    Ident(String),
}

impl MarkExpr {
    /// Parses the grammar of pytest 9; `Err` names what the extractor does not read.
    pub fn parse(text: &str) -> Result<MarkExpr, String> {
        let tokens = lex(text)?;
        if tokens.is_empty() {
            return Ok(MarkExpr::Any);
        }
        let mut parser = Parser { tokens, at: 0 };
        let expr = parser.or_expr()?;
        if parser.at != parser.tokens.len() {
            return Err(format!(
                "`-m {text}` is not a mark expression pytest accepts"
            ));
        }
        Ok(expr)
    }

    /// Whether a test with these mark names is selected.
    pub fn matches(&self, marks: &[String]) -> bool {
        match self {
            MarkExpr::Any => true,
            MarkExpr::Name(n) => marks.iter().any(|m| m == n),
            MarkExpr::Not(e) => !e.matches(marks),
            MarkExpr::And(a, b) => a.matches(marks) && b.matches(marks),
            MarkExpr::Or(a, b) => a.matches(marks) || b.matches(marks),
        }
    }

    /// The mark names the expression reads.
    pub fn names(&self) -> Vec<&str> {
        match self {
            MarkExpr::Any => Vec::new(),
            MarkExpr::Name(n) => vec![n.as_str()],
            MarkExpr::Not(e) => e.names(),
            MarkExpr::And(a, b) | MarkExpr::Or(a, b) => {
                let mut names = a.names();
                names.extend(b.names());
                names
            }
        }
    }
}

fn lex(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let ident_char = |c: char| c.is_alphanumeric() || "_:+-.[]\\/".contains(c);
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '(' {
            tokens.push(Token::LParen);
            i += 1;
        } else if c == ')' {
            tokens.push(Token::RParen);
            i += 1;
        } else if ident_char(c) {
            let start = i;
            while i < chars.len() && ident_char(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            tokens.push(match word.as_str() {
                "or" => Token::Or,
                "and" => Token::And,
                "not" => Token::Not,
                _ => Token::Ident(word),
            });
        } else {
            return Err(format!(
                "`-m {text}` uses `{c}`, which the extractor does not read (marks matched on their arguments)"
            ));
        }
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn accept(&mut self, token: &Token) -> bool {
        if self.tokens.get(self.at) == Some(token) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn or_expr(&mut self) -> Result<MarkExpr, String> {
        let mut left = self.and_expr()?;
        while self.accept(&Token::Or) {
            let right = self.and_expr()?;
            left = MarkExpr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and_expr(&mut self) -> Result<MarkExpr, String> {
        let mut left = self.not_expr()?;
        while self.accept(&Token::And) {
            let right = self.not_expr()?;
            left = MarkExpr::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn not_expr(&mut self) -> Result<MarkExpr, String> {
        if self.accept(&Token::Not) {
            return Ok(MarkExpr::Not(Box::new(self.not_expr()?)));
        }
        if self.accept(&Token::LParen) {
            let inner = self.or_expr()?;
            if !self.accept(&Token::RParen) {
                return Err("a `-m` expression misses a `)`".into());
            }
            return Ok(inner);
        }
        match self.tokens.get(self.at) {
            Some(Token::Ident(name)) => {
                let name = name.clone();
                self.at += 1;
                if self.tokens.get(self.at) == Some(&Token::LParen) {
                    return Err(format!(
                        "`-m` matches `{name}(…)` on the mark's arguments, which the extractor does not evaluate"
                    ));
                }
                Ok(MarkExpr::Name(name))
            }
            _ => Err("a `-m` expression is incomplete".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn selects_as_pytest_does() {
        let e = MarkExpr::parse("not stress").unwrap();
        assert!(e.matches(&marks(&[])));
        assert!(e.matches(&marks(&["parametrize"])));
        assert!(!e.matches(&marks(&["stress"])));
        let e = MarkExpr::parse("slow and not (net or db)").unwrap();
        assert!(e.matches(&marks(&["slow"])));
        assert!(!e.matches(&marks(&["slow", "db"])));
        assert!(!e.matches(&marks(&["net"])));
        // `and` binds tighter than `or`.
        let e = MarkExpr::parse("a or b and c").unwrap();
        assert!(e.matches(&marks(&["a"])));
        assert!(!e.matches(&marks(&["b"])));
        assert_eq!(MarkExpr::parse("  ").unwrap(), MarkExpr::Any);
        assert_eq!(e.names(), ["a", "b", "c"]);
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert!(MarkExpr::parse("device(serial='1')").is_err());
        assert!(MarkExpr::parse("a and").is_err());
        assert!(MarkExpr::parse("(a").is_err());
        assert!(MarkExpr::parse("a b").is_err());
    }
}
