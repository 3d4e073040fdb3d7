"""newsstem's Scrapy commands (``COMMANDS_MODULE = "newsstem.commands"``)."""
