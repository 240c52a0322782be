/* The C reference of bench/storage_bench.py: writes back every line it reads on stdin, over the same pipes
   as movie-rpc. Its first response is the floor a process spawned over pipes can reach. */
#include <string.h>
#include <unistd.h>

int main(void) {
    static char buffer[1 << 16];
    size_t used = 0;
    for (;;) {
        ssize_t got = read(0, buffer + used, sizeof buffer - used);
        if (got <= 0) return 0;
        used += (size_t)got;
        char *end = memrchr(buffer, '\n', used);
        if (end == NULL) {
            if (used == sizeof buffer) used = 0; /* a line longer than the buffer: dropped */
            continue;
        }
        size_t lines = (size_t)(end - buffer) + 1;
        for (size_t done = 0; done < lines;) {
            ssize_t put = write(1, buffer + done, lines - done);
            if (put <= 0) return 1;
            done += (size_t)put;
        }
        memmove(buffer, buffer + lines, used - lines);
        used -= lines;
    }
}
