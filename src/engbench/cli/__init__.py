"""The `engbench` command. Each subcommand lives in its own module of this package and exposes
`register(subparsers)`, which adds its parser and sets `func` (called with the parsed args; its
return value is the exit status)."""

import argparse
import importlib
import os
import sys

from engbench.version import __version__

# what `engbench --help` opens with: for the user, one sentence
DESCRIPTION = ("Benchmark storage engines with the OS's own captures (iostat, vmstat), turn the runs into "
               "tidy tables and build the paper from them.")

# module name (in engbench.cli) per subcommand group, in help order
SUBCOMMAND_MODULES = [
    "engines",
    "run",
    "main_job",
    "parse",
    "process",
    "check_published",
    "report",
    "verify",
    "import_runs",
    "calibrate",
    "reproduce",
    "notebooks",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="engbench", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"engbench {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(f"engbench.cli.{name}").register(sub)  # a missing one is an error
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `engbench parse ... | head`: the reader left; end quietly, as cat does
        _silence_stdout()
        return 141


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot raise again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
