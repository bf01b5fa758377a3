"""trnfft: see docs/python.md."""

import trncore  # noqa: F401  (registers reports, options and exceptions first)

from ._trnfft import version

__version__ = version()
