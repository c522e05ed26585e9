//! Collection: What pytest collects from the file and the ids it gives: parametrize, marks, skips, deselection, test classes.

declare_rules! {
    family Collection, prefix "C", title "Collection",
    summary "What pytest collects from the file and the ids it gives: parametrize, marks, skips, deselection, test classes.";
}
