//! Expected exceptions and warnings: `pytest.raises`, `pytest.warns`, `assertRaises` blocks and their context objects.

declare_rules! {
    family Raises, prefix "R", title "Expected exceptions and warnings",
    summary "`pytest.raises`, `pytest.warns`, `assertRaises` blocks and their context objects.";
}
