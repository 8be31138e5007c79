extension JSONValue {
    /// Equal in meaning: objects compared as maps (member order ignored; of repeated keys the
    /// first counts, as for lookups), arrays in order, numbers by value.
    public func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b || (Double(a) != nil && Double(a) == Double(b))
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let a), .object(let b)):
            let keysA = Set(a.keys)
            guard keysA == Set(b.keys) else { return false }
            return keysA.allSatisfy { a[$0]!.isEquivalent(to: b[$0]!) }
        default: return false
        }
    }
}
