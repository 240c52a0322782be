/// Percent-encoding of text for URLs and form bodies, and the text trimming header values need: what Foundation's
/// `addingPercentEncoding(withAllowedCharacters:)` and `trimmingCharacters(in:)` did, which FoundationEssentials
/// (the only Foundation the modules link, to keep ICU and CoreFoundation out of the binary) does not have.
public enum PercentEncoding {
    /// `text` with every Unicode scalar that `keeps` refuses written as the `%XX` escapes of its UTF-8 bytes
    /// (uppercase hex, as Foundation writes them).
    public static func encode(_ text: String, keeping keeps: (Unicode.Scalar) -> Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let kept = keeps(scalar)
            UTF8.encode(scalar) { byte in
                if kept {
                    bytes.append(byte)
                } else {
                    bytes.append(UInt8(ascii: "%"))
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986's unreserved characters: ASCII letters, digits and `-._~`.
    public static func isUnreserved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", ".", "_", "~": true
        default: false
        }
    }

    /// ASCII letters and digits: what Foundation's `addingPercentEncoding(withAllowedCharacters: .alphanumerics)`
    /// keeps on Linux, where only ASCII characters of the set stay literal.
    public static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9": true
        default: false
        }
    }
}

extension StringProtocol {
    /// The text without white space (Unicode's White_Space, line breaks included) at either end.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
