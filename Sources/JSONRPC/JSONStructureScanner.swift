/// A single pass over a message's bytes, before any decoding: bounds nesting depth and, for a batch,
/// finds where each top-level array element starts and ends so each can be decoded on its own.
///
/// It does not validate JSON (the decoder does); it only has to be right about strings and brackets.
enum JSONStructureScanner {
    enum Shape: Equatable {
        case object
        case array(elements: [Range<Int>])
        case other
        case empty
    }

    enum Failure: Error, Equatable {
        case tooDeep(limit: Int)
        case unbalanced
    }

    static func scan(_ bytes: [UInt8], maxDepth: Int) -> Result<Shape, Failure> {
        var depth = 0
        var inString = false
        var escaped = false
        var elements: [Range<Int>] = []
        var elementStart: Int?
        var topLevel: UInt8?

        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            if topLevel == nil {
                if isWhitespace(byte) { continue }
                topLevel = byte
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                if depth == 1 && topLevel == UInt8(ascii: "[") && elementStart == nil { elementStart = index }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 1 && topLevel == UInt8(ascii: "[") && elementStart == nil { elementStart = index }
                depth += 1
                if depth > maxDepth { return .failure(.tooDeep(limit: maxDepth)) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 { return .failure(.unbalanced) }
                if depth == 0 && topLevel == UInt8(ascii: "["), let start = elementStart {
                    elements.append(start..<trimmedEnd(bytes, before: index))
                    elementStart = nil
                }
            case UInt8(ascii: ","):
                if depth == 1 && topLevel == UInt8(ascii: "["), let start = elementStart {
                    elements.append(start..<trimmedEnd(bytes, before: index))
                    elementStart = nil
                }
            default:
                if depth == 1 && topLevel == UInt8(ascii: "[") && elementStart == nil && !isWhitespace(byte) {
                    elementStart = index
                }
            }
        }
        if inString || depth != 0 { return .failure(.unbalanced) }
        switch topLevel {
        case nil: return .success(.empty)
        case UInt8(ascii: "{"): return .success(.object)
        case UInt8(ascii: "["): return .success(.array(elements: elements))
        default: return .success(.other)
        }
    }

    private static func trimmedEnd(_ bytes: [UInt8], before end: Int) -> Int {
        var end = end
        while end > 0 && isWhitespace(bytes[end - 1]) { end -= 1 }
        return end
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
