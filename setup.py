"""Packaging for scrapyd: ``scrapyd-deploy`` runs ``python setup.py bdist_egg``.

The metadata, dependencies and the ``scrapy`` entry point are in pyproject.toml.
Here: the packages, and the learned pattern files of the top-level ``patterns/``
directory, shipped inside the package as ``newsstem/patterns/*.json`` (an egg
is a zip: files outside the package would not be in it). They are read with
importlib.resources (newsstem.deployment).
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["newsstem", "newsstem.*"]), "newsstem.patterns"],
    package_dir={"newsstem.patterns": "patterns"},
    package_data={"newsstem.patterns": ["*.json"]},
)
