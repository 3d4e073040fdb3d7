"""Fundus's own parsers on the corpus pages of the publishers it covers, written as a
``--save`` file of extraction.py (extractor name ``fundus``) to score beside the others.

    unshare -n venv-fundus/bin/python tests/benchmarks/fundus_peer.py --save fundus.json

Fundus is no general extractor: it has one hand-written parser per publisher (and per
layout era of it), so it is run only on the pages whose URL host is one of its
publishers' domains, with the publisher's latest parser (``publisher.parser()``, the
one its crawler uses for a page crawled today), ``parse(html, error_handling=
"suppress")`` and the body's text (``str(extraction["body"])``, what its
``Article.plaintext`` is). Pages it has no publisher for are left out of the file.

Its own corpus (``fundus``) is listed for a check of the call only: that corpus's gold
*is* these parsers' output, so it is no comparison. It needs a venv of its own
(fundus pins lxml < 6; requirements-peers.txt says how), never network: run it under
``unshare -n`` to be sure. Without the shared corpora it prints a message and exits 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # corpora.py beside this file

from corpora import corpora_root, corpus_names, load_corpus


def publishers_by_host() -> dict[str, object]:
    from fundus import PublisherCollection

    found = {}
    for publisher in PublisherCollection:
        host = urlsplit(publisher.domain).hostname or publisher.domain
        found[host.removeprefix("www.")] = publisher
    return found


def publisher_of(url: str | None, publishers: dict[str, object]) -> object | None:
    host = (urlsplit(url or "").hostname or "").removeprefix("www.")
    while host:
        if host in publishers:
            return publishers[host]
        host = host.partition(".")[2]
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--save", type=Path, required=True, metavar="FILE")
    parser.add_argument("--corpus", nargs="+", help="corpora to run (default: all)")
    args = parser.parse_args(argv)
    root = corpora_root()
    if root is None:
        print("No corpora found (../shared/corpora or $NEWSSTEM_CORPORA): benchmark skipped.")
        return 0
    publishers = publishers_by_host()
    data: dict[str, dict] = {}
    for name in args.corpus or corpus_names(root):
        pages = load_corpus(root, name)
        outputs, seconds, errors = {}, 0.0, 0
        for page in pages:
            publisher = publisher_of(page.url, publishers)
            if publisher is None:
                continue
            started = time.perf_counter()
            try:
                extraction = publisher.parser().parse(page.html, error_handling="suppress")
                body = extraction.get("body")
                text, note = (str(body) if body else ""), ""
            except Exception as error:  # noqa: BLE001 - a parser's crash is a counted result
                text, note = "", f"error: {error!r}"
                errors += 1
            seconds += time.perf_counter() - started
            outputs[page.id] = {"fundus": {"text": text, "note": note}}
        data[name] = outputs
        print(f"{name:<14} {len(outputs):4} of {len(pages):4} pages have a fundus publisher;"
              f" {sum(1 for o in outputs.values() if o['fundus']['text'])} with a body,"
              f" {errors} errors, {seconds:.1f} s")
    args.save.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
