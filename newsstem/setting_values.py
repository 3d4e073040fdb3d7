"""Settings given as strings, read and checked before a crawl.

scrapyd passes every setting as a string, as ``-s NAME=VALUE`` does, and a spider's
``custom_settings`` may too. :func:`check_setting_types` says which ``NEWSSTEM_*`` value
(or Scrapy's own) cannot be read as its type, or is out of its range, before a crawl;
:func:`check_dict_options` which ``-s`` of a dict setting is no JSON object;
:func:`check_components` which component path cannot be imported. Components read a
``NEWSSTEM_*`` value with :func:`read_setting` (booleans by :func:`parse_flag`), and
:func:`read_allowed_codes` makes ``HTTPERROR_ALLOWED_CODES`` numbers.
"""

from __future__ import annotations

import difflib
import json
import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import UsageError

from newsstem import defaults
from newsstem.formats import BODY_FORMATS

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = [
    "check_components",
    "check_dict_options",
    "check_setting_types",
    "parse_flag",
    "read_allowed_codes",
    "read_setting",
]


# Read by parsers of their own, which say what is wrong themselves.
_OWN_PARSERS = ("NEWSSTEM_URLDB", "NEWSSTEM_DISTRIBUTED")
_READERS = {
    bool: ("getbool", "1/0 (or true/false, yes/no)"),
    int: ("getint", "a whole number"),
    float: ("getfloat", "a number"),
}
# Settings that take one of a few words.
_CHOICES = {"NEWSSTEM_BODY_FORMAT": BODY_FORMATS}
# Scrapy's settings that the spider reads as it starts (DEPTH_LIMIT: the depth of a crawl
# given no -a depth): a bad value would end in a traceback before any request.
_SCRAPY_INTS = ("DEPTH_LIMIT", "DOWNLOAD_MAXSIZE")
# Scrapy's settings of a whole-number default that Scrapy reads as another type: with
# getfloat (a delay or a timeout of 0.5 s), with getbool (TELNETCONSOLE_ENABLED, 1)
_SCRAPY_FLOATS = frozenset({"DOWNLOAD_DELAY", "DOWNLOAD_TIMEOUT", "DNS_TIMEOUT"})
_SCRAPY_BOOLS = frozenset({"TELNETCONSOLE_ENABLED"})
# (Scrapy's getbool takes fewer words than newsstem's flags: no yes/no)
_SCRAPY_EXPECTED = {bool: "1/0 (or true/false)", int: "a whole number", float: "a number"}
# The least and the greatest value of a numeric NEWSSTEM_* setting (None: no bound); every
# other one is a count, a length or a time: 0 or more. A value out of range was taken
# silently (a threshold of 2 matches no page, -5 characters exports every page).
_RANGES: dict[str, tuple[float, float | None]] = {
    "NEWSSTEM_PATTERN_THRESHOLD": (0, 1),
    "NEWSSTEM_RENDER_PAGES": (1, None),
    "NEWSSTEM_URLDB_SYNC_ITEMS": (1, None),
    "NEWSSTEM_DISTRIBUTED_FORGET": (1, None),
    "NEWSSTEM_DISTRIBUTED_HEARTBEAT": (1, None),
}
# Times that must be more than 0 (how often something is done: 0 would be a busy loop).
_ABOVE_ZERO = frozenset({"NEWSSTEM_URLDB_SYNC_SECONDS"})


# The words of a boolean setting or spider argument, in any case (docs/reference/settings.md):
# every one is read the same, -s NEWSSTEM_FOLLOW_FEEDS=yes as -s NEWSSTEM_RENDER=yes.
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def parse_flag(name: str, value: object) -> bool:
    """A boolean from a setting or spider argument (strings under scrapyd); UsageError if not one
    (Scrapy's ``getbool`` took any whole number, ``2`` as True, and no ``yes``).

    >>> parse_flag("refresh", "1"), parse_flag("refresh", "False"), parse_flag("refresh", True)
    (True, False, True)
    >>> parse_flag("NEWSSTEM_FOLLOW_FEEDS", "yes"), parse_flag("NEWSSTEM_FOLLOW_FEEDS", 0)
    (True, False)
    >>> parse_flag("NEWSSTEM_FOLLOW_FEEDS", "2")
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: NEWSSTEM_FOLLOW_FEEDS must be 1/0 (or true/false, yes/no), not '2'
    """
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise UsageError(f"{name} must be 1/0 (or true/false, yes/no), not {value!r}")


def check_setting_types(settings: BaseSettings) -> None:
    """UsageError naming the first ``NEWSSTEM_*`` setting newsstem does not know (with the
    closest it knows: tests/test_deployment.py), or the first boolean or numeric
    ``NEWSSTEM_*`` value that cannot be read
    (and ``DEPTH_LIMIT``, ``DOWNLOAD_MAXSIZE``: Scrapy's, read by the spider as it starts),
    or out of its range (a similarity between 0 and 1; counts, lengths and times 0 or more).

    Components read them with :func:`read_setting` (booleans by :func:`parse_flag`,
    numbers by Scrapy's ``getint``/``getfloat``), which take strings (``"no"``, ``"0"``,
    ``"250"``); any other string would end the crawl in a traceback once it has started.

    >>> from scrapy.settings import Settings
    >>> check_setting_types(Settings({"NEWSSTEM_BODY_HTML": "0", "NEWSSTEM_MAX_ANCHOR_TEXTS": "9"}))
    >>> check_setting_types(Settings({"NEWSSTEM_MIN_ARTICLE_CHARS": "many"}))
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: NEWSSTEM_MIN_ARTICLE_CHARS must be a whole number, not 'many'
    >>> check_setting_types(Settings({"NEWSSTEM_BODY_FORMAT": "pdf"}))
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: NEWSSTEM_BODY_FORMAT must be one of text, markdown, html, not 'pdf'
    >>> check_setting_types(Settings({"NEWSSTEM_PATTERN_THRESHOLD": "2"}))
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: NEWSSTEM_PATTERN_THRESHOLD must be between 0 and 1, not '2'
    >>> check_setting_types(Settings({"NEWSSTEM_MIN_ARTICLE_CHARS": "-5"}))
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: NEWSSTEM_MIN_ARTICLE_CHARS must be 0 or more, not '-5'
    """
    _check_names(settings)
    _check_scrapy_types(settings)
    for name, choices in _CHOICES.items():
        value = settings.get(name, getattr(defaults, name))
        if value not in choices:
            raise UsageError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    for name in _SCRAPY_INTS:
        try:
            value = settings.getint(name)
        except (TypeError, ValueError):
            raise UsageError(f"{name} must be a whole number, not {settings.get(name)!r}") from None
        # 0 or more, as newsstem's counts: -s DEPTH_LIMIT=-2 fetched the start pages only,
        # and said nothing; DOWNLOAD_MAXSIZE=-1 cancelled every download as "larger than" it
        _check_range(name, value, settings)
    for name in sorted(vars(defaults)):
        if (
            name.startswith("NEWSSTEM_")
            and not name.startswith(_OWN_PARSERS)
            and type(getattr(defaults, name)) in _READERS
        ):
            read_setting(settings, name)


def read_setting(settings: BaseSettings, name: str) -> bool | int | float:
    """The boolean or numeric ``NEWSSTEM_*`` setting ``name``, read as its default's type
    (:func:`parse_flag`, Scrapy's ``getint``/``getfloat``) and checked against its range; else a
    UsageError of one line quoting the setting and its value, the same for every setting
    (those :func:`check_setting_types` leaves to their own parser read theirs with it too).

    >>> from scrapy.settings import Settings
    >>> read_setting(Settings({"NEWSSTEM_URLDB_SYNC_ITEMS": "7"}), "NEWSSTEM_URLDB_SYNC_ITEMS")
    7
    >>> read_setting(Settings({"NEWSSTEM_URLDB_SYNC_SECONDS": "0"}), "NEWSSTEM_URLDB_SYNC_SECONDS")
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: NEWSSTEM_URLDB_SYNC_SECONDS must be more than 0, not '0'
    """
    default = getattr(defaults, name)
    method, expected = _READERS[type(default)]
    if method == "getbool":  # the words of every boolean, not Scrapy's getbool
        return parse_flag(name, settings.get(name, default))
    try:
        value: bool | int | float = getattr(settings, method)(name, default)
    except (TypeError, ValueError):
        raise UsageError(f"{name} must be {expected}, not {settings.get(name)!r}") from None
    if method != "getbool":
        _check_range(name, value, settings)
    return value


def _check_scrapy_types(settings: BaseSettings) -> None:
    """UsageError for a Scrapy setting given as a string (``-s``, scrapyd, a spider's
    ``custom_settings``) that Scrapy cannot read as the type of its default
    (``-s CONCURRENT_REQUESTS=many``, ``-s AUTOTHROTTLE_ENABLED=yes``), or a ``LOG_LEVEL``
    that is no level: each was an asyncio traceback ("Task exception was never retrieved")
    once Scrapy had started, and exit status 1.

    >>> from scrapy.settings import Settings
    >>> _check_scrapy_types(Settings({"DOWNLOAD_DELAY": "0.5", "COOKIES_ENABLED": "false"}))
    >>> _check_scrapy_types(Settings({"CONCURRENT_REQUESTS": "many"}))
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: CONCURRENT_REQUESTS must be a whole number, not 'many'
    >>> _check_scrapy_types(Settings({"LOG_LEVEL": "info"}))
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: LOG_LEVEL must be one of CRITICAL, ERROR, WARNING, INFO, DEBUG, not 'info'
    """
    from scrapy.settings import default_settings

    scrapy_defaults = vars(default_settings)  # (not getattr: deprecated names warn)
    for name in settings:
        value = settings[name]  # (not get: a deprecated name warns)
        if not isinstance(value, str) or name in _SCRAPY_INTS:  # (those: their own check)
            continue
        kind = type(scrapy_defaults.get(str(name)))
        if kind is int and name in _SCRAPY_FLOATS:
            kind = float
        elif kind is int and name in _SCRAPY_BOOLS:
            kind = bool
        if kind not in _READERS:
            continue
        try:
            getattr(settings, _READERS[kind][0])(name)
        except (TypeError, ValueError):
            raise UsageError(f"{name} must be {_SCRAPY_EXPECTED[kind]}, not {value!r}") from None
    level = settings.get("LOG_LEVEL")
    if isinstance(level, str) and not isinstance(logging.getLevelName(level), int):
        raise UsageError(
            f"LOG_LEVEL must be one of CRITICAL, ERROR, WARNING, INFO, DEBUG, not {level!r}"
        )


def check_dict_options(settings: BaseSettings, values: list[str] | None) -> None:
    """UsageError for a ``-s NAME=VALUE`` (``values``) of a dict setting (``FEEDS``,
    ``ITEM_PIPELINES``…) whose value is no JSON object: Scrapy's line said "Invalid -s
    value, use -s NAME=VALUE", to a user who had, after newsstem's own traceback (a JSON
    list or string: Scrapy's traceback).

    >>> from scrapy.settings import Settings
    >>> check_dict_options(Settings(), ['FEEDS={"a.jsonl": {"format": "jsonlines"}}', "X=1"])
    >>> check_dict_options(Settings(), ["ITEM_PIPELINES={bad"])
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: -s ITEM_PIPELINES: '{bad' is not a JSON object ({"NAME": VALUE, ...}): Expecting property name enclosed in double quotes (column 2)
    """
    from scrapy.settings import BaseSettings as Dict

    for option in values or []:
        name, equals, given = option.partition("=")
        if not equals or not isinstance(settings[name], Dict):
            continue
        try:
            Dict(given, priority="cmdline")
        except (TypeError, ValueError) as error:
            detail = (f": {error.msg} (column {error.colno})"
                      if isinstance(error, json.JSONDecodeError) else "")
            raise UsageError(
                f"-s {name}: {given!r} is not a JSON object ({{\"NAME\": VALUE, ...}}){detail}"
            ) from None


# The settings of components Scrapy loads by their path as the crawler is built.
_COMPONENTS = ("ITEM_PIPELINES", "SPIDER_MIDDLEWARES", "DOWNLOADER_MIDDLEWARES", "EXTENSIONS")


def check_components(settings: BaseSettings) -> None:
    """UsageError for a component of ``ITEM_PIPELINES``, ``SPIDER_MIDDLEWARES``,
    ``DOWNLOADER_MIDDLEWARES`` or ``EXTENSIONS`` that cannot be imported (a misspelt path,
    a module that is not on the path): Scrapy's answer was an asyncio traceback
    ("Task exception was never retrieved") after its start-up log, and exit status 1.

    >>> from scrapy.settings import Settings
    >>> check_components(Settings({"ITEM_PIPELINES": {"newsstem.pipelines.ExtractionPipeline": 1}}))
    >>> check_components(Settings({"ITEM_PIPELINES": {"newsstem.pipelines.Extraction": 1}}))
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: ITEM_PIPELINES: cannot load 'newsstem.pipelines.Extraction': Module 'newsstem.pipelines' doesn't define any object named 'Extraction'
    """
    from scrapy.utils.misc import load_object

    for name in _COMPONENTS:
        for path, order in settings.getdict(name).items():
            if order is None or not isinstance(path, str):  # (switched off; a class given)
                continue
            try:
                load_object(path)
            except (ImportError, NameError, ValueError) as error:
                raise UsageError(f"{name}: cannot load {path!r}: {error}") from None


def _check_names(settings: BaseSettings) -> None:
    """UsageError naming a ``NEWSSTEM_*`` setting newsstem does not know, with the closest
    it knows: a misspelt name would be ignored, the crawl running without it."""
    for name in settings:
        if str(name).startswith("NEWSSTEM_") and not hasattr(defaults, name):
            known = [n for n in vars(defaults) if n.startswith("NEWSSTEM_")]
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise UsageError(f"unknown setting {name}{hint}")


def _check_range(name: str, value: float, settings: BaseSettings) -> None:
    """UsageError if the numeric setting ``name`` read as ``value`` is out of its range
    (:data:`_RANGES`, :data:`_ABOVE_ZERO`; 0 or more for the others)."""
    low, high = _RANGES.get(name, (0, None))
    # (not "value < low": NaN compares false both ways, and "nan" reads as a float)
    if name in _ABOVE_ZERO and not value > 0:
        raise UsageError(f"{name} must be more than 0, not {settings.get(name)!r}")
    if not value >= low or (high is not None and not value <= high):
        bounds = f"between {low} and {high}" if high is not None else f"{low} or more"
        raise UsageError(f"{name} must be {bounds}, not {settings.get(name)!r}")


def read_allowed_codes(settings: BaseSettings) -> None:
    """``HTTPERROR_ALLOWED_CODES`` made numbers, at the priority it was given with; a
    UsageError for a code that is none.

    Given with ``-s`` or by scrapyd, the codes are strings, and Scrapy's
    HttpErrorMiddleware looks a response's status up in them as they are: an allowed
    404 never reached the spider.

    >>> from scrapy.settings import Settings
    >>> settings = Settings({"HTTPERROR_ALLOWED_CODES": "404,410"})
    >>> read_allowed_codes(settings)
    >>> settings["HTTPERROR_ALLOWED_CODES"]
    [404, 410]
    """
    codes = settings.getlist("HTTPERROR_ALLOWED_CODES")
    try:
        numbers = [int(code) for code in codes]
    except (TypeError, ValueError):
        raise UsageError(
            f"HTTPERROR_ALLOWED_CODES must be HTTP statuses (404,410), not {codes!r}"
        ) from None
    if numbers != codes:
        priority = settings.getpriority("HTTPERROR_ALLOWED_CODES")
        settings.set("HTTPERROR_ALLOWED_CODES", numbers, priority=priority or "project")
