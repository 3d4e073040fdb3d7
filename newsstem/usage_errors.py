"""Usage errors of newsstem's commands: one line, and nothing before it.

Scrapy answers a bad argument (argparse's, or a ``UsageError`` a command raises) with
the command's usage block, then ``scrapy: error: ...``. newsstem's messages say what to
give already, so the block only pushes them down: :func:`one_line_errors` makes the
parser print the message alone, with the command's help to see. Exit status 2 as before.

    >>> import argparse, contextlib, io
    >>> parser = argparse.ArgumentParser(prog="scrapy", usage="scrapy learn [SITE] ...")
    >>> one_line_errors(parser)
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     try:
    ...         parser.error("learn: give the archive to learn from: --input ...")
    ...     except SystemExit as exit:
    ...         print(exit.code)
    2
    >>> print(err.getvalue(), end="")
    scrapy: error: learn: give the archive to learn from: --input ... (see scrapy learn -h)
"""

from __future__ import annotations

import argparse
import difflib
import os
from collections.abc import Mapping, Sequence
from typing import NoReturn

__all__ = ["archive_hint", "close_name", "one_line_errors"]

_ARCHIVE_SUFFIXES = (".warc", ".warc.gz", ".arc", ".arc.gz")


def close_name(name: str, known: Sequence[str]) -> str | None:
    """The one of ``known`` that ``name`` is a typo of, if any (``depht``: ``depth``;
    difflib's ratio 0.75: ``titel`` is ``title``'s, a field a pipeline of yours adds,
    ``word_count``, is none's).

    >>> close_name("depht", ["depth", "rules"]), close_name("word_count", ["url", "title"])
    ('depth', None)
    """
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
    return close[0] if close else None


def archive_hint(argument: str) -> str | None:
    """What to say of a lone argument of ``learn``/``extract`` that names an archive
    (None if it does not): ``--input crawls/*.warc.gz`` gives the shell's second and
    later files without an ``--input`` of their own.

    >>> archive_hint("crawls/b.warc.gz")[:60]
    'each archive takes its own --input (--input crawls/b.warc.gz'
    >>> archive_hint("example.com") is None
    True
    """
    if not (argument.lower().endswith(_ARCHIVE_SUFFIXES) or os.path.isfile(argument)):
        return None
    return (f"each archive takes its own --input (--input {argument}; a shell pattern after "
            "one --input gives it only the first file)")


def one_line_errors(
    parser: argparse.ArgumentParser, option_errors: Mapping[str, str] | None = None
) -> None:
    """Make ``parser.error`` print one line, ``scrapy: error: MESSAGE (see scrapy CMD -h)``.
    ``option_errors``: for an option, what to say instead of argparse's errors about it
    (its "expected one argument" also for a value starting with '-', ``--age -3d``)."""
    words = (parser.usage or "").split()  # Scrapy's: "scrapy learn [SITE] --input ..."
    program = words[0] if words else parser.prog  # (not python -m's "__main__.py")
    command = " ".join(words[:2]) if len(words) >= 2 else program

    def error(message: str) -> NoReturn:
        for option, instead in (option_errors or {}).items():
            if message.startswith(f"argument {option}:"):
                message = instead
        parser.exit(2, f"{program}: error: {message} (see {command} -h)\n")

    parser.error = error  # type: ignore[method-assign]
