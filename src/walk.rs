//! Walks of the syntax tree that answer one question: every expression or statement under a root,
//! whether any satisfies a predicate, the first that does. Each visits in the order of ruff's
//! [`Visitor`] (source order, a node before what it holds), stops at the first match where it looks
//! for one, and goes as deep as its [`Scope`] says.
//!
//! Written here rather than with `ruff_python_ast::helpers::any_over_expr` / `any_over_body`:
//! those skip a lambda's parameter defaults (which the `Visitor` visits), visit in another order
//! (a comprehension's element before its generators), cannot stop at a nested `def`, `class` or
//! `lambda`, and answer "whether", not "which": the first match is not handed back.

use ruff_python_ast::{Expr, Stmt};
use visitor::Visitor;

/// How deep a walk goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    /// Everything: the bodies of nested functions, classes and lambdas included.
    All,
    /// The walked code's own: a nested `def`, `class` or `lambda` is met (the callback sees the
    /// statement or the lambda) but nothing of it is entered, not its decorators, defaults or body.
    /// Comprehensions are entered.
    Own,
}

/// Where a walk starts: a body (`&f.body[..]`), one statement or one expression (the root is
/// visited too).
pub trait Root<'a> {
    fn accept<V: Visitor<'a>>(self, visitor: &mut V);
}

impl<'a> Root<'a> for &'a [Stmt] {
    fn accept<V: Visitor<'a>>(self, visitor: &mut V) {
        visitor::walk_body(visitor, self);
    }
}

impl<'a> Root<'a> for &'a Stmt {
    fn accept<V: Visitor<'a>>(self, visitor: &mut V) {
        visitor.visit_stmt(self);
    }
}

impl<'a> Root<'a> for &'a Expr {
    fn accept<V: Visitor<'a>>(self, visitor: &mut V) {
        visitor.visit_expr(self);
    }
}

/// Calls `f` on every expression under `root`.
pub fn for_each_expr<'a>(root: impl Root<'a>, scope: Scope, mut f: impl FnMut(&'a Expr)) {
    find_expr(root, scope, |e| {
        f(e);
        None::<()>
    });
}

/// Whether any expression under `root` satisfies `pred` (the walk stops at the first that does).
pub fn any_expr<'a>(
    root: impl Root<'a>,
    scope: Scope,
    mut pred: impl FnMut(&'a Expr) -> bool,
) -> bool {
    find_expr(root, scope, |e| pred(e).then_some(())).is_some()
}

/// The first answer `f` gives on the expressions under `root`.
pub fn find_expr<'a, T>(
    root: impl Root<'a>,
    scope: Scope,
    mut f: impl FnMut(&'a Expr) -> Option<T>,
) -> Option<T> {
    let mut found = None;
    let mut on_expr = |e: &'a Expr| {
        found = f(e);
        found.is_some()
    };
    let mut walk = Walk {
        scope,
        on_stmt: &mut |_: &'a Stmt| false,
        on_expr: Some(&mut on_expr),
        done: false,
    };
    root.accept(&mut walk);
    found
}

/// Calls `f` on every statement under `root` (its expressions are not walked).
pub fn for_each_stmt<'a>(root: impl Root<'a>, scope: Scope, mut f: impl FnMut(&'a Stmt)) {
    find_stmt(root, scope, |s| {
        f(s);
        None::<()>
    });
}

/// Whether any statement under `root` satisfies `pred` (the walk stops at the first that does).
pub fn any_stmt<'a>(
    root: impl Root<'a>,
    scope: Scope,
    mut pred: impl FnMut(&'a Stmt) -> bool,
) -> bool {
    find_stmt(root, scope, |s| pred(s).then_some(())).is_some()
}

/// The first answer `f` gives on the statements under `root`.
pub fn find_stmt<'a, T>(
    root: impl Root<'a>,
    scope: Scope,
    mut f: impl FnMut(&'a Stmt) -> Option<T>,
) -> Option<T> {
    let mut found = None;
    let mut on_stmt = |s: &'a Stmt| {
        found = f(s);
        found.is_some()
    };
    let mut walk = Walk {
        scope,
        on_stmt: &mut on_stmt,
        on_expr: None,
        done: false,
    };
    root.accept(&mut walk);
    found
}

/// The one visitor behind the walks: `on_stmt` sees every statement, `on_expr` (when there is
/// one) every expression; the first `true` either gives ends the walk. The callbacks are `dyn`:
/// one visitor for every walk (a walker generic over its closure was a whole copy of ruff's walk
/// per call site, 58 KB of the page's wasm), for a dynamic call per node.
struct Walk<'w, 'a> {
    scope: Scope,
    on_stmt: &'w mut dyn FnMut(&'a Stmt) -> bool,
    /// `None`: a walk of statements only (no statement is inside an expression).
    on_expr: Option<&'w mut dyn FnMut(&'a Expr) -> bool>,
    done: bool,
}

impl<'a> Visitor<'a> for Walk<'_, 'a> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if self.done {
            return;
        }
        self.done = (self.on_stmt)(stmt);
        let nested = matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_));
        if self.done || (nested && self.scope == Scope::Own) {
            return;
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if self.done {
            return;
        }
        let Some(on_expr) = &mut self.on_expr else {
            return;
        };
        self.done = on_expr(expr);
        let nested = matches!(expr, Expr::Lambda(_));
        if self.done || (nested && self.scope == Scope::Own) {
            return;
        }
        visitor::walk_expr(self, expr);
    }
}

/// ruff's [`Visitor`](ruff_python_ast::visitor::Visitor) with one instance of ruff's walk for every
/// visitor of the library: a visitor implements [`visitor::Visitor`] (the same methods, the same
/// defaults), and ruff's walk functions run on `dyn visitor::Visitor`, calling the visitor's methods
/// through its vtable. Implemented directly, ruff's trait instantiates its whole walk (statements,
/// expressions, patterns, parameters, …) for each visitor type, about 3 KB of the page's wasm each.
/// The `walk_*` functions here take `&mut dyn Visitor`: `visitor::walk_expr(self, expr)` in a
/// visitor's method reads as it did with ruff's.
pub mod visitor {
    use ruff_python_ast::visitor as ruff;
    use ruff_python_ast::{
        Alias, Arguments, BoolOp, BytesLiteral, CmpOp, Comprehension, Decorator, ElifElseClause,
        ExceptHandler, Expr, ExprContext, FString, InterpolatedStringElement, Keyword, MatchCase,
        Operator, Parameter, Parameters, Pattern, PatternArguments, PatternKeyword, Stmt,
        StringLiteral, TString, TypeParam, TypeParams, UnaryOp, WithItem,
    };

    /// `self` as the trait object the shared walk takes (implemented for every sized visitor).
    pub trait AsDyn<'a> {
        fn as_dyn(&mut self) -> &mut dyn Visitor<'a>;
    }

    impl<'a, T: Visitor<'a>> AsDyn<'a> for T {
        fn as_dyn(&mut self) -> &mut dyn Visitor<'a> {
            self
        }
    }

    /// ruff's `Visitor`, method for method; the defaults walk as ruff's do.
    pub trait Visitor<'a>: AsDyn<'a> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            ruff::walk_stmt(self.as_dyn(), stmt);
        }
        fn visit_annotation(&mut self, expr: &'a Expr) {
            ruff::walk_annotation(self.as_dyn(), expr);
        }
        fn visit_decorator(&mut self, decorator: &'a Decorator) {
            ruff::walk_decorator(self.as_dyn(), decorator);
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            ruff::walk_expr(self.as_dyn(), expr);
        }
        fn visit_expr_context(&mut self, expr_context: &'a ExprContext) {
            ruff::walk_expr_context(self.as_dyn(), expr_context);
        }
        fn visit_bool_op(&mut self, _bool_op: &'a BoolOp) {}
        fn visit_operator(&mut self, _operator: &'a Operator) {}
        fn visit_unary_op(&mut self, _unary_op: &'a UnaryOp) {}
        fn visit_cmp_op(&mut self, _cmp_op: &'a CmpOp) {}
        fn visit_comprehension(&mut self, comprehension: &'a Comprehension) {
            ruff::walk_comprehension(self.as_dyn(), comprehension);
        }
        fn visit_except_handler(&mut self, except_handler: &'a ExceptHandler) {
            ruff::walk_except_handler(self.as_dyn(), except_handler);
        }
        fn visit_arguments(&mut self, arguments: &'a Arguments) {
            ruff::walk_arguments(self.as_dyn(), arguments);
        }
        fn visit_parameters(&mut self, parameters: &'a Parameters) {
            ruff::walk_parameters(self.as_dyn(), parameters);
        }
        fn visit_parameter(&mut self, parameter: &'a Parameter) {
            ruff::walk_parameter(self.as_dyn(), parameter);
        }
        fn visit_keyword(&mut self, keyword: &'a Keyword) {
            ruff::walk_keyword(self.as_dyn(), keyword);
        }
        fn visit_alias(&mut self, _alias: &'a Alias) {}
        fn visit_with_item(&mut self, with_item: &'a WithItem) {
            ruff::walk_with_item(self.as_dyn(), with_item);
        }
        fn visit_type_params(&mut self, type_params: &'a TypeParams) {
            ruff::walk_type_params(self.as_dyn(), type_params);
        }
        fn visit_type_param(&mut self, type_param: &'a TypeParam) {
            ruff::walk_type_param(self.as_dyn(), type_param);
        }
        fn visit_match_case(&mut self, match_case: &'a MatchCase) {
            ruff::walk_match_case(self.as_dyn(), match_case);
        }
        fn visit_pattern(&mut self, pattern: &'a Pattern) {
            ruff::walk_pattern(self.as_dyn(), pattern);
        }
        fn visit_pattern_arguments(&mut self, pattern_arguments: &'a PatternArguments) {
            ruff::walk_pattern_arguments(self.as_dyn(), pattern_arguments);
        }
        fn visit_pattern_keyword(&mut self, pattern_keyword: &'a PatternKeyword) {
            ruff::walk_pattern_keyword(self.as_dyn(), pattern_keyword);
        }
        fn visit_body(&mut self, body: &'a [Stmt]) {
            ruff::walk_body(self.as_dyn(), body);
        }
        fn visit_elif_else_clause(&mut self, elif_else_clause: &'a ElifElseClause) {
            ruff::walk_elif_else_clause(self.as_dyn(), elif_else_clause);
        }
        fn visit_f_string(&mut self, f_string: &'a FString) {
            ruff::walk_f_string(self.as_dyn(), f_string);
        }
        fn visit_interpolated_string_element(&mut self, element: &'a InterpolatedStringElement) {
            ruff::walk_interpolated_string_element(self.as_dyn(), element);
        }
        fn visit_t_string(&mut self, t_string: &'a TString) {
            ruff::walk_t_string(self.as_dyn(), t_string);
        }
        fn visit_string_literal(&mut self, string_literal: &'a StringLiteral) {
            ruff::walk_string_literal(self.as_dyn(), string_literal);
        }
        fn visit_bytes_literal(&mut self, bytes_literal: &'a BytesLiteral) {
            ruff::walk_bytes_literal(self.as_dyn(), bytes_literal);
        }
    }

    impl<'a> ruff::Visitor<'a> for dyn Visitor<'a> + '_ {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            Visitor::visit_stmt(self, stmt);
        }
        fn visit_annotation(&mut self, expr: &'a Expr) {
            Visitor::visit_annotation(self, expr);
        }
        fn visit_decorator(&mut self, decorator: &'a Decorator) {
            Visitor::visit_decorator(self, decorator);
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            Visitor::visit_expr(self, expr);
        }
        fn visit_expr_context(&mut self, expr_context: &'a ExprContext) {
            Visitor::visit_expr_context(self, expr_context);
        }
        fn visit_bool_op(&mut self, bool_op: &'a BoolOp) {
            Visitor::visit_bool_op(self, bool_op);
        }
        fn visit_operator(&mut self, operator: &'a Operator) {
            Visitor::visit_operator(self, operator);
        }
        fn visit_unary_op(&mut self, unary_op: &'a UnaryOp) {
            Visitor::visit_unary_op(self, unary_op);
        }
        fn visit_cmp_op(&mut self, cmp_op: &'a CmpOp) {
            Visitor::visit_cmp_op(self, cmp_op);
        }
        fn visit_comprehension(&mut self, comprehension: &'a Comprehension) {
            Visitor::visit_comprehension(self, comprehension);
        }
        fn visit_except_handler(&mut self, except_handler: &'a ExceptHandler) {
            Visitor::visit_except_handler(self, except_handler);
        }
        fn visit_arguments(&mut self, arguments: &'a Arguments) {
            Visitor::visit_arguments(self, arguments);
        }
        fn visit_parameters(&mut self, parameters: &'a Parameters) {
            Visitor::visit_parameters(self, parameters);
        }
        fn visit_parameter(&mut self, parameter: &'a Parameter) {
            Visitor::visit_parameter(self, parameter);
        }
        fn visit_keyword(&mut self, keyword: &'a Keyword) {
            Visitor::visit_keyword(self, keyword);
        }
        fn visit_alias(&mut self, alias: &'a Alias) {
            Visitor::visit_alias(self, alias);
        }
        fn visit_with_item(&mut self, with_item: &'a WithItem) {
            Visitor::visit_with_item(self, with_item);
        }
        fn visit_type_params(&mut self, type_params: &'a TypeParams) {
            Visitor::visit_type_params(self, type_params);
        }
        fn visit_type_param(&mut self, type_param: &'a TypeParam) {
            Visitor::visit_type_param(self, type_param);
        }
        fn visit_match_case(&mut self, match_case: &'a MatchCase) {
            Visitor::visit_match_case(self, match_case);
        }
        fn visit_pattern(&mut self, pattern: &'a Pattern) {
            Visitor::visit_pattern(self, pattern);
        }
        fn visit_pattern_arguments(&mut self, pattern_arguments: &'a PatternArguments) {
            Visitor::visit_pattern_arguments(self, pattern_arguments);
        }
        fn visit_pattern_keyword(&mut self, pattern_keyword: &'a PatternKeyword) {
            Visitor::visit_pattern_keyword(self, pattern_keyword);
        }
        fn visit_body(&mut self, body: &'a [Stmt]) {
            Visitor::visit_body(self, body);
        }
        fn visit_elif_else_clause(&mut self, elif_else_clause: &'a ElifElseClause) {
            Visitor::visit_elif_else_clause(self, elif_else_clause);
        }
        fn visit_f_string(&mut self, f_string: &'a FString) {
            Visitor::visit_f_string(self, f_string);
        }
        fn visit_interpolated_string_element(&mut self, element: &'a InterpolatedStringElement) {
            Visitor::visit_interpolated_string_element(self, element);
        }
        fn visit_t_string(&mut self, t_string: &'a TString) {
            Visitor::visit_t_string(self, t_string);
        }
        fn visit_string_literal(&mut self, string_literal: &'a StringLiteral) {
            Visitor::visit_string_literal(self, string_literal);
        }
        fn visit_bytes_literal(&mut self, bytes_literal: &'a BytesLiteral) {
            Visitor::visit_bytes_literal(self, bytes_literal);
        }
    }

    /// ruff's `walk_stmt`, on the shared instance.
    pub fn walk_stmt<'a>(visitor: &mut dyn Visitor<'a>, stmt: &'a Stmt) {
        ruff::walk_stmt(visitor, stmt);
    }

    /// ruff's `walk_expr`, on the shared instance.
    pub fn walk_expr<'a>(visitor: &mut dyn Visitor<'a>, expr: &'a Expr) {
        ruff::walk_expr(visitor, expr);
    }

    /// ruff's `walk_body`, on the shared instance.
    pub fn walk_body<'a>(visitor: &mut dyn Visitor<'a>, body: &'a [Stmt]) {
        ruff::walk_body(visitor, body);
    }

    /// ruff's `walk_f_string`, on the shared instance.
    pub fn walk_f_string<'a>(visitor: &mut dyn Visitor<'a>, f_string: &'a FString) {
        ruff::walk_f_string(visitor, f_string);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ruff_python_ast::{self as ast, ModModule};

    fn parse(source: &str) -> ModModule {
        ruff_python_parser::parse_module(source)
            .unwrap()
            .into_syntax()
    }

    fn names<'a>(root: impl Root<'a>, scope: Scope) -> Vec<&'a str> {
        let mut out = Vec::new();
        for_each_expr(root, scope, |e| {
            if let Expr::Name(n) = e {
                out.push(n.id.as_str());
            }
        });
        out
    }

    #[test]
    fn every_expression_in_the_visitors_order() {
        let m = parse("@d\ndef f(a=x):\n    return [e for g in h if i]\ny = lambda k=l: m\n");
        assert_eq!(
            names(&m.body[..], Scope::All),
            ["d", "x", "h", "g", "i", "e", "l", "m", "y"]
        );
    }

    #[test]
    fn own_scope_meets_nested_definitions_without_entering_them() {
        let m = parse(
            "a\n@d\ndef f(b=c):\n    e\nclass C(D):\n    g\nh = lambda i=j: k\n[l for n in o]\n",
        );
        assert_eq!(names(&m.body[..], Scope::Own), ["a", "h", "o", "n", "l"]);
        let mut defs = Vec::new();
        for_each_stmt(&m.body[..], Scope::Own, |s| match s {
            Stmt::FunctionDef(f) => defs.push(f.name.as_str()),
            Stmt::ClassDef(c) => defs.push(c.name.as_str()),
            _ => {}
        });
        assert_eq!(defs, ["f", "C"]);
    }

    #[test]
    fn the_first_match_ends_the_walk() {
        let m = parse("if a:\n    assert b\n    assert c\nassert d\n");
        let mut seen = 0;
        let first = find_stmt(&m.body[..], Scope::All, |s| {
            seen += 1;
            match s {
                Stmt::Assert(a) => Some(a),
                _ => None,
            }
        });
        assert!(
            matches!(first.map(|a| a.test.as_ref()), Some(Expr::Name(n)) if n.id.as_str() == "b")
        );
        assert_eq!(seen, 2);
        assert!(any_expr(
            &m.body[..],
            Scope::All,
            |e| matches!(e, Expr::Name(n) if n.id.as_str() == "d")
        ));
        assert!(!any_stmt(&m.body[..], Scope::All, |s| matches!(
            s,
            Stmt::Return(ast::StmtReturn { .. })
        )));
    }
}
