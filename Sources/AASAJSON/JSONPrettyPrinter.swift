extension JSONValue {
    /// The value as indented JSON text, members in source order, numbers as written.
    public func prettyPrinted(indent: String = "  ") -> String {
        var output = ""
        write(to: &output, indent: indent, level: 0)
        return output
    }

    private func write(to output: inout String, indent: String, level: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text): output += text
        case .string(let value): JSONValue.writeQuoted(value, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "[\n"
            for (position, element) in elements.enumerated() {
                output += String(repeating: indent, count: level + 1)
                element.write(to: &output, indent: indent, level: level + 1)
                output += position == elements.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: indent, count: level) + "]"
        case .object(let object):
            guard !object.isEmpty else {
                output += "{}"
                return
            }
            output += "{\n"
            for (position, member) in object.members.enumerated() {
                output += String(repeating: indent, count: level + 1)
                JSONValue.writeQuoted(member.key, to: &output)
                output += ": "
                member.value.write(to: &output, indent: indent, level: level + 1)
                output += position == object.members.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: indent, count: level) + "}"
        }
    }

    private static func writeQuoted(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let digits = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
