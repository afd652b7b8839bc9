"""The README's "Use it from Python" runs as written: its python block, run as a script with the installed wheel,
prints what its comments say."""
from __future__ import annotations

import os
import sys

from conftest import run
from glyph_jobs import REPO

EXPECTED = """0 True I
None
2.77
[ True  True False] [ 0  1 -1]
l 0
None 14
0 False None
1 True 0
"""


def test_the_readme_python_example(tmp_path) -> None:
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme.split("\n## Use it from Python\n", 1)[1].split("\n## ", 1)[0]
    assert "./inkhit wheel" in section and "pip install dist/inkhit-*.whl" in section
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "example.py").write_text(block)
    result = run([sys.executable, str(tmp_path / "example.py")], cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == EXPECTED


RENDERERS_EXPECTED = """0 None
quarterPixelX
4 53.9
0
"""


def test_the_readme_renderers_example(tmp_path) -> None:
    """The README's Python block for Skia, uharfbuzz and Pillow prints what its comments say."""
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme.split("\n## Use it from Python\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("**What other renderers drew.**", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "renderers.py").write_text(block)
    result = run([sys.executable, str(tmp_path / "renderers.py")], cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == RENDERERS_EXPECTED
