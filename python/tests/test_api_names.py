"""The names the package offers, as `inspect` finds them, and the file that lists them.

`api_names.txt` (beside this file) is that list, checked in, so that the vocabulary's test on the Swift side
(Tests/InkJobsTests/VocabularyTests.swift) reads docs/vocabulary.md's Python column against the package without
loading the library. The test below fails when the package and the file differ; then write the file again with

    python3 python/tests/test_api_names.py --write      (INKHIT_LIBRARY naming a libInkHit, or a built wheel)

One name a line: `Name` (a module attribute in `inkhit.__all__`), `Name.attribute` (a class's public attribute,
method or dataclass field; a record type's field), `Name.method(parameter)` (a parameter of a public function,
method or constructor), `inkhit.module.name` and `inkhit.module.name(parameter)` (what the renderers' adapters,
inkhit.skia, inkhit.qt and inkhit.pango, offer in their `__all__`), and `"value"` (a string the binding takes or
answers in a choice: shapes, ink kinds, pointer events, shape forms, hit kinds, decorations, hole policies, the
non-finite policy, path verbs, and the glyph style's hinting names, joins, fake bolds, hinting rules, sizes and
origin roundings).
"""
from __future__ import annotations

import dataclasses
import inspect
import os
import sys
from typing import Iterable, List

import numpy as np

import inkhit
from inkhit import _native, fonts, index, layout, pango, qt, scene, skia

HERE = os.path.dirname(os.path.abspath(__file__))
LIST = os.path.join(HERE, "api_names.txt")


def _parameters(prefix: str, function: object) -> Iterable[str]:
    try:
        signature = inspect.signature(function)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return []
    return ["%s(%s)" % (prefix, p) for p in signature.parameters if p not in ("self", "cls") and not p.startswith("_")]


def names() -> List[str]:
    """Every public name of the package, as described in the module's doc comment."""
    out = set()
    for name in inkhit.__all__:
        obj = getattr(inkhit, name)
        out.add(name)
        if isinstance(obj, np.dtype):
            out.update("%s.%s" % (name, field) for field in obj.names)
        elif inspect.isclass(obj):
            if dataclasses.is_dataclass(obj):
                out.update("%s.%s" % (name, f.name) for f in dataclasses.fields(obj) if not f.name.startswith("_"))
            for attr, value in inspect.getmembers(obj):
                if attr.startswith("_"):
                    continue
                out.add("%s.%s" % (name, attr))
                if inspect.isfunction(value) or inspect.ismethod(value):
                    out.update(_parameters("%s.%s" % (name, attr), value))
            out.update(_parameters(name, obj))
        elif callable(obj):
            out.update(_parameters(name, obj))
    for module in (skia, qt, pango):
        prefix = module.__name__
        for name in module.__all__:
            out.add("%s.%s" % (prefix, name))
            obj = getattr(module, name)
            if callable(obj) and not isinstance(obj, type):
                out.update(_parameters("%s.%s" % (prefix, name), obj))
    choices = [scene._SHAPE, scene._SHAPE_RENAMED, scene._POINTER, scene._HOLES, index._INK, index._SHAPE_FORMS,
               index._SHAPE_FORMS_RENAMED, layout._KIND, layout._MODE, layout._DECORATION, _native.NON_FINITE,
               index._VERBS, fonts._HINTING, fonts._JOIN, fonts._UNDER_TRANSFORM, fonts._PPEM, fonts._ROUNDING,
               fonts._EMBOLDEN_NAMES]
    for table in choices:
        out.update('"%s"' % value for value in table)
    return sorted(out)


def test_the_checked_in_list_is_the_packages() -> None:
    with open(LIST, encoding="utf-8") as f:
        listed = [line.rstrip("\n") for line in f if line.strip()]
    found = names()
    missing, extra = sorted(set(found) - set(listed)), sorted(set(listed) - set(found))
    assert not missing and not extra, (
        "python/tests/api_names.txt is not the package's list (write it again: python3 python/tests/test_api_names.py "
        "--write): not listed %s; listed but gone %s" % (missing[:20], extra[:20]))
    # What the vocabulary names, the list has (a spot check that it is read the way VocabularyTests reads it).
    for name in ["TextHit.placement", "SceneHit.placement", "Node.clips_children", "VIEW_LIMIT", '"colorLayers"',
                 '"roundRect"', '"whenReused"', "SCENE_HIT_DTYPE.text_placement", "Index.hits(non_finite)"]:
        assert name in listed, name


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        with open(LIST, "w", encoding="utf-8") as f:
            f.write("\n".join(names()) + "\n")
        print("wrote", LIST)
    else:
        print("\n".join(names()))
