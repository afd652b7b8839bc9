"""A small ctypes binding of libInkHit (the C interface of InkHit, inkhit.h): fonts, paragraphs and their hits.

    from inkhit import Font, Layout
    font = Font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    layout = Layout("Tap the link, not the gap.", [font], size=16, links=[(8, 12)])
    print(layout.hit(65.7, 8))          # TextHit(start=8, end=9, link=0, ...): offsets in characters of `text`

The library is found through $INKHIT_LIBRARY, else `pkg-config --variable=libdir inkhit`, else the loader's
search path. Errors raise InkHitError with the status name and the library's message. Handles are released
when their Python object is collected (or with `close()`); inkhit.h states the rules this follows.

An example binding: it covers what paragraph.py and test_paragraph.py use (fonts, layouts, hits, carets).
"""
import ctypes
import ctypes.util
import os
import subprocess

# --- the structs of inkhit.h, field for field ---------------------------------------------------------------


class Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double)]


class Transform(ctypes.Structure):
    _fields_ = [(n, ctypes.c_double) for n in ("a", "b", "c", "d", "tx", "ty")]


class Rect(ctypes.Structure):
    _fields_ = [(n, ctypes.c_double) for n in ("min_x", "min_y", "max_x", "max_y")]


class TextLink(ctypes.Structure):
    _fields_ = [("start", ctypes.c_uint64), ("end", ctypes.c_uint64)]


class TextAttachment(ctypes.Structure):
    _fields_ = [("at", ctypes.c_uint64), ("width", ctypes.c_double), ("ascent", ctypes.c_double),
                ("descent", ctypes.c_double), ("corner_radius", ctypes.c_double)]


class LayoutOptions(ctypes.Structure):
    _fields_ = [("fonts", ctypes.POINTER(ctypes.c_void_p)), ("font_count", ctypes.c_size_t),
                ("size", ctypes.c_double), ("width", ctypes.c_double), ("origin", Point), ("transform", Transform),
                ("tolerance", ctypes.c_double), ("links", ctypes.POINTER(TextLink)), ("link_count", ctypes.c_size_t),
                ("attachments", ctypes.POINTER(TextAttachment)), ("attachment_count", ctypes.c_size_t),
                ("cache", ctypes.c_void_p), ("max_lines", ctypes.c_uint32), ("alignment", ctypes.c_int32),
                ("direction", ctypes.c_int32)]


class LayoutInfo(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int64) for n in ("glyph_count", "line_count", "utf16_length", "utf8_length",
                                               "truncated_start", "truncated_end")] + [("bounds", Rect)]


class CTextHit(ctypes.Structure):
    _fields_ = [("hit", ctypes.c_int32), ("kind", ctypes.c_int32)] + [
        (n, ctypes.c_int64) for n in ("glyph", "link", "attachment", "utf16_start", "utf16_end", "utf8_start", "utf8_end",
                                      "character", "line")] + [("distance", ctypes.c_double)]


class CCaret(ctypes.Structure):
    _fields_ = [("found", ctypes.c_int32), ("affinity", ctypes.c_int32), ("utf16", ctypes.c_int64),
                ("utf8", ctypes.c_int64), ("line", ctypes.c_int64)]


STATUS_NAMES = ["INKHIT_OK", "INKHIT_ERROR_NULL_ARGUMENT", "INKHIT_ERROR_INVALID_HANDLE", "INKHIT_ERROR_INVALID_ARGUMENT",
                "INKHIT_ERROR_INVALID_TEXT", "INKHIT_ERROR_FILE", "INKHIT_ERROR_FONT", "INKHIT_ERROR_GLYPH",
                "INKHIT_ERROR_SHAPE", "INKHIT_ERROR_PLACEMENT", "INKHIT_ERROR_LAYOUT", "INKHIT_ERROR_SCENE",
                "INKHIT_ERROR_LIMIT"]
TEXT_HIT_INK, TEXT_HIT_INK_OR_EMPTY_GLYPH_BOXES, TEXT_HIT_CHARACTER_BOXES, TEXT_HIT_LINE_BOXES = 0, 1, 2, 3


def _library_path():
    if os.environ.get("INKHIT_LIBRARY"):
        return os.environ["INKHIT_LIBRARY"]
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "inkhit"], capture_output=True, text=True,
                                check=True).stdout.strip()
        for name in ("libInkHit.so.1", "libInkHit.1.dylib"):
            if os.path.exists(os.path.join(libdir, name)):
                return os.path.join(libdir, name)
    except (OSError, subprocess.CalledProcessError):
        pass
    return ctypes.util.find_library("InkHit") or "libInkHit.so.1"


lib = ctypes.CDLL(_library_path())
_status = ctypes.c_int32
_handle = ctypes.c_void_p
for name, args in {
    "inkhit_font_from_path": [ctypes.c_char_p, ctypes.c_int32, ctypes.POINTER(_handle)],
    "inkhit_font_release": [_handle],
    "inkhit_layout_options_init": [ctypes.POINTER(LayoutOptions)],
    "inkhit_layout_create_utf8": [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(LayoutOptions), ctypes.POINTER(_handle)],
    "inkhit_layout_get_info": [_handle, ctypes.POINTER(LayoutInfo)],
    "inkhit_layout_hit": [_handle, ctypes.c_double, ctypes.c_double, ctypes.c_double, ctypes.c_int32, ctypes.POINTER(CTextHit)],
    "inkhit_layout_link_hit": [_handle, ctypes.c_double, ctypes.c_double, ctypes.c_double, ctypes.POINTER(CTextHit)],
    "inkhit_layout_caret": [_handle, ctypes.c_double, ctypes.c_double, ctypes.POINTER(CCaret)],
    "inkhit_layout_release": [_handle],
}.items():
    getattr(lib, name).argtypes = args
    getattr(lib, name).restype = _status
lib.inkhit_last_error.restype = ctypes.c_char_p
lib.inkhit_last_error.argtypes = []
lib.inkhit_version_string.restype = ctypes.c_char_p
lib.inkhit_version_string.argtypes = []
lib.inkhit_handle_count.restype = ctypes.c_size_t
lib.inkhit_handle_count.argtypes = []

version = lib.inkhit_version_string().decode()


class InkHitError(Exception):
    """A failed call: `status` (an INKHIT_ERROR_ name) and the library's message."""

    def __init__(self, status, message):
        self.status = STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else "status %d" % status
        super().__init__("%s: %s" % (self.status, message))


def check(status):
    if status != 0:
        raise InkHitError(status, lib.inkhit_last_error().decode("utf-8", "replace"))


class _Handle:
    _release = None

    def __init__(self, handle):
        self._handle = handle

    def close(self):
        """Releases the handle now (objects made from it keep what they need)."""
        if self._handle:
            check(type(self)._release(self._handle))
            self._handle = None

    def __del__(self):
        if getattr(self, "_handle", None):
            type(self)._release(self._handle)
            self._handle = None


class Font(_Handle):
    """Face `face_index` of the font file at `path`."""
    _release = lib.inkhit_font_release

    def __init__(self, path, face_index=0):
        handle = _handle()
        check(lib.inkhit_font_from_path(os.fsencode(path), face_index, ctypes.byref(handle)))
        super().__init__(handle)


class TextHit:
    """A hit on laid-out text: `start`/`end` in characters of the Python string (code points), `utf16`
    and `utf8` ranges, `link` and `attachment` (indexes, or None), `line`, `distance` (view px, negative on
    the ink), `kind` ("ink", "radius", "box")."""

    def __init__(self, c, text_utf8):
        self.glyph = c.glyph if c.glyph >= 0 else None
        self.link = c.link if c.link >= 0 else None
        self.attachment = c.attachment if c.attachment >= 0 else None
        self.utf16 = (c.utf16_start, c.utf16_end)
        self.utf8 = (c.utf8_start, c.utf8_end)
        self.start = len(text_utf8[:c.utf8_start].decode())
        self.end = self.start + len(text_utf8[c.utf8_start:c.utf8_end].decode())
        self.character, self.line, self.distance = c.character, c.line, c.distance
        self.kind = ("ink", "radius", "box")[c.kind] if 0 <= c.kind < 3 else c.kind

    def __repr__(self):
        return "TextHit(start=%d, end=%d, link=%r, attachment=%r, line=%d, distance=%.3f, kind=%s)" % (
            self.start, self.end, self.link, self.attachment, self.line, self.distance, self.kind)


class Layout(_Handle):
    """`text` laid out in `fonts` (fallback order) at `size` px per em, wrapped at `width` (None: no wrap).
    `links` are (start, end) ranges in characters of `text`; `transform` maps layout px to view px."""
    _release = lib.inkhit_layout_release

    def __init__(self, text, fonts, size=16, width=None, links=(), max_lines=0, transform=None):
        self.text = text
        self._utf8 = text.encode("utf-8")
        self._fonts = list(fonts)                   # kept alive with the layout (the library keeps its own too)

        def byte(i):                                # a character offset as a UTF-8 offset (past the end: still past)
            return len(text[:i].encode("utf-8")) + max(0, i - len(text))
        options = LayoutOptions()
        check(lib.inkhit_layout_options_init(ctypes.byref(options)))
        handles = (ctypes.c_void_p * len(self._fonts))(*[f._handle.value for f in self._fonts])
        link_array = (TextLink * max(1, len(links)))(*[TextLink(byte(s), byte(e)) for s, e in links])
        options.fonts = ctypes.cast(handles, ctypes.POINTER(ctypes.c_void_p))
        options.font_count = len(self._fonts)
        options.size = size
        options.width = width or 0
        options.links = link_array
        options.link_count = len(links)
        options.max_lines = max_lines
        if transform is not None:
            options.transform = Transform(*transform)
        handle = _handle()
        check(lib.inkhit_layout_create_utf8(self._utf8, len(self._utf8), ctypes.byref(options), ctypes.byref(handle)))
        super().__init__(handle)

    def info(self):
        info = LayoutInfo()
        check(lib.inkhit_layout_get_info(self._handle, ctypes.byref(info)))
        return info

    def hit(self, x, y, radius=0, mode=TEXT_HIT_INK):
        """The character under (x, y) (view px) within `radius` view px, or None."""
        c = CTextHit()
        check(lib.inkhit_layout_hit(self._handle, x, y, radius, mode, ctypes.byref(c)))
        return TextHit(c, self._utf8) if c.hit else None

    def link(self, x, y, radius=0):
        """The link under (x, y) within `radius` (its index in `links`), or None."""
        c = CTextHit()
        check(lib.inkhit_layout_link_hit(self._handle, x, y, radius, ctypes.byref(c)))
        return c.link if c.hit else None

    def caret(self, x, y):
        """Where a caret goes for (x, y): an offset in characters of `text`, or None."""
        c = CCaret()
        check(lib.inkhit_layout_caret(self._handle, x, y, ctypes.byref(c)))
        return len(self._utf8[:c.utf8].decode()) if c.found else None
