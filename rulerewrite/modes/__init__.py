"""The bundled modes. Importing this package registers every mode with the registry."""

from rulerewrite.modes import (
    comparison,
    condition,
    coreference,
    ellipsis,
    expand,
    multi_intent,
    normalize,
    rhetorical,
)
from rulerewrite.modes.base import MODE_ORDER, State, mode, registered_modes

__all__ = [
    "MODE_ORDER",
    "State",
    "comparison",
    "condition",
    "coreference",
    "ellipsis",
    "expand",
    "mode",
    "multi_intent",
    "normalize",
    "registered_modes",
    "rhetorical",
]
