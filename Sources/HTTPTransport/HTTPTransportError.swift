#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A failure below HTTP: no response was received.
///
/// Carries only a code, never the URL (which may contain the `api_key`). The codes are numbered as Foundation's
/// `URLError` numbers them, so a log line reads the same as one from a URLSession client.
public enum HTTPTransportError: Error, Sendable, Hashable {
    /// The host could not be reached (no network, DNS failure, refused, lost, timed out, TLS failure).
    case offline(code: Int)
    /// The request was cancelled (code -999, or `CancellationError`).
    case cancelled
    /// Any other transport failure, with its code (-1 when the error came from elsewhere).
    case other(code: Int)

    /// The failures the socket client reports, with `URLError`'s numbers.
    public enum Code: Int, Sendable, CaseIterable {
        case unknown = -1
        case cancelled = -999
        case timedOut = -1001
        case unsupportedURL = -1002
        case cannotFindHost = -1003
        case cannotConnectToHost = -1004
        case networkConnectionLost = -1005
        case dnsLookupFailed = -1006
        case httpTooManyRedirects = -1007
        case notConnectedToInternet = -1009
        case badServerResponse = -1011
        case dataLengthExceedsMaximum = -1103
        case secureConnectionFailed = -1200

        /// The codes treated as "cannot reach the host".
        var meansOffline: Bool {
            switch self {
            case .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .networkConnectionLost,
                 .dnsLookupFailed, .timedOut, .secureConnectionFailed:
                true
            default:
                false
            }
        }
    }

    /// Classifies a failure, as the socket client reports its failures.
    public init(_ code: Code) {
        self.init(urlErrorCode: code.rawValue)
    }

    /// Classifies any error thrown by a transport. Keeps only codes, so no URL survives.
    public init(_ error: any Error) {
        switch error {
        case let transport as HTTPTransportError:
            self = transport
        case is CancellationError:
            self = .cancelled
        default:
            // A URLSession-based HTTPClient's URLError, told by its error domain: the modules link
            // FoundationEssentials only, which has no URLError type to cast to. Any other error keeps the code
            // Foundation's bridging would give it.
            if error._domain == "NSURLErrorDomain" {
                self.init(urlErrorCode: error._code)
            } else {
                self = .other(code: error._code)
            }
        }
    }

    /// Classifies a code number in `URLError`'s numbering.
    init(urlErrorCode code: Int) {
        if code == Code.cancelled.rawValue {
            self = .cancelled
        } else if Code(rawValue: code)?.meansOffline == true {
            self = .offline(code: code)
        } else {
            self = .other(code: code)
        }
    }
}

extension HTTPTransportError {
    /// The response was longer than the request's ``HTTPRequest/maxResponseBytes`` allows (or its header
    /// block longer than 64 KiB); it was abandoned while being read.
    public static let responseTooLarge = HTTPTransportError(.dataLengthExceedsMaximum)
    /// More than ``RedirectPolicy/maxRedirects`` redirects in a row, or one back to a URL already visited.
    public static let tooManyRedirects = HTTPTransportError(.httpTooManyRedirects)
}

extension HTTPTransportError: CustomStringConvertible {
    /// A short description with the code only.
    public var description: String {
        switch self {
        case .offline(let code): "HTTP transport: host unreachable (code \(code))"
        case .cancelled: "HTTP transport: cancelled"
        case .other(let code): "HTTP transport: failed (code \(code))"
        }
    }
}
