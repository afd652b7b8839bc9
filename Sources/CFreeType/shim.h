// Not API: the system FreeType headers, seen by Swift as the module `CFreeType`.
// Include paths come from pkg-config (`freetype2`); see README.md.
#ifndef INKHIT_CFREETYPE_SHIM_H
#define INKHIT_CFREETYPE_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_ADVANCES_H
#include FT_TRUETYPE_TABLES_H
#include FT_MULTIPLE_MASTERS_H
#include FT_SFNT_NAMES_H
#include FT_SYNTHESIS_H
#include FT_COLOR_H
#include FT_BITMAP_H
#include FT_FONT_FORMATS_H
#include FT_MODULE_H

#endif
