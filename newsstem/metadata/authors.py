"""Authors: person names, without "By", dates, handles, roles or the publisher.

Evidence in order of trust: the article's JSON-LD ``author`` (``creator`` if
none), then meta tags (``author``, ``article:author``, ``parsely-author``,
``dc.creator``, NYT's ``byl`` ...), then microdata ``itemprop=author``, then
``rel=author`` links, then byline elements (``class="byline"``/``author``), then
byline lines ("By ...", "Von ...", "Par ...", "Por ...", "Di ...", "Door ..."; the
word may stand alone in its element, the names in the next ones: "<span>By</span>
<a>Name</a>", not in a comment's or a teaser's).
The first source that yields a name decides; later ones are noise more often
than not (related stories, comment authors).

Organisations are authors only when no person is named: an agency byline
("Associated Press") stays, a site naming itself ("BBC News" on bbc.co.uk) goes,
unless the article's JSON-LD ``author`` credits it and no source names anyone else
(AP's own stories on apnews.com: ``"author": ["Associated Press"]``). A company named
by its legal form ("Pocket-lint Ltd.", "株式会社…") is the site's owner and goes too.
One exception: a news agency's code (``AP``, ``dpa``, ``Reuters``) that the page's
own data (JSON-LD, meta, microdata) credits beside its writers stays after them
("Felix Schröder und Jörg Soldwisch, dpa"), as the publisher credits the story.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from typing import Any, NamedTuple

from lxml import etree
from lxml.html import HtmlElement

from newsstem.metadata.evidence import (
    CJK_LETTER,
    ORGANIZATION_TYPES,
    PERSON_TYPES,
    Evidence,
    inside_other_content,
    itemprop_value,
    schema_types,
)
from newsstem.text import normalize_space

__all__ = ["clean_names", "find_authors", "Found"]

AUTHOR_META = (
    "author", "article:author", "og:article:author", "parsely-author", "sailthru.author",
    "dc.creator", "dcterms.creator", "byl", "citation_author", "cxenseparse:author",
    "article.author", "authors", "byline", "author_name",
)
# A name longer than this is a sentence (a bio or a caption), not a byline.
MAX_NAME_CHARS = 60
# Latin-script names have at most this many words ("Juan Carlos de la Vega Ruiz").
MAX_NAME_WORDS = 6
# A byline element with more text than this is a block of prose, not a byline.
MAX_BYLINE_CHARS = 200
# More names than this in one byline source is a list of writers, not a byline.
MAX_BYLINE_NAMES = 5

# A contributor's role before a name in a Chinese byline, between the reporters' names
# ("记者 王晓 通讯员 李明": a correspondent of the body the story is about; 实习生, an intern):
# no name itself, and the name after it is one more author.
_CHINESE_CONTRIBUTORS = r"通讯员|通訊員|实习生|實習生"
# A word in katakana, as a role before a Japanese name is written ("カメラマン", "ライター").
_KATAKANA_ROLE = r"[\u30a1-\u30fa\u30fc]{2,}"
_PREFIX = re.compile(
    r"^(?:(?:written|posted|reported|story|words|text|photos?|interview|compiled|edited)\s+by"
    r"|by|from|von|par|por|door|di|da|af|av|de|autor(?:in)?|auteur|author|authors|reporter|"
    r"reporting|text|texte|redakce|记者|記者|作者|撰文|文|编辑|編輯|责任编辑|責任編輯|来源|出處|筆者)"
    r"\s*[:：/|]?\s+|^(?:记者|記者|作者|撰文|编辑|編輯|责任编辑|責任編輯|筆者"
    # a role or a desk before the name, written with or without a separator ("写真家
    # 佐藤健", "写真家・佐藤健", "写真家佐藤健": no name begins with one); 撮影 and 写真
    # (photographed by, photo) alone only before a separator, a space or the end: they
    # begin other words too
    r"|写真家|写真部|撮影部|(?:撮影|写真)(?![\u4e00-\u9fff])|" + _CHINESE_CONTRIBUTORS + r")"
    r"\s*[:：/／|・]?\s*"
    r"|^文\s*[:：/／|・]\s*"
    # a role in katakana before a Han name ("カメラマン 山田花子", "ライター：山田花子"): a
    # foreign name is katakana throughout, no Han name follows a word of it
    r"|^" + _KATAKANA_ROLE + r"(?:\s*[:：/／|]\s*|\s+)(?=[\u4e00-\u9fff])",
    re.I,
)
# Tried only where white space starts or is absent ((?<!\s)|(?!\s)): from inside a run of
# it, "\s*" read the rest of the run again at each of its letters, a time the square of
# its length (a byline of 3,000 "[서울=연합뉴스]" is such a run once the brackets are out);
# a split found inside a run is found from its start, so the parts are the same.
_SPLIT = re.compile(
    r"(?:(?<!\s)|(?!\s))\s*(?:,|;|(?<=\w{3})\s*&\s*(?=\w{3})"
    r"|\band\b|\bund\b|\bet\b|\by\b|\bog\b|\boch\b|\ben\b|\bwith\b"
    r"|、|，|；|\||/|•|·|\s[-–—]\s)\s*",
    re.I,
)
# A social handle, an e-mail address or a web address in a byline: no name. The handle
# (" @name") first, as its own pass, then the addresses: an e-mail sought from the start of
# a run without white space alone (and from the end of a handle, a space by then), its
# part before the first "@" read once. Sought from every letter of a run, as
# r"\S+@\S+\.\w+" was, it read the rest of the run again at each: a time the square of
# its length (a 40,000-letter run without spaces: seconds); the text left is the same.
_HANDLE = re.compile(r"(?:^|\s)@\w+")
_ADDRESS = re.compile(r"(?<!\S)\S[^\s@]*@\S+\.\w+|https?://\S+|www\.\S+")
_PARENTHESES = re.compile(r"\s*[(（\[][^)）\]]*[)）\]]\s*")
_INITIALS = re.compile(r"^\s*\((?:[A-Z]\.\s?){1,3}\)\s*$")  # "Richard (R.J.) Eskow" keeps them
_DIGITS = re.compile(r"\d")
# Words that start the date part of a byline ("... updated 3 hours ago", "... on Jan 5").
_DATE_START = re.compile(r"\s(?:updated|published|posted|modified|last updated)\b.*$", re.I)
# Words left at the end once the digits of a date are cut ("Aleš Vávra před", "Dan Goodin Apr").
_DATE_TAIL_WORDS = frozenset(
    "on at am pm et est edt pst pdt gmt utc cet cest ago today yesterday last updated published "
    "posted modified jan feb mar apr may jun jul aug sep sept oct nov dec january february march "
    "april june july august september october november december mon tue wed thu fri sat sun "
    "monday tuesday wednesday thursday friday saturday sunday před vor hace il y a le der den".split()
)
_ROLE_WORDS = re.compile(
    r"\b(?:reporter|correspondent|editor|editors|writer|columnist|contributor|contributing|"
    r"staff|senior|chief|associate|assistant|deputy|special|freelance|technologist|analyst|"
    r"producer|photographer|journalist|director|manager|founder|president|professor|"
    r"fellow|intern|host|anchor|critic|redaktor|redakteur|journaliste|envoyé|rédacteur|"
    r"corresponsal|redactor|correspondente|for|about|follow|view|more|all|posts|articles|"
    r"stories|email|twitter|facebook|linkedin|instagram|profile|bio)\b",
    re.I,
)
# Two-letter Korean words of a paper's name: see _ORGANIZATION_WORDS.
_KOREAN_PAPER_WORD = "(?:뉴스|일보|신문|방송|통신|경제)"
_ORGANIZATION_WORDS = re.compile(
    r"\b(?:news|press|associated|reuters|afp|agency|agencies|wire|staff|team|desk|media|"
    r"group|inc|ltd|llc|corp|gmbh|times|post|journal|magazine|network|radio|tv|channel|"
    r"online|daily|weekly|tribune|herald|gazette|newspapers?|mail|redaktion|rédaction|redacción|redação|"
    r"newsroom|service|editorial|bureau|dpa|ap|upi|ansa|efe|ctk|čtk|xinhua|kyodo|"
    r"jiji|yonhap|bloomberg|cnn|bbc|board|company|foundation|institute|university|"
    r"ministry|department|office|council|committee|union|association|society)\b|"
    r"新闻|新聞|日报|日報|通讯社|通信社|编辑部|編集部|网|網|报|報"
    r"|[\u4e00-\u9fff]社(?![\u4e00-\u9fff])"  # 新华社, 朝日新聞社: an agency, a company
    # the Korean words of a paper's, an agency's or a broadcaster's name (연합뉴스, 조선일보,
    # 경향신문, KBS's 방송, 매일경제, 이데일리, 뉴스1): no part of a person's name. A
    # two-letter one is none where a name's shape holds it, after a surname (이경제) or
    # its letters a name's first (신문수, 방송희): it follows two letters or more (연합뉴스,
    # 조선일보사, "연합뉴스 김철수" written as one name), or starts a word that is all of it
    # or goes on by three letters or more (뉴스, KBS방송; 뉴스 at a word's start always: 뉴스핌)
    r"|(?<=[\uac00-\ud7af]{2})" + _KOREAN_PAPER_WORD
    + r"|(?<![\uac00-\ud7af])" + _KOREAN_PAPER_WORD
    + r"(?![\uac00-\ud7af]{1,2}(?![\uac00-\ud7af]))"
    r"|(?<![\uac00-\ud7af])뉴스|데일리|타임스|저널|미디어",
    re.I,
)
# A company's legal form after its name ("Pocket-lint Ltd.", "Springer Nature AG",
# "Nikkei Inc.") or around it in Japanese ("株式会社日本経済新聞社", "(株)"): the site's owner,
# who holds its copyright, not a writer nor an agency's byline (agencies credit
# themselves by their brand: "AP", "AFP", "共同通信社"; 社 alone is no legal form).
# Short forms only as companies write them (AG, SA), not as a name's last word (Sá, Ag).
_LEGAL_FORM = re.compile(
    r"(?:\s|,)(?:(?i:inc|ltd|llc|llp|plc|corp|co(?=\.)|limited|corporation|gmbh|mbh|kg)\.?"
    r"|AG|SA|S\.A\.|SAS|S\.p\.A\.|SpA|SRL|S\.r\.l\.|SARL|BV|B\.V\.|NV|N\.V\.|ASA|A/S|AB|Oyj?"
    r"|Pty\.?|K\.K\.|KK)$"  # (Pty Ltd: its Ltd ends it)
    r"|^(?:株式会社|有限会社|合同会社)|(?:株式会社|有限会社|合同会社)$|[(（]株[)）]|㈱"
)
# A news agency's credit as one word (the agencies of _ORGANIZATION_WORDS): beside
# full names it is no place or section ("Felix Schröder und Jörg Soldwisch, dpa").
_AGENCY_CODE = re.compile(
    r"^(?:dpa|ap|upi|ansa|efe|ctk|čtk|afp|reuters|xinhua|kyodo|jiji|yonhap)$", re.I
)
_GENERIC = frozenset(
    {"admin", "administrator", "staff", "editor", "editors", "redaction", "rédaction",
     "anonymous", "guest", "unknown", "team", "desk", "webmaster", "user", "author",
     "none", "null", "by", "redaktion", "newsroom", "web", "online"}
)
_CJK_NAME = re.compile(r"^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af·・_]{2,16}$")
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Found:
    names: list[str]
    source: str


def clean_names(raw: str, publisher: Iterable[str] = ()) -> list[str]:
    """Person names in a byline string, cleaned; organisations and junk dropped.

    >>> clean_names("By Daniel Kahn Gillmor, Senior Staff Technologist, ACLU")
    ['Daniel Kahn Gillmor']
    >>> clean_names("by Ahiza Garcia @ahiza_garcia February 1, 2016: 12:41 PM ET")
    ['Ahiza Garcia']
    >>> clean_names("MICHAEL D. SHEAR and JULIE HIRSCHFELD DAVIS")
    ['Michael D. Shear', 'Julie Hirschfeld Davis']
    >>> clean_names("Jonathon Ramsey | RSS feed")
    ['Jonathon Ramsey']
    >>> clean_names("记者 张三")
    ['张三']
    """
    return [name for name in _split_names(raw) if not _is_organization(name, publisher)]


# A part of a byline block that ends in a preposition is a label, not a name: "Posted by"
# and "Written by" stand before the name, "Posted in" before a category and "Posted on"
# before a date (both then skipped too). Capitalized, the preposition is a label after a
# participle ("Posted On", "Filed Under") or "By": "In", "On" and "To" end names ("Kim
# In", "Tran Van To").
_LABEL = re.compile(
    r"(?:^|\s)(?:(?i:by)|[A-Za-z]{3,}(?:ed|en)\s+(?i:by|in|on|at|under|to)"
    r"|by|in|on|at|under|to)\s*:?$"
)


# A word, a colon and a value left once the byline words are stripped: a field of a
# profile or a counter ("Location: VANCOUVER, British Columbia", "Total Views: 12,256"),
# not a name; dropped whole, up to the next "|" (byline elements join their texts so).
_FIELD = re.compile(r"[^\W\d_]\s*:\s*\S")


def _without_fields(text: str) -> str:
    pieces = [piece for piece in text.split("|") if not _FIELD.search(_without_prefix(piece))]
    return "|".join(pieces)


def _without_prefix(text: str) -> str:
    text = text.strip(" -–—:|,.·•\u3000")
    while True:
        stripped = _PREFIX.sub("", text, count=1).strip()
        if stripped == text:
            return text
        text = stripped


# Where the writer filed from, after the names: "By Julian Linden in Sydney", "From
# correspondents in Karachi, Pakistan" (the place runs on over commas, to "and" or the
# next piece of a byline block). Lowercase "in" only: capitalized it ends names ("Kim In").
_FILED_IN = re.compile(r"(?:^|\s)in\s+[A-Z][^|;]*?(?=\s+(?:and|und|&)\s+|\s*[|;]|$)")
_BEFORE_PLACE = re.compile(r"[^,;|&]*$")


def _without_place(text: str) -> str:
    """``text`` without the places its writers filed from; a label and its value stay
    ("Posted in Sports", "Filed in Politics": one capitalized word before the "in")."""

    def cut(match: re.Match[str]) -> str:
        words = _BEFORE_PLACE.search(text[: match.start()]).group().split()  # type: ignore[union-attr]
        label = len(words) == 1 and words[0][:1].isupper()
        return match.group() if label else ""

    return _FILED_IN.sub(cut, text)


# The place a CJK byline was filed from, after the name and a space, with the word that
# says so ("記者 佐藤健 北京発", "王晓 北京报道"): see _CJK_BYLINE. This and the one
# below read a byline after normalize_space, whose one space stands for every run of
# whitespace, the ideographic space's too.
_FILED_FROM_PLACE = r"[\u4e00-\u9fff]{1,4}?(?:発|電|电|讯|訊|报道|報道)(?![\u4e00-\u9fff])"
_CJK_FILED_FROM = re.compile(" " + _FILED_FROM_PLACE)
# Han parts separated by spaces, the first of one to four characters: on a Japanese page
# one name (family and given name, see _spaced_han_names) and the words after it, never
# two people; a part after the second is no part of the name ("山田 花子 東京", "佐藤 健一
# 撮影", as a text byline reads them: see _CJK_BYLINE). On a Chinese page two people
# ("王晓 李明") or more, or one name ("李 明") and the words after it: see _spaced_names.
_SPACED_HAN_RUN = re.compile(r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff]{1,4}(?: [\u4e00-\u9fff]+)+")

# A byline word written against the agency, paper or desk before it, then the name, after
# a space or against the word too: "新华社记者 王晓", "本报记者王晓" (the bare word alone
# is a prefix: _PREFIX); a desk's station is the desk ("本报驻京记者站王晓"). Not a press
# conference or corps (记者会, 记者团), as in _CJK_BYLINE, nor a name's role after it
# ("佐藤健記者": no name follows).
_DESK_REPORTER = re.compile(
    r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff]+(?:记者|記者)站?(?!会|會|招待|団|团)"
    r"(?:[ \u3000]|(?=[\u4e00-\u9fff]))"
)
# A photo credit or a role after a name on a Chinese page ("王晓 摄", "王晓 摄影", "王晓
# 特派员"): it ends the name as a list's separator would, no second person, no part of it.
_CHINESE_ROLE_AFTER_A_NAME = re.compile(
    r"(?<=[\u4e00-\u9fff]) (?:摄影|攝影|摄|攝|特派员|特派員)(?![\u4e00-\u9fff])"
)


def _split_names(raw: str, is_japanese: Callable[[], bool] | None = None) -> list[str]:
    """The names of ``raw``; ``is_japanese`` says whether the page is Japanese, asked of
    spaced Han names alone (without it, as in :func:`clean_names`, they are one name)."""
    text = normalize_space(html.unescape(raw))
    japanese_names: Callable[[str], str] | None = None  # reads the spaced Han parts of a part
    if CJK_LETTER.search(text):
        text = _CJK_FILED_FROM.sub("", text)
        # "新华社记者 王晓", "本报记者 王晓": the agency or paper whose reporter follows, no name
        text = _DESK_REPORTER.sub("", text)
        # "홍길동·김철수 기자", "글 홍길동 기자 사진 김철수 기자": the names without their role
        text = _KOREAN_BYLINE.sub(lambda m: "、".join(_korean_names(m)) + "、", text)
        # "王晓 实习生李明": a contributor's role after a name lists the next one
        text = _CONTRIBUTOR_AFTER_A_NAME.sub("、", text)
        if is_japanese is not None and _SPACED_HAN_RUN.search(text):
            spaced_names = partial(_spaced_names, is_japanese=is_japanese)
            if is_japanese():
                # read in each part once its byline word is cut ("記者 山田 花子 東京")
                japanese_names = partial(_SPACED_HAN_RUN.sub, spaced_names)
            else:
                text = _CHINESE_ROLE_AFTER_A_NAME.sub("、", text)  # "王晓 摄", as _CJK_BYLINE
                text = _SPACED_HAN_RUN.sub(spaced_names, text)  # "王晓、李明", listed
    text = _without_place(_without_fields(_ADDRESS.sub(" ", _HANDLE.sub(" ", text))))
    text = _PARENTHESES.sub(lambda m: m.group() if _INITIALS.match(m.group()) else " ", text)
    names: list[str] = []
    labelled = False  # the part before labels this one as no name ("Posted in | Sports")
    for part in _SPLIT.split(text):
        label = _LABEL.search(part.strip(" -–—|,.·•"))
        if label or labelled:
            labelled = bool(label) and label.group().split()[-1].rstrip(":").lower() != "by"
            continue
        if japanese_names is not None:
            part = japanese_names(_without_prefix(part))
        name = _clean_part(part)
        if name and name.lower() not in (n.lower() for n in names):
            names.append(name)
    if len(names) > 1:
        # "Roland Parry, Washington": next to full names a one-word part is a
        # place or a section, not a second author.
        full = [
            n for n in names if len(n.split()) > 1 or CJK_LETTER.search(n) or _AGENCY_CODE.match(n)
        ]
        names = full or names[:1]
    return names


def _clean_part(part: str) -> str | None:
    part = _without_prefix(part)
    part = _DATE_START.sub("", part).strip(" -–—:|,.")
    if _ORGANIZATION_WORDS.search(part) and not _DIGITS.search(part):
        if _AGENCY_CODE.match(part):
            return part  # "dpa", lowercase as the agency writes itself
        return _as_name(part)  # "Our Foreign Staff": a desk, kept whole for the organisation test
    if _DIGITS.search(part):
        part = _without_date_tail(part[: _DIGITS.search(part).start()])  # type: ignore[union-attr]
    if _ROLE_WORDS.search(part):
        part = part[: _ROLE_WORDS.search(part).start()].strip(" -–—:|,.")  # type: ignore[union-attr]
    if _LABEL.search(part):
        return None  # "Favorited By: 7" once its count is cut
    return _as_name(part)


def _without_date_tail(text: str) -> str:
    words = text.strip(" -–—:|,.").split()
    while words and words[-1].strip(",.:").lower() in _DATE_TAIL_WORDS:
        words.pop()
    return " ".join(words).strip(" -–—:|,.")


def _as_name(text: str) -> str | None:
    if not text or len(text) > MAX_NAME_CHARS or not _LETTER.search(text):
        return None
    if text.lower() in _GENERIC:
        return None
    if CJK_LETTER.search(text):
        compact = text.replace(" ", "")
        return compact if _CJK_NAME.match(compact) else None
    words = text.split()
    if len(words) > MAX_NAME_WORDS:
        return None
    if len(words) == 1 and text.islower():
        return None  # a user name ("devindra"), not a person's name
    if not text.islower() and any(word.islower() and len(word) > 3 for word in words):
        # a phrase ("Click here to register your Interest", "RSS feed"), not a name: a
        # name's lowercase words are particles of three letters at most ("van der");
        # a name written all in lowercase ("viktor hedlund") is a style, kept
        return None
    if text.isupper() and len(words) > 1:
        text = " ".join(_title_word(word) for word in words)
    return text


def _title_word(word: str) -> str:
    """``MCDONALD`` -> ``Mcdonald`` is wrong but rare; ``D.`` and ``O'NEIL`` stay readable."""
    return "-".join(
        "'".join(piece[:1].upper() + piece[1:].lower() for piece in part.split("'"))
        for part in word.split("-")
    )


# A desk of the publisher itself ("TMZ Staff", "Our Foreign Staff") names nobody.
_IN_HOUSE = re.compile(
    r"\b(?:staff|desk|team|newsroom|redaktion|rédaction|redacción|redação|redazione|web)\b", re.I
)


def _is_organization(name: str, publisher: Iterable[str]) -> bool:
    if name.isupper() and " " not in name:
        return True  # an acronym: "AP", "ACLU", "ČTK"
    if "&" in name:
        return True  # "Mac & i", "Johnson & Johnson": names joined by & were split before
    lowered = name.lower()
    for other in publisher:
        other = other.lower().strip()
        if other and (lowered == other or lowered in other or other in lowered):
            return True
    return bool(_ORGANIZATION_WORDS.search(name) or _LEGAL_FORM.search(name))


# -- finding the authors of a page --------------------------------------------------


def find_authors(evidence: Evidence, publisher: Iterable[str] = ()) -> Found | None:
    """:func:`_decided_authors`, unless they are one word each (`Contributed`, a site's
    account `NewStatesman`, an organisation `CBS`) and the one writer's note under the
    story ("Jim Litke is a national sports columnist ...") names a person in full."""
    found = _decided_authors(evidence, publisher)
    if found is not None and found.source != "bio" and all(
        len(name.split()) == 1 and not CJK_LETTER.search(name) for name in found.names
    ):
        note = _bio_names(evidence.root)
        # read as the last source reads it (all caps in title case; roles, desks and
        # organisations are no person): taken raw, "Staff Writer Jane Doe" won over "CBS"
        persons = [name for raw in note for name in _split_names(raw)
                   if not _is_organization(name, ())]
        if len(note) == 1 and len(persons) == 1:
            return Found(persons, "bio")
    return found


def _decided_authors(evidence: Evidence, publisher: Iterable[str] = ()) -> Found | None:
    """Authors from the most trusted source that names any; persons before organisations,
    and a news agency the page's own data credits beside them after them; the publisher
    itself only where the article's JSON-LD credits it and no source names anyone else.

    >>> from newsstem.metadata.evidence import collect_evidence, parse_html
    >>> page = '<meta name="author" content="Adam Vidler, AP"><p>Text</p>'
    >>> find_authors(collect_evidence(parse_html(page)))
    Found(names=['Adam Vidler', 'AP'], source='meta:author')
    """
    publisher = [p for p in publisher if p]
    organizations: Found | None = None
    self_credit: Found | None = None
    # (asked only of spaced CJK names: the count may scan the whole source)
    is_japanese = cache(partial(_is_japanese, evidence))
    for source, raws, typed_orgs in _candidates(evidence, is_japanese):
        persons: list[str] = []
        orgs: list[str] = []
        for raw in raws:
            if raw in typed_orgs:
                orgs.extend(_split_names(raw))
                continue
            for name in _split_names(raw, is_japanese):
                # A blog's author is often its site name: only organisation-like names
                # matching the publisher are dropped (below).
                (orgs if _is_organization(name, ()) else persons).append(name)
        structured = source.split(":")[0] in _STRUCTURED
        credited = [o for o in _dedupe(orgs) if not _IN_HOUSE.search(o)]
        kept = [
            o for o in credited if not _is_publisher(o, publisher) and not _LEGAL_FORM.search(o)
        ]
        if len(persons) > 1:
            # "한겨레, 김철수 기자": the site's CJK name listed beside a writer, no writer
            # (a brand without an organisation's word has a name's shape, in a script
            # without case: only the page's own name for itself tells it)
            persons = [
                p for p in persons if not (CJK_LETTER.search(p) and _names_publisher(p, publisher))
            ] or persons
        if persons:
            if structured:
                # "Adam Vidler, AP": the news agency credited beside its writers
                persons += [name for name in kept if _AGENCY_CODE.match(name)]
            return Found(_dedupe(persons), source)
        if kept and structured:
            return Found(kept, source)  # the page's own data names an agency: trust it
        if kept and organizations is None:
            organizations = Found(kept, source)
        if source == "json-ld" and self_credit is None:
            # The article's JSON-LD credits the publisher itself (apnews.com's "Associated
            # Press", tokyo-np.co.jp's Organization "東京新聞デジタル"): the last resort.
            if credited:
                self_credit = Found(credited, source)
    return organizations or self_credit


# Sources the page states on purpose; the others are found by heuristics.
_STRUCTURED = frozenset({"json-ld", "meta", "microdata"})


def _is_publisher(name: str, publisher: Iterable[str]) -> bool:
    lowered = name.lower()
    return any(lowered == p.lower() or lowered in p.lower() or p.lower() in lowered
               for p in publisher)


def _names_publisher(name: str, publisher: Iterable[str]) -> bool:
    return any(name.casefold() == p.casefold() for p in publisher)


def _dedupe(names: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for name in names:
        if name.lower() not in seen:
            seen.add(name.lower())
            out.append(name)
    return out


def _candidates(
    evidence: Evidence, is_japanese: Callable[[], bool]
) -> Iterator[tuple[str, list[str], set[str]]]:
    """``(source, raw name strings, those known to be organisations)`` by trust."""
    for obj in evidence.articles():
        for key in ("author", "creator"):
            names, orgs = _jsonld_names(evidence, obj.get(key))
            if names:
                yield "json-ld", names, orgs
                break
    cjk_texts = _cjk_text_nodes(evidence)
    editors = _cjk_editors(cjk_texts)
    for name in AUTHOR_META:
        values = [
            v for _, v in evidence.meta_values(name)
            if not _looks_like_url(v) and not any(v.endswith(e) for e in editors)
        ]
        if values:
            yield f"meta:{name}", values, set()
    cjk = _cjk_bylines(cjk_texts, is_japanese)
    if cjk:
        yield "text", cjk, set()
    microdata = [_microdata_name(e) for e in evidence.itemprops.get("author", [])]
    microdata += [_microdata_name(e) for e in evidence.itemprops.get("creator", [])]
    microdata = [n for n in microdata if n]
    if microdata:
        yield "microdata", microdata[:3], set()
    rel_author = _rel_author_names(evidence.root)
    if rel_author:
        yield "rel-author", rel_author, set()
    byline = _byline_text(evidence.root)
    if byline:
        yield "byline", [byline], set()
    text_byline = _text_byline(evidence.root)
    if text_byline:
        yield "text", text_byline, set()
    mailto = _mailto_titles(evidence.root)
    if mailto:
        yield "mailto", mailto, set()
    bio = _bio_names(evidence.root)
    if bio:
        yield "bio", bio, set()


def _jsonld_names(evidence: Evidence, value: Any) -> tuple[list[str], set[str]]:
    names: list[str] = []
    orgs: set[str] = set()
    items = value if isinstance(value, list) else [value]
    for item in items:
        item = evidence.resolve(item)
        if isinstance(item, str):
            if not _looks_like_url(item):
                names.append(item)
        elif isinstance(item, dict):
            name = item.get("name")
            if isinstance(name, list):
                name = name[0] if name else None
            if not isinstance(name, str) or not name.strip():
                continue
            names.append(name)
            types = schema_types(item)
            if types & ORGANIZATION_TYPES and not types & PERSON_TYPES:
                orgs.add(name)
    return names, orgs


def _microdata_name(element: HtmlElement) -> str:
    if element.get("itemscope") is not None:
        for child in element.xpath(".//*[@itemprop]"):
            if "name" in child.get("itemprop", "").lower().split():
                return itemprop_value(child)
    value = itemprop_value(element)
    return "" if _looks_like_url(value) else value


_BLOCK_TAGS = frozenset({"div", "p", "header", "section", "li", "td", "dd", "footer", "figure"})


def _rel_author_names(root: HtmlElement) -> list[str]:
    """Texts of the first ``rel=author`` link and of those in the same byline block
    (sidebars list other writers' posts with ``rel=author`` too)."""
    links = [
        a for a in root.xpath("//a[contains(concat(' ', normalize-space(@rel), ' '), ' author ')]")
        if not _inside_other_content(a)
    ]
    if not links:
        return []
    block = next((a for a in links[0].iterancestors() if a.tag in _BLOCK_TAGS), None)
    byline = [a for a in links if block is not None and block in a.iterancestors()] or links[:1]
    names = [normalize_space(a.text_content()) for a in byline]
    return [n for n in names if n][:MAX_BYLINE_NAMES]


def _looks_like_url(value: str) -> bool:
    return bool(re.match(r"^(?:https?:)?//|^www\.", value.strip(), re.I))


# Byline elements, most specific first: a name element inside an author block,
# then byline blocks, then author blocks (not follow/bio/avatar widgets).
_BYLINE_XPATHS = (
    "//*[(contains(@class, 'author') or contains(@class, 'byline'))"
    " and (contains(@class, 'name') or contains(@class, 'link'))]",
    "//*[contains(@class, 'byline') or contains(@id, 'byline')]",
    "//*[contains(@class, 'author') or contains(@id, 'author')]",
)
# Class or id words of author widgets that are not the byline ("author-follow",
# "author_bio"); matched as whole words of a class name, so "vcard" is no "card".
_NOT_A_BYLINE = re.compile(
    r"(?:^|[\s_-])(?:follow|avatar|bio|image|img|photo|social|title|more|list|box|card|"
    r"about|description|info|comments?)(?:$|[\s_-])",
    re.I,
)
# A byline inside these belongs to a teaser, a box or a comment, not to the article.
_OTHER_CONTENT = re.compile(
    r"(?:^|[\s_-])(?:related|sidebar|promo|teaser|comments?|recommend\w*)(?:$|[\s_-])", re.I
)


def _inside_other_content(element: HtmlElement) -> bool:
    return inside_other_content(element, _OTHER_CONTENT)


def _in_other_content_by_name(element: HtmlElement | None) -> bool:
    """Whether one of ``element``'s closest ancestors is named as other content (a comment,
    a teaser, a sidebar) by its class or id; an ``<aside>`` may be the article's own rail
    (Rolling Stone's byline), so its tag alone says nothing here."""
    return element is not None and inside_other_content(element, _OTHER_CONTENT, by_tag=False)


_SKIPPED_TAGS = frozenset({"html", "body", "article", "main", "script", "style", "meta", "link"})


def _byline_text(root: HtmlElement) -> str | None:
    for xpath in _BYLINE_XPATHS:
        for element in root.xpath(xpath):
            if element.tag in _SKIPPED_TAGS:
                continue
            if _NOT_A_BYLINE.search(element.get("class", "") + " " + element.get("id", "")):
                continue
            if _inside_other_content(element):
                continue
            # Text pieces joined with a separator: "FRANCES ROBLES<br>McClatchy" is two.
            text = normalize_space(" | ".join(t for t in element.itertext() if t.strip()))
            if text and len(text) <= MAX_BYLINE_CHARS and _split_names(text):
                return text
    return None


# "By Chuck Squatriglia", "by Andy Howell, Western Mail", "Von Anna Müller und Jan Schmidt",
# "Par Jean Dupont": a text line that starts with the byline word of its language (English,
# German, French, Spanish and Portuguese, Italian, Dutch, Danish and Norwegian, Swedish).
_BYLINE_WORDS = ("by", "written by", "von", "par", "por", "di", "door", "af", "av")
_BYLINE_LABELS = ("author:", "autor:", "autorin:", "auteur:")
_ENGLISH_BYLINE_WORDS = frozenset({"by", "written by"})
_TEXT_BYLINE = re.compile(
    r"^\s*(?:(?:" + "|".join(_BYLINE_WORDS) + r")\s*:?|" + "|".join(_BYLINE_LABELS) + r")"
    r"\s+(.{3,120})",
    re.S | re.I,
)
_NAME_WORD = re.compile(r"^(?:[^\W\d_][\w'’.-]*|[A-Z]\.)$")  # Name, de, van, J., Müller
_NAME_PARTICLE = re.compile(r"^[a-z]{1,3}$")  # de, van, von, da: lowercase inside a name
_AFFILIATION = re.compile(r"\s*(?:,|\s[-–—]{1,2}\s|\||\s/\s).*$", re.S)
_AND = re.compile(r"\s+(?:and|und|et|y|e|en|og|och|&)\s+")


def _byline_forms() -> str:
    """The first words of byline lines as pages write them, between bars: "|Von|von|VON|
    Von:|...|Written|..." (the line's first word is looked up in it: one test a text)."""
    forms = []
    for phrase in (*_BYLINE_WORDS, *_BYLINE_LABELS):
        word = phrase.split()[0]
        for cased in (word, word.capitalize(), word.upper()):
            forms += [cased, cased + ":"] if not cased.endswith(":") else [cased]
    return "|" + "|".join(dict.fromkeys(forms)) + "|"


_TEXT_BYLINE_XPATH = (
    "//body//text()[contains('" + _byline_forms() + "',"
    " concat('|', substring-before(concat(normalize-space(.), ' '), ' '), '|'))]"
    "[not(ancestor::script or ancestor::style"
    " or ancestor::a[not(contains(@rel, 'author'))])]"
)
# A byline word alone in its element ("<span>von</span><span>Jemima Kelly</span>"): the
# names are in the next elements of the line, at most this many levels up.
BYLINE_WORD_LEVELS = 3


def _text_byline(root: HtmlElement) -> list[str]:
    """Names of the first byline line ("By ...", "Von ...", "Author: ...") whose words
    look like a name, and not like a sentence that starts with the same word."""
    lines = (_byline_line(text) for text in root.xpath(_TEXT_BYLINE_XPATH))
    for line in [line for line in lines if line.text][:20]:
        match = _TEXT_BYLINE.match(line.text[:120])
        if not match:
            continue
        names = _linked_names(line.element, match.group(1)) if line.element is not None else []
        for part in [] if names else _AND.split(_AFFILIATION.sub("", match.group(1))):
            words = _name_words(_DATE_START.sub("", part))
            if words is not None and 2 <= len(words) <= 4 and words[0][:1].isupper():
                names.append(" ".join(words))
        if names:
            return names
    return []


# What may stand between the linked names of a byline line: "<a>A</a>, <a>B</a> und <a>C</a>".
_BETWEEN_NAMES = re.compile(r"^(?:[\s,;&/|·•]|\b(?:and|und|et|y|e|en|og|och)\b)*$", re.I)


def _linked_names(element: HtmlElement, names_text: str) -> list[str]:
    """The names of a byline line that are each a link (to the writer's page) and nothing
    but links and separators: "Von: <a>Bill MCCARTHY</a>, <a>Marisha GOLDHAMER</a>". There
    a comma separates writers; elsewhere what follows it is an affiliation ("By Andy
    Howell, Western Mail")."""
    links = [normalize_space(a.text_content()) for a in element.iter("a")]
    links = [text for text in links if text]
    if len(links) < 2:
        return []
    rest = normalize_space(names_text)
    for text in links:
        rest = rest.replace(text, " ", 1)
    if not _BETWEEN_NAMES.match(rest):
        return []
    names = []
    for text in links:
        words = _name_words(text)
        if words is None or not 2 <= len(words) <= 4 or len(" ".join(words)) != len(text):
            return []  # a link that is not wholly a name: not a line of writers
        names.append(text)
    return names[:MAX_BYLINE_NAMES]


class BylineLine(NamedTuple):
    """A line that starts with a byline word, and the element it was read from where the
    word stood alone in its own (None where the line is one text)."""

    text: str
    element: HtmlElement | None = None


_NO_LINE = BylineLine("")


def _byline_line(text: Any) -> BylineLine:
    """The line a byline word starts: its text, or where the word stands alone in its
    element, the first line (:func:`_first_line`) of the nearest ancestor that holds more
    and starts with it."""
    line = str(text)
    word = normalize_space(line)
    if len(word.split()) > 1 and word.lower() not in _BYLINE_WORDS:
        return BylineLine(line)
    element = text.getparent()
    if word.lower().rstrip(":") in _ENGLISH_BYLINE_WORDS and _in_other_content_by_name(element):
        return _NO_LINE  # a comment's "<span>by </span><a>nick</a>" (Slashdot): no byline
    for _ in range(BYLINE_WORD_LEVELS):
        if element is None:
            return _NO_LINE
        pieces = [t.strip() for t in _first_line(element)]
        joined = " ".join(p for p in pieces if p)
        if not joined.startswith(word):
            return _NO_LINE  # "Theme: Twenty <a>by</a> Moon": the word is inside a line
        if len(joined) > len(word):
            return BylineLine(joined, element) if len(joined) <= MAX_BYLINE_CHARS else _NO_LINE
        element = element.getparent()
    return _NO_LINE


def _first_line(element: HtmlElement) -> list[str]:
    """The texts of ``element`` up to its first ``<br>`` after the byline word's line has
    begun (two texts that are not blank), without a script's or style's: "By <a>John
    Harris</a><br>TRIBUNE-REVIEW" is a line of writers, then the paper's name on a line
    of its own ("<em>by</em><br>Justin Murray, <br>..." begins after a break)."""
    parts: list[str] = []

    def walk(node: HtmlElement) -> bool:  # True once a <br> ends the line
        if node.tag == "br":
            return sum(1 for part in parts if part.strip()) >= 2
        if node.text and node.tag not in ("script", "style"):
            parts.append(node.text)
        for child in node:
            if isinstance(child.tag, str) and walk(child):
                return True
            if child.tail:
                parts.append(child.tail)
        return False

    walk(element)
    return parts


def _name_words(part: str) -> list[str] | None:
    """The words of a name at the start of ``part`` (None where a sentence goes on after
    them: "Von Angela Merkel wurde ..." is no byline)."""
    words = []
    tokens = part.split()
    for index, word in enumerate(tokens):
        if word.lower() in _DATE_TAIL_WORDS and (
            words or index + 1 == len(tokens) or tokens[index + 1].lower() in _DATE_TAIL_WORDS
        ):
            break  # "Dan Goodin Apr 16", "on Saturday"; but "Jan Schmidt" is a first name
        if _NAME_PARTICLE.match(word):
            words.append(word)
            continue
        if not _NAME_WORD.match(word) or not word[:1].isupper():
            if word[:1].islower() and len(words) >= 2:
                return None
            break
        words.append(word)
    while words and _NAME_PARTICLE.match(words[-1]):
        words.pop()
    return words


def _mailto_titles(root: HtmlElement) -> list[str]:
    """``<a title="Ben Schwan" href="mailto:bsc@...">bsc</a>``: the initials sign-off of
    German and Austrian newsrooms, the title holds the name."""
    return [
        normalize_space(a.get("title", ""))
        for a in root.xpath("//a[starts-with(@href, 'mailto:')][@title]")
        if " " in a.get("title", "").strip() and _SIGN_OFF.match(normalize_space(a.text_content()))
    ][:3]


_SIGN_OFF = re.compile(r"^[a-z]{2,4}$")  # "bsc", "anw": a journalist's initials

# "Frank Bodani is a writer for the Daily Record.": the writer's note under a story, a
# paragraph (or its first text) opening with the name and saying the trade.
_BIO = re.compile(
    r"^\s*([A-Z][\w'’.-]+(?:\s+[A-Z][\w'’.-]+){1,3})\s+is\s+(?:a|an|the)\s+"
    r"(?:[\w-]+\s+){0,3}(?:reporter|writer|correspondent|columnist|journalist)\b"
)
_BIO_TEXTS = etree.XPath(
    "//body//text()[contains(., ' is ')][not(ancestor::script or ancestor::style)]"
)
# More writers' notes than this on a page are a list of contributors, not the story's.
MAX_BIO_NAMES = 2


def _bio_names(root: HtmlElement) -> list[str]:
    """The names that the writer's notes of a page open with ("Jim Litke is a national
    sports columnist for The Associated Press."), outside teasers, comments and sidebars:
    the last source of authors, as a story's own byline may credit only the site."""
    names = _dedupe([
        normalize_space(match.group(1))
        for text in _BIO_TEXTS(root)
        if (match := _BIO.match(text)) and not _inside_other_content(text.getparent())
    ])
    return names if len(names) <= MAX_BIO_NAMES else []


# At most this many names from bylines in the text (more are the bylines of teasers).
MAX_TEXT_BYLINE_NAMES = 4
# Chinese and Japanese news pages name people in the text: 作者：X, 记者 X, 文/X, 文・X (not
# 記者会見, 记者会: a press conference); and
# their CMS often puts the responsible editor (责任编辑) in <meta name="author">.
# Japanese names are written with a space between family and given name ("記者：佐藤 健"):
# group 2 is the given name, or on a Chinese page a second person ("记者 王晓 李明"). A
# word after the name is neither: a role ("佐藤健 撮影", the Chinese photo credit "新华社
# 记者 王晓 摄", not "王晓摄") or the place the story was filed from, with the word that
# says so ("佐藤健 北京発", "王晓 北京报道", "北京电": sent from Beijing). A place in
# brackets ("佐藤健（東京）") ends the name by its bracket, and so does a place named with
# its administrative word ("佐藤健 大阪市", "王晓 广东省", "王晓 朝阳区": 市, 県, 省, 区, 府,
# 州 end no given name and no name of one to four characters; 町 and 村 end family names,
# 中村, 北町, and 都 given names, 美都: not read so). A bare place ("記者 佐藤健 東京") is
# not told apart: "東京" is written as a given name is ("長谷川 健一"), and on a Chinese
# page as a second reporter is ("记者 王晓 北京", "王晓 李明"): only a list of places would
# tell them. The same words end a Japanese name read by _spaced_names.
_ADMINISTRATIVE_PLACE = r"[\u4e00-\u9fff]{1,3}(?:市|県|县|縣|省|区|區|府|州)(?![\u4e00-\u9fff])"
_WORDS_AFTER_A_NAME = (
    r"撮影|写真|摄|攝|記者|记者|編集|编辑|特派員|報道|报道|取材|支局|総局|"
    + _CHINESE_CONTRIBUTORS + "|" + _FILED_FROM_PLACE + "|" + _ADMINISTRATIVE_PLACE
)
_NOT_A_NAME_AFTER = r"(?!" + _WORDS_AFTER_A_NAME + r")"
_WORD_AFTER_A_NAME = re.compile(_WORDS_AFTER_A_NAME)
# A Han name of one to four characters and the part after a space that may be its given
# name, not a byline word nor a place filed from (its two groups; see _spaced_han_names).
_HAN_NAME_PARTS = (
    r"([\u4e00-\u9fff·]{1,4})"
    r"(?:[ \u3000]" + _NOT_A_NAME_AFTER + r"([\u4e00-\u9fff]{1,4}))?(?![\u4e00-\u9fff])"
)
_CJK_BYLINE = re.compile(
    r"(?:作者|(?:记者|記者)(?!会|會|招待|団|团|クラブ)|撰文"
    r"|(?<![\u4e00-\u9fff])文(?:・写真(?=[\s/／・:：])|(?=\s*[/／・])))"
    # (a separator's white space after it only: "\s*[…]?\s*" split a long run every way)
    r"\s*(?:[:：︱|/／・]\s*)?"
    + _HAN_NAME_PARTS
)
# More people on a Chinese page: after two ("记者 王晓 李明 张三"), and after one where a
# list says so, by "、" (a space beside it or not) or a contributor's role ("记者 王晓、李明",
# "记者 王晓 通讯员 李明"; after one name a bare word may be the place it was filed from:
# "记者 王晓 北京").
_MORE_CHINESE_NAMES = re.compile(
    r"(?:(?P<listed>[ \u3000]?、[ \u3000]?"
    r"|[ \u3000]?(?:" + _CHINESE_CONTRIBUTORS + r")[ \u3000:：]?)|[ \u3000])"
    + _NOT_A_NAME_AFTER + r"(?P<name>[\u4e00-\u9fff·]{2,4})(?![\u4e00-\u9fff])"
)
# More people on a Japanese page: a name after "、", its parts spaced as the first's may be
# ("記者 佐藤 健、山田 花子"; one name each, see _spaced_han_names), not a role ("写真"). A
# role before the name, then a separator, is the next person's, no name and no end of the
# list: a byline word ("記者 佐藤健、写真 山田花子", "撮影・山田花子") or a word in katakana
# ("カメラマン 山田花子", "ライター：…": a Han name after a katakana word and a space or a
# colon is no foreign name's, which is katakana throughout).
_ROLE_BEFORE_A_LISTED_NAME = (
    r"(?:写真|撮影|記者|編集|取材|文)(?:[ \u3000]?[:：/／・][ \u3000]?|[ \u3000])"
    r"|" + _KATAKANA_ROLE + r"(?:[ \u3000]?[:：/／][ \u3000]?|[ \u3000])"
)
_MORE_JAPANESE_NAMES = re.compile(
    r"[ \u3000]?、[ \u3000]?(?:" + _ROLE_BEFORE_A_LISTED_NAME + ")?"
    + _NOT_A_NAME_AFTER + _HAN_NAME_PARTS
)
# Two space-separated parts of at most this many characters together are one Chinese
# name ("李 明", "王 小明": padded to the width of three), more are two ("王晓 李明").
MAX_CHINESE_SPACED_NAME = 3
# Japanese text is full of hiragana; a Chinese page has none or a few (a brand's "の").
_HIRAGANA = re.compile(r"[\u3041-\u309f]")
JAPANESE_MIN_HIRAGANA = 20
_CJK_EDITOR = re.compile(r"(?:责任编辑|責任編輯|编辑|編輯)\s*[:：︱|]\s*([\u4e00-\u9fff·]{2,4})")
# Korean pages put the role after the name: "홍길동 기자" (a photo or video reporter:
# "홍길동 사진기자"), after the names of all who wrote it, joined by a middle dot
# ("홍길동·김철수 기자", ㆍ in many Korean fonts). The byline words 글 and 사진 (text,
# photo: "글 홍길동 기자 사진 김철수 기자") before a name and the role are no part of it, in
# a text, a byline element (its pieces joined by " | ") or a meta tag alike; the agency and
# place before them ("[서울=뉴시스] 홍길동 기자 =") are dropped as brackets are. A name
# before a comma is one more: in a meta tag or a byline element split as any list, in a
# text read back from the match where the list opens the text (_korean_text_names).
# (A list is sought from its first name or the byline word before it alone: from a name
# after a dot and a name of two to four letters before it, which would start the same
# list and end where it ends, the expression read the rest of the list once more, a time
# the square of its length. A name after "기자·" is sought, unless that 기자 is in a list
# itself: a match before may have ended with it.)
_NOT_IN_A_KOREAN_LIST = "".join(
    rf"(?<!(?<![\uac00-\ud7af])[\uac00-\ud7af]{{{letters}}}(?<!기자){before}[·ㆍ・]{after})"
    rf"(?<![·ㆍ・]{listed}[\uac00-\ud7af]{{{letters - 2}}}기자{before}[·ㆍ・]{after})"
    for letters in (2, 3, 4)
    for before in ("", " ")
    for after in ("", " ")
    for listed in ("", " ")
)
_KOREAN_BYLINE = re.compile(
    r"(?<![\uac00-\ud7af])(?:(?:글|사진|그림|영상|취재)\s*[:：]?\s+|" + _NOT_IN_A_KOREAN_LIST + ")"
    r"((?:[\uac00-\ud7af]{2,4} ?[·ㆍ・] ?)*[\uac00-\ud7af]{2,4})(?:\s+|\s*\|\s*)"
    r"(?:(?:사진|영상|취재|수습|인턴)\s*)?기자(?![\uac00-\ud7af])"
)
_KOREAN_NAMES_SEPARATOR = re.compile(" ?[·ㆍ・] ?")


def _korean_names(match: re.Match[str]) -> list[str]:
    return _KOREAN_NAMES_SEPARATOR.split(match.group(1))


# A name listed before a comma in a Korean text byline ("홍길동, 김철수 기자"), read back
# from the names before 기자: a word of two to four Hangul letters, the shape of a Korean
# name, where the list opens the text or follows an agency's bracket or "=" ("[서울=뉴시스]
# 홍길동, 김철수 기자"); running text before a comma is no list of names. A word of a
# paper's or an agency's name (_ORGANIZATION_WORDS: 연합뉴스, 조선일보) is none.
_KOREAN_NAME_BEFORE_A_COMMA = re.compile(r"(?<![\uac00-\ud7af])([\uac00-\ud7af]{2,4}) ?, ?\Z")
_KOREAN_LIST_OPENS_AFTER = "])）】=/|"
_SPACE = re.compile(r"\s*")
# A list longer than this before 기자 is not read back further.
MAX_KOREAN_COMMA_NAMES = 4


def _korean_text_names(match: re.Match[str]) -> list[str]:
    """The names of a Korean byline in a text (``match`` of _KOREAN_BYLINE), with those
    listed before it with commas; none where the 기자 goes on as a sentence (see
    _continues_a_sentence)."""
    text = match.string
    start = match.start(1)
    listed: list[str] = []
    while len(listed) < MAX_KOREAN_COMMA_NAMES:
        before = _KOREAN_NAME_BEFORE_A_COMMA.search(text, max(0, start - 8), start)
        if not before or _ORGANIZATION_WORDS.search(before.group(1)):
            break
        listed.insert(0, before.group(1))
        start = before.start()
    if listed:
        head = text[max(0, start - 100) : start].rstrip()
        if head:
            opens = head[-1:] in _KOREAN_LIST_OPENS_AFTER
        else:  # nothing but white space before it, from the start of the text?
            opens = _SPACE.match(text).end() >= start  # type: ignore[union-attr]
        if not opens:
            listed = []
            start = match.start(1)
    # after an agency's dateline ("[서울=연합뉴스] 김철수 기자 이날 정부는 ..."), the story
    # may follow 기자 without the "=" that usually ends the byline: only its first word
    # ties 기자 into a sentence there
    # ("[서울=연합뉴스] 이날 기자 간담회에서 ..."), unless that word makes one noun with
    # 기자 ("이날 기자 회견 도중 말했다": a press conference, the sentence read on as
    # without a dateline)
    dated = _KOREAN_DATELINE.search(text, max(0, start - MAX_KOREAN_DATELINE), start)
    if dated and _KOREAN_REPORTER_COMPOUND.match(text, match.end()):
        dated = None
    if _continues_a_sentence(text, match.end(), 1 if dated else MAX_KOREAN_WORDS_AFTER):
        return []
    return listed + _korean_names(match)


# What follows a byline's 기자 in running text: "이날 기자 간담회에서" (at a press
# conference that day) is no byline of 이날. One of the next words (up to the first that is
# no Hangul word, four at most) ends in a particle that ties it into a sentence (에서, 을,
# 는 ...) or in the 다 that ends one ("이날 기자 회견 도중 말했다"), unless a second
# reporter's name comes first, 기자 after it ("홍길동 기자 이지은 기자"); a byline's next
# words are a label, a date, an e-mail ("홍길동 기자 입력 2024.01.05", "홍길동 기자
# hong@...") or nothing.
_WORD_AFTER_KOREAN_BYLINE = re.compile(r"\s+([\uac00-\ud7af]+)")
# An agency's dateline before a Korean byline: a place and the agency in brackets, joined
# by "=" ("[서울=연합뉴스]", "【서울=뉴시스】"), white space after it; read back this far.
_KOREAN_DATELINE = re.compile(r"[\[【(（][^\[\]【】()（）=]{1,20}=[^\[\]【】()（）=]{1,20}[\]】)）]\s*\Z")
MAX_KOREAN_DATELINE = 48
# Nouns written after 기자 as one word with it, spaced or not: 기자 회견 (a press
# conference), 기자 간담회, 기자 설명회, 기자 브리핑.
_KOREAN_REPORTER_COMPOUND = re.compile(r"\s+(?:회견|간담회|설명회|브리핑)")
_KOREAN_SENTENCE_ENDS = frozenset("은는이가을를에의와과도로서게께만다")
MAX_KOREAN_WORDS_AFTER = 4


def _continues_a_sentence(text: str, end: int, read: int = MAX_KOREAN_WORDS_AFTER) -> bool:
    words = []  # one more than are read: the last read may be a name before 기자
    while len(words) <= read:
        if not (word := _WORD_AFTER_KOREAN_BYLINE.match(text, end)):
            break
        words.append(word.group(1))
        end = word.end()
    for index, word in enumerate(words[:read]):
        following = words[index + 1] if index + 1 < len(words) else ""
        if following.endswith("기자") and 2 <= len(word) <= 4:
            return False  # a second reporter's name (see _KOREAN_BYLINE)
        if word[-1] in _KOREAN_SENTENCE_ENDS:
            return True
    return False


# A contributor's role after a name, with or without a space ("王晓 实习生李明", "王晓
# 通讯员 李明"): the next name is one more person, as after "、".
_CONTRIBUTOR_AFTER_A_NAME = re.compile(
    r"(?<=[\u4e00-\u9fff·]) ?(?:" + _CHINESE_CONTRIBUTORS + r") ?[:：]? ?"
)
_CJK_MARKERS = ("作者", "记者", "記者", "撰文", "文/", "文／", "文・", "编辑", "編輯", "기자")
_CJK_MARKER = re.compile("|".join(_CJK_MARKERS))


def _cjk_text_nodes(evidence: Evidence) -> list[str]:
    if evidence.source and not _CJK_MARKER.search(evidence.source):
        return []
    root = evidence.root
    condition = " or ".join(f"contains(., '{marker}')" for marker in _CJK_MARKERS)
    # Not "//body//text()": libxml2 merges the text of each descendant into one node set,
    # quadratic on a page of many nested blocks (see _page_text in extract.py).
    texts = root.xpath(f"/descendant::text()[ancestor::body][{condition}][not(ancestor::script)]")
    return [str(t) for t in texts]


def _cjk_bylines(texts: list[str], is_japanese: Callable[[], bool]) -> list[str]:
    names = []
    for text in texts:
        if _CJK_EDITOR.search(text):
            continue
        for match in _CJK_BYLINE.finditer(text):
            found = _spaced_han_names(match.group(1), match.group(2), is_japanese)
            if len(found) == 2 or (len(found) == 1 and not is_japanese()):
                found += _more_chinese_names(text, match.end(), listed=len(found) == 1)
            elif found:
                found += _more_japanese_names(text, match.end(), is_japanese)
            names.extend(found)
        names.extend(name for m in _KOREAN_BYLINE.finditer(text) for name in _korean_text_names(m))
    return list(dict.fromkeys(names))[:MAX_TEXT_BYLINE_NAMES]


def _more_chinese_names(text: str, end: int, listed: bool) -> list[str]:
    """The names after a Chinese byline's first ones, from ``end`` of ``text``; ``listed``:
    the first needs a list's "、" or a contributor's role before it."""
    names = []
    while (more := _MORE_CHINESE_NAMES.match(text, end)) and (more["listed"] or not listed):
        names.append(more["name"])
        end = more.end()
        listed = False
    return names


def _more_japanese_names(text: str, end: int, is_japanese: Callable[[], bool]) -> list[str]:
    """The names listed with "、" after a Japanese byline's first, from ``end`` of ``text``."""
    names = []
    while more := _MORE_JAPANESE_NAMES.match(text, end):
        name = "".join(_spaced_han_names(more.group(1), more.group(2), is_japanese))
        if not name:
            break
        names.append(name)
        end = more.end()
    return names


def _spaced_han_names(
    family: str, given: str | None, is_japanese: Callable[[], bool]
) -> list[str]:
    """The names of a Han name and the part after a space, in a text byline, a byline
    element or a meta tag alike. "佐藤 健" is one Japanese name, written without the space
    ("佐藤健", as ``_as_name`` writes all CJK names); "王晓 李明" on a Chinese page is two
    people; a single character after a name too long to be padded is neither. On a
    Japanese page family and given names have one to three characters (four, 勅使河原, is
    rare): four written together are a whole name (two and two: "佐藤健一"), and a part of
    four after a space is no given name; the part that does not fit is no person either
    (a bare place: "佐藤健一 東京"), so the first part alone is the name."""
    if given and len(family) <= 3 and len(given) <= 3 and (
        len(family) + len(given) <= MAX_CHINESE_SPACED_NAME or is_japanese()
    ):
        return [family + given]
    names = [family] if len(family) >= 2 else []
    if names and given and len(given) >= 2 and not is_japanese():
        names.append(given)
    return names


def _spaced_names(run: re.Match[str], is_japanese: Callable[[], bool]) -> str:
    """The names of a run of spaced Han parts, read as a text byline reads them (see
    _cjk_bylines), once a byline word before them is cut ("记者 李 明 北京"): the first
    part and the second where it is a given name (not a role, "撮影", nor a place with the
    word that says so). On a Japanese page one name, the parts after them not read ("山田
    花子 東京"). On a Chinese page, where the first two are two people ("王晓 李明"), each
    part of two to four characters after them is one more, listed with "、" ("王晓、李明、张三");
    after one name ("李 明", "王 小明") the parts after it are not read ("李 明 北京")."""
    family, given, *more = _without_prefix(run.group()).split(" ") + [""]
    if not given:
        return family
    if _WORD_AFTER_A_NAME.match(given):
        if is_japanese():
            return family if len(family) >= 2 else ""
        return family + "、" + " ".join(more)  # "王晓 记者 李明": the rest read as before
    names = _spaced_han_names(family, given, is_japanese)
    if is_japanese():
        return "".join(names)
    if len(names) == 2:
        for part in more:
            if not 2 <= len(part) <= 4 or _WORD_AFTER_A_NAME.match(part):
                break
            names.append(part)
    return "、".join(names)


def _is_japanese(evidence: Evidence) -> bool:
    """Whether the page is Japanese: its <html lang> says so, or, declaring no Chinese
    (a Chinese page's ads or links may hold kana, and the count scans the whole source
    on a page with few), its source holds :data:`JAPANESE_MIN_HIRAGANA` hiragana."""
    lang = (evidence.html_lang or "").lower()
    if lang.startswith("ja"):
        return True
    if lang.startswith("zh"):
        return False
    hiragana = _HIRAGANA.finditer(evidence.source)
    return sum(1 for _ in zip(range(JAPANESE_MIN_HIRAGANA), hiragana)) >= JAPANESE_MIN_HIRAGANA


def _cjk_editors(texts: list[str]) -> set[str]:
    return {m.group(1) for text in texts for m in _CJK_EDITOR.finditer(text)}
