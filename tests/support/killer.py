"""An extension for crawls run in a subprocess by the tests: ``kill -9`` at a chosen moment."""

from __future__ import annotations

import os
import signal

from scrapy import signals


class KillAsTheEngineStops:
    """The crawl kills itself with SIGKILL as its engine stops: after the feeds were
    stored, the URL store recorded their articles and JOBDIR's seen requests were saved,
    before Python's exit would flush what ``sys.stdout`` still holds. A ``kill -9`` (the
    out-of-memory killer, a forced stop) can come at that moment; here it always does."""

    @classmethod
    def from_crawler(cls, crawler):
        extension = cls()
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def engine_stopped(self) -> None:
        os.kill(os.getpid(), signal.SIGKILL)
