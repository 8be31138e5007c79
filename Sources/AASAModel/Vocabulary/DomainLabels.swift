/// `label:KEY=VALUE` tokens of a domains.txt line (`label:team=payments`): who a domain belongs
/// to, carried into its JSON record, the alert and Alertmanager's labels, so that alerts can be
/// routed by team as Alertmanager routes any alert. Bounded in number and length; keys follow
/// Prometheus' label names and may not take a name aasa-audit sets itself.
public enum DomainLabels {
    public static let prefix = "label:"
    public static let maximumPerDomain = 10
    public static let maximumKeyLength = 64
    public static let maximumValueLength = 128
    /// Label names aasa-audit's own alerts set.
    public static let reserved: Set<String> = ["alertname", "domain", "code", "severity", "generator", "output"]

    /// The key and value of a token after its `label:` prefix, or why it is not one.
    public static func parse(_ text: Substring) -> Result<(key: String, value: String), DomainLabelError> {
        guard let equals = text.firstIndex(of: "=") else { return .failure(.shape(String(text))) }
        let key = String(text[..<equals])
        let value = String(text[text.index(after: equals)...])
        guard let first = key.utf8.first, !(0x30...0x39).contains(first),
            key.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || isLetter($0) })
        else { return .failure(.key(key)) }
        guard key.utf8.count <= maximumKeyLength else { return .failure(.key(key)) }
        guard !reserved.contains(key), !key.hasPrefix("__") else { return .failure(.reserved(key)) }
        guard !value.isEmpty, value.utf8.count <= maximumValueLength,
            value.unicodeScalars.allSatisfy({
                $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)
            })
        else { return .failure(.value(key)) }
        return .success((key, value))
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}

public enum DomainLabelError: Error, Equatable {
    case shape(String)
    case key(String)
    case reserved(String)
    case value(String)
    case tooMany

    public var reason: String {
        switch self {
        case .shape: "is not label:KEY=VALUE (e.g. label:team=payments)"
        case .key(let key):
            "has the key '\(key)': a key is letters, digits and _ (not first a digit), at most \(DomainLabels.maximumKeyLength) characters"
        case .reserved(let key): "uses the key '\(key)', which aasa-audit's alerts set themselves"
        case .value(let key):
            "has no value for '\(key)', or one over \(DomainLabels.maximumValueLength) bytes or with control characters"
        case .tooMany: "is one label too many: a domain has at most \(DomainLabels.maximumPerDomain)"
        }
    }
}
