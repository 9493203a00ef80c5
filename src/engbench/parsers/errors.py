"""The one error the capture parsers raise."""


class ParseError(ValueError):
    """A capture that cannot be parsed faithfully: empty, truncated, garbled, an unknown layout, or
    the wrong tool's output. The message starts with ``file:line:`` when a line is to blame."""

    def __init__(self, source, message, line=None):
        self.source = str(source)
        self.line = line
        where = f"{self.source}:{line}" if line is not None else self.source
        super().__init__(f"{where}: {message}")
