import Foundation
import Testing

@testable import MovieCore

@Suite struct ValidationTests {
    typealias Message = AccountValidator.Message
    /// 2026-06-15T12:00:00Z
    static let today = Date(timeIntervalSince1970: 1_781_524_800)

    func problems(_ form: AccountValidator.Form) -> [FieldProblem] {
        AccountValidator.problems(form, today: Self.today)
    }

    // MARK: Email

    @Test(arguments: [
        "a@b.co", "first.last+tag@sub.example.org", "x@a-b.io", "O'Brien@example.ie", "USER@EXAMPLE.COM",
        "1234@example.com", "a_b-c{d}@x9.example", "ada@xn--bcher-kva.example",
    ])
    func acceptsEmail(_ email: String) {
        #expect(AccountValidator.emailProblem(email) == nil)
    }

    @Test(arguments: [
        "plain", "a@b", "a@@b.co", "a@b@c.co", "a b@c.co", " a@b.co", "a@b.co ", "a@b..co", ".a@b.co", "a.@b.co",
        "a..b@c.co", "a@-b.co", "a@b-.co", "a@b.c_o", "a@b.123", "ä@b.co", "a@bü.co", "@b.co", "a@", "a@.co",
        "a@b.co.", "a\"b@c.co", "a@b,co", "a(b)@c.co",
    ])
    func rejectsEmail(_ email: String) {
        #expect(AccountValidator.emailProblem(email) == Message.emailInvalid)
    }

    @Test func emailEmptyTooLongAndLocalPartLimits() {
        #expect(AccountValidator.emailProblem("") == Message.required)
        let domain = String(repeating: "d", count: 60) + "." + String(repeating: "e", count: 60) + "."
            + String(repeating: "f", count: 60) + ".com"
        let local254 = String(repeating: "a", count: 254 - 1 - domain.count)
        #expect(local254.count > 64)
        #expect(AccountValidator.emailProblem("\(local254)@\(domain)") == Message.emailInvalid)  // local part > 64
        #expect(AccountValidator.emailProblem(String(repeating: "a", count: 64) + "@example.com") == nil)
        let local65 = String(repeating: "a", count: 65) + "@example.com"
        #expect(AccountValidator.emailProblem(local65) == Message.emailInvalid)
        let long = String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 186) + ".com"
        #expect(long.count == 255)
        #expect(AccountValidator.emailProblem(long) == Message.emailTooLong)
        let label64 = "a@" + String(repeating: "b", count: 64) + ".com"
        #expect(AccountValidator.emailProblem(label64) == Message.emailInvalid)
    }

    @Test func emailsCompareLowercased() {
        #expect(AccountValidator.normalizedEmail("Ada@Example.COM") == "ada@example.com")
    }

    // MARK: Passwords

    @Test func passwordLength() {
        #expect(AccountValidator.passwordProblem("") == Message.passwordTooShort)
        #expect(AccountValidator.passwordProblem("ab") == Message.passwordTooShort)
        #expect(AccountValidator.passwordProblem("abc") == nil)
        #expect(AccountValidator.passwordProblem("👍🏽👍🏽👍🏽") == nil)  // three characters, many bytes
        #expect(AccountValidator.passwordProblem(String(repeating: "x", count: 1024)) == nil)
        #expect(AccountValidator.passwordProblem(String(repeating: "x", count: 1025)) == Message.passwordTooLong)
        let combining = "a" + String(repeating: "\u{301}", count: 5000)
        #expect(combining.count == 1)
        #expect(AccountValidator.passwordProblem(combining + "bc") == Message.passwordTooLong)
    }

    @Test func confirmationMustMatchWhenBothAreGiven() {
        #expect(problems(.init(password: "secret", passwordConfirmation: "secret")).isEmpty)
        #expect(problems(.init(password: "secret", passwordConfirmation: "Secret"))
            == [FieldProblem(field: "passwordConfirmation", problem: Message.confirmationMismatch)])
        #expect(problems(.init(passwordConfirmation: "anything")).isEmpty)
    }

    // MARK: Profile

    func profileProblem(_ changes: ProfileChanges) -> [FieldProblem] {
        problems(.init(profile: changes))
    }

    @Test func displayNameAndBio() {
        #expect(profileProblem(.init(displayName: String(repeating: "n", count: 100))).isEmpty)
        #expect(profileProblem(.init(displayName: String(repeating: "n", count: 101)))
            == [FieldProblem(field: "profile.displayName", problem: Message.displayNameTooLong)])
        #expect(profileProblem(.init(displayName: "Ada\u{7}"))
            == [FieldProblem(field: "profile.displayName", problem: Message.controlCharacters)])
        #expect(profileProblem(.init(displayName: "Ada\nLovelace"))
            == [FieldProblem(field: "profile.displayName", problem: Message.controlCharacters)])
        #expect(profileProblem(.init(bio: "Line one\nLine two\tand a tab")).isEmpty)
        #expect(profileProblem(.init(bio: String(repeating: "b", count: 1000))).isEmpty)
        #expect(profileProblem(.init(bio: String(repeating: "b", count: 1001)))
            == [FieldProblem(field: "profile.bio", problem: Message.bioTooLong)])
        #expect(profileProblem(.init(bio: "nul\u{0}"))
            == [FieldProblem(field: "profile.bio", problem: Message.controlCharacters)])
    }

    /// Issue 13.13: a right-to-left override made a name display as other text than it is.
    @Test(arguments: ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}",
                      "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}"])
    func bidiControlsAreRefusedInProfileText(_ control: String) {
        for field in ["displayName", "bio"] {
            let text = "Ada" + control + "gnp.exe"
            let changes = field == "bio" ? ProfileChanges(bio: text) : ProfileChanges(displayName: text)
            #expect(profileProblem(changes) == [FieldProblem(field: "profile." + field, problem: Message.bidiControls)])
        }
    }

    @Test func otherControlsAreRefusedToo() {
        for control in ["\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "\u{2029}"] {
            #expect(profileProblem(.init(displayName: "Ada" + control))
                == [FieldProblem(field: "profile.displayName", problem: Message.controlCharacters)])
        }
        // Joiners and variation selectors are not controls: emoji and scripts that need them stay valid.
        #expect(profileProblem(.init(displayName: "Ada 👩‍💻 \u{FE0F}")).isEmpty)
        #expect(profileProblem(.init(displayName: "עדה לאבלייס")).isEmpty)
    }

    @Test func phone() {
        #expect(AccountValidator.phoneProblem("+1 (555) 123-4567") == nil)
        #expect(AccountValidator.phoneProblem("0301234567") == nil)
        #expect(AccountValidator.phoneProblem("555-CALL") == Message.phoneCharacters)
        #expect(AccountValidator.phoneProblem("+49.30.123") == Message.phoneCharacters)
        #expect(AccountValidator.phoneProblem("٣٤٥") == Message.phoneCharacters)  // non-ASCII digits
        #expect(AccountValidator.phoneProblem("( ) - +") == Message.phoneNoDigit)
        #expect(AccountValidator.phoneProblem(String(repeating: "1", count: 32)) == nil)
        #expect(AccountValidator.phoneProblem(String(repeating: "1", count: 33)) == Message.phoneTooLong)
        #expect(profileProblem(.init(phone: "call me"))
            == [FieldProblem(field: "profile.phone", problem: Message.phoneCharacters)])
    }

    @Test(arguments: [
        ("1990-01-31", nil), ("2000-02-29", nil), ("2026-06-14", nil), ("0001-01-01", nil),
        ("1990-13-01", Message.birthDateNotReal), ("1990-02-29", Message.birthDateNotReal),
        ("1900-02-29", Message.birthDateNotReal), ("1990-04-31", Message.birthDateNotReal),
        ("1990-00-10", Message.birthDateNotReal), ("1990-01-00", Message.birthDateNotReal),
        ("0000-01-01", Message.birthDateNotReal),
        ("2026-06-15", Message.birthDateNotPast), ("2026-06-16", Message.birthDateNotPast),
        ("2999-01-01", Message.birthDateNotPast),
        ("1990/01/01", Message.birthDateFormat), ("90-01-01", Message.birthDateFormat),
        ("1990-1-1", Message.birthDateFormat), ("1990-01-01T00:00:00Z", Message.birthDateFormat),
        ("１９９０-01-01", Message.birthDateFormat), ("yesterday", Message.birthDateFormat),
    ] as [(String, String?)])
    func birthDate(_ text: String, _ expected: String?) {
        #expect(AccountValidator.birthDateProblem(text, today: Self.today) == expected)
    }

    @Test func emptyProfileFieldsMeanClearAndAreValid() {
        #expect(profileProblem(.init(displayName: "", bio: "", phone: "", birthDate: "")).isEmpty)
    }

    // MARK: Whole forms

    @Test func everyFailingFieldIsReportedInFormOrder() {
        let form = AccountValidator.Form(
            email: "not an email", password: "ab", passwordConfirmation: "abc",
            profile: ProfileChanges(
                displayName: String(repeating: "x", count: 101), bio: String(repeating: "y", count: 1001),
                phone: "phone", birthDate: "2030-01-01"))
        #expect(problems(form) == [
            FieldProblem(field: "email", problem: Message.emailInvalid),
            FieldProblem(field: "password", problem: Message.passwordTooShort),
            FieldProblem(field: "passwordConfirmation", problem: Message.confirmationMismatch),
            FieldProblem(field: "profile.displayName", problem: Message.displayNameTooLong),
            FieldProblem(field: "profile.bio", problem: Message.bioTooLong),
            FieldProblem(field: "profile.phone", problem: Message.phoneCharacters),
            FieldProblem(field: "profile.birthDate", problem: Message.birthDateNotPast),
        ])
    }

    @Test func onlyGivenFieldsAreChecked() {
        #expect(problems(AccountValidator.Form()).isEmpty)
        #expect(problems(.init(email: "ada@example.com")).isEmpty)
        #expect(problems(.init(password: "ab")).map(\.field) == ["password"])
    }
}
