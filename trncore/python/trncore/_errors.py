"""The suite's exception hierarchy, mirroring trncore::Error (trncore/error.hpp).

Every exception a trnsci binding raises for bad input or an unmet request is a trncore.Error. Each class
also derives from the builtin exception that fits, so code that catches ValueError or NotImplementedError
keeps working. The message is the C++ what() unchanged: "<function>: <problem>: <hint>"; the three parts
are attributes too.
"""


class Error(Exception):
    """Root of the suite's exceptions (trncore::Error).

    Attributes: function (the routine that raised, e.g. "trnblas::gemm"), problem (what is wrong, with the
    values), hint (what to do). Raised from C++ these are filled in; raised from Python they are None.
    """

    function = None
    problem = None
    hint = None

    @classmethod
    def make(cls, function, problem, hint):
        """The exception as the C++ library would raise it: message "function: problem: hint", with the three
        parts as attributes. For errors detected in a package's pure-Python code."""
        e = cls(f"{function}: {problem}: {hint}")
        e.function, e.problem, e.hint = function, problem, hint
        return e


class InvalidArgument(Error, ValueError):
    """An argument is outside its domain: a bad dtype, a negative size, an unknown option string."""


class DimensionMismatch(Error, ValueError):
    """Operand shapes do not agree (inner dimensions, a 1-D array where a matrix is needed, ...)."""


class ResourceExhausted(Error, RuntimeError):
    """A modelled or real resource is too small: SBUF/PSUM capacity, partitions, memory."""


class NotSupported(Error, NotImplementedError):
    """A valid combination of options that this backend or format does not implement."""


class TargetNotMet(Error, RuntimeError):
    """A requested target_forward_error could not be certified (pass report=True to get the report instead)."""


class ParseError(Error, ValueError):
    """Malformed text input (Matrix Market, einsum subscripts, option strings); line and column are 1-based."""

    line = None
    column = None


class IoError(Error, OSError):
    """A file could not be opened, read or written."""


__all__ = ["Error", "InvalidArgument", "DimensionMismatch", "ResourceExhausted", "NotSupported",
           "TargetNotMet", "ParseError", "IoError"]
