// A write that never blocks, on a descriptor left in blocking mode: pwritev2 with RWF_NOWAIT (Linux 4.14;
// pipes honour it since 5.8). The protocol output is the parent process's pipe, whose O_NONBLOCK flag the
// parent shares, so it is never set; this flag is per call. Swift's Glibc module leaves both out.
#include <errno.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>

#if defined(__linux__)
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif
extern ssize_t pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags);
#endif

/// Writes a frame's header, body and trailer (any of them empty) to `fd` at its current position without
/// waiting for room, the body where it is (not copied behind its header first): returns the bytes written
/// (possibly fewer than all), or -1 with errno EAGAIN when nothing fits now, or another errno (EOPNOTSUPP,
/// EINVAL, ENOSYS: the descriptor or the kernel cannot; EPIPE, ...).
static inline ssize_t movie_rpc_write3_nowait(
    int fd, const void *header, size_t headerCount, const void *body, size_t bodyCount, const void *trailer,
    size_t trailerCount) {
#if defined(__linux__)
    struct iovec vectors[3];
    int count = 0;
    if (headerCount > 0) { vectors[count].iov_base = (void *)header; vectors[count].iov_len = headerCount; count++; }
    if (bodyCount > 0) { vectors[count].iov_base = (void *)body; vectors[count].iov_len = bodyCount; count++; }
    if (trailerCount > 0) { vectors[count].iov_base = (void *)trailer; vectors[count].iov_len = trailerCount; count++; }
    return pwritev2(fd, vectors, count, -1, RWF_NOWAIT);
#else
    (void)fd; (void)header; (void)headerCount; (void)body; (void)bodyCount; (void)trailer; (void)trailerCount;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

/// Writes up to `count` bytes of `bytes` as `movie_rpc_write3_nowait` does, with neither header nor trailer.
static inline ssize_t movie_rpc_write_nowait(int fd, const void *bytes, size_t count) {
    return movie_rpc_write3_nowait(fd, NULL, 0, bytes, count, NULL, 0);
}
