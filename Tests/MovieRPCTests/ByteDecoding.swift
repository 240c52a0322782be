import Foundation

extension JSONDecoder {
    /// Results are written as byte arrays; tests decode them as they would `Data`.
    func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: Data(bytes))
    }
}
