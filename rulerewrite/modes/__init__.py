"""The bundled modes. Importing this package registers every mode with the registry."""

from rulerewrite.modes import expand, normalize
from rulerewrite.modes.base import MODE_ORDER, State, mode, registered_modes

__all__ = ["MODE_ORDER", "State", "expand", "mode", "normalize", "registered_modes"]
