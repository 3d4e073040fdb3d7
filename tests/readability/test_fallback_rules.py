"""Each rule added to the fallback for sites it was never tuned on, on the real page where
it matters (excerpts in fixtures/rules/, sources in fixtures/SOURCES.md): the paragraphs
it keeps and the ones it drops."""

from __future__ import annotations

from pathlib import Path

from newsstem.readability import extract

RULES = Path(__file__).parent / "fixtures" / "rules"


def body_of(name: str, url: str | None = None) -> str:
    result = extract((RULES / f"{name}.html").read_text(encoding="utf-8"), url=url)
    assert result.reason is None, result.reason
    return result.body


def test_relaxed_attempts_still_leave_out_the_comment_thread():
    # A short post (under the sieve's 250 characters) makes the sieve relax its flags;
    # the relaxed attempts used to read the longer reader comments as the article.
    body = body_of("comments-after-short-post")
    assert "After all, silence and slowness lead to reflection." in body
    assert "this sticks out like a sore thumb" not in body
    assert "online etymology dictionary" not in body
