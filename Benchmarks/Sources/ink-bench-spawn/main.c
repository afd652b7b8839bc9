// Not API: `ink-bench-spawn STDIN STDOUT STDERR COMMAND [ARG...]` runs COMMAND as a child of this small
// process (fork + execvp, its standard streams from/to the three files) and prints one line:
//
//   status=0 wall_ns=12345678 maxrss_kib=10240 user_us=9000 sys_us=2000
//
// wall_ns: CLOCK_MONOTONIC from just before fork to the return of wait4; maxrss_kib, user_us, sys_us: the
// child's rusage from wait4; status: its exit status (−signal if killed, 127 if it could not be run).
//
// Why a process of its own: Linux records, when a process calls execve, the peak RSS of the memory it had
// until then (its parent's copy after fork, the parent's very memory after vfork / posix_spawn) into the
// peak it reports. A command spawned straight from ink-bench-summary (tens of MiB) would report at least
// that. Forked from this program, a child starts from a copy of this program's own writable memory (a few
// hundred KiB: fork copies no read-only file mappings), so `true` reports about 1 MiB here, as it does under
// /usr/bin/time; ink-bench-summary measures and prints that floor. Used by `ink-bench-summary cold --process`
// (Cold+Process.swift).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int open_or_die(const char *path, int flags) {
    int fd = open(path, flags, 0644);
    if (fd < 0) {
        perror(path);
        exit(2);
    }
    return fd;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: ink-bench-spawn STDIN STDOUT STDERR COMMAND [ARG...]\n");
        return 2;
    }
    int in = open_or_die(argv[1], O_RDONLY);
    int out = open_or_die(argv[2], O_WRONLY | O_CREAT | O_TRUNC);
    int err = open_or_die(argv[3], O_WRONLY | O_CREAT | O_TRUNC);
    fflush(stdout);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
        close(in);
        close(out);
        close(err);
        execvp(argv[4], argv + 4);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : (WIFSIGNALED(status) ? -WTERMSIG(status) : -1);
    printf("status=%d wall_ns=%lld maxrss_kib=%ld user_us=%lld sys_us=%lld\n", code, ns, ru.ru_maxrss,
           (long long)ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec,
           (long long)ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec);
    return 0;
}
