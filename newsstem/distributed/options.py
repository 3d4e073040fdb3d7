"""The settings of distributed mode, read and checked once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scrapy.exceptions import UsageError

from newsstem import defaults
from newsstem.distributed.connection import distributed_url

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings


@dataclass(frozen=True)
class DistributedOptions:
    url: str  # "" = not distributed
    idle_seconds: float  # 0 = never stop when idle
    forget_seconds: int
    heartbeat_seconds: float = 30.0

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> DistributedOptions:
        """Read ``NEWSSTEM_DISTRIBUTED*`` (strings under scrapyd); UsageError if a value is bad.

        >>> from scrapy.settings import Settings
        >>> DistributedOptions.from_settings(Settings({"NEWSSTEM_DISTRIBUTED_IDLE": "2.5"}))
        DistributedOptions(url='', idle_seconds=2.5, forget_seconds=600, heartbeat_seconds=30.0)
        """
        url = distributed_url(settings)
        try:
            idle = float(
                settings.get("NEWSSTEM_DISTRIBUTED_IDLE", defaults.NEWSSTEM_DISTRIBUTED_IDLE)
            )
            forget = int(
                settings.get("NEWSSTEM_DISTRIBUTED_FORGET", defaults.NEWSSTEM_DISTRIBUTED_FORGET)
            )
            heartbeat = float(
                settings.get(
                    "NEWSSTEM_DISTRIBUTED_HEARTBEAT", defaults.NEWSSTEM_DISTRIBUTED_HEARTBEAT
                )
            )
        except (TypeError, ValueError):
            raise UsageError(
                "NEWSSTEM_DISTRIBUTED_IDLE must be a number of seconds (0: never stop), "
                "NEWSSTEM_DISTRIBUTED_FORGET a whole number of seconds, "
                "NEWSSTEM_DISTRIBUTED_HEARTBEAT a number of seconds"
            ) from None
        # (NaN too: a worker that never stops when idle, a heartbeat that never lapses)
        if not idle >= 0 or forget < 1 or not heartbeat >= 1:
            raise UsageError(
                "NEWSSTEM_DISTRIBUTED_IDLE must be >= 0, NEWSSTEM_DISTRIBUTED_FORGET >= 1 "
                "and NEWSSTEM_DISTRIBUTED_HEARTBEAT >= 1"
            )
        return cls(url, idle, forget, heartbeat)
