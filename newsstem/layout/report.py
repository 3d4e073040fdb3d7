"""A report of what ``scrapy learn`` learned, as one HTML file a person opens.

Per site and pattern: its kind, score and pages, the blocks in page order with their role
(title, main, sub, none), DiffScore, MainScore, presence and a sample of their text on one
member page, and a screenshot of that page with the blocks outlined one colour per role
(when a browser could take it); the layouts refused, with the reason. Plain data and
HTML in, files out: the screenshots are taken by the caller
(:func:`newsstem.render.screenshot`), this module imports nothing from Scrapy or a browser.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from newsstem.encoding import decode_html
from newsstem.layout.blocks import BlockParser
from newsstem.layout.learn import LearnResult, TrainingPage
from newsstem.layout.patterns import LayoutPattern, SitePatterns
from newsstem.text import counted

__all__ = ["BlockRow", "PatternReport", "ROLE_COLOURS", "SiteReport", "site_report", "write_report"]

ROLE_COLOURS = {"title": "#d62728", "main": "#1f77b4", "sub": "#2ca02c", "none": "#aaaaaa"}
SAMPLE_CHARS = 160
# A block is outlined on the screenshot by its first and last line of at least this many
# characters (a shorter one, "Share", starts too many texts of the page), each cut to
# OUTLINE_LINE_CHARS (the search in the page reads their start: render.OUTLINE_BLOCKS).
OUTLINE_MIN_CHARS = 8
OUTLINE_LINE_CHARS = 60


@dataclass(frozen=True)
class BlockRow:
    role: str
    diff: float
    main: float
    presence: float
    key: str
    sample: str  # the block's text on the member page ("" where that page lacks it)


@dataclass
class PatternReport:
    pattern: LayoutPattern
    member_url: str | None
    member_html: str | None
    blocks: list[BlockRow]
    screenshot: str | None = None  # file name in the report's directory
    # (role, first line, last line) of each block: what the screenshot outlines
    outlines: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class SiteReport:
    site: str
    patterns: list[PatternReport]
    refused: list[tuple[int, str]]  # (pages, reason) of layouts without a pattern


def site_report(site: str, result: LearnResult, pages: Sequence[TrainingPage]) -> SiteReport:
    """What was learned for ``site``, each pattern shown on the first of its pages."""
    by_url = {page.url: page for page in pages}
    site_patterns = SitePatterns(result.pattern_set)
    parser = BlockParser()
    reports = []
    for pattern in result.pattern_set.patterns:
        member = next((by_url[url] for url in pattern.sources if url in by_url), None)
        texts: dict[str, str] = {}
        if member is not None:
            layout = parser.decompose(member.html, site_patterns.key_filter)
            for block in layout.blocks:
                texts.setdefault(block.key, block.text)
        rows = [
            BlockRow(b.role, b.diff_score, b.main_score, b.presence, b.key,
                     _sample(texts.get(b.key, "")))
            for b in pattern.blocks
        ]
        outlines = [(row.role, *_end_lines(texts.get(row.key, ""))) for row in rows]
        member_html = None
        if member is not None:
            member_html = member.html
            if isinstance(member_html, bytes):
                member_html = decode_html(member_html)[0]
        reports.append(PatternReport(
            pattern, member.url if member else None, member_html, rows,
            outlines=[outline for outline in outlines if len(outline[1]) >= OUTLINE_MIN_CHARS],
        ))
    refused = [(o.pages, o.reason) for o in result.outcomes if o.pattern_id is None and o.pages > 1]
    return SiteReport(site, reports, refused)


def _sample(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SAMPLE_CHARS else flat[: SAMPLE_CHARS - 1] + "…"


def _end_lines(text: str) -> tuple[str, str]:
    """The first and the last line of a block's text long enough to be found on the page."""
    lines = [
        line.strip()[:OUTLINE_LINE_CHARS]
        for line in text.split("\n")
        if len(line.strip()) >= OUTLINE_MIN_CHARS
    ]
    return (lines[0], lines[-1]) if lines else ("", "")


Screenshotter = Callable[[str, str | None, list[tuple[str, str, str]], Path], bool]


def write_report(
    directory: str | Path, sites: Sequence[SiteReport], screenshot: Screenshotter | None,
    no_screenshot_reason: str = "",
) -> Path:
    """Write ``directory/index.html`` (and one PNG per pattern when ``screenshot`` is
    given: ``screenshot(html, url, outlines, path) -> taken``); returns its path."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for site in sites:
        for number, report in enumerate(site.patterns, 1):
            if screenshot is None or report.member_html is None:
                continue
            name = f"{_file_part(site.site)}-{number}.png"
            if screenshot(report.member_html, report.member_url, report.outlines, directory / name):
                report.screenshot = name
    path = directory / "index.html"
    path.write_text(_html(sites, screenshot is not None, no_screenshot_reason), encoding="utf-8")
    return path


def _file_part(site: str) -> str:
    return "".join(c if c.isalnum() or c in ".-" else "_" for c in site)


def _html(sites: Sequence[SiteReport], screenshots: bool, reason: str) -> str:
    e = html.escape
    legend = " ".join(
        f'<span style="border:3px solid {colour};padding:0 4px">{role}</span>'
        for role, colour in ROLE_COLOURS.items()
    )
    out = [
        "<!doctype html><html><head><meta charset='utf-8'><title>newsstem: learned layouts"
        "</title><style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 6px;vertical-align:top}"
        "img{max-width:900px;border:1px solid #999}.k{font:11px monospace;color:#555}"
        "</style></head><body><h1>Learned layouts</h1>",
        f"<p>Roles: {legend}</p>",
    ]
    if not screenshots:
        out.append(f"<p><b>No screenshots</b>: {e(reason or 'no browser was available')}.</p>")
    for site in sites:
        out.append(f"<h2 id='{e(site.site)}'>{e(site.site)}</h2>")
        if not site.patterns:
            out.append("<p>No pattern learned.</p>")
        for report in site.patterns:
            p = report.pattern
            out.append(
                f"<h3 id='{e(p.id)}'>{e(p.id)}: {e(p.kind)} pattern, {counted(p.pages, 'page')}, "
                f"score {p.score:.0f}</h3>"
            )
            out.append("<details><summary>pages</summary><ul>" + "".join(
                f"<li><a href='{e(url)}'>{e(url)}</a></li>" for url in p.sources
            ) + "</ul></details>")
            if report.screenshot:
                out.append(f"<p>{e(report.member_url or '')}<br><img src='{e(report.screenshot)}'"
                           f" alt='{e(p.id)} on {e(report.member_url or '')}'></p>")
            elif screenshots:
                out.append("<p>(no screenshot of this pattern's page could be taken)</p>")
            out.append("<table><tr><th>#</th><th>role</th><th>DiffScore</th><th>MainScore</th>"
                       "<th>presence</th><th>text on the page shown / key</th></tr>")
            for number, row in enumerate(report.blocks, 1):
                colour = ROLE_COLOURS.get(row.role, "#aaa")
                out.append(
                    f"<tr><td>{number}</td><td style='border-left:6px solid {colour}'>"
                    f"{e(row.role)}</td><td>{row.diff:.2f}</td><td>{row.main:.0f}</td>"
                    f"<td>{row.presence:.2f}</td><td>{e(row.sample)}"
                    f"<div class='k'>{e(row.key)}</div></td></tr>"
                )
            out.append("</table>")
        if site.refused:
            out.append("<h3>Layouts without a pattern</h3><ul>" + "".join(
                f"<li>{counted(pages, 'page')}: {e(reason)}</li>" for pages, reason in site.refused
            ) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out)
