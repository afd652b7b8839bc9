// Not API: the system HarfBuzz headers, seen by Swift as the module `CHarfBuzz`.
// Include paths come from pkg-config (`harfbuzz`); see README.md.
#ifndef INKHIT_CHARFBUZZ_SHIM_H
#define INKHIT_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ot.h>
#endif
