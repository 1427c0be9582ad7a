"""ridgeline-probe: PyTorch-level benchmarks printed as Ridgeline's JSON-lines wire records."""
import os as _os

# Installed, the package sits in share/ridgeline/probe: share/ridgeline (model presets) is two up,
# wherever the prefix went (as analysis/io/resourcedirs.cpp looks next to the binary first).
_beside = _os.path.normpath(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "..", ".."))
try:
    from ._build import VERSION, RESOURCE_DIRS as _CONFIGURED
except ImportError:  # run from the source tree, unconfigured
    VERSION = "source"
    _CONFIGURED = [_os.path.normpath(_os.path.join(_beside, "..", "resources"))]
RESOURCE_DIRS = [_beside] + list(_CONFIGURED)
