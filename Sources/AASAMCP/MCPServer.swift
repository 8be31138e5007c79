import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import Foundation
import Logging
import MCP

/// `aasa-audit mcp`: the auditor as a Model Context Protocol server on standard input and output.
/// Tools list and call through `MCPTools`; a tool the server does not have is a JSON-RPC error,
/// a call it cannot do a result with `isError`. It ends when standard input closes (or on
/// SIGTERM, through the caller's `Interruption`). `serve`'s `/mcp` makes the same server, one a
/// session, over HTTP (`HTTP/MCPHTTPEndpoint.swift`).
public enum MCPServer {
    /// Serves until standard input closes or `stop` is called.
    public static func run(settings: MCPSettings) async throws {
        let fetcher = try DomainCheck.sharedFetcher(settings.fetcher)
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher, validation: settings.validation, deviceView: settings.deviceView)
        let server = await make(settings: settings, auditor: auditor)
        try await server.start(transport: LineTransport(logger: logger))
        await server.waitUntilCompleted()
        await server.stop()
    }

    /// Warnings and worse, to standard error: standard output carries protocol messages only.
    static let logger: Logger = {
        var logger = Logger(label: "aasa-audit.mcp") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        return logger
    }()

    /// A server with every tool (and, with `--out`, the resources), on no transport yet.
    static func make(settings: MCPSettings, auditor: DomainAuditor) async -> Server {
        let server = Server(
            name: "aasa-audit", version: settings.tool.version, title: "aasa-audit",
            instructions:
                "Audits the files that bind apps to websites (\(AssociationKinds.servedFileNames.joined(separator: ", "))) as each platform reads them. check_domain for one domain now, audit_domains for many, lint_file for a file's text, explain_finding for a code.",
            capabilities: .init(
                resources: settings.output == nil ? nil : .init(subscribe: false, listChanged: false),
                tools: .init(listChanged: false)))
        let tools = MCPTools.all(settings)
        let byName = Dictionary(tools.map { ($0.definition.name, $0) }, uniquingKeysWith: { first, _ in first })
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: tools.map(\.definition)) }
        await server.withMethodHandler(CallTool.self) { [weak server] parameters in
            guard let tool = byName[parameters.name] else {
                throw MCPError.invalidParams(
                    "Unknown tool '\(parameters.name.prefix(100))': tools/list names the tools.")
            }
            let arguments: ToolArguments
            do throws(ToolArguments.Problem) {
                arguments = try ToolArguments(parameters.arguments, schema: tool.definition.inputSchema)
            } catch {
                return ToolResults.failure(error.message)
            }
            let token = parameters._meta?.progressToken
            let context = ToolContext(settings: settings, auditor: auditor) { [server] done, total, message in
                guard let token else { return }
                try? await server?.notify(
                    ProgressNotification.message(
                        .init(progressToken: token, progress: done, total: total, message: message)))
            }
            return await tool.call(arguments, context: context)
        }
        if let output = settings.output { await addResources(to: server, output: output) }
        return server
    }

    private static func addResources(to server: Server, output: String) async {
        await server.withMethodHandler(ListResources.self) { _ in
            ListResources.Result(resources: MCPResources.list())
        }
        await server.withMethodHandler(ListResourceTemplates.self) { _ in
            ListResourceTemplates.Result(templates: MCPResources.templates())
        }
        await server.withMethodHandler(ReadResource.self) { parameters in
            do {
                return try MCPResources.read(parameters.uri, output: output)
            } catch let error as MCPError {
                throw error
            } catch {
                throw MCPError.invalidParams(ToolResults.message(of: error))
            }
        }
    }
}
