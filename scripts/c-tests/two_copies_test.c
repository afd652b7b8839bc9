/*
 * two_copies_test.c — two copies of libInkHit in one process, as two plugins that each ship their own would have
 * them: dlopen'd from two files (RTLD_LOCAL), each with the Swift runtime inside, each used.
 *
 * libInkHit's thread-local block is static TLS (the per-thread record is initial-exec), which glibc takes from
 * the small surplus it keeps for every dlopen'd library of the process (about 1.6 KB in all): a block of 1.2 KB
 * (as the 1 KB error message once made it) left no room for a second copy ("cannot allocate memory in static TLS
 * block"). Each copy here loads a font, gives its version, fails one call on purpose and reads its own message.
 *
 *   cc two_copies_test.c $(pkg-config --cflags inkhit) -ldl -o two_copies_test
 *   ./two_copies_test COPY1/libInkHit.so.1 COPY2/libInkHit.so.1 FONT.ttf
 */
#define _GNU_SOURCE
#include <inkhit.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef inkhit_status (*font_from_path_fn)(const char *, int32_t, inkhit_font *);
typedef inkhit_status (*font_release_fn)(inkhit_font);
typedef const char *(*last_error_fn)(void);

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: two_copies_test LIB1 LIB2 FONT\n"); return 2; }
    void *libs[2];
    for (int i = 0; i < 2; i++) {
        libs[i] = dlopen(argv[1 + i], RTLD_NOW | RTLD_LOCAL);
        if (libs[i] == NULL) { fprintf(stderr, "two copies: dlopen: %s\n", dlerror()); return 1; }
    }
    if (libs[0] == libs[1]) { fprintf(stderr, "two copies: both paths name one library\n"); return 2; }
    for (int i = 0; i < 2; i++) {
        font_from_path_fn from_path = (font_from_path_fn)(uintptr_t)dlsym(libs[i], "inkhit_font_from_path");
        font_release_fn release = (font_release_fn)(uintptr_t)dlsym(libs[i], "inkhit_font_release");
        last_error_fn last_error = (last_error_fn)(uintptr_t)dlsym(libs[i], "inkhit_last_error");
        if (from_path == NULL || release == NULL || last_error == NULL) { fprintf(stderr, "two copies: dlsym\n"); return 1; }
        inkhit_font font = NULL;
        if (from_path(argv[3], 0, &font) != INKHIT_OK || release(font) != INKHIT_OK) {
            fprintf(stderr, "two copies: copy %d: %s\n", i + 1, last_error());
            return 1;
        }
        if (from_path("/nonexistent.ttf", 0, &font) == INKHIT_OK || strncmp(last_error(), "inkhit_font_from_path", 21) != 0) {
            fprintf(stderr, "two copies: copy %d: no message for a missing file (\"%s\")\n", i + 1, last_error());
            return 1;
        }
    }
    printf("two copies: both loaded in one process, each answered and kept its own message\n");
    return 0;
}
