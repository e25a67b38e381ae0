"""fast_init / fast_replace on dataclasses of every shape the generator accepts (slotted or not,
frozen or not, defaults, default factories, field names that look like its own), and a coded
TypeError for the shapes it must not take (a __post_init__ the fast path would skip, fields
outside __init__, keyword-only fields, a non-dataclass)."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import InitVar, dataclass, field
from typing import Any

import pytest

from rulerewrite.fastinit import fast_init, fast_replace


@dataclass(frozen=True, slots=True)
class Slotted:
    text: str
    count: int = 0
    tags: list[str] = field(default_factory=list)
    note: str | None = None


@dataclass(frozen=True)
class WithDict:
    text: str
    seen: dict[str, int] = field(default_factory=dict)
    score: float = 1.0


@dataclass
class Mutable:
    a: int
    b: int = 2


@dataclass(frozen=True, slots=True)
class Clashing:  # field names that are also names of the generated code's parameters or locals
    obj: str
    value: str
    cls: str = "c"
    self: str = "s"


@dataclass(frozen=True, slots=True)
class Empty:
    pass


SHAPES: list[tuple[type, tuple[Any, ...]]] = [
    (Slotted, ("a", 3, ["x"], "n")),
    (WithDict, ("a", {"k": 1}, 0.5)),
    (Mutable, (1, 5)),
    (Clashing, ("o", "v", "C", "S")),
    (Empty, ()),
]


def _hash(obj: Any) -> object:
    try:
        return hash(obj)
    except TypeError as e:  # a list field, or not frozen
        return str(e)


def _fields(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


@pytest.mark.parametrize(("cls", "values"), SHAPES, ids=[c.__name__ for c, _ in SHAPES])
def test_fast_init_builds_what_the_constructor_builds(cls: type, values: tuple[Any, ...]) -> None:
    make = fast_init(cls)
    sig, ref_sig = inspect.signature(make), inspect.signature(cls)
    # (a default factory's parameter shows ``<factory>`` in both)
    assert [(p.name, p.kind, repr(p.default)) for p in sig.parameters.values()] == [
        (p.name, p.kind, repr(p.default)) for p in ref_sig.parameters.values()
    ]
    required = sum(p.default is p.empty for p in ref_sig.parameters.values())
    for args in (values, values[:required]):  # every field given, and the defaults
        built, ref = make(*args), cls(*args)
        assert type(built) is cls and built == ref and _fields(built) == _fields(ref)
        assert repr(built) == repr(ref)
        assert _hash(built) == _hash(ref)
    kwargs = {f.name: v for f, v in zip(dataclasses.fields(cls), values, strict=True)}
    assert make(**kwargs) == cls(**kwargs)
    with pytest.raises(TypeError):
        make(*values, "one too many")


def test_default_factories_give_a_fresh_value_per_object() -> None:
    make = fast_init(Slotted)
    a, b = make("a"), make("b")
    assert a.tags == [] and a.tags is not b.tags
    shared: list[str] = ["given"]
    assert make("c", 1, shared).tags is shared  # a given value is kept, not replaced
    w1, w2 = fast_init(WithDict)("a"), fast_init(WithDict)("b")
    assert w1.seen == {} and w1.seen is not w2.seen


def test_frozen_objects_stay_frozen_and_slotted_ones_have_no_dict() -> None:
    s = fast_init(Slotted)("a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.text = "b"  # type: ignore[misc]
    assert not hasattr(s, "__dict__")
    w = fast_init(WithDict)("a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        w.text = "b"  # type: ignore[misc]
    assert list(w.__dict__) == ["text", "seen", "score"]  # the constructor's order


@pytest.mark.parametrize(("cls", "values"), SHAPES[:4], ids=[c.__name__ for c, _ in SHAPES[:4]])
def test_fast_replace_equals_dataclasses_replace(cls: type, values: tuple[Any, ...]) -> None:
    obj = cls(*values)
    for f in dataclasses.fields(cls):
        new_value = f"new {f.name}"
        got = fast_replace(cls, f.name)(obj, new_value)
        want = dataclasses.replace(obj, **{f.name: new_value})
        assert type(got) is cls and _fields(got) == _fields(want)
        assert _fields(obj) == _fields(cls(*values))  # the original is untouched


@dataclass(frozen=True)
class PostInit:
    a: int

    def __post_init__(self) -> None:
        pass


@dataclass(frozen=True)
class NotInInit:
    a: int
    b: int = field(init=False, default=0)


@dataclass(frozen=True)
class KeywordOnly:
    a: int
    b: int = field(kw_only=True, default=0)


@dataclass
class WithInitVar:
    a: int
    b: InitVar[int]


class NotADataclass:
    pass


@pytest.mark.parametrize(
    ("cls", "says"),
    [
        (PostInit, "PostInit has a __post_init__"),
        (NotInInit, "NotInInit's __init__ does not take exactly its fields"),
        (KeywordOnly, "KeywordOnly's __init__ does not take exactly its fields"),
        (WithInitVar, "WithInitVar's __init__ does not take exactly its fields"),
        (NotADataclass, "is not a dataclass"),
    ],
)
def test_shapes_the_fast_path_cannot_build_are_refused(cls: type, says: str) -> None:
    with pytest.raises(TypeError, match=f"fast_init: .*{says}"):
        fast_init(cls)
    with pytest.raises(TypeError, match=f"fast_init: .*{says}"):
        fast_replace(cls, "a")


def test_fast_replace_names_an_unknown_field() -> None:
    with pytest.raises(TypeError, match="fast_replace: Slotted has no field 'txt'"):
        fast_replace(Slotted, "txt")
