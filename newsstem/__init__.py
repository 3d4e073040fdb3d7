"""newsstem: turn news sites into clean article corpora with Scrapy."""

__version__ = "0.1.0"
