import Foundation

/// Encodes a value as compact JSON, byte for byte what `JSONReport.makeEncoder()` writes (keys
/// sorted by their UTF-8 bytes, dates in ISO 8601, slashes unescaped, `8.0` as `8`), for the
/// report's records: Foundation's `JSONEncoder` asks every nested value at run time whether it
/// is a date, a URL, data or a dictionary, and those casts made the records a fifth of the
/// audit's own CPU. Here the value's static type answers that once per call.
/// `SortedJSONEncoderTests` compares the two encoders' bytes over every kind of record.
public enum SortedJSONEncoder {
    public static func encode(_ value: some Encodable) throws -> Data {
        let root = JSONNode()
        try root.encode(value)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2048)
        root.write(into: &bytes)
        return Data(bytes)
    }
}

/// One value being encoded: filled once by the container the encoder hands out, then written.
/// Containers append to `items` and `members` in place (a class, so no copy on write).
private final class JSONNode {
    enum Kind { case unset, literal, string, array, object }
    var kind = Kind.unset
    /// A literal's text (null, true, false, a number) or a string's value.
    var text = ""
    var items: [JSONNode] = []
    var members: [(key: String, node: JSONNode)] = []

    func set(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    func encode<T: Encodable>(_ encodable: T) throws {
        // Metatype comparisons, not casts: a pointer compare each.
        if T.self == String.self {
            set(.string, unsafeBitCast(encodable, to: String.self))
        } else if T.self == Int.self {
            set(.literal, String(unsafeBitCast(encodable, to: Int.self)))
        } else if T.self == Bool.self {
            set(.literal, unsafeBitCast(encodable, to: Bool.self) ? "true" : "false")
        } else if T.self == Double.self {
            let double = unsafeBitCast(encodable, to: Double.self)
            set(.literal, try Self.number(double.description, double.isFinite))
        } else if T.self == Date.self {
            set(.string, (encodable as! Date).formatted(.iso8601))
        } else if T.self == URL.self {
            set(.string, (encodable as! URL).absoluteString)
        } else if T.self == Data.self {
            set(.string, (encodable as! Data).base64EncodedString())
        } else {
            try encodable.encode(to: NodeEncoder(node: self))
        }
    }

    /// A floating-point number's text, `8.0` as `8`; infinities and NaN are not JSON.
    static func number(_ text: String, _ isFinite: Bool) throws -> String {
        guard isFinite else {
            throw EncodingError.invalidValue(
                text, .init(codingPath: [], debugDescription: "\(text) is not valid in JSON"))
        }
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    func write(into bytes: inout [UInt8]) {
        switch kind {
        case .unset: bytes += "{}".utf8
        case .literal: bytes += text.utf8
        case .string: Self.writeString(text, into: &bytes)
        case .array:
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                item.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object:
            bytes.append(UInt8(ascii: "{"))
            // Sorted by bytes, as JSONEncoder's .sortedKeys; a key set twice keeps its last value.
            let sorted = members.enumerated().sorted {
                $0.element.key == $1.element.key
                    ? $0.offset < $1.offset : $0.element.key.utf8.lexicographicallyPrecedes($1.element.key.utf8)
            }.map(\.element)
            var first = true
            for (index, member) in sorted.enumerated()
            where index + 1 == sorted.count || sorted[index + 1].key != member.key {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                Self.writeString(member.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.node.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// Quotes and escapes as JSONEncoder does: `"` and `\`, the short forms of \b \t \n \f \r,
    /// other control characters as \u00XX; and beyond JSONEncoder, the characters Unicode calls
    /// line and paragraph separators (U+2028, U+2029, U+0085) as \uXXXX, so that a reader
    /// splitting `domains.jsonl` at Unicode line ends sees one record a line; everything else,
    /// `/` included, as it is.
    static func writeString(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: copied whole.
        if !text.utf8.contains(where: {
            $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0xE2 || $0 == 0xC2
        }) {
            bytes += text.utf8
            bytes.append(UInt8(ascii: "\""))
            return
        }
        var utf8 = text.utf8.makeIterator()
        var pending: [UInt8] = []
        while let byte = pending.isEmpty ? utf8.next() : pending.removeFirst() {
            switch byte {
            case UInt8(ascii: "\""): bytes += #"\""#.utf8
            case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
            case 0x08: bytes += #"\b"#.utf8
            case 0x09: bytes += #"\t"#.utf8
            case 0x0A: bytes += #"\n"#.utf8
            case 0x0D: bytes += #"\r"#.utf8
            case 0x0C: bytes += #"\f"#.utf8
            case 0..<0x20: bytes += [92, 117, 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]  // \u00XX
            case 0xC2:
                // U+0085 (NEL) is C2 85.
                guard let next = utf8.next() else {
                    bytes.append(byte)
                    continue
                }
                if next == 0x85 {
                    bytes += #"\u0085"#.utf8
                } else {
                    bytes.append(byte)
                    pending.append(next)
                }
            case 0xE2:
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                guard let second = utf8.next() else {
                    bytes.append(byte)
                    continue
                }
                guard second == 0x80, let third = utf8.next() else {
                    bytes.append(byte)
                    pending.append(second)
                    continue
                }
                if third == 0xA8 || third == 0xA9 {
                    bytes += (third == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8
                } else {
                    bytes += [byte, second]
                    pending.append(third)
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// The coding path is not tracked (the records' types do not read it): an error names no path.
private struct NodeEncoder: Encoder {
    let node: JSONNode
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A second call on one encoder (a type encoding its parts into its parent's object)
        // adds to the same object.
        node.kind = .object
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.kind = .array
        return UnkeyedNodeContainer(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(node: node) }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    var codingPath: [any CodingKey] { [] }

    private func child(_ key: Key) -> JSONNode {
        let child = JSONNode()
        node.members.append((key.stringValue, child))
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).set(.literal, "null") }
    mutating func encode(_ value: String, forKey key: Key) throws { child(key).set(.string, value) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { child(key).set(.literal, value ? "true" : "false") }
    mutating func encode(_ value: Int, forKey key: Key) throws { child(key).set(.literal, String(value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try child(key).encode(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: child(key)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: child(key)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: child(key))
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    var codingPath: [any CodingKey] { [] }
    var count: Int { node.items.count }

    private func next() -> JSONNode {
        let child = JSONNode()
        node.items.append(child)
        return child
    }

    mutating func encodeNil() throws { next().set(.literal, "null") }
    mutating func encode(_ value: String) throws { next().set(.string, value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        NodeEncoder(node: next()).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(node: next()).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: next()) }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: JSONNode
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { node.set(.literal, "null") }
    mutating func encode(_ value: String) throws { node.set(.string, value) }
    mutating func encode(_ value: Bool) throws { node.set(.literal, value ? "true" : "false") }
    mutating func encode(_ value: Double) throws {
        node.set(.literal, try JSONNode.number(value.description, value.isFinite))
    }
    mutating func encode(_ value: Float) throws {
        node.set(.literal, try JSONNode.number(value.description, value.isFinite))
    }
    // Every integer type: a primitive's own `encode(to:)` comes here, and the protocol's
    // defaults would send it back to the generic `encode`.
    mutating func encode(_ value: Int) throws { node.set(.literal, String(value)) }
    mutating func encode(_ value: Int8) throws { node.set(.literal, String(value)) }
    mutating func encode(_ value: Int16) throws { node.set(.literal, String(value)) }
    mutating func encode(_ value: Int32) throws { node.set(.literal, String(value)) }
    mutating func encode(_ value: Int64) throws { node.set(.literal, String(value)) }
    mutating func encode(_ value: UInt) throws { node.set(.literal, String(value)) }
    mutating func encode(_ value: UInt8) throws { node.set(.literal, String(value)) }
    mutating func encode(_ value: UInt16) throws { node.set(.literal, String(value)) }
    mutating func encode(_ value: UInt32) throws { node.set(.literal, String(value)) }
    mutating func encode(_ value: UInt64) throws { node.set(.literal, String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.encode(value) }
}
