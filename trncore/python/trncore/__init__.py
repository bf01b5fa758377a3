"""trncore: the trnsci suite's number formats, rounding, options, accuracy reports and exceptions.

Every other trnsci package imports this one first. See docs/python.md.
"""

from ._errors import (Error, InvalidArgument, DimensionMismatch, ResourceExhausted, NotSupported,
                      TargetNotMet, ParseError, IoError)
from ._trncore import (AccuracyReport, CostReport, Options, Progress, available_cpus, decode, default_threads,
                       encode, formats, round_to, version)

__version__ = version()

__all__ = ["Error", "InvalidArgument", "DimensionMismatch", "ResourceExhausted", "NotSupported",
           "TargetNotMet", "ParseError", "IoError", "AccuracyReport", "CostReport", "Options", "Progress",
           "available_cpus", "decode", "default_threads", "encode", "formats", "round_to", "version"]
