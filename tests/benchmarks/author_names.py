"""Is an exported author plausibly a person's name? A check for the benchmarks only.

The benchmark counts an organisation's name apart from the other doubts: it is no
person, but the extractor keeps an agency byline on purpose.

Written apart from newsstem/metadata/authors.py on purpose: it shares none of its
word lists or patterns, so a rule of the extractor cannot make its own output look
right here. It judges a name alone, with no page, and errs towards flagging: a
flagged name is one a reader should look at, not a proven error (an agency such as
"dpa" is flagged as lowercase, for one). Non-Latin names are only checked for digits
and sentence punctuation.

>>> doubt("Posted by")
'interface word: posted'
>>> doubt("Click here to")
'interface word: click'
>>> doubt("is many")
'sentence word: is'
>>> doubt("Jean-Luc de la Tour") is None, doubt("Theresa May") is None
(True, True)
>>> doubt("张三") is None
True
>>> doubt("Read"), doubt("Richard Read"), doubt("The Associated Press")
('interface word: read', None, 'organisation')
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["doubt", "MAX_WORDS", "ORGANISATION"]

# What :func:`doubt` says of an organisation's name: not junk, but no person either.
ORGANISATION = "organisation"

# Longer than this is a phrase, not a name ("Juan Carlos de la Vega Ruiz" has 6 words).
MAX_WORDS = 6

# Words that build a sentence and stand in no person's name, in the languages of the
# corpora's Latin-script pages; counted where the name writes them in lowercase (a
# name capitalises its words, so "Theresa May" and "Will Smith" are no sentence).
# Name particles are left out on purpose (see NAME_PARTICLES).
SENTENCE_WORDS = frozenset(
    # English: articles, pronouns, auxiliaries, prepositions, conjunctions
    "the a an is are was were be been being am has have had does did will would shall "
    "should can could may might must this that these those it its he she they we you your "
    "our their his her my me us them to of in on at for from with by about into over "
    "under after before than then there here what which who whom whose when where why how "
    "not no yes all any some many much more most very also just only or but if so as and "
    "nor yet "
    # German
    "ist sind war wurde werden hat haben ein eine einer eines dem im am zum zur mit "
    "für auf aus bei nach über unter oder aber nicht auch wie was wer wo und "
    # French, Spanish, Portuguese, Italian
    "est sont était une pour dans sur avec pas qui que quoi ou mais aussi "
    "es son fue una para con por sin sobre pero como más muy "
    "é são foi um uma com sem mais "
    "è sono era il gli uno nel per non che".split()
)
# Of those, the ones that no name holds even capitalised ("The Editors", "By Jane").
NEVER_IN_NAMES = frozenset(
    "the this that these those our your we you they it is are was were has have to of for "
    "from with by about what which how why here there not all also if and or but".split()
)
# Words of a page's interface: links, buttons, widgets, counters; any case, except those
# that are also names ("Glenn Close", "Emily Post", "Richard Read": AMBIGUOUS), which
# count in lowercase or where every word of the name is such a word ("Read", "Read More").
INTERFACE_WORDS = frozenset(
    "click read share shares comment comments reply posted post posts subscribe sign login "
    "log register menu home search view follow print email mail newsletter tweet like likes "
    "continue next previous back top skip more less show hide close open download watch "
    "listen video videos photo photos image gallery advertisement sponsored cookie cookies "
    "privacy terms contact loading related updated published minutes minute hours hour "
    "ago today yesterday min".split()
)
AMBIGUOUS = frozenset("post home back top like more close watch mail log read".split())
# Lowercase words that start or stand inside real names ("de la Vega", "van Gogh").
NAME_PARTICLES = frozenset(
    "de da di do dos das du van von der den del della dello la le el al bin ben ter ten "
    "zu y e".split()
)
_DIGIT = re.compile(r"\d")
# Punctuation no name holds: of a sentence, a URL, a handle, a counter, a menu.
_NOT_IN_NAMES = re.compile(r"[:;!?@#/\\|<>{}\[\]=+*%©®™…\"“”«»]")
_WEB_ADDRESS = re.compile(r"\w\.(?:com|net|org|co|info|biz|io|[a-z]{2})\b", re.I)
# Words of organisations: an agency or a publisher as author is flagged apart (the
# extractor keeps agencies on purpose where no person is named).
ORGANISATION_WORDS = frozenset(
    "press associated news times agency network corporation corporate inc ltd llc media "
    "group office institute university service trust advertiser herald tribune daily "
    "journal magazine gazette post wire reuters sports company foundation".split()
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def _latin(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and all("LATIN" in unicodedata.name(c, "") for c in letters)


def doubt(name: str) -> str | None:
    """Why ``name`` is not plausibly a person's name, or None when it may be one."""
    text = " ".join(name.split())
    if not any(c.isalpha() for c in text):
        return "no letters"
    if _DIGIT.search(text):
        return "digits"
    mark = _NOT_IN_NAMES.search(text)
    if mark:
        return f"punctuation {mark.group()}"
    if not _latin(text):
        return None
    if _WEB_ADDRESS.search(text):
        return "web address"
    words = _WORD.findall(text)
    if any(word.lower() in ORGANISATION_WORDS for word in words if not word.islower()):
        return ORGANISATION
    only_ui = all(w.lower() in INTERFACE_WORDS or w.lower() in SENTENCE_WORDS for w in words)
    for word in words:
        lowered = word.lower()
        if lowered in INTERFACE_WORDS and (word.islower() or lowered not in AMBIGUOUS or only_ui):
            return f"interface word: {lowered}"
    for word in words:
        lowered = word.lower()
        if lowered in SENTENCE_WORDS and (word.islower() or lowered in NEVER_IN_NAMES):
            return f"sentence word: {lowered}"
    if text[:1].islower() and words[0] not in NAME_PARTICLES:
        return "starts lowercase"
    if len(words) > MAX_WORDS:
        return f"{len(words)} words"
    return None
