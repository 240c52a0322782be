extension Dictionary {
    /// Sets `value` for `key`, first dropping another entry (any one) when that would make more than
    /// `capacity`: the bound of the catalog's memory layers, which keep what is asked for, in no order.
    mutating func set(_ value: Value, for key: Key, keepingAtMost capacity: Int) {
        if count >= capacity, self[key] == nil, let victim = keys.first {
            self[victim] = nil
        }
        self[key] = value
    }
}
