"""Every example model file run from Python gives the command line's results: the summary
figures to 1e-12 and the same CSV files, timings aside (ctest python_all_examples, label
long: about 17 minutes on 2 cores)."""
import json
import pathlib
import subprocess

import pytest

import jointdyn
from test_module import CLI, SOURCE, figures

EXAMPLES = sorted(str(p.relative_to(SOURCE)) for p in (SOURCE / "examples").glob("*/*.yaml"))


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_from_python_is_the_command_lines(example, tmp_path):
    model = SOURCE / example
    cli = subprocess.run([CLI, "run", str(model), "--out", str(tmp_path / "cli")],
                         capture_output=True, text=True, check=False)
    assert cli.returncode == 0, cli.stderr
    expected = figures(json.loads((tmp_path / "cli" / "summary.json").read_text()))
    result = jointdyn.run(jointdyn.load(str(model)), str(tmp_path / "py"))
    assert result["ok"], result["message"]
    got = figures(result["summary"])
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if isinstance(value, float):
            assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-300), key
        else:
            assert got[key] == value, key
    for csv in sorted((tmp_path / "cli").glob("*.csv")):
        assert without_timings(csv) == without_timings(tmp_path / "py" / csv.name), csv.name


def without_timings(csv):
    """The CSV's rows without its timing columns (`seconds`, as in study.csv)."""
    rows = [line.split(",") for line in csv.read_text().splitlines()]
    keep = [j for j, name in enumerate(rows[0]) if "seconds" not in name]
    return [[row[j] for j in keep if j < len(row)] for row in rows]
