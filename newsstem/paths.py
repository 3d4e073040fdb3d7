"""Output paths a user gives (``-O``/``-o``/``FEEDS`` files, ``NEWSSTEM_STATS_FILE``),
checked before a crawl starts.

Scrapy opens a feed file with the first item and newsstem writes the stats file when
the crawl ends: a path that cannot be written (a directory that is a file, a read-only
place) was found only then, after the whole crawl, with a traceback per article or an
ERROR line at the very end. The commands check them first, and a bad path is one
usage error line. So is a feed's field list (``FEED_EXPORT_FIELDS``, a feed's ``fields``)
naming a misspelt article field, which Scrapy exports as an empty column or key, and an
``-o`` (append) to a JSON, XML or CSV file that holds a whole document already.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import tempfile
from pathlib import Path
from urllib.parse import urlparse

from scrapy.exceptions import UsageError
from scrapy.settings import BaseSettings
from w3lib.url import file_uri_to_path

from newsstem import defaults
from newsstem.usage_errors import close_name

__all__ = [
    "check_feed_appends",
    "check_feed_fields",
    "check_feed_options",
    "check_output_paths",
    "check_outputs",
    "local_feed_path",
    "unwritable",
    "unwritable_directory",
]

# Scrapy fills these in a feed URI (%(time)s, %(name)s, %(batch_id)d, spider attributes):
# the part of a path after one is not known before the crawl.
URI_PARAMETER = "%("


def unwritable(path: str | Path) -> str | None:
    """Why the file ``path`` cannot be written (appended to, its directories made), or
    None if it can. Its directories are made; the file is left as it was (an existing file
    is opened for appending, not truncated; a new one is removed again).

    >>> unwritable("/dev/null/articles.jsonl")
    '/dev/null is not a directory'
    """
    target = Path(path)
    try:
        blocked = _file_in_the_way(target)
        if blocked is not None:
            return f"{blocked} is not a directory"
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir():
            return f"{target} is a directory"
        existed = target.exists()
        with target.open("ab"):
            pass
        if not existed:
            target.unlink()  # the writer makes it when it has something to write
    except OSError as error:
        return error.strerror or str(error)
    return None


def unwritable_directory(path: str | Path) -> str | None:
    """Why no file can be written in the directory ``path`` (made if missing), or None.

    >>> unwritable_directory("/dev/null/feeds")
    '/dev/null is not a directory'
    """
    directory = Path(path)
    try:
        blocked = _file_in_the_way(directory / "x")
        if blocked is not None:
            return f"{blocked} is not a directory"
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):  # os.access says yes to root on /proc
            pass
    except OSError as error:
        return error.strerror or str(error)
    return None


def _file_in_the_way(target: Path) -> Path | None:
    """The first of ``target``'s directories that exists but is not a directory."""
    for parent in reversed((target.parent, *target.parent.parents)):
        if parent.exists() and not parent.is_dir():
            return parent
    return None


def local_feed_path(uri: str | Path) -> str | None:
    """The file path of a feed URI stored by Scrapy's file storage, None for other storages.

    >>> local_feed_path("out/articles.jsonl"), local_feed_path("file:///srv/a.jsonl")
    ('out/articles.jsonl', '/srv/a.jsonl')
    >>> local_feed_path("stdout:"), local_feed_path("s3://bucket/a.jsonl")
    (None, None)
    """
    uri = str(uri)
    scheme = urlparse(uri).scheme
    if scheme == "file":
        return file_uri_to_path(uri)
    if scheme == "" or (len(scheme) == 1 and os.name == "nt"):  # a path (C:\ on Windows)
        return uri
    return None


def check_feed_options(opts: argparse.Namespace, command: str) -> None:
    """UsageError for a ``-o``/``-O`` value (``opts.output``, ``opts.overwrite_output``)
    that is a directory, before Scrapy reads it:
    Scrapy takes the format from the file's extension and answered ``Unrecognized output
    format ''``, not naming the directory. (``DIR:jsonl``, a format given, is left to
    :func:`check_output_paths`, which says it is a directory.)"""
    for uri in [*(opts.output or []), *(opts.overwrite_output or [])]:
        path = local_feed_path(uri)
        if path is None or URI_PARAMETER in path:
            continue
        if Path(path).is_dir() or path.endswith(("/", os.sep)):
            raise UsageError(
                f"{command}: cannot write the articles to {path}: it is a directory; "
                f"give a file, as -O {os.path.join(path, 'articles.jsonl')}",
                print_help=False,
            )


def check_output_paths(settings: BaseSettings, command: str) -> None:
    """UsageError for a local feed file (``FEEDS``: ``-o``/``-O``) or a
    ``NEWSSTEM_STATS_FILE`` that cannot be written. A feed path with URI parameters
    (``articles-%(time)s.jsonl``) is checked up to its first parameter: its directory."""
    for uri in settings.getdict("FEEDS"):
        path = local_feed_path(uri)
        if path is None:
            continue
        if URI_PARAMETER in path:
            known = path.split(URI_PARAMETER, 1)[0]
            directory = known if known.endswith(("/", os.sep)) else os.path.dirname(known)
            problem = unwritable_directory(directory or ".")
        else:
            problem = unwritable(path)
        if problem is not None:
            raise UsageError(
                f"{command}: cannot write the articles to {path}: {problem}; "
                "give another -O FILE (or -o, or FEEDS)", print_help=False,
            )
    stats_file = settings.get("NEWSSTEM_STATS_FILE", defaults.NEWSSTEM_STATS_FILE)
    if stats_file:
        problem = unwritable(stats_file)
        if problem is not None:
            raise UsageError(
                f"{command}: cannot write NEWSSTEM_STATS_FILE {stats_file}: {problem}",
                print_help=False,
            )


def check_feed_fields(settings: BaseSettings, command: str) -> None:
    """UsageError for a field of ``FEED_EXPORT_FIELDS`` or of a feed's ``fields`` option
    that is no field of the articles but close to one (``titel``, ``author``): Scrapy
    exports it as an empty column (CSV) or key, and only at the crawl's end. Other
    names stay allowed: a pipeline of yours may add fields.

    >>> from scrapy.settings import Settings
    >>> check_feed_fields(Settings({"FEED_EXPORT_FIELDS": "url,title,word_count"}), "crawl")
    >>> check_feed_fields(Settings({"FEED_EXPORT_FIELDS": "url,titel"}), "crawl")
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: crawl: FEED_EXPORT_FIELDS: 'titel' is no field of the articles (did you mean title?)
    """
    from newsstem.items import Article

    known = [f.name for f in dataclasses.fields(Article)]
    given = [("FEED_EXPORT_FIELDS", settings.getdictorlist("FEED_EXPORT_FIELDS"))]
    for uri, options in settings.getdict("FEEDS").items():
        if isinstance(options, dict) and options.get("fields"):
            given.append((f"FEEDS[{uri!r}]['fields']", options["fields"]))
    for where, fields in given:
        for name in fields:  # a dict's keys are the fields, its values the columns' names
            if name in known:
                continue
            # (the spider's test of a misspelt -a argument: "titel", "author" and
            # "published_date" are typos, a field a pipeline of yours adds is not)
            close = close_name(str(name), known)
            if close:
                raise UsageError(
                    f"{command}: {where}: {name!r} is no field of the articles "
                    f"(did you mean {close}?)",
                    print_help=False,
                )


# Feed formats whose file is one document (a JSON array, an XML document, a CSV table with
# its header): appended to, the file holds two and no reader takes it whole.
WHOLE_DOCUMENT_FORMATS = {"json": "JSON array", "xml": "XML document", "csv": "CSV header"}


def check_feed_appends(settings: BaseSettings, command: str) -> None:
    """UsageError for a local feed appended to (``-o``, ``FEEDS`` without ``overwrite``)
    in JSON, XML or CSV whose file holds something already: Scrapy writes a second JSON
    array, XML document or CSV header after it, and says nothing. JSON Lines (and a path
    with URI parameters, a new file each run) are appended to."""
    for uri, options in settings.getdict("FEEDS").items():
        if not isinstance(options, dict) or options.get("overwrite"):
            continue
        second = WHOLE_DOCUMENT_FORMATS.get(str(options.get("format", "")))
        path = local_feed_path(uri)
        if second is None or path is None or URI_PARAMETER in path:
            continue
        try:
            if not (os.path.isfile(path) and os.path.getsize(path) > 0):
                continue
        except OSError:
            continue
        lines = Path(path).with_suffix(".jsonl")
        raise UsageError(
            f"{command}: -o would append a second {second} to {path}, which holds one "
            f"already: no reader takes the file whole; give -O {path} to replace it, "
            f"another file, or JSON Lines, which -o appends to (-o {lines}; in FEEDS: "
            "'overwrite': True or another format)",
            print_help=False,
        )


def check_outputs(settings: BaseSettings, command: str) -> None:
    """The outputs of ``scrapy crawl`` and ``scrapy extract``, checked before any request:
    their paths (``-O``, ``NEWSSTEM_STATS_FILE``), the feeds' field names, and no ``-o``
    appending to a whole JSON, XML or CSV file."""
    check_output_paths(settings, command)
    check_feed_fields(settings, command)
    check_feed_appends(settings, command)
