"""ellipsis: the missing topic, object or slot of a follow-up put back from the last turns.

The mode is one class, :class:`Ellipsis` (``mode.py``), built from rule groups that are layered
mixins, one module each: ``state`` (the rule data read from rules/*.yaml) <- ``works`` <-
``objects`` <- ``offers`` <- ``answers`` <- ``judgements`` <- ``topics`` <- ``questions`` <-
``mode``. A group calls its own methods and those of the groups below it, never one above, so
every call is typed; ``Ellipsis.__call__`` and ``_complete`` decide the order in which the
groups' rules are tried. Rule views, patterns and free helpers the groups share are in
``common.py``. A new rule goes into the group whose situation it handles, or the lowest group
that has everything it calls."""

from rulerewrite.modes.ellipsis.mode import Ellipsis

__all__ = ["Ellipsis"]
