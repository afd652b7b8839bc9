// Not API: the system FreeType headers for the benchmarks' coverage-bitmap baseline, seen by Swift as
// the module `CFreeTypeRaster`. Include paths come from pkg-config (`freetype2`); see README.md.
#ifndef INKHIT_BENCH_CFREETYPERASTER_SHIM_H
#define INKHIT_BENCH_CFREETYPERASTER_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_IMAGE_H

#endif
