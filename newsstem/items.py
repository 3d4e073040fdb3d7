"""What flows through the crawl: a fetched ``Page`` in, an ``Article`` out.

The spider yields a :class:`Page` for every HTML response; the extraction
pipeline turns it into an :class:`Article` (exported as one JSON line) or drops
it with a reason (hub pages, pages with no article).
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field


@dataclass
class Page:
    """One fetched HTML page, decoded, with what the crawl knows about it."""

    url: str
    site: str
    html: str
    encoding: str
    depth: int
    fetched_at: str  # ISO 8601 UTC, e.g. "2026-11-21T23:55:05Z"
    status: int = 200
    anchor_texts: list[str] = field(default_factory=list)
    # the date a sitemap or feed that listed this page gave it (ISO 8601), if any
    listed_published: str | None = None
    # browser mode: the HTML is the rendered DOM, and the boxes the browser measured
    # (newsstem.visual) came with it
    rendered: bool = False
    boxes: dict | None = None


@dataclass
class Article:
    """An exported article: one line of the JSON Lines output.

    ``length`` counts the meaningful characters of ``body`` (letters, digits,
    CJK characters). ``method`` says how the body was found: ``"readability"``
    (the heuristic fallback), ``"pattern:<id>"`` (a learned site layout) or ``"visual"``
    (browser mode: the main box of the rendered page).
    ``sub`` is the supplementary text a pattern found beside the article
    (captions, related links, comments: Webstemmer's SUB blocks), None otherwise.
    """

    url: str
    site: str
    title: str
    body: str
    length: int
    method: str
    depth: int
    fetched_at: str
    anchor_texts: list[str] = field(default_factory=list)
    body_html: str | None = None
    sub: str | None = None
    # -- metadata (newsstem.metadata, filled by MetadataPipeline; None/[] when unknown)
    published: str | None = None  # ISO 8601, with the page's offset when it gives one
    modified: str | None = None
    authors: list[str] = field(default_factory=list)
    language: str | None = None  # BCP 47, checked against the text
    description: str | None = None
    image: str | None = None  # absolute URL of the lead image
    canonical_url: str | None = None
    site_name: str | None = None
    tags: list[str] = field(default_factory=list)
    section: str | None = None
    # The page the article came from, for the pipelines after extraction (its
    # HTML): not a field, never exported; MetadataPipeline lets go of it.
    page: InitVar[Page | None] = None
    # The body as plain text when ``body`` is Markdown or HTML (NEWSSTEM_BODY_FORMAT),
    # for the pipelines after extraction: not a field, never exported.
    text: InitVar[str | None] = None
    # The site-name affixes the site's pattern file records (removed from the headline
    # by MetadataPipeline): not a field, never exported.
    title_affixes: InitVar[tuple[str, ...]] = ()
    # Where ``title`` came from, for MetadataPipeline's headline decision: ``pattern``
    # (a learned title block) or ``extraction`` (PageExtraction.title_source): not a
    # field, never exported.
    title_source: InitVar[str] = "extraction"

    def __post_init__(
        self, page: Page | None, text: str | None, title_affixes: tuple[str, ...],
        title_source: str,
    ) -> None:
        self.source: Page | None = page
        self.text: str = self.body if text is None else text
        self.title_affixes: tuple[str, ...] = tuple(title_affixes)
        self.title_source: str = title_source
