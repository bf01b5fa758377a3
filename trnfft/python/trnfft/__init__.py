"""trnfft: FFTs of NumPy arrays — numpy.fft-style functions, plans, STFT/iSTFT and FFTW wisdom.

The upstream trnfft (torch) API with NumPy arrays in and NumPy complex arrays out (upstream's
ComplexTensor is a NumPy complex array here). Host backend: FFTW; backend="sim": the modelled
TensorEngine with certified bounds (see docs/python.md and docs/trnfft.md).
"""

import trncore  # noqa: F401  (registers reports, options and exceptions first)

from ._trnfft import (
    Plan,
    export_wisdom,
    export_wisdom_to_file,
    fft,
    fft2,
    fftfreq,
    fftn,
    fftshift,
    forget_wisdom,
    hfft,
    ifft,
    ifft2,
    ifftn,
    ifftshift,
    ihfft,
    import_wisdom,
    import_wisdom_from_file,
    irfft,
    irfft2,
    irfftn,
    istft,
    rfft,
    rfft2,
    rfftfreq,
    rfftn,
    stft,
    version,
)
from ._plans import plan_dft, plan_dft_c2r, plan_dft_r2c

__version__ = version()

__all__ = [
    "Plan",
    "export_wisdom",
    "export_wisdom_to_file",
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "forget_wisdom",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "import_wisdom",
    "import_wisdom_from_file",
    "irfft",
    "irfft2",
    "irfftn",
    "istft",
    "plan_dft",
    "plan_dft_c2r",
    "plan_dft_r2c",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
    "stft",
    "version",
]
