#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules of the account forms, as the app had them. Each failing field gets one problem, in words a
/// form can show next to the field; every failing field is reported at once.
///
/// - `email`: a pragmatic address check, not the whole of RFC 5322: at most 254 characters, ASCII, no
///   spaces, exactly one `@`; the local part is 1–64 characters of letters, digits and
///   ``localPartSymbols`` with no leading, trailing or doubled dot; the domain has at least one dot, its
///   labels are 1–63 letters, digits or hyphens (not at either end of a label), and the last label
///   contains a letter. Compared case-insensitively.
/// - `password` (and `newPassword`): 3 to 1024 characters.
/// - `passwordConfirmation`: equal to the password, when given.
/// - `profile.displayName` ≤ 100 characters, `profile.bio` ≤ 1000, no control characters (the bio may
///   contain line breaks and tabs; the display name not even U+2028/U+2029) and no bidirectional text
///   controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C: an override makes a name display as
///   other text than it is); `profile.phone` ≤ 32 characters of digits, spaces and `+ - ( )`, with
///   at least one digit; `profile.birthDate` an ISO `YYYY-MM-DD` date that exists and is before today (UTC).
///   An empty profile field means "clear it" and is always valid.
public enum AccountValidator {
    /// Allowed password length in characters (grapheme clusters).
    public static let passwordLength = 3...1024
    /// Limits of the other fields, in characters.
    public static let maxEmailLength = 254
    public static let maxDisplayNameLength = 100
    public static let maxBioLength = 1000
    public static let maxPhoneLength = 32
    /// Symbols allowed in an email's local part besides letters, digits and dots (RFC 5322 `atext`).
    public static let localPartSymbols = "!#$%&'*+/=?^_`{|}~-"

    /// Messages, fixed so clients and tests can rely on them.
    public enum Message {
        public static let required = "is required"
        public static let emailInvalid = "must be a valid email address, like name@example.com"
        public static let emailTooLong = "must be at most 254 characters"
        public static let passwordTooShort = "must be at least 3 characters"
        public static let passwordTooLong = "must be at most 1024 characters"
        public static let confirmationMismatch = "must match the password"
        public static let displayNameTooLong = "must be at most 100 characters"
        public static let bioTooLong = "must be at most 1000 characters"
        public static let controlCharacters = "must not contain control characters"
        public static let bidiControls =
            "must not contain bidirectional text controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C)"
        public static let phoneTooLong = "must be at most 32 characters"
        public static let phoneCharacters = "may contain only digits, spaces and + - ( )"
        public static let phoneNoDigit = "must contain at least one digit"
        public static let birthDateFormat = "must be a date in the form YYYY-MM-DD"
        public static let birthDateNotReal = "must be a real calendar date"
        public static let birthDateNotPast = "must be in the past"
        public static let currentPasswordRequired = "is required to set a new password"
    }

    /// The fields of a form; only the given (non-nil) ones are checked.
    public struct Form: Sendable, Equatable {
        public var email: String?
        public var password: String?
        public var passwordConfirmation: String?
        public var profile: ProfileChanges?

        /// A form with the given fields; nil fields are not checked.
        public init(
            email: String? = nil, password: String? = nil, passwordConfirmation: String? = nil,
            profile: ProfileChanges? = nil
        ) {
            self.email = email
            self.password = password
            self.passwordConfirmation = passwordConfirmation
            self.profile = profile
        }
    }

    /// Every problem of the given fields, in form order. `today` decides what "in the past" means.
    public static func problems(_ form: Form, today: Date = Date()) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        if let email = form.email, let problem = emailProblem(email) {
            problems.append(FieldProblem(field: "email", problem: problem))
        }
        if let password = form.password, let problem = passwordProblem(password) {
            problems.append(FieldProblem(field: "password", problem: problem))
        }
        if let confirmation = form.passwordConfirmation, let password = form.password, confirmation != password {
            problems.append(FieldProblem(field: "passwordConfirmation", problem: Message.confirmationMismatch))
        }
        if let profile = form.profile {
            problems += profileProblems(profile, today: today)
        }
        return problems
    }

    /// Problems of profile fields, named `profile.<field>`.
    public static func profileProblems(_ profile: ProfileChanges, today: Date = Date()) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        func check(_ name: String, _ value: String?, _ rule: (String) -> String?) {
            guard let value, !value.isEmpty, let problem = rule(value) else { return }
            problems.append(FieldProblem(field: "profile.\(name)", problem: problem))
        }
        check("displayName", profile.displayName) {
            textProblem($0, maxLength: maxDisplayNameLength, tooLong: Message.displayNameTooLong, multiline: false)
        }
        check("bio", profile.bio) {
            textProblem($0, maxLength: maxBioLength, tooLong: Message.bioTooLong, multiline: true)
        }
        check("phone", profile.phone, phoneProblem)
        check("birthDate", profile.birthDate) { birthDateProblem($0, today: today) }
        return problems
    }

    // MARK: Single rules

    /// What is wrong with `email`, or nil.
    public static func emailProblem(_ email: String) -> String? {
        if email.isEmpty { return Message.required }
        if email.utf8.count > maxEmailLength { return Message.emailTooLong }
        return isValidEmail(email) ? nil : Message.emailInvalid
    }

    static func isValidEmail(_ email: String) -> Bool {
        let bytes = Array(email.utf8)
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { return false }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0]
        let domain = parts[1]
        let symbols = Set(localPartSymbols)
        guard (1...64).contains(local.count), local.first != ".", local.last != ".", !local.contains(".."),
            local.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || symbols.contains($0)) })
        else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard domain.count <= 253, labels.count >= 2 else { return false }
        for label in labels {
            guard (1...63).contains(label.count), label.first != "-", label.last != "-",
                label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else { return false }
        }
        return labels.last?.contains(where: \.isLetter) ?? false
    }

    /// The form of an email used for comparisons and uniqueness: lowercased.
    public static func normalizedEmail(_ email: String) -> String {
        email.lowercased()
    }

    /// What is wrong with a password, or nil.
    public static func passwordProblem(_ password: String) -> String? {
        if password.count < passwordLength.lowerBound { return Message.passwordTooShort }
        // The byte bound keeps a few "characters" made of thousands of combining marks out too.
        if password.count > passwordLength.upperBound || password.utf8.count > 4 * passwordLength.upperBound {
            return Message.passwordTooLong
        }
        return nil
    }

    static func textProblem(_ text: String, maxLength: Int, tooLong: String, multiline: Bool) -> String? {
        if text.count > maxLength || text.utf8.count > 4 * maxLength { return tooLong }
        let allowed: Set<Unicode.Scalar> = multiline ? ["\n", "\r", "\t"] : []
        let hasControl = text.unicodeScalars.contains {
            ($0.properties.generalCategory == .control && !allowed.contains($0))
                || (!multiline && ($0 == "\u{2028}" || $0 == "\u{2029}"))
        }
        if hasControl { return Message.controlCharacters }
        return text.unicodeScalars.contains(where: isBidiControl) ? Message.bidiControls : nil
    }

    /// The explicit bidirectional formatting characters: embeddings and overrides, isolates, and the marks.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }

    /// What is wrong with a phone number, or nil.
    public static func phoneProblem(_ phone: String) -> String? {
        if phone.count > maxPhoneLength { return Message.phoneTooLong }
        let allowed = Set("0123456789+-() ")
        guard phone.allSatisfy({ allowed.contains($0) }) else { return Message.phoneCharacters }
        return phone.contains(where: { $0.isASCII && $0.isNumber }) ? nil : Message.phoneNoDigit
    }

    /// What is wrong with a birth date, or nil. "In the past" means before `today`'s UTC date.
    public static func birthDateProblem(_ text: String, today: Date = Date()) -> String? {
        let bytes = Array(text.utf8)
        let isDigit: (UInt8) -> Bool = { (0x30...0x39).contains($0) }
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[0..<4].allSatisfy(isDigit), bytes[5..<7].allSatisfy(isDigit), bytes[8..<10].allSatisfy(isDigit),
            let year = Int(text.prefix(4)), let month = Int(text.dropFirst(5).prefix(2)), let day = Int(text.suffix(2))
        else { return Message.birthDateFormat }
        guard year >= 1, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else {
            return Message.birthDateNotReal
        }
        let todayText = String(Timestamp.string(today).prefix(10))
        return text < todayText ? nil : Message.birthDateNotPast
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }
}
