from solution import render, to_cm


def test_conversion_report():
    unit = "cm"
    lines = []
    for inches in [1, 2]:
        cm = to_cm(inches)
        lines.append("{inches} in = {cm} {unit}".format(**locals()))
    assert lines == ["1 in = 2.54 cm", "2 in = 5.08 cm"]


def test_render_with_locals():
    unit = "cm"
    for inches in [1, 10]:
        cm = to_cm(inches)
        assert render("{cm} {unit}", **locals()) == f"{cm} {unit}"


def test_formula_table():
    factor = 2.54
    for formula, want in [("to_cm(1) / factor", 1.0), ("to_cm(10) / factor", 10.0)]:
        assert eval(formula) == want


def test_vars_outside_a_loop():
    unit = "cm"
    cm = to_cm(3)
    assert render("{cm}{unit}", **vars()) == "7.62cm"
