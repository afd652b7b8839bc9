// Not API: the system GNU FriBidi (Unicode Bidirectional Algorithm), seen by Swift as `CFriBidi`.
// Include paths come from pkg-config (`fribidi`); see README.md.
#ifndef INKHIT_CFRIBIDI_SHIM_H
#define INKHIT_CFRIBIDI_SHIM_H
#include <stdint.h>
#include <stdlib.h>
#include <fribidi.h>

/// Embedding levels (UAX #9, rules P2–W7–N2–I2, brackets included) of `len` code points.
/// base: -1 = from the first strong character (LTR if none), 0 = LTR, 1 = RTL.
/// Writes `len` levels; returns the paragraph's base level (0 or 1), or -1 on failure.
static inline int inkhit_bidi_levels(const uint32_t *str, int len, int base, uint8_t *levels) {
    if (len <= 0) return base == 1 ? 1 : 0;
    FriBidiCharType *types = (FriBidiCharType *)malloc(sizeof(FriBidiCharType) * (size_t)len);
    FriBidiBracketType *brackets = (FriBidiBracketType *)malloc(sizeof(FriBidiBracketType) * (size_t)len);
    FriBidiLevel *lv = (FriBidiLevel *)malloc(sizeof(FriBidiLevel) * (size_t)len);
    if (!types || !brackets || !lv) { free(types); free(brackets); free(lv); return -1; }
    fribidi_get_bidi_types((const FriBidiChar *)str, len, types);
    fribidi_get_bracket_types((const FriBidiChar *)str, len, types, brackets);
    FriBidiParType dir = base < 0 ? FRIBIDI_PAR_ON : (base == 1 ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR);
    FriBidiLevel max = fribidi_get_par_embedding_levels_ex(types, brackets, len, &dir, lv);
    int result = -1;
    if (max != 0) {
        for (int i = 0; i < len; i++) levels[i] = (uint8_t)lv[i];
        result = FRIBIDI_IS_RTL(dir) ? 1 : 0;
    }
    free(types); free(brackets); free(lv);
    return result;
}
#endif
