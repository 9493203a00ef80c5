"""`engbench parse iostat|vmstat FILE`: print a capture as the tidy table (CSV on stdout)."""

import sys


def register(sub):
    p = sub.add_parser("parse", help="parse an iostat or vmstat capture into a CSV table")
    kinds = p.add_subparsers(dest="kind", required=True, metavar="KIND")
    pi = kinds.add_parser("iostat", help="iostat text (any sysstat layout) or -o JSON")
    pi.add_argument("file")
    pi.add_argument("--device", help="keep only this device (exact name)")
    pi.add_argument("--since-boot-included", action="store_true",
                    help="the capture was made WITHOUT -y: drop its first (since-boot) report")
    pi.add_argument("--tz", default="UTC", help="zone of timestamps printed without one")
    pi.set_defaults(func=_iostat)
    pv = kinds.add_parser("vmstat", help="vmstat (standard, -w, -a, -t, repeated headers)")
    pv.add_argument("file")
    pv.add_argument("--no-since-boot", action="store_true",
                    help="the capture was made WITH -y: keep its first row")
    pv.add_argument("--unit", default="K", choices=["k", "K", "m", "M"],
                    help="the -S unit of the capture (memory columns are printed in KiB)")
    pv.set_defaults(func=_vmstat)


def _emit(frame):
    frame.to_csv(sys.stdout, index=False, float_format="%.10g", date_format="%Y-%m-%dT%H:%M:%SZ")
    return 0


def _iostat(args):
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from engbench.parsers import ParseError, parse_iostat

    try:
        frame = parse_iostat(args.file, since_boot_included=args.since_boot_included,
                             device=args.device, tz=args.tz)
        if args.device is not None and frame.empty:
            there = sorted(parse_iostat(args.file, since_boot_included=args.since_boot_included, tz=args.tz)
                           ["device"].unique())
            print(f"engbench parse: {args.file}: no device {args.device!r} in the capture; it holds "
                  f"{', '.join(there) or 'no device rows'}: give one of those to --device", file=sys.stderr)
            return 2
    except (ParseError, OSError, ValueError) as exc:
        print(f"engbench parse: {exc}", file=sys.stderr)
        return 2
    return _emit(frame)


def _vmstat(args):
    # local: loaded when the command runs, so that engbench --help stays light (tests/test_cli.py)
    from engbench.parsers import ParseError, parse_vmstat

    try:
        frame = parse_vmstat(args.file, since_boot_included=not args.no_since_boot, unit=args.unit)
    except (ParseError, OSError, ValueError) as exc:
        print(f"engbench parse: {exc}", file=sys.stderr)
        return 2
    return _emit(frame)
