/// The catalog's entries for Apple Pay's merchant file: what Apple's domain verification does
/// with it (issue 58).

/// The merchant file's codes: each its case and its entry, in one exhaustive switch.
public enum ApplePayCode: String, FindingCodeFamily {
    case status = "applepay.status"
    case redirect = "applepay.redirect"
    case textOnly = "applepay.txt-only"
    case page = "applepay.page"
    case empty = "applepay.empty"
    case tooLarge = "applepay.too-large"
    case hashMismatch = "applepay.hash-mismatch"
    case certificateExpiring = "applepay.certificate-expiring"
    case tls = "applepay.tls"

    // One entry per code: a table, which reads better whole.
    public var definition: FindingDefinition {
        let category = AssociationKind.applePay.category
        return switch self {
        case .status:
            FindingDefinition(
                category, .error,
                meaning:
                    "The merchant file was not served with 200 (a WAF's 403, a bot challenge, a 404): Apple cannot verify the domain, and Apple Pay is not offered on it.",
                fix:
                    "Serve https://HOST/.well-known/apple-developer-merchantid-domain-association with 200 to every client; exempt the path from bot rules and rate limits."
            )
        case .redirect:
            FindingDefinition(
                category, .error,
                meaning:
                    "The merchant file's URL answered with a redirect (to a trailing slash, to .txt, to another host); Apple follows none.",
                fix: "Serve the file at the extensionless path on this exact host, with 200 and no redirect.")
        case .textOnly:
            FindingDefinition(
                category, .error,
                meaning:
                    "The file is served only as apple-developer-merchantid-domain-association.txt; Apple asks for the name without an extension.",
                fix: "Serve the same bytes at /.well-known/apple-developer-merchantid-domain-association (no .txt).")
        case .page:
            FindingDefinition(
                category, .error,
                meaning:
                    "A web page answered in the merchant file's place (an SPA's index, a CMS page, a catch-all 200): Apple reads it as the file, and verification fails.",
                fix: "Put the provider's file at the path so that it is served before any catch-all route.")
        case .empty:
            FindingDefinition(
                category, .error, meaning: "The merchant file is empty: Apple verifies nothing.",
                fix: "Download the file again from Apple (or your payment provider) and serve it unchanged.")
        case .tooLarge:
            FindingDefinition(
                category, .info,
                meaning:
                    "The merchant file is larger than this audit reads (64 KiB; the files Apple and providers issue are a few kilobytes): Apple documents no limit, so this fails nothing, but its hash was not compared.",
                fix: "Check that the path serves the file Apple or the provider issued, not something else.")
        case .hashMismatch:
            FindingDefinition(
                category, .error,
                meaning:
                    "The served file's SHA-256 is not the one the input names (applepay:SHA256): a deploy overwrote the provider's file, or the provider issued a new one.",
                fix:
                    "Serve the provider's current file unchanged, then update the hash in domains.txt (`shasum -a 256 apple-developer-merchantid-domain-association`)."
            )
        case .certificateExpiring:
            FindingDefinition(
                category, .warning,
                meaning:
                    "The host's TLS certificate expires within 30 days: Apple verifies the domain again before it does (30, 15 and 7 days ahead), and a certificate that lapses means registering the domain again.",
                fix: "Renew the certificate now; keep the merchant file served while Apple checks again.")
        case .tls:
            FindingDefinition(
                category, .error,
                meaning:
                    "The server accepted none of the TLS versions and suites Apple's servers offer: TLS 1.2 or later with TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384 or an ECDHE-ECDSA/RSA AES-GCM suite (a server of TLS 1.0 or 1.1 only, or of CHACHA20 or CBC suites only): Apple cannot verify the domain.",
                fix:
                    "Offer TLS 1.2 or 1.3 with one of Apple's suites (Apple's \"Setting up your server\"); a CDN's \"modern\" or \"intermediate\" TLS profile has them."
            )
        }
    }
}

extension FindingCode {
    /// A code of the merchant file's.
    public static func applePay(_ code: ApplePayCode) -> FindingCode { FindingCode(code) }
}
