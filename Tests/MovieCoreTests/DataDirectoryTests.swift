import Foundation
import Testing

@testable import MovieCore

@Suite struct DataDirectoryTests {
    private let root = NSTemporaryDirectory() + "DataDirectoryTests-" + UUID().uuidString

    @Test func prepareCreatesMissingParentsPrivately() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = DataDirectory(path: root + "/a/b/movie-rpc")
        try directory.prepare()
        for path in [root, root + "/a", root + "/a/b", directory.path] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect(attributes[.type] as? FileAttributeType == .typeDirectory, "\(path)")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700, "\(path)")
        }
        try directory.prepare()  // again: nothing to do, no error
    }

    @Test func prepareTightensAnExistingDirectory() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(
            atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try DataDirectory(path: root).prepare()
        let attributes = try FileManager.default.attributesOfItem(atPath: root)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test func aFileInTheWayIsAClearError() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try DataDirectory(path: root).prepare()
        #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data()))
        for path in [root + "/file", root + "/file/sub"] {
            let error = try #require(throws: DataDirectory.PrepareError.self) { try DataDirectory(path: path).prepare() }
            #expect(error.path == path)
            #expect(error.description.hasPrefix("cannot create the data directory \(path): "))
            #expect(!error.description.contains("Domain"), "no Foundation error dump: \(error)")
        }
    }
}
