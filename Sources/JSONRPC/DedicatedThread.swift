#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a thread of its own for a loop that blocks in `read(2)` or on a semaphore, so that it never holds
/// one of Swift's cooperative threads. The modules use FoundationEssentials, which has no `Thread`; a POSIX
/// thread, detached, is what Foundation's would be.
public enum DedicatedThread {
    private final class Start {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Returns false when the system refused a thread (`EAGAIN`: a process or system limit); `body` does not
    /// run then.
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let start = Unmanaged.passRetained(Start(name: name, body: body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
            DedicatedThread.nameCurrentThread(start.name)
            start.body()
            return nil
        }, start.toOpaque())
        if result != 0 {
            start.release()
            return false
        }
        return true
    }

    /// The kernel's name for the thread (ps -T, top -H, debuggers), at most 15 bytes. Glibc's Swift module leaves
    /// out `pthread_setname_np`; writing the thread's comm file is the same rename.
    private static func nameCurrentThread(_ name: String) {
        let comm = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard comm >= 0 else { return }
        _ = name.withCString { write(comm, $0, strlen($0)) }
        close(comm)
    }
}
