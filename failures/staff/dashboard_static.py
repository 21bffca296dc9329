"""Serves the dashboard's charting library, plotly.js, from the installed ``plotly`` package.

The package (pinned in pyproject.toml) ships the minified bundle in its ``package_data``; this
finder exposes that one file as ``dashboard/vendor/plotly.min.js``, so no copy of the library
lives in the repository, no CDN is involved, and ``collectstatic`` takes only that file
rather than the package's data sets and notebook bundle.
"""

import importlib.util
from pathlib import Path

from django.contrib.staticfiles.finders import BaseFinder
from django.core.checks import Error
from django.core.files.storage import FileSystemStorage

STATIC_PATH = "dashboard/vendor/plotly.min.js"
PREFIX, NAME = STATIC_PATH.rsplit("/", 1)


def plotly_bundle() -> Path | None:
    """Where the installed package keeps plotly.min.js (found without importing plotly)."""
    spec = importlib.util.find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "package_data" / NAME
    return path if path.is_file() else None


class _BundleStorage(FileSystemStorage):
    """The bundle's directory, with the path collectstatic and WhiteNoise put its file under
    (``prefix``, which Django's own FileSystemFinder sets on its storages)."""

    prefix = PREFIX


class PlotlyFinder(BaseFinder):
    """A static files finder for exactly one file: the plotly.js bundle of the plotly package."""

    def check(self, **kwargs):
        if plotly_bundle() is None:
            return [
                Error(
                    "plotly.min.js not found: install the pinned 'plotly' package",
                    id="dashboard.E001",
                )
            ]
        return []

    def find(self, path, find_all=False, **kwargs):
        bundle = plotly_bundle() if path == STATIC_PATH else None
        found = str(bundle) if bundle else None
        if find_all or kwargs.get("all"):
            return [found] if found else []
        return found

    def list(self, ignore_patterns):
        bundle = plotly_bundle()
        if bundle is not None:
            yield NAME, _BundleStorage(location=bundle.parent)
