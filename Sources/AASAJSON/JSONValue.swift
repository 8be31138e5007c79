/// A parsed JSON document that keeps what an auditor needs and a generic decoder drops:
/// the order of object members (and any repeated keys) and the exact text of numbers.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number as written in the source, so nothing is lost to floating point.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's JSON type, for messages ("string", "array", ...).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}

/// A JSON object with its members in source order. Lookups return the first member with the
/// key, as most parsers in the wild keep one of them and the order is what we can report.
///
/// Keys are unique: a key written twice keeps its first position and its **last** value, as
/// Apple's JSON parser (NSJSONSerialization, which iOS reads the file with) builds a
/// dictionary by setting each key in turn (our reading; not observed on a device). The keys
/// that were repeated are kept in `duplicateKeys`, for a finding.
public struct JSONObject: Sendable, Equatable {
    public private(set) var members: [(key: String, value: JSONValue)]
    /// Keys that appeared more than once, each once, in order of first appearance.
    public private(set) var duplicateKeys: [String] = []
    private var positions: [String: Int]

    public init(_ members: [(key: String, value: JSONValue)] = []) {
        var unique: [(key: String, value: JSONValue)] = []
        unique.reserveCapacity(members.count)
        var positions: [String: Int] = [:]
        positions.reserveCapacity(members.count)
        var duplicates: [String] = []
        var repeated = Set<String>()
        for member in members {
            if let position = positions[member.key] {
                if repeated.insert(member.key).inserted { duplicates.append(member.key) }
                unique[position].value = member.value
            } else {
                positions[member.key] = unique.count
                unique.append(member)
            }
        }
        self.members = unique
        self.positions = positions
        duplicateKeys = duplicates
    }

    public subscript(key: String) -> JSONValue? {
        positions[key].map { members[$0].value }
    }

    public var keys: [String] { members.map(\.key) }

    public var isEmpty: Bool { members.isEmpty }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
