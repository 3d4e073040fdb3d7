"""Body formats benchmark: the Markdown body carries the text body's words, on every corpus.

    python tests/benchmarks/formats.py                    # every corpus
    python tests/benchmarks/formats.py --corpus mozilla   # some corpora

For every page the readability extraction runs once; its text body and the Markdown of
its cleaned HTML (:func:`newsstem.formats.html_to_markdown`, links on) with the markup
stripped (:func:`newsstem.formats.markdown_text`) are scored against the gold text with
the project's token-shingle F1, on the whole corpus and on its tuning and held-out halves
(:func:`corpora.halves`). The two F1 must be equal; pages whose stripped Markdown is not
the text body are counted.

If markdownify is installed, it converts the same cleaned HTML side by side; its Markdown
is read back to text through markdown-it-py (CommonMark, tables on) and
:func:`newsstem.readability.render.html_text`, and both converters are timed in the same
loop (a ratio, never an absolute figure). Without the shared corpora the script prints
a message and exits 0.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # corpora.py beside this file

from corpora import CorpusPage, corpora_root, corpus_names, halves, load_corpus

from newsstem.evaluation import score_corpus
from newsstem.formats import html_to_markdown, markdown_text
from newsstem.readability import extract
from newsstem.readability.render import html_text


def markdownify_text(body_html: str) -> tuple[str, str]:
    """The text markdownify's Markdown of the cleaned HTML reads back to, and the Markdown."""
    from markdown_it import MarkdownIt
    from markdownify import markdownify

    converted = markdownify(body_html, heading_style="ATX")
    return html_text(MarkdownIt("commonmark").enable("table").render(converted)), converted


def run_corpus(name: str, pages: list[CorpusPage], peer: bool) -> None:
    text: dict[str, str] = {}
    stripped: dict[str, str] = {}
    peer_text: dict[str, str] = {}
    ours_seconds = peer_seconds = 0.0
    differ = 0
    for page in pages:
        result = extract(page.html, url=page.url)
        text[page.id] = result.body
        started = time.perf_counter()
        rendered = html_to_markdown(result.body_html, links=True) if result.body else ""
        ours_seconds += time.perf_counter() - started
        stripped[page.id] = markdown_text(rendered)
        differ += stripped[page.id] != result.body
        if peer and result.body:
            started = time.perf_counter()
            peer_text[page.id], _ = markdownify_text(result.body_html)
            peer_seconds += time.perf_counter() - started
        elif peer:
            peer_text[page.id] = ""
    split = halves(pages)
    print(f"\n{name} ({len(pages)} pages; stripped Markdown differs from the text body on "
          f"{differ})")
    outputs = {"text body": text, "markdown, stripped": stripped}
    if peer:
        outputs["markdownify, read back"] = peer_text
    for label, output in outputs.items():
        figures = [score_corpus((output[p.id], p.gold) for p in pages).f1]
        for half in ("tune", "held-out"):
            chosen = [p for p in pages if split[p.id] == half]
            figures.append(score_corpus((output[p.id], p.gold) for p in chosen).f1)
        print(f"  {label:<24} F1 {figures[0]:.4f}  tune {figures[1]:.4f}  "
              f"held-out {figures[2]:.4f}")
    if peer and ours_seconds:
        print(f"  speed html_to_markdown / markdownify: {peer_seconds / ours_seconds:.1f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", nargs="+", help="corpora to run (default: all)")
    parser.add_argument("--no-peer", action="store_true", help="skip markdownify")
    args = parser.parse_args(argv)
    root = corpora_root()
    if root is None:
        print("No corpora found (../shared/corpora or $NEWSSTEM_CORPORA): benchmark skipped.")
        return 0
    available = corpus_names(root)
    wanted = args.corpus or available
    unknown = sorted(set(wanted) - set(available))
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; available: {', '.join(available)}")
    peer = not args.no_peer
    if peer:
        try:
            import markdown_it  # noqa: F401
            import markdownify  # noqa: F401
        except ImportError:
            print("markdownify or markdown-it-py not installed: newsstem only.")
            peer = False
    for name in wanted:
        run_corpus(name, load_corpus(root, name), peer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
