"""A minimal ctypes binding to a FreeType shared library chosen by path (fidelity.py, fidelity_check.py).

freetype-py always loads the FreeType it bundles (2.13.2 in freetype-py 2.5.1); the tool links the system
FreeType (Debian's 2.12.1), and the oracle should see the same outlines the tool sees.  This module loads
whichever library file it is given -- by default the system one, or $INKHIT_FREETYPE_LIB -- and checks its
version.  It declares only the parts of the FreeType ABI it uses (stable from 2.10 to 2.13): the public
heads of FT_FaceRec, FT_GlyphSlotRec and FT_SizeRec, FT_Outline, FT_Bitmap and the COLR paint records.

A library file is loaded once per process (two FreeType builds in one process are avoided: both are
named libfreetype.so.6, and fidelity_check.py compares them in separate processes instead).
"""
from __future__ import annotations

import ctypes
import math
import os
from ctypes import (POINTER, Structure, Union, byref, c_byte, c_char, c_char_p, c_int, c_long, c_short,
                    c_ubyte, c_uint, c_ushort, c_void_p)

SYSTEM_LIB = '/usr/lib/x86_64-linux-gnu/libfreetype.so.6'

FT_LOAD_NO_SCALE = 1 << 0
FT_LOAD_NO_HINTING = 1 << 1
FT_LOAD_NO_BITMAP = 1 << 3
FT_LOAD_COLOR = 1 << 20
FT_LOAD_TARGET_NORMAL = 0
FT_LOAD_TARGET_LIGHT = 1 << 16          # FT_LOAD_TARGET_(FT_RENDER_MODE_LIGHT)

FT_CURVE_TAG_ON = 1
FT_CURVE_TAG_CUBIC = 2
FT_PIXEL_MODE_BGRA = 7
FT_COLOR_NO_ROOT_TRANSFORM = 1

FT_Pos = c_long
FT_Fixed = c_long


class FT_Vector(Structure):
    _fields_ = [('x', FT_Pos), ('y', FT_Pos)]


class FT_Generic(Structure):
    _fields_ = [('data', c_void_p), ('finalizer', c_void_p)]


class FT_BBox(Structure):
    _fields_ = [('xMin', FT_Pos), ('yMin', FT_Pos), ('xMax', FT_Pos), ('yMax', FT_Pos)]


class FT_Glyph_Metrics(Structure):
    _fields_ = [(n, FT_Pos) for n in ('width', 'height', 'horiBearingX', 'horiBearingY', 'horiAdvance',
                                      'vertBearingX', 'vertBearingY', 'vertAdvance')]


class FT_Bitmap(Structure):
    _fields_ = [('rows', c_uint), ('width', c_uint), ('pitch', c_int), ('buffer', POINTER(c_ubyte)),
                ('num_grays', c_ushort), ('pixel_mode', c_ubyte), ('palette_mode', c_ubyte),
                ('palette', c_void_p)]


class FT_Outline(Structure):
    _fields_ = [('n_contours', c_short), ('n_points', c_short), ('points', POINTER(FT_Vector)),
                ('tags', POINTER(c_char)), ('contours', POINTER(c_short)), ('flags', c_int)]


class FT_GlyphSlotRec(Structure):
    _fields_ = [('library', c_void_p), ('face', c_void_p), ('next', c_void_p), ('glyph_index', c_uint),
                ('generic', FT_Generic), ('metrics', FT_Glyph_Metrics), ('linearHoriAdvance', FT_Fixed),
                ('linearVertAdvance', FT_Fixed), ('advance', FT_Vector), ('format', c_uint),
                ('bitmap', FT_Bitmap), ('bitmap_left', c_int), ('bitmap_top', c_int),
                ('outline', FT_Outline)]                  # (private fields follow)


class FT_Size_Metrics(Structure):
    _fields_ = [('x_ppem', c_ushort), ('y_ppem', c_ushort), ('x_scale', FT_Fixed), ('y_scale', FT_Fixed),
                ('ascender', FT_Pos), ('descender', FT_Pos), ('height', FT_Pos), ('max_advance', FT_Pos)]


class FT_SizeRec(Structure):
    _fields_ = [('face', c_void_p), ('generic', FT_Generic), ('metrics', FT_Size_Metrics)]


class FT_FaceRec(Structure):
    _fields_ = [('num_faces', c_long), ('face_index', c_long), ('face_flags', c_long),
                ('style_flags', c_long), ('num_glyphs', c_long), ('family_name', c_char_p),
                ('style_name', c_char_p), ('num_fixed_sizes', c_int), ('available_sizes', c_void_p),
                ('num_charmaps', c_int), ('charmaps', c_void_p), ('generic', FT_Generic), ('bbox', FT_BBox),
                ('units_per_EM', c_ushort), ('ascender', c_short), ('descender', c_short),
                ('height', c_short), ('max_advance_width', c_short), ('max_advance_height', c_short),
                ('underline_position', c_short), ('underline_thickness', c_short),
                ('glyph', POINTER(FT_GlyphSlotRec)), ('size', POINTER(FT_SizeRec))]   # (more follow)


_MOVE = ctypes.CFUNCTYPE(c_int, POINTER(FT_Vector), c_void_p)
_CONIC = ctypes.CFUNCTYPE(c_int, POINTER(FT_Vector), POINTER(FT_Vector), c_void_p)
_CUBIC = ctypes.CFUNCTYPE(c_int, POINTER(FT_Vector), POINTER(FT_Vector), POINTER(FT_Vector), c_void_p)


class FT_Outline_Funcs(Structure):
    _fields_ = [('move_to', _MOVE), ('line_to', _MOVE), ('conic_to', _CONIC), ('cubic_to', _CUBIC),
                ('shift', c_int), ('delta', FT_Pos)]


class FT_LayerIterator(Structure):
    _fields_ = [('num_layers', c_uint), ('layer', c_uint), ('p', c_void_p)]


class FT_OpaquePaint(Structure):
    _fields_ = [('p', c_void_p), ('insert_root_transform', c_ubyte)]


class FT_ClipBox(Structure):
    _fields_ = [('bottom_left', FT_Vector), ('top_left', FT_Vector), ('top_right', FT_Vector),
                ('bottom_right', FT_Vector)]


class _PaintGlyph(Structure):
    _fields_ = [('paint', FT_OpaquePaint), ('glyphID', c_uint)]


class _PaintTransform(Structure):   # FT_Affine23: xx, xy, dx, yx, yy, dy
    _fields_ = [('paint', FT_OpaquePaint), ('affine', FT_Fixed * 6)]


class _PaintFixed(Structure):       # FT_PaintTranslate/Scale/Rotate/Skew: a child and up to 4 FT_Fixed
    _fields_ = [('paint', FT_OpaquePaint), ('v', FT_Fixed * 4)]


class _PaintComposite(Structure):
    _fields_ = [('source', FT_OpaquePaint), ('mode', c_int), ('backdrop', FT_OpaquePaint)]


class _PaintUnion(Union):
    _fields_ = [('colr_layers', FT_LayerIterator), ('glyph', _PaintGlyph), ('transform', _PaintTransform),
                ('fixed', _PaintFixed), ('composite', _PaintComposite), ('colr_glyph', c_uint),
                ('_room', c_byte * 256)]


class FT_COLR_Paint(Structure):
    _fields_ = [('format', c_int), ('u', _PaintUnion)]


PAINT_COLR_LAYERS, PAINT_GLYPH, PAINT_COLR_GLYPH, PAINT_TRANSFORM = 1, 10, 11, 12
PAINT_TRANSLATE, PAINT_SCALE, PAINT_ROTATE, PAINT_SKEW, PAINT_COMPOSITE = 14, 16, 24, 28, 32
PAINT_FILLS = {2, 4, 6, 8}   # solid, linear / radial / sweep gradient: they colour, they add no ink


def fixed(v: int) -> float:
    return v / 65536.0


class FreeType:
    _loaded: dict[str, 'FreeType'] = {}

    def __new__(cls, libpath: str | None = None):
        path = os.path.abspath(libpath or os.environ.get('INKHIT_FREETYPE_LIB') or SYSTEM_LIB)
        if path not in cls._loaded:
            if cls._loaded:
                raise RuntimeError(f'{path}: another FreeType is loaded in this process already')
            self = super().__new__(cls)
            self._init(path)
            cls._loaded[path] = self
        return cls._loaded[path]

    def _init(self, path):
        self.path = path
        lib = self.lib = ctypes.CDLL(path)
        lib.FT_Get_Color_Glyph_Layer.restype = c_ubyte
        lib.FT_Get_Color_Glyph_Paint.restype = c_ubyte
        lib.FT_Get_Paint.restype = c_ubyte
        lib.FT_Get_Paint.argtypes = [c_void_p, FT_OpaquePaint, POINTER(FT_COLR_Paint)]
        lib.FT_Get_Paint_Layers.restype = c_ubyte
        lib.FT_Get_Color_Glyph_ClipBox.restype = c_ubyte
        lib.FT_Outline_EmboldenXY.argtypes = [POINTER(FT_Outline), FT_Pos, FT_Pos]
        self.handle = c_void_p()
        self.check(lib.FT_Init_FreeType(byref(self.handle)), 'FT_Init_FreeType')
        v = [c_int(), c_int(), c_int()]
        lib.FT_Library_Version(self.handle, *[byref(x) for x in v])
        self.version = tuple(x.value for x in v)

    @staticmethod
    def check(err, what):
        if err:
            raise RuntimeError(f'{what}: FreeType error 0x{err:02x}')

    def face(self, path: str, index: int = 0) -> 'Face':
        return Face(self, path, index)


class Face:
    def __init__(self, ft: FreeType, path: str, index: int):
        self.ft, self.lib = ft, ft.lib
        self.handle = c_void_p()
        ft.check(self.lib.FT_New_Face(ft.handle, path.encode(), c_long(index), byref(self.handle)),
                 f'FT_New_Face({path})')
        self.rec = ctypes.cast(self.handle, POINTER(FT_FaceRec)).contents
        self.upem = self.rec.units_per_EM

    def set_var_design(self, coords):
        """FT_Set_Var_Design_Coordinates with design coordinates (floats, fvar axis order; FreeType
        clamps them to the axis ranges)."""
        arr = (FT_Fixed * len(coords))(*[int(round(c * 65536)) for c in coords])
        self.ft.check(self.lib.FT_Set_Var_Design_Coordinates(self.handle, len(coords), arr),
                      'FT_Set_Var_Design_Coordinates')

    def set_size_px(self, size: float):
        """FT_Set_Char_Size(face, 0, round(size * 64), 72, 72): size px per em."""
        self.ft.check(self.lib.FT_Set_Char_Size(self.handle, c_long(0), c_long(math.floor(size * 64 + 0.5)),
                                                72, 72), 'FT_Set_Char_Size')

    @property
    def size_metrics(self) -> FT_Size_Metrics:
        return self.rec.size.contents.metrics

    def load(self, gid: int, flags: int):
        self.ft.check(self.lib.FT_Load_Glyph(self.handle, gid, flags), f'FT_Load_Glyph({gid})')
        return self.rec.glyph.contents

    def embolden(self, xstrength: int, ystrength: int):
        """FT_Outline_EmboldenXY on the loaded glyph's outline (strengths in 26.6)."""
        self.ft.check(self.lib.FT_Outline_EmboldenXY(byref(self.rec.glyph.contents.outline), xstrength,
                                                     ystrength), 'FT_Outline_EmboldenXY')

    def outline(self):
        """The loaded glyph's outline: (points [(x, y)] as FreeType stores them, tags [int], contour
        end indices [int])."""
        o = self.rec.glyph.contents.outline
        pts = [(o.points[i].x, o.points[i].y) for i in range(o.n_points)]
        tags = [o.tags[i][0] for i in range(o.n_points)]
        ends = [o.contours[i] for i in range(o.n_contours)]
        return pts, tags, ends

    def decompose(self):
        """FT_Outline_Decompose of the loaded glyph's outline: pen operations ('moveTo', (p,)),
        ('lineTo', (p,)), ('qCurveTo', (c, p)), ('curveTo', (c1, c2, p)), points as FreeType stores them
        (FreeType makes the implied on-curve points: integer midpoints)."""
        ops = []

        def xy(v):
            return (v.contents.x, v.contents.y)

        def move(to, _):
            if ops:
                ops.append(('closePath', ()))
            ops.append(('moveTo', (xy(to),)))
            return 0

        def line(to, _):
            ops.append(('lineTo', (xy(to),)))
            return 0

        def conic(c, to, _):
            ops.append(('qCurveTo', (xy(c), xy(to))))
            return 0

        def cubic(c1, c2, to, _):
            ops.append(('curveTo', (xy(c1), xy(c2), xy(to))))
            return 0

        funcs = FT_Outline_Funcs(_MOVE(move), _MOVE(line), _CONIC(conic), _CUBIC(cubic), 0, 0)
        self.ft.check(self.lib.FT_Outline_Decompose(byref(self.rec.glyph.contents.outline), byref(funcs), None),
                      'FT_Outline_Decompose')
        if ops:
            ops.append(('closePath', ()))
        return ops

    def select_size(self, strike: int):
        self.ft.check(self.lib.FT_Select_Size(self.handle, strike), 'FT_Select_Size')

    def color_bitmap(self, gid: int):
        """FT_LOAD_COLOR of a bitmap glyph at the selected strike: (alpha rows [bytes], left, top)."""
        slot = self.load(gid, FT_LOAD_COLOR)
        bm = slot.bitmap
        if bm.pixel_mode != FT_PIXEL_MODE_BGRA:
            raise RuntimeError(f'glyph {gid}: pixel mode {bm.pixel_mode}, not BGRA')
        rows = []
        for r in range(bm.rows):
            row = ctypes.string_at(ctypes.addressof(bm.buffer.contents) + r * bm.pitch, 4 * bm.width)
            rows.append(row[3::4])
        return rows, slot.bitmap_left, slot.bitmap_top

    def color_layers(self, gid: int):
        """COLR v0 layers by FT_Get_Color_Glyph_Layer: [(layer glyph id, palette index)]."""
        it = FT_LayerIterator()
        g, c = c_uint(), c_uint()
        out = []
        while self.lib.FT_Get_Color_Glyph_Layer(self.handle, gid, byref(g), byref(c), byref(it)):
            out.append((g.value, c.value))
        return out

    def clip_box(self, gid: int):
        """FT_Get_Color_Glyph_ClipBox at the current size: four corners in 26.6, or None."""
        box = FT_ClipBox()
        if not self.lib.FT_Get_Color_Glyph_ClipBox(self.handle, gid, byref(box)):
            return None
        return [(v.x, v.y) for v in (box.bottom_left, box.top_left, box.top_right, box.bottom_right)]

    def paint_tree(self, gid: int):
        """The COLR v1 paint graph of a base glyph as FreeType reads it (FT_Get_Color_Glyph_Paint with
        FT_COLOR_NO_ROOT_TRANSFORM, then FT_Get_Paint / FT_Get_Paint_Layers), as nested tuples:
        ('layers', [...]), ('glyph', gid, fill child), ('colr_glyph', gid), ('transform', (xx, yx, xy, yy, dx, dy),
        child), ('translate' | 'scale' | 'rotate' | 'skew', (16.16 values as floats), child),
        ('composite', source, backdrop), ('fill',).  None if the glyph has no v1 paint."""
        root = FT_OpaquePaint()
        if not self.lib.FT_Get_Color_Glyph_Paint(self.handle, gid, FT_COLOR_NO_ROOT_TRANSFORM, byref(root)):
            return None
        return self._paint(root)

    def _paint(self, opaque):
        p = FT_COLR_Paint()
        if not self.lib.FT_Get_Paint(self.handle, opaque, byref(p)):
            raise RuntimeError('FT_Get_Paint failed')
        f, u = p.format, p.u
        if f == PAINT_COLR_LAYERS:
            it = u.colr_layers
            out, child = [], FT_OpaquePaint()
            while self.lib.FT_Get_Paint_Layers(self.handle, byref(it), byref(child)):
                out.append(self._paint(FT_OpaquePaint(child.p, child.insert_root_transform)))
            return ('layers', out)
        if f == PAINT_GLYPH:
            return ('glyph', u.glyph.glyphID, self._paint(u.glyph.paint))
        if f == PAINT_COLR_GLYPH:
            return ('colr_glyph', u.colr_glyph)
        if f == PAINT_TRANSFORM:
            xx, xy, dx, yx, yy, dy = (fixed(v) for v in u.transform.affine)
            return ('transform', (xx, yx, xy, yy, dx, dy), self._paint(u.transform.paint))
        if f in (PAINT_TRANSLATE, PAINT_SCALE, PAINT_ROTATE, PAINT_SKEW):
            n = {PAINT_TRANSLATE: 2, PAINT_SCALE: 4, PAINT_ROTATE: 3, PAINT_SKEW: 4}[f]
            kind = {PAINT_TRANSLATE: 'translate', PAINT_SCALE: 'scale', PAINT_ROTATE: 'rotate',
                    PAINT_SKEW: 'skew'}[f]
            return (kind, tuple(fixed(u.fixed.v[i]) for i in range(n)), self._paint(u.fixed.paint))
        if f == PAINT_COMPOSITE:
            return ('composite', self._paint(u.composite.source), self._paint(u.composite.backdrop))
        if f in PAINT_FILLS:
            return ('fill',)
        raise RuntimeError(f'unsupported paint format {f}')
