"""The `engbench` command itself: what each subcommand imports, a closed pipe, a missing
subcommand module, the main job's closing table, and parameters checked against a notebook."""

import subprocess
import sys

import pandas as pd
import pytest

from engbench import cli, notebooks, paths
from engbench.cli import main_job

CAPTURE = paths.REPO / "tests" / "data" / "captures" / "burst_iostat_xkt.txt"
HEAVY = ("papermill", "altair", "nbformat", "engbench.report", "engbench.notebooks", "vl_convert")


def imported_after(code: str) -> set[str]:
    """Modules loaded by a fresh interpreter after running `code` (stdout silenced)."""
    probe = ("import contextlib, io, sys\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    {code}\n"
             "print('\\n'.join(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


@pytest.mark.smoke
def test_help_imports_nothing_heavy():
    mods = imported_after("import engbench.cli; engbench.cli.build_parser().format_help()")
    assert not {m for m in mods if m.split(".")[0] in HEAVY or m in HEAVY}, "engbench --help stays fast"
    assert "pandas" not in mods


def test_parse_imports_no_notebook_or_report_machinery():
    code = f"import engbench.cli; engbench.cli.main(['parse', 'iostat', {str(CAPTURE)!r}, '--device', 'vda'])"
    mods = imported_after(code)
    assert "pandas" in mods  # it does parse
    assert not {m for m in mods if m in HEAVY or m.split(".")[0] in HEAVY}


def test_a_closed_pipe_ends_parse_quietly():
    cmd = (f"{sys.executable} -m engbench.cli parse iostat {CAPTURE} | head -n 1; "
           "echo \"status=${PIPESTATUS[0]}\" >&2")
    out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=60)
    assert out.stdout.startswith("time,") or "," in out.stdout.splitlines()[0]
    assert "Traceback" not in out.stderr and "BrokenPipe" not in out.stderr, out.stderr
    assert "status=141" in out.stderr or "status=0" in out.stderr


def test_a_missing_subcommand_module_is_an_error_not_a_hidden_command(monkeypatch):
    monkeypatch.setattr(cli, "SUBCOMMAND_MODULES", cli.SUBCOMMAND_MODULES + ["no_such_command"])
    with pytest.raises(ModuleNotFoundError):
        cli.build_parser()


@pytest.mark.smoke
def test_every_subcommand_is_registered():
    helptext = cli.build_parser().format_help()
    for name in ("engines", "run", "main", "parse", "process", "check-published", "report", "verify"):
        assert name in helptext


def test_main_job_summary_by_hand():
    runs = pd.DataFrame({"run_id": ["a", "b", "old"], "engine": ["rocksdb", "lmdb", "sqlite"],
                         "q": [78498.4, 64703.0, 1.0], "wkb_per_op": [0.456, float("nan"), 9.0]})
    latency = pd.DataFrame({"run_id": ["a", "a", "b"], "op": ["insert", "query", "insert"],
                            "p99_us": [12345.0, 99.0, 800.0]})
    lines = main_job.summary_lines(runs, latency, {"a", "b"})
    assert lines[0].split() == ["engine", "docs/s", "wKB/i", "p99", "ms", "run"]
    assert lines[1].split() == ["lmdb", "64,703", "-", "0.8", "b"]
    assert lines[2].split() == ["rocksdb", "78,498", "0.46", "12.3", "a"]
    assert len(lines) == 3  # the old run is not summarized


def test_a_failed_run_without_error_text_is_still_reported():
    assert main_job._first_line({"error": ""}).startswith("no error text recorded")
    assert main_job._first_line({"error": "driver died\nmore"}) == "driver died"


@pytest.mark.smoke
def test_notebook_parameters_are_checked_before_the_notebook_starts():
    nb = paths.REPO / "notebooks" / "iibench.ipynb"
    assert notebooks.notebook_parameters(nb, {"workload": "iibench", "seed": 2}) == {"seed": 2}
    with pytest.raises(notebooks.NotebookParameterError, match="not 'linkbench'"):
        notebooks.notebook_parameters(nb, {"workload": "linkbench"})
    with pytest.raises(notebooks.NotebookParameterError, match="no parameter.*max_rowz"):
        notebooks.notebook_parameters(nb, {"max_rowz": 5})


# ---- issue 46 item 6: the command as a user meets it ----

def test_version_prints_the_package_version(capsys):
    from engbench.version import __version__
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"engbench {__version__}"


def test_help_opens_with_one_whole_sentence_for_the_user():
    helptext = cli.build_parser().format_help()
    first = " ".join(helptext.split("\n\n")[1].split())
    assert first.endswith(".") and first.count(". ") == 0, first
    assert "subcommand" not in first.lower() and "module" not in first.lower(), first


def test_one_meaning_per_flag_name_across_subcommands():
    """A long option that two subcommands both take means the same kind of thing in both (what it
    takes: a value or not), and `--params` is an experiment YAML wherever it is accepted."""
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    seen = {}
    for name, p in sub.choices.items():
        for a in p._actions:
            if a.help == "==SUPPRESS==":
                continue
            for opt in a.option_strings:
                takes = a.nargs != 0
                seen.setdefault(opt, {})[name] = takes
    mixed = {opt: by for opt, by in seen.items() if len(set(by.values())) > 1}
    assert not mixed, mixed
    params = {name for name, p in sub.choices.items() for a in p._actions if "--params" in a.option_strings
              and a.help != "==SUPPRESS=="}
    assert params <= {"run", "main"}, params


def test_engines_params_is_refused_naming_its_new_name(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["engines", "--params", "iibench"])
    assert exc.value.code == 2 and "--workload-params" in capsys.readouterr().err


def test_report_png_is_one_boolean_option():
    parser = cli.build_parser()
    assert parser.parse_args(["report"]).png is False
    assert parser.parse_args(["report", "--png"]).png is True
    assert parser.parse_args(["report", "--png", "--no-png"]).png is False
    report = next(a for a in parser._actions if a.dest == "command").choices["report"]
    assert [a.option_strings for a in report._actions if "png" in a.dest] == [["--png", "--no-png"]]


def test_check_published_csv_means_one_thing():
    parser = cli.build_parser()
    args = parser.parse_args(["check-published", "a.csv", "--csv"])
    assert args.tables == ["a.csv"] and args.as_csv is True
    cp = next(a for a in parser._actions if a.dest == "command").choices["check-published"]
    assert "CSV" not in [a.metavar for a in cp._actions if not a.option_strings]
