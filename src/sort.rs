//! Stable sorts that share one copy of the standard library's sort.
//!
//! `slice::sort_by` is generic over the element and the comparator: each call site instantiates a
//! whole driftsort (its merges, its small sorts, its pivot choice), about 1 KB of wasm apiece, and
//! the page's wasm carried 139 such functions (126 KB of code before `wasm-opt`). These sort a
//! permutation of indices instead, through one instantiation with a `dyn` comparator, then move the
//! elements into place; the order is exactly `sort_by`'s (both are stable). The price
//! is an indirect call per comparison and an index vector per sort: the extractor's sorts are of
//! tens to a few thousand items, microseconds either way. Short slices are sorted by insertion in
//! place (a few dozen bytes of code per call site, no allocation).

use std::cmp::Ordering;

/// Up to this many items, an insertion sort in place.
const SHORT: usize = 12;

/// `sort`, `sort_by` and `sort_by_key` through the shared sort (see the module's documentation).
pub trait SharedSort<T> {
    fn sort_shared(&mut self)
    where
        T: Ord;
    fn sort_shared_by(&mut self, cmp: impl FnMut(&T, &T) -> Ordering);
    fn sort_shared_by_key<K: Ord>(&mut self, key: impl FnMut(&T) -> K);
}

impl<T> SharedSort<T> for [T] {
    fn sort_shared(&mut self)
    where
        T: Ord,
    {
        self.sort_shared_by(T::cmp);
    }

    fn sort_shared_by(&mut self, mut cmp: impl FnMut(&T, &T) -> Ordering) {
        if self.len() < 2 {
            return;
        }
        // A short slice (most of the extractor's: a test's names, a case's fingerprint) by
        // insertion, without the index vector's allocation; stable, as only a strictly greater
        // neighbour moves.
        if self.len() <= SHORT {
            for i in 1..self.len() {
                let mut j = i;
                while j > 0 && cmp(&self[j - 1], &self[j]) == Ordering::Greater {
                    self.swap(j - 1, j);
                    j -= 1;
                }
            }
            return;
        }
        let mut order: Vec<usize> = (0..self.len()).collect();
        {
            let v = &*self;
            sort_indices(&mut order, &mut |a, b| cmp(&v[a], &v[b]));
        }
        permute(self, &mut order);
    }

    fn sort_shared_by_key<K: Ord>(&mut self, mut key: impl FnMut(&T) -> K) {
        self.sort_shared_by(|a, b| key(a).cmp(&key(b)));
    }
}

/// The one instantiation of the standard library's stable sort.
#[inline(never)]
fn sort_indices(order: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

/// Puts `v[order[i]]` at `i` for every `i`, following the permutation's cycles with swaps (`order`
/// is left as the identity).
fn permute<T>(v: &mut [T], order: &mut [usize]) {
    for start in 0..v.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start || from == at {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    // `sort_by` itself is what the shared sort is compared with.
    #[allow(clippy::unnecessary_sort_by)]
    fn the_same_order_as_the_standard_sort() {
        // Pairs sorted by their first item only: stability shows in the second.
        let mut seed = 12345u64;
        for len in [0usize, 1, 2, 3, 5, 8, 20, 21, 33, 100, 1000] {
            for _ in 0..20 {
                let v: Vec<(u8, usize)> = (0..len)
                    .map(|i| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        ((seed >> 59) as u8, i)
                    })
                    .collect();
                let mut want = v.clone();
                want.sort_by_key(|p| p.0);
                let mut got = v.clone();
                got.sort_shared_by_key(|p| p.0);
                assert_eq!(got, want);
                let mut want = v.clone();
                want.sort_by(|a, b| b.0.cmp(&a.0));
                let mut got = v.clone();
                got.sort_shared_by(|a, b| b.0.cmp(&a.0));
                assert_eq!(got, want);
                let mut want = v.clone();
                want.sort();
                let mut got = v;
                got.sort_shared();
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn moves_owned_values() {
        let mut v: Vec<String> = ["d", "b", "a", "c", "b"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.sort_shared();
        assert_eq!(v, ["a", "b", "b", "c", "d"]);
    }
}
