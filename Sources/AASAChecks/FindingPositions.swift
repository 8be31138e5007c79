import AASAJSON
import AASAModel

/// Where in a file each finding about a place in it stands: its JSON pointer, line and column
/// (`Finding.position`). The file's checks name the place in their messages as a path
/// (`applinks.details[0].components[1]["/"]`, `Unknown key "pth" in applinks.details[0]`);
/// that path is read back into steps here, once, and the parser's locator finds the value in
/// the bytes. Pure.
public enum FindingPositions {
    /// At most this many findings of a file get a line and column (each is a walk over the
    /// bytes); the rest keep their pointer. A hostile file of a thousand findings costs a
    /// hundred walks, not a thousand.
    public static let maximumLocated = 100

    /// The findings, each about a place in `bytes` given its position.
    public static func locate(_ findings: [Finding], in bytes: [UInt8]) -> [Finding] {
        var walks = 0
        return findings.map { finding in
            guard finding.position == nil, let steps = steps(in: finding.message) else { return finding }
            var located = finding
            guard walks < maximumLocated else {
                located.position = FilePosition(pointer: JSONLocator.pointer(steps))
                return located
            }
            walks += 1
            // A value that is missing is placed at the nearest one that is there (its parent).
            var position: TextPosition?
            var known = steps[...]
            while position == nil, !known.isEmpty {
                position = JSONLocator.locate(Array(known), in: bytes)
                known = known.dropLast()
            }
            located.position = FilePosition(
                pointer: JSONLocator.pointer(steps), line: position?.line, column: position?.column)
            return located
        }
    }

    /// The findings a kind's checks gave a pointer (`Finding.at`), each given the line and
    /// column of the value it points at in `bytes` (or of its nearest parent that is there): the
    /// other association files name their places so, not in their messages' words.
    public static func place(_ findings: [Finding], in bytes: [UInt8]) -> [Finding] {
        guard findings.contains(where: { $0.position?.pointer != nil && $0.position?.line == nil }) else {
            return findings
        }
        let index = JSONLocator.Index(bytes)
        var walks = 0
        return findings.map { finding in
            guard let pointer = finding.position?.pointer, finding.position?.line == nil, walks < maximumLocated else {
                return finding
            }
            walks += 1
            var known = JSONLocator.steps(pointer)[...]
            var position: TextPosition?
            while position == nil, !known.isEmpty {
                position = index.locate(Array(known))
                known = known.dropLast()
            }
            var placed = finding
            placed.position = FilePosition(pointer: pointer, line: position?.line, column: position?.column)
            return placed
        }
    }

    /// The place a message names: its leading path (a top-level key, then `.name`, `[index]`
    /// and `["key"]` steps), or for an unknown key, the key in the path it is in.
    static func steps(in message: String) -> [JSONLocator.Step]? {
        let text = Substring(message)
        if let rest = text.dropPrefix("Unknown top-level key ") {
            return quoted(rest).map { [.key($0.value)] }
        }
        if let rest = text.dropPrefix("Unknown key "), let (key, after) = quoted(rest),
            let place = after.dropPrefix(" in "), let (path, _) = path(place)
        {
            return path + [.key(key)]
        }
        return path(text)?.steps
    }

    /// A leading path `name(.name|[n]|["key"])*`, whose first name is a top-level key of an
    /// association file; and what follows it.
    static func path(_ text: Substring) -> (steps: [JSONLocator.Step], rest: Substring)? {
        var rest = text
        guard let first = name(&rest), topLevel.contains(first) else { return nil }
        var steps: [JSONLocator.Step] = [.key(first)]
        while let next = rest.first {
            if next == ".", case var after = rest.dropFirst(), let key = name(&after) {
                steps.append(.key(key))
                rest = after
            } else if next == "[", rest.dropFirst().first == "\"", let (key, after) = quoted(rest.dropFirst()),
                after.first == "]"
            {
                steps.append(.key(key))
                rest = after.dropFirst()
            } else if next == "[", case let digits = rest.dropFirst().prefix(while: \.isASCIIDigit), !digits.isEmpty,
                let index = Int(digits), rest.dropFirst(1 + digits.count).first == "]"
            {
                steps.append(.index(index))
                rest = rest.dropFirst(2 + digits.count)
            } else {
                break
            }
        }
        return (steps, rest)
    }

    static let topLevel: Set<String> = Set(AssociatedDomainService.allCases.map(\.rawValue))

    /// A JSON string at the start of `text` (as `prettyPrinted` writes one), and what follows.
    static func quoted(_ text: Substring) -> (value: String, rest: Substring)? {
        guard text.first == "\"" else { return nil }
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { return (value, text[text.index(after: index)...]) }
            if character == "\\" {
                index = text.index(after: index)
                guard index < text.endIndex else { return nil }
                value.append(text[index])
            } else {
                value.append(character)
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// A name of letters and digits at the start of `text`, consumed.
    static func name(_ text: inout Substring) -> String? {
        let name = text.prefix { $0.isLetter || $0.isNumber }
        guard !name.isEmpty else { return nil }
        text = text.dropFirst(name.count)
        return String(name)
    }
}

extension Substring {
    fileprivate func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Finding {
    /// The finding, about the value at `steps` in its file (`FindingPositions.place` adds the
    /// line and column).
    func at(_ steps: JSONLocator.Step...) -> Finding {
        var placed = self
        placed.position = FilePosition(pointer: JSONLocator.pointer(steps))
        return placed
    }
}
