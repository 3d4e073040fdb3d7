"""Feed storages for crawls run in a subprocess by the tests (``FEED_STORAGES``)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any
from urllib.parse import urlparse

from scrapy.extensions.feedexport import BlockingFeedStorage


class UploadStorage(BlockingFeedStorage):
    """Stored at the end as an upload is (S3, FTP, GCS): the items sit in a temporary
    file until ``spider_closed``, then are copied to the URI's path; ``upload://fail/...``
    fails the upload (an unreachable bucket)."""

    def __init__(self, uri: str, *, feed_options: dict[str, Any] | None = None) -> None:
        parsed = urlparse(uri)
        self.fails = parsed.netloc == "fail"
        self.path = Path(parsed.path)

    def _store_in_thread(self, file: IO[bytes]) -> None:
        if self.fails:
            raise OSError("upload refused")
        file.seek(0)
        self.path.write_bytes(file.read())
