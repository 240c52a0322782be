/// A first-in first-out queue with O(1) amortised push and pop (no swift-collections here).
struct FIFOQueue<Element> {
    private var storage: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head >= storage.count }
    var count: Int { storage.count - head }
    var first: Element? { head < storage.count ? storage[head] : nil }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head >= 1024 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns the first element matching `predicate` (O(n): for rare removals).
    mutating func removeFirst(where predicate: (Element) -> Bool) -> Element? {
        guard let index = storage[head...].firstIndex(where: { $0.map(predicate) ?? false }) else { return nil }
        return storage.remove(at: index)
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
