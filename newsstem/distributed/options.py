"""The settings of distributed mode, read and checked once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from newsstem.distributed.connection import distributed_url
from newsstem.setting_values import read_setting

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
        """Read ``NEWSSTEM_DISTRIBUTED*`` (strings under scrapyd); UsageError if a value is bad
        (one line quoting the setting and its value).

        >>> from scrapy.settings import Settings
        >>> DistributedOptions.from_settings(Settings({"NEWSSTEM_DISTRIBUTED_IDLE": "2.5"}))
        DistributedOptions(url='', idle_seconds=2.5, forget_seconds=600, heartbeat_seconds=30.0)
        >>> DistributedOptions.from_settings(Settings({"NEWSSTEM_DISTRIBUTED_FORGET": "0"}))
        Traceback (most recent call last):
        ...
        scrapy.exceptions.UsageError: NEWSSTEM_DISTRIBUTED_FORGET must be 1 or more, not '0'
        """
        url = distributed_url(settings)
        # (read_setting's range check refuses NaN too: a worker that never stops when
        # idle, a heartbeat that never lapses)
        idle = float(read_setting(settings, "NEWSSTEM_DISTRIBUTED_IDLE"))
        forget = int(read_setting(settings, "NEWSSTEM_DISTRIBUTED_FORGET"))
        heartbeat = float(read_setting(settings, "NEWSSTEM_DISTRIBUTED_HEARTBEAT"))
        return cls(url, idle, forget, heartbeat)
