import Foundation

/// A JSON-RPC message as the HTTP endpoint routes it (read once, with JSONSerialization): a
/// request, a notification or a response, with the ids and tokens that say which POST's answer
/// stream a message of the server belongs to. Ids are keyed by type and text (`n:1`, `s:1`), as
/// JSON-RPC tells a number from a string.
struct RPCMessage {
    enum Kind: Equatable {
        case request(id: String, method: String)
        case notification(method: String)
        case response(id: String)
    }

    let kind: Kind
    /// A request's `params._meta.progressToken`, or a progress notification's `params.progressToken`.
    let progressToken: String?
    /// A `notifications/cancelled`'s `params.requestId`.
    let cancels: String?
    /// A `tools/call`'s tool.
    let toolName: String?

    /// Nil for what is not one JSON-RPC 2.0 message (a batch array included: the protocol has
    /// none since 2025-06-18).
    init?(_ bytes: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            object["jsonrpc"] as? String == "2.0"
        else { return nil }
        let params = object["params"] as? [String: Any]
        let id = object["id"].flatMap(Self.key)
        if let method = object["method"] as? String {
            kind = id.map { .request(id: $0, method: method) } ?? .notification(method: method)
        } else if let id, object["result"] != nil || object["error"] != nil {
            kind = .response(id: id)
        } else {
            return nil
        }
        let meta = params?["_meta"] as? [String: Any]
        progressToken = (meta?["progressToken"] ?? params?["progressToken"]).flatMap(Self.key)
        cancels = params?["requestId"].flatMap(Self.key)
        toolName = params?["name"] as? String
    }

    var isInitialize: Bool {
        if case .request(_, "initialize") = kind { true } else { false }
    }

    /// An id or token as a key: `s:` and the text, or `n:` and the number.
    static func key(_ value: Any) -> String? {
        if let text = value as? String { return "s:" + text }
        if let number = value as? NSNumber, ObjectIdentifier(type(of: number)) != Self.booleanType {
            return "n:" + number.stringValue
        }
        return nil
    }

    /// What JSONSerialization makes of `true` and `false` (an NSNumber, of a class of its own).
    private static let booleanType = ObjectIdentifier(type(of: NSNumber(value: true)))
}
