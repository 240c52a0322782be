/// The rules an event must satisfy to be stored by `events.add`. Recorded `AppEvent`s satisfy them by
/// construction.
///
/// - name: 1 to 200 characters, no control characters;
/// - params: at most 100 keys, each 1 to 200 characters; values are integers, finite numbers, strings
///   (at most 10,000 characters), booleans, or arrays of at most 1,000 of those (the types are enforced by
///   `EventValue`); at most 65,536 bytes in all, as JSON. The byte bound keeps one event (and its row in
///   the search index, which holds the same values) small: a 15 MB event once took 9 s to add.
public enum EventValidation {
    public static let maxNameLength = 200
    public static let maxParams = 100
    public static let maxKeyLength = 200
    public static let maxStringLength = 10_000
    public static let maxArrayLength = 1_000
    public static let maxParamsBytes = 65_536

    /// The problem of params whose JSON text has `byteCount` bytes, if too many.
    public static func sizeProblem(byteCount: Int) -> FieldProblem? {
        guard byteCount > maxParamsBytes else { return nil }
        return FieldProblem(field: "params", problem: "must be at most \(maxParamsBytes) bytes as JSON")
    }

    /// Every problem with `name` and `params`, fields named as on the wire (`name`, `params.page`,
    /// `params.tags[2]`); empty when the event is valid.
    public static func problems(name: String, params: [String: EventValue]) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        if name.isEmpty || name.count > maxNameLength {
            problems.append(FieldProblem(field: "name", problem: "must be 1 to \(maxNameLength) characters"))
        } else if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            problems.append(FieldProblem(field: "name", problem: "must not contain control characters"))
        }
        if params.count > maxParams {
            problems.append(FieldProblem(field: "params", problem: "must have at most \(maxParams) keys"))
        }
        let badKeys = params.keys.filter { $0.isEmpty || $0.count > maxKeyLength }
        if !badKeys.isEmpty {
            problems.append(FieldProblem(field: "params", problem: "keys must be 1 to \(maxKeyLength) characters"))
        }
        // A lower bound of the JSON size (keys and string bytes, before escaping), checked before anything
        // walks the values; the exact size is checked once the event is encoded.
        var atLeast = 2
        for (key, value) in params {
            atLeast += key.utf8.count + 4
            switch value {
            case .string(let text): atLeast += text.utf8.count + 2
            case .array(let elements): atLeast += elements.count + elements.reduce(0) { $0 + minimumBytes($1) }
            case .int, .double, .bool: atLeast += 1
            }
            if atLeast > maxParamsBytes { break }
        }
        if let problem = sizeProblem(byteCount: atLeast) {
            return problems + [problem]
        }
        for (key, value) in params.sorted(by: { $0.key < $1.key }) where !badKeys.contains(key) {
            problems += self.problems(value, field: "params.\(key)")
        }
        return problems
    }

    private static func minimumBytes(_ scalar: EventScalar) -> Int {
        if case .string(let text) = scalar { return text.utf8.count + 2 }
        return 1
    }

    private static func problems(_ value: EventValue, field: String) -> [FieldProblem] {
        switch value {
        case .int, .bool: return []
        case .double(let number): return problems(.double(number) as EventScalar, field: field)
        case .string(let text): return problems(.string(text) as EventScalar, field: field)
        case .array(let elements):
            guard elements.count <= maxArrayLength else {
                return [FieldProblem(field: field, problem: "must have at most \(maxArrayLength) elements")]
            }
            return elements.enumerated().flatMap { index, element in problems(element, field: "\(field)[\(index)]") }
        }
    }

    private static func problems(_ scalar: EventScalar, field: String) -> [FieldProblem] {
        switch scalar {
        case .int, .bool:
            return []
        case .double(let number):
            return number.isFinite ? [] : [FieldProblem(field: field, problem: "must be a finite number")]
        case .string(let text):
            guard text.utf8.count > maxStringLength, text.count > maxStringLength else { return [] }
            return [FieldProblem(field: field, problem: "must be at most \(maxStringLength) characters")]
        }
    }
}
