"""trnrand: see docs/python.md."""

import trncore  # noqa: F401  (registers reports, options and exceptions first)

from ._trnrand import version

__version__ = version()
