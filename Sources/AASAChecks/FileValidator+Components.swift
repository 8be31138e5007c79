import AASAJSON
import AASAMatching
import AASAModel

/// components and defaults: keys and the types of their values, pattern lengths.
extension FileValidator {

    mutating func validateComponent(_ value: JSONValue, path: String) {
        guard case .object(let component) = value else {
            report(.aasa(.valueType), "\(path) is \(Self.a(value)), not an object; it is ignored.")
            return
        }
        let unknown = component.keys.filter { !Self.componentKeys.contains($0) }
        let matchers = ["/", "?", "#"].filter { component[$0] != nil }
        if !unknown.isEmpty, matchers.isEmpty, component["exclude"]?.boolValue != true {
            // Nothing left to match on: the rule opens every URL of the site in the app.
            for key in unknown {
                report(
                    .aasa(.componentUnknownKey), .matchesEverything,
                    "Unknown key \"\(key)\" in \(path)\(hint(key, among: Self.componentKeys)): iOS ignores it, and the rule has no /, ? or # left, so it matches every URL: every link to this site opens the app."
                )
            }
        } else {
            reportUnknownKeys(
                of: component, in: path, known: Self.componentKeys, as: .aasa(.componentUnknownKey),
                effect: "iOS ignores it, so the rule matches more than intended")
        }
        validateComponentValues(component, path: path, allowComment: true)
    }

    mutating func validateDefaults(_ value: JSONValue, path: String) {
        requireIOS(IOSVersion.defaults, for: path)
        guard case .object(let defaults) = value else {
            report(.aasa(.valueType), "\(path) is \(Self.a(value)), not an object.")
            return
        }
        reportUnknownKeys(of: defaults, in: path, known: Self.defaultsKeys, as: .aasa(.defaultsUnknownKey))
        validateComponentValues(defaults, path: path, allowComment: false)
    }

    mutating func validateComponentValues(_ object: JSONObject, path: String, allowComment: Bool) {
        for member in object.members {
            let keyPath = "\(path)[\(JSONValue.string(member.key).prettyPrinted())]"
            switch (member.key, member.value) {
            case ("/", .string(let pattern)), ("#", .string(let pattern)):
                checkLength(pattern, path: keyPath)
            case ("?", .string(let pattern)):
                checkLength(pattern, path: keyPath)
            case ("?", .object(let items)):
                let nonStrings = items.members.filter { $0.value.stringValue == nil }
                if let first = nonStrings.first {
                    report(
                        .aasa(.componentQueryDisabled),
                        "\(keyPath) has a value that is not a string (\"\(first.key)\": \(first.value.prettyPrinted(indent: ""))); iOS then ignores the whole dictionary, so the rule accepts any query."
                    )
                }
                for item in items.members {
                    if let pattern = item.value.stringValue { checkLength(pattern, path: keyPath) }
                }
            case ("exclude", .bool), ("caseSensitive", .bool), ("percentEncoded", .bool), ("comment", .string):
                break
            case ("/", let other), ("#", let other):
                report(.aasa(.valueType), "\(keyPath) is \(Self.a(other)), not a pattern string; it is ignored.")
            case ("?", let other):
                report(
                    .aasa(.valueType),
                    "\(keyPath) is \(Self.a(other)), not a pattern string or a dictionary of them; it is ignored.")
            case ("exclude", let other), ("caseSensitive", let other), ("percentEncoded", let other):
                report(.aasa(.valueType), "\(keyPath) is \(Self.a(other)), not true or false; it is ignored.")
            case ("comment", let other) where allowComment:
                report(.aasa(.valueType), .commentNotString, "\(keyPath) is \(Self.a(other)), not a string.")
            default:
                break
            }
        }
    }

    mutating func checkLength(_ pattern: String, path: String) {
        if pattern.unicodeScalars.count > Pattern.maximumLength {
            report(
                .aasa(.patternTooLong),
                "\(path) is \(pattern.unicodeScalars.count) characters long; patterns over \(Pattern.maximumLength) are treated as matching nothing."
            )
        }
    }
}
