import AASAAudit
import AASAModel
import AASAReport
import Foundation
import MCP

/// One tool of the server: its name, description, schemas and annotations (`definition`), and
/// what a call does. A new tool is a file in `Tools/` and a line in `MCPTools.all`.
protocol MCPTool: Sendable {
    /// What `tools/list` shows.
    var definition: Tool { get }
    /// Answers a call whose arguments the input schema's names have been checked against.
    func call(_ arguments: ToolArguments, context: ToolContext) async -> CallTool.Result
}

/// What a call can reach: the server's settings, the shared fetcher, progress reporting.
struct ToolContext: Sendable {
    let settings: MCPSettings
    let auditor: DomainAuditor
    /// Reports progress of the call, when its caller asked for it (`_meta.progressToken`).
    let progress: @Sendable (_ done: Double, _ total: Double?, _ message: String?) async -> Void
}

/// The registry: every tool, in the order `tools/list` gives them.
enum MCPTools {
    static func all(_ settings: MCPSettings) -> [any MCPTool] {
        [
            CheckDomainTool(), AuditDomainsTool(maximumBatch: settings.maximumBatch), LintFileTool(),
            ExplainFindingTool(), DomainHistoryTool(),
            WhatChangedTool(), ExplainURLTool(),
        ] + (settings.allowsAcknowledging ? [AcknowledgeTool()] : [])
    }
}

/// A call's arguments, read against its tool's input schema: a name the schema does not list, or
/// a value of the wrong type, is the caller's mistake, answered as a tool error (`isError`).
struct ToolArguments: Sendable {
    let values: [String: Value]

    struct Problem: Error {
        let message: String
    }

    /// - Parameter schema: the tool's input schema; its `properties` are the names taken.
    init(_ values: [String: Value]?, schema: Value) throws(Problem) {
        let values = values ?? [:]
        let known = Set(schema.objectValue?["properties"]?.objectValue?.keys.map { $0 } ?? [])
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            throw Problem(
                message:
                    "Unknown argument '\(unknown.prefix(80))': this tool takes \(known.sorted().joined(separator: ", "))."
            )
        }
        for name in schema.objectValue?["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        where values[name] == nil {
            throw Problem(message: "The argument '\(name)' is required.")
        }
        self.values = values
    }

    func string(_ name: String) throws(Problem) -> String? {
        guard let value = values[name] else { return nil }
        guard let text = value.stringValue else { throw Problem(message: "'\(name)' is a string.") }
        return text
    }

    func strings(_ name: String) throws(Problem) -> [String] {
        guard let value = values[name] else { return [] }
        guard let array = value.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
            throw Problem(message: "'\(name)' is an array of strings.")
        }
        return array.compactMap(\.stringValue)
    }

    func bool(_ name: String) throws(Problem) -> Bool? {
        guard let value = values[name] else { return nil }
        guard let flag = value.boolValue else { throw Problem(message: "'\(name)' is true or false.") }
        return flag
    }
}

/// Results as every tool gives them.
enum ToolResults {
    /// `value` as the tool's structured content (encoded as the reports encode it: dates as ISO
    /// 8601), and the same JSON as text for clients that read only text.
    static func success(_ value: some Encodable) -> CallTool.Result {
        do {
            let data = try JSONReport.makeEncoder().encode(value)
            let structured = try JSONDecoder().decode(Value.self, from: data)
            return try CallTool.Result(
                content: [.text(text: String(decoding: data, as: UTF8.self), annotations: nil, _meta: nil)],
                structuredContent: structured)
        } catch {
            return failure("The result could not be encoded: \(error).")
        }
    }

    /// A business failure: the call was understood and could not be done (a bad domain, no
    /// history): a result with `isError`, said in words.
    static func failure(_ message: String) -> CallTool.Result {
        CallTool.Result(
            content: [.text(text: TerminalReport.clean(message), annotations: nil, _meta: nil)], isError: true)
    }

    /// A failure from whatever a tool's use case threw: its words for the user.
    static func failure(_ error: any Error) -> CallTool.Result { failure(message(of: error)) }

    /// What a use case's error says to the user (a tool's failure, a resource's refusal).
    static func message(of error: any Error) -> String {
        switch error {
        case let problem as ToolArguments.Problem: problem.message
        case let error as any UserFacingError: error.message
        default: "\(error)"
        }
    }

    /// A JSON text as a `Value` (the schemas written in the tools' files).
    static func json(_ text: String) -> Value {
        (try? JSONDecoder().decode(Value.self, from: Data(text.utf8))) ?? .object([:])
    }

    /// A schema made from the report's `$defs` (`ReportSchemaDocument.schema(root:)`).
    /// `definitions` are the tool's own, beside the report's.
    static func reportSchema(root: [String: Any], definitions: [String: Any] = [:]) -> Value {
        var schema = ReportSchemaDocument.schema(root: root)
        var merged = schema["$defs"] as? [String: Any] ?? [:]
        merged.merge(definitions) { report, _ in report }
        schema["$defs"] = merged
        return schemaValue(schema)
    }

    /// A JSON object written as Swift dictionaries, as a `Value`.
    static func schemaValue(_ object: [String: Any]) -> Value {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return .object([:])
        }
        return (try? JSONDecoder().decode(Value.self, from: data)) ?? .object([:])
    }
}
