import Foundation

/// The repository's own files, for tests that check docs and schema against the code.
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func file(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// The shared test data beside the repository (`../shared`: corpus, oracles), which a user's
    /// clone does not have; `AASA_AUDIT_SHARED` names another place (CI runs the suite once with
    /// a folder that does not exist, as a user's clone has none). Tests that read it skip
    /// without it, saying why.
    public static let shared: URL =
        ProcessInfo.processInfo.environment["AASA_AUDIT_SHARED"].map { URL(fileURLWithPath: $0) }
        ?? root.deletingLastPathComponent().appendingPathComponent("shared")
}

/// Validates JSON documents against `docs/report.schema.json` with Python's `jsonschema`
/// (Draft 2020-12), a well-kept validator, instead of one written here.
public enum ReportSchemaValidator {
    static let script = """
        import json, sys
        import jsonschema
        schema = json.load(open(sys.argv[1]))
        document = json.load(open(sys.argv[2]))
        validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
        errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
        for error in errors[:20]:
            print("/" + "/".join(map(str, error.absolute_path)) + ": " + error.message)
        sys.exit(1 if errors else 0)
        """

    /// A Python interpreter that has `jsonschema`, if any.
    public static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { candidate in
        guard FileManager.default.isExecutableFile(atPath: candidate) else { return false }
        return (try? run(candidate, ["-c", "import jsonschema"]).status) == 0
    }

    /// Whether validation can run here. On CI (CI=true) it must: `.ci/run` installs it.
    public static var isAvailable: Bool {
        python != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    public static let unavailableMessage =
        "Python's jsonschema is not installed (apt-get install python3-jsonschema): skipping schema validation"

    /// The validation errors of `document` (empty when it is valid against `schema`).
    public static func errors(in document: Data, schema: URL = Repository.file("docs/report.schema.json")) async throws
        -> [String]
    {
        guard let python else { return ["no Python with jsonschema: \(unavailableMessage)"] }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).json")
        try document.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ProcessRunner.run(URL(fileURLWithPath: python), ["-c", script, schema.path, file.path])
        let output = result.stdout + result.stderr
        guard result.status != 0 else { return [] }
        let lines = output.split(separator: "\n").map(String.init)
        return lines.isEmpty ? ["validator exited \(result.status)"] : lines
    }

    static let batchScript = """
        import json, sys
        import jsonschema
        validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
        invalid = {}
        for case in json.load(open(sys.argv[2])):
            try:
                case["document"] = json.loads(case["text"])
            except ValueError as error:
                invalid[case["name"]] = ["not JSON: " + str(error)]
                continue
            errors = [e.message[:200] for e in validator.iter_errors(case["document"])][:3]
            if errors:
                invalid[case["name"]] = errors
        print(json.dumps(invalid))
        """

    /// The documents that `schema` rejects (or that are not JSON to Python), by name, with their
    /// first errors: one validator process for them all.
    public static func invalid(_ documents: [(name: String, json: Data)], schema: URL) async throws -> [String:
        [String]]
    {
        guard let python else { throw ValidatorMissing() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cases-\(UUID().uuidString).json")
        // One JSON array of {"name", "text"}: each document's text as a string, parsed by Python.
        struct Case: Encodable {
            let name: String
            let text: String
        }
        let lines = try JSONEncoder().encode(
            documents.map { Case(name: $0.name, text: String(decoding: $0.json, as: UTF8.self)) })
        try lines.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: python), ["-c", batchScript, schema.path, file.path])
        guard result.status == 0,
            let decoded = try? JSONDecoder().decode([String: [String]].self, from: Data(result.stdout.utf8))
        else { throw ValidatorFailed(output: result.stdout + result.stderr) }
        return decoded
    }

    public struct ValidatorMissing: Error {}
    public struct ValidatorFailed: Error {
        public let output: String
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ProcessRunner.run(URL(fileURLWithPath: executable), arguments)
        return (result.status, result.stdout + result.stderr)
    }
}
