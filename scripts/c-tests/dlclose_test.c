/*
 * dlclose_test.c — a host may dlclose() libInkHit while one of its threads has used it, and that thread may end
 * afterwards.
 *
 * A thread that makes a call on a handle gets a per-thread record with a destructor in libInkHit's code (and the
 * Swift runtime inside the library keeps thread-local state of its own). If dlclose() unmapped the library, the
 * thread's end would jump into unmapped memory (SIGSEGV). libInkHit is linked with -z nodelete, so dlclose()
 * leaves it mapped. The thread: loads a font, asks for its info (a call on a handle), then waits; the main thread
 * dlcloses the library, lets the thread end, joins it and prints "dlclose: ...".
 *
 *   cc dlclose_test.c $(pkg-config --cflags inkhit) -ldl -lpthread -o dlclose_test
 *   ./dlclose_test PATH/libInkHit.so.1 FONT.ttf
 */
#define _GNU_SOURCE
#include <inkhit.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void *library;
static const char *font_path;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int used, closed;

typedef inkhit_status (*font_from_path_fn)(const char *, int32_t, inkhit_font *);
typedef inkhit_status (*font_get_info_fn)(inkhit_font, inkhit_font_info *);
typedef inkhit_status (*font_release_fn)(inkhit_font);

static void *worker(void *arg) {
    (void)arg;
    font_from_path_fn from_path = (font_from_path_fn)(uintptr_t)dlsym(library, "inkhit_font_from_path");
    font_get_info_fn get_info = (font_get_info_fn)(uintptr_t)dlsym(library, "inkhit_font_get_info");
    font_release_fn release = (font_release_fn)(uintptr_t)dlsym(library, "inkhit_font_release");
    if (from_path == NULL || get_info == NULL || release == NULL) { fprintf(stderr, "dlsym failed\n"); exit(1); }
    inkhit_font font = NULL;
    inkhit_font_info info;
    if (from_path(font_path, 0, &font) != INKHIT_OK || get_info(font, &info) != INKHIT_OK || release(font) != INKHIT_OK) {
        fprintf(stderr, "dlclose: the calls before dlclose failed\n");
        exit(1);
    }
    pthread_mutex_lock(&mutex);
    used = 1;
    pthread_cond_broadcast(&changed);
    while (!closed) pthread_cond_wait(&changed, &mutex);
    pthread_mutex_unlock(&mutex);
    return NULL;                               /* the thread ends after dlclose: its destructors run now */
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: dlclose_test LIBRARY FONT\n"); return 2; }
    font_path = argv[2];
    library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }
    pthread_t thread;
    if (pthread_create(&thread, NULL, worker, NULL) != 0) return 1;
    pthread_mutex_lock(&mutex);
    while (!used) pthread_cond_wait(&changed, &mutex);
    pthread_mutex_unlock(&mutex);
    if (dlclose(library) != 0) { fprintf(stderr, "dlclose: %s\n", dlerror()); return 1; }
    pthread_mutex_lock(&mutex);
    closed = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&mutex);
    pthread_join(thread, NULL);
    /* A second load after the close finds the same library (never unmapped) and works. */
    void *again = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    font_from_path_fn from_path = again ? (font_from_path_fn)(uintptr_t)dlsym(again, "inkhit_font_from_path") : NULL;
    inkhit_font font = NULL;
    if (from_path == NULL || from_path(font_path, 0, &font) != INKHIT_OK) { fprintf(stderr, "dlclose: the library after dlclose failed\n"); return 1; }
    printf("dlclose: a thread that used libInkHit ended after dlclose, and the library loaded again works\n");
    return 0;
}
