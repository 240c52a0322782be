/* The C reference for bench.py: echoes every newline-terminated line read from stdin to stdout, all the
 * complete lines of one read in one write. Built by bench.py with `cc -O2`; the floor for a round trip
 * over pipes on this machine.
 *
 * `echo NANOSECONDS` first keeps the CPU busy that long for each read (bench/wake_window.py): a server
 * that works that long per request, and nothing else. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

int main(int argc, char **argv) {
    static char buffer[1 << 20];
    long long busy_ns = argc > 1 ? atoll(argv[1]) : 0;
    size_t held = 0;
    for (;;) {
        ssize_t count = read(0, buffer + held, sizeof buffer - held);
        if (count <= 0) return 0;
        held += (size_t)count;
        char *last = memrchr(buffer, '\n', held);
        if (!last) {
            if (held == sizeof buffer) held = 0; /* a line longer than the buffer: dropped */
            continue;
        }
        size_t lines = (size_t)(last - buffer) + 1;
        if (busy_ns > 0) {
            long long until = now_ns() + busy_ns;
            while (now_ns() < until) {}
        }
        for (size_t done = 0; done < lines;) {
            ssize_t written = write(1, buffer + done, lines - done);
            if (written <= 0) return 1;
            done += (size_t)written;
        }
        memmove(buffer, buffer + lines, held - lines);
        held -= lines;
    }
}
