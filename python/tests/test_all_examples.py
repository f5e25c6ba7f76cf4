"""Every example model file run from Python gives the command line's results: the summary
figures to 1e-12 and the same CSV files, timings aside (ctest python_all_examples, label
long: about 17 minutes on 2 cores)."""
import pytest

from test_module import SOURCE, assert_python_gives_the_command_lines_results

EXAMPLES = sorted(str(p.relative_to(SOURCE)) for p in (SOURCE / "examples").glob("*/*.yaml"))


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_from_python_is_the_command_lines(example, tmp_path):
    assert_python_gives_the_command_lines_results(SOURCE / example, tmp_path)
