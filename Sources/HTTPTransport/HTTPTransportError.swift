import Foundation

/// A failure below HTTP: no response was received.
///
/// Carries only a `URLError` code, never the URL (which may contain the `api_key`).
public enum HTTPTransportError: Error, Sendable, Hashable {
    /// The host could not be reached (no network, DNS failure, refused, lost, timed out, TLS failure).
    case offline(code: Int)
    /// The request was cancelled (`URLError.cancelled`, -999, or `CancellationError`).
    case cancelled
    /// Any other transport failure, with its `URLError` code (or `NSError` code).
    case other(code: Int)

    /// Classifies a `URLError` code, as the socket client reports its failures.
    init(_ code: URLError.Code) {
        self.init(urlErrorCode: code.rawValue)
    }

    /// `URLError` codes treated as "cannot reach TMDB".
    static let offlineCodes: Set<Int> = [
        URLError.Code.notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .networkConnectionLost,
        .dnsLookupFailed, .timedOut, .secureConnectionFailed,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// Classifies any error thrown by a transport. Keeps only codes, so no URL survives.
    public init(_ error: any Error) {
        switch error {
        case let transport as HTTPTransportError:
            self = transport
        case is CancellationError:
            self = .cancelled
        case let urlError as URLError:
            self.init(urlErrorCode: urlError.code.rawValue)
        default:
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain {
                self.init(urlErrorCode: nsError.code)
            } else {
                self = .other(code: nsError.code)
            }
        }
    }

    /// Classifies a `URLError` code number, as the socket client reports its failures.
    init(urlErrorCode code: Int) {
        if code == URLError.Code.cancelled.rawValue {
            self = .cancelled
        } else if Self.offlineCodes.contains(code) {
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
        case .offline(let code): "HTTP transport: host unreachable (URLError \(code))"
        case .cancelled: "HTTP transport: cancelled"
        case .other(let code): "HTTP transport: failed (code \(code))"
        }
    }
}
