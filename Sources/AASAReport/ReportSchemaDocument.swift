import Foundation

/// The JSON report's schema (`docs/report.schema.json`), embedded: what `mcp`'s tools declare
/// their output with (a domain's record is the report's `$defs/domain`), so that an assistant
/// reads the shapes the reports are held to.
public enum ReportSchemaDocument {
    /// The whole schema, as the repository's file holds it (`Scripts/generate-docs.sh`).
    public static var document: String { text }

    /// A schema for one of the report's definitions (`domain`, `finding`), or for an object
    /// whose `properties` use them (`{"$ref": "#/$defs/finding"}`): the report's `$defs` ride
    /// along, so every reference resolves inside it.
    public static func schema(root: [String: Any]) -> [String: Any] {
        var schema = root
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$defs"] = definitions
        return schema
    }

    /// The report's `$defs`.
    static var definitions: [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let definitions = object["$defs"] as? [String: Any]
        else { return [:] }
        return definitions
    }
}
