/// A stack of booleans, one per open JSON container, that allocates nothing for its first 64 levels: the
/// scanner and the writer keep one per message, and an array was an allocation per message for both.
struct BitStack {
    private(set) var count = 0
    /// Level `n` (0 the outermost) is bit `n`, for the first 64 levels.
    private var bits: UInt64 = 0
    /// Levels 64 and deeper, outermost first.
    private var deeper: [Bool] = []

    var isEmpty: Bool { count == 0 }

    mutating func push(_ value: Bool) {
        if count < 64 {
            let bit: UInt64 = 1 << UInt64(count)
            bits = value ? bits | bit : bits & ~bit
        } else {
            deeper.append(value)
        }
        count += 1
    }

    /// Removes the innermost entry; nothing when empty.
    mutating func pop() {
        guard count > 0 else { return }
        count -= 1
        if count >= 64 { deeper.removeLast() }
    }

    /// The innermost entry; false when empty.
    var top: Bool {
        get {
            guard count > 0 else { return false }
            guard count <= 64 else { return deeper[deeper.count - 1] }
            return bits & (1 << UInt64(count - 1)) != 0
        }
        set {
            guard count > 0 else { return }
            guard count <= 64 else {
                deeper[deeper.count - 1] = newValue
                return
            }
            let bit: UInt64 = 1 << UInt64(count - 1)
            bits = newValue ? bits | bit : bits & ~bit
        }
    }
}
