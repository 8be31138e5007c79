import AASAJSON
import AASAMatching
import AASAModel

/// applinks.substitutionVariables: names, values, and built-ins reused.
extension FileValidator {

    mutating func validateVariables(_ value: JSONValue) {
        guard case .object(let variables) = value else {
            report(
                .aasa(.variableInvalid),
                "applinks.substitutionVariables is \(Self.a(value)), not an object of name → array of strings.")
            return
        }
        for member in variables.members {
            let name = member.key
            let path = "applinks.substitutionVariables[\(JSONValue.string(name).prettyPrinted())]"
            if name.isEmpty || name.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
                report(.aasa(.variableInvalid), "\(path): a variable name may not be empty or hold $, ( or ).")
            }
            if BuiltinVariables.names.contains(name) {
                report(
                    .aasa(.variableShadowsBuiltin),
                    "\(path) reuses the name of the built-in $(\(name)); what iOS does then is not documented (the auditor uses the file's values)."
                )
            }
            guard case .array(let values) = member.value else {
                report(.aasa(.variableInvalid), "\(path) is \(Self.a(member.value)), not an array of strings.")
                continue
            }
            if values.isEmpty {
                report(.aasa(.variableEmpty), "\(path) has no values: every pattern using $(\(name)) never matches.")
            }
            for (index, item) in values.enumerated() {
                guard case .string(let text) = item else {
                    report(.aasa(.variableInvalid), "\(path)[\(index)] is \(Self.a(item)), not a string.")
                    continue
                }
                if text.contains("$(") {
                    report(
                        .aasa(.variableInvalid),
                        "\(path)[\(index)] \"\(text)\" refers to another variable, which a value may not do.")
                }
            }
        }
    }
}
