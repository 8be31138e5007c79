/// The codes of a file that could not be fetched at all (DNS, TCP, TLS, time), whichever kind's
/// file it was: each its case and its entry, in one exhaustive switch.
public enum TransferCode: String, FindingCodeFamily {
    case netDNS = "net.dns"
    case netConnect = "net.connect"
    case netTimeout = "net.timeout"
    case tlsCertificate = "tls.certificate"
    case tlsHandshake = "tls.handshake"
    case netOther = "net.other"
    case netBlockedAddress = "net.blocked-address"

    // One entry per code: a table, which reads better whole.
    public var definition: FindingDefinition {
        switch self {
        case .netDNS:
            FindingDefinition(
                .transfer, .error,
                meaning:
                    "The host name did not resolve (no such name, or no answer from the resolver within the connect timeout).",
                fix:
                    "Publish A/AAAA records for the host, or remove it from the app's associated domains. When every domain of a run fails so, this machine's resolver is the cause: the run then says it was not checked properly."
            )
        case .netConnect:
            FindingDefinition(
                .transfer, .error,
                meaning: "No TCP connection could be made to port 443 (refused or unreachable).",
                fix: "Make the host answer HTTPS on port 443 from the public internet.")
        case .netTimeout:
            FindingDefinition(
                .transfer, .error,
                meaning: "The server did not complete the response within the time limit.",
                fix: "Serve the file quickly; Apple's CDN gives up on slow origins too.")
        case .tlsCertificate:
            FindingDefinition(
                .transfer, .error,
                meaning:
                    "The TLS certificate is not trusted: unknown or self-signed issuer, expired, or not valid for the host name.",
                fix: "Serve a certificate from a public CA, with the full chain, covering this exact host name.")
        case .tlsHandshake:
            FindingDefinition(
                .transfer, .error,
                meaning:
                    "The TLS handshake failed (the server reset the connection, spoke plain HTTP, or offered nothing acceptable).",
                fix: "Serve modern TLS (1.2 or 1.3) on port 443.")
        case .netOther:
            FindingDefinition(
                .transfer, .error,
                meaning: "The transfer failed for another reason; curl's message says which.",
                fix: "Read curl's message in the finding and check the server's logs.")
        case .netBlockedAddress:
            FindingDefinition(
                .transfer, .error,
                meaning:
                    "Every address the host resolves to (or is sent to by \(OptionName.resolve)/\(OptionName.connectTo)) is loopback, private, link-local, CGNAT, unique-local or another special-purpose range, so the auditor did not connect. Apple's CDN cannot reach such an address either: devices would get no file.",
                fix:
                    "Publish public A/AAAA records for the host. To audit an internal or test host on purpose, allow its network with \(OptionName.allowNetwork) CIDR."
            )
        }
    }
}

extension FindingCode {
    /// A code of a file that could not be fetched.
    public static func transfer(_ code: TransferCode) -> FindingCode { FindingCode(code) }
}
