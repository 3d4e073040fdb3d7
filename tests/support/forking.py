"""An item pipeline that forks without exec, as a user's might (``os.fork``, or
multiprocessing's "fork" start method): its child outlives the crawl.

``FORKING_PIPELINE_DIR`` (a setting) names a directory: the child writes its pid to
``child.pid`` there and lives until ``release`` appears in it (60 s at most).
``FORKING_PIPELINE_AFTER`` names a file: the pipeline forks once, at the first item it
sees after that file exists.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any


class ForkOncePipeline:
    def __init__(self, directory: str, after: str) -> None:
        self.directory = Path(directory)
        self.after = Path(after)
        self.forked = False

    @classmethod
    def from_crawler(cls, crawler: Any) -> ForkOncePipeline:
        settings = crawler.settings
        return cls(settings["FORKING_PIPELINE_DIR"], settings["FORKING_PIPELINE_AFTER"])

    def process_item(self, item: Any) -> Any:
        if not self.forked and self.after.exists():
            self.forked = True
            if os.fork() == 0:  # the child: no exec, no Python clean-up at its end
                try:
                    # off the crawl's stdout and stderr: whoever reads them to their end
                    # (the test's subprocess.run) would wait for this child too
                    null = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(null, 1)
                    os.dup2(null, 2)
                    (self.directory / "child.pid").write_text(str(os.getpid()))
                    deadline = time.monotonic() + 60
                    while not (self.directory / "release").exists() and time.monotonic() < deadline:
                        time.sleep(0.1)
                finally:
                    os._exit(0)
        return item
