/* The C reference for bench.py: echoes every newline-terminated line read from stdin to stdout, all the
 * complete lines of one read in one write. Built by bench.py with `cc -O2`; the floor for a round trip
 * over pipes on this machine. */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

int main(void) {
    static char buffer[1 << 20];
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
        for (size_t done = 0; done < lines;) {
            ssize_t written = write(1, buffer + done, lines - done);
            if (written <= 0) return 1;
            done += (size_t)written;
        }
        memmove(buffer, buffer + lines, held - lines);
        held -= lines;
    }
}
