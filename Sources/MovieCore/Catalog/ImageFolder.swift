import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of the image cache, `<data directory>/images/<size>/<name>`, read and written without ever
/// following a symbolic link: a link planted there (to `/etc/passwd`, or a folder elsewhere) is removed, not
/// served or written through. Folders are opened one component at a time with `O_NOFOLLOW | O_DIRECTORY`,
/// must belong to this user, and are tightened to 0700; files are opened with `O_NOFOLLOW` relative to their
/// folder, must be regular and non-empty (an empty one, as older versions could leave, is removed), and are
/// written under a temporary name (`O_EXCL`) and renamed into place, so a reader never sees half an image.
///
/// Every call blocks on the file system, so each runs on a queue of its own, never on Swift's cooperative
/// threads.
struct ImageFolder: Sendable {
    /// `<data directory>/images`.
    let root: String
    private let dataDirectory: String
    private static let queue = DispatchQueue(label: "movie-rpc.image-files")

    init(dataDirectory: DataDirectory) {
        self.dataDirectory = dataDirectory.path
        root = dataDirectory.file("images")
    }

    /// The path a cached image has (whether or not it is there).
    func path(size: String, name: String) -> String {
        FilePaths.appending(name, to: FilePaths.appending(size, to: root))
    }

    /// The byte count of the cached image, or nil when it is not cached (or was not a usable file).
    func cachedBytes(size: String, name: String) async throws -> Int? {
        try await Self.onQueue { [self] in
            guard let folder = try openFolder(size: size, create: false) else { return nil }
            defer { close(folder) }
            return Self.regularFileBytes(name, in: folder)
        }
    }

    /// Stores `bytes` as the image, replacing whatever was there (a link is replaced, not followed).
    func store(_ bytes: Data, size: String, name: String) async throws {
        let target = path(size: size, name: name)
        try await Self.onQueue { [self] in
            guard let folder = try openFolder(size: size, create: true) else {
                throw MovieError.storage(ImageCache.writeProblem(near: target))
            }
            defer { close(folder) }
            let temporary = ".part-\(UUID().uuidString)"
            let file = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard file >= 0 else { throw MovieError.storage(ImageCache.writeProblem(near: target)) }
            let written = Self.writeAll(bytes, to: file)
            let closed = close(file) == 0
            guard written, closed, renameat(folder, temporary, folder, name) == 0 else {
                unlinkat(folder, temporary, 0)
                throw MovieError.storage(ImageCache.writeProblem(near: target))
            }
        }
    }

    // MARK: On the queue

    /// `images/<size>` as an open folder, made (0700) when `create`; nil when it is missing and not made.
    private func openFolder(size: String, create: Bool) throws -> Int32? {
        let data = open(dataDirectory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard data >= 0 else {
            if !create, errno == ENOENT { return nil }
            throw MovieError.storage(ImageCache.writeProblem(near: root))
        }
        defer { close(data) }
        guard let images = try Self.openDirectory("images", in: data, create: create, describedAs: root) else {
            return nil
        }
        defer { close(images) }
        return try Self.openDirectory(
            size, in: images, create: create, describedAs: FilePaths.appending(size, to: root))
    }

    /// Opens the folder `name` in `parent` without following a link. A link in its place is removed (the
    /// cache never makes one); a folder of another user, or anything that is not a folder, is refused.
    private static func openDirectory(_ name: String, in parent: Int32, create: Bool, describedAs path: String) throws
        -> Int32?
    {
        for _ in 0..<3 {
            let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if folder >= 0 {
                var status = stat()
                guard fstat(folder, &status) == 0, status.st_uid == geteuid() else {
                    close(folder)
                    StoreLog.warning("The image cache folder \(path) belongs to another user; it is not used")
                    throw MovieError.storage(.other)
                }
                if status.st_mode & 0o077 != 0 { _ = fchmod(folder, 0o700) }
                return folder
            }
            switch errno {
            case ENOENT:
                guard create else { return nil }
                if mkdirat(parent, name, 0o700) != 0, errno != EEXIST {
                    throw MovieError.storage(ImageCache.writeProblem(near: path))
                }
            case ELOOP, ENOTDIR:
                guard isSymbolicLink(name, in: parent) else {
                    StoreLog.warning("The image cache folder \(path) is not a folder; it is not used")
                    throw MovieError.storage(.other)
                }
                StoreLog.warning("A symbolic link was in place of the image cache folder \(path); it was removed")
                guard unlinkat(parent, name, 0) == 0 else {
                    throw MovieError.storage(ImageCache.writeProblem(near: path))
                }
            default:
                throw MovieError.storage(ImageCache.writeProblem(near: path))
            }
        }
        throw MovieError.storage(.other)
    }

    /// The size of the regular, non-empty file `name` in `folder`; nil for anything else. A link, or an empty
    /// file, is removed so that the image is downloaded again.
    private static func regularFileBytes(_ name: String, in folder: Int32) -> Int? {
        // O_NONBLOCK: a FIFO planted there must not hang the open.
        let file = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ELOOP { unlinkat(folder, name, 0) }
            return nil
        }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            return nil
        }
        guard status.st_size > 0 else {
            unlinkat(folder, name, 0)
            return nil
        }
        return Int(status.st_size)
    }

    private static func isSymbolicLink(_ name: String, in parent: Int32) -> Bool {
        var status = stat()
        return fstatat(parent, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    private static func writeAll(_ bytes: Data, to file: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(file, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }

    private static func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
