//! Assertions grouped by test, in source order, for the results list.

use bench_explorer::model::{Assertion, Status};

/// One test function (all its parametrized cases together) and the assertions it holds.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TestGroup {
    /// The node id without parameters: `test_sum`, `TestCache::test_evicts`.
    pub name: String,
    /// Indices into the extraction's `assertions`, in source order.
    pub rows: Vec<usize>,
    pub kept: usize,
    pub dropped: usize,
    /// A stable digest of the group's content, for keyed lists: it changes when any row changes.
    pub digest: u64,
}

/// Split a pytest node id into the test and its parameter id: `test_x[1-2]` → (`test_x`, `1-2`).
pub fn split_case(test: &str) -> (&str, Option<&str>) {
    match test.find('[') {
        Some(i) if test.ends_with(']') => (&test[..i], Some(&test[i + 1..test.len() - 1])),
        _ => (test, None),
    }
}

/// Group assertions by test, in order of each test's first assertion.
pub fn group_by_test(assertions: &[Assertion]) -> Vec<TestGroup> {
    let mut groups: Vec<TestGroup> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, a) in assertions.iter().enumerate() {
        let (name, _) = split_case(&a.test);
        let g = *index.entry(name).or_insert_with(|| {
            groups.push(TestGroup {
                name: name.to_string(),
                rows: Vec::new(),
                kept: 0,
                dropped: 0,
                digest: 0,
            });
            groups.len() - 1
        });
        let group = &mut groups[g];
        group.rows.push(i);
        match a.status {
            Status::Kept => group.kept += 1,
            Status::Dropped => group.dropped += 1,
        }
    }
    for g in &mut groups {
        let mut h = Fnv::new();
        h.write(g.name.as_bytes());
        for &i in &g.rows {
            h.write_u64(row_digest(i, &assertions[i]));
        }
        g.digest = h.finish();
    }
    groups
}

/// A digest of everything a row shows (and its position), for keyed lists.
pub fn row_digest(index: usize, a: &Assertion) -> u64 {
    let mut h = Fnv::new();
    h.write_u64(index as u64);
    h.write(a.test.as_bytes());
    h.write_u64(((a.line as u64) << 32) | a.column as u64);
    h.write(a.source.as_bytes());
    h.write(&[a.status as u8]);
    h.write(a.expr.as_deref().unwrap_or("").as_bytes());
    h.write(a.reason.as_deref().unwrap_or("").as_bytes());
    for n in a.unresolved.iter().flatten() {
        h.write(n.as_bytes());
    }
    for s in &a.shapes {
        h.write(s.id().as_bytes());
    }
    h.write_u64(a.origins.len() as u64);
    for o in &a.origins {
        h.write_u64(((o.span.start as u64) << 32) | o.span.end as u64);
        h.write_u64(((o.span.line as u64) << 32) | o.span.end_line as u64);
    }
    h.finish()
}

/// FNV-1a, 64-bit: deterministic across builds and targets (unlike `DefaultHasher`'s contract).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }
    fn write_u64(&mut self, v: u64) {
        self.write(&v.to_le_bytes());
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::{extract, Options};

    #[test]
    fn split_case_ids() {
        assert_eq!(split_case("test_sum"), ("test_sum", None));
        assert_eq!(split_case("test_sum[1-2-3]"), ("test_sum", Some("1-2-3")));
        assert_eq!(
            split_case("TestA::test_b[case1]"),
            ("TestA::test_b", Some("case1"))
        );
        assert_eq!(split_case("test_x[a[0]]"), ("test_x", Some("a[0]")));
    }

    #[test]
    fn groups_follow_source_order_and_count() {
        let src = "import pytest\n\
                   def f(x): return x\n\
                   def test_a():\n    r = f(1)\n    assert r == 1\n    assert f(2) == 2\n\
                   @pytest.mark.parametrize('x', [1, 2])\n\
                   def test_p(x):\n    assert f(x) == x\n\
                   def test_b():\n    assert undefined_name == 3\n";
        let e = extract(src, &Options::new("test_demo.py"));
        let groups = group_by_test(&e.assertions);
        let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["test_a", "test_p", "test_b"]);
        assert_eq!(groups[0].rows, vec![0, 1]);
        assert_eq!(groups[1].rows.len(), 2);
        let total: usize = groups.iter().map(|g| g.kept + g.dropped).sum();
        assert_eq!(total, e.assertions.len());
        assert_eq!(groups[2].dropped, 1);
    }

    #[test]
    fn digest_changes_with_content() {
        let a = extract(
            "def test_a():\n    assert f(1) == 1\n",
            &Options::new("t.py"),
        );
        let b = extract(
            "def test_a():\n    assert f(1) == 2\n",
            &Options::new("t.py"),
        );
        assert_ne!(
            group_by_test(&a.assertions)[0].digest,
            group_by_test(&b.assertions)[0].digest
        );
        assert_eq!(
            group_by_test(&a.assertions)[0].digest,
            group_by_test(&a.assertions)[0].digest
        );
    }
}
