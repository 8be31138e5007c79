import Foundation

/// Parses Prometheus text exposition with the real parser of Python's prometheus_client
/// (Debian's python3-prometheus-client), and lists the samples it read.
public enum PrometheusTextParser {
    static let script = """
        import sys
        from prometheus_client.parser import text_string_to_metric_families
        for family in text_string_to_metric_families(open(sys.argv[1]).read()):
            for sample in family.samples:
                labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
                print(f"{family.type} {sample.name}{{{labels}}} {sample.value}")
        """

    public static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { candidate in
        FileManager.default.isExecutableFile(atPath: candidate)
            && (try? ProcessRunner.run(URL(fileURLWithPath: candidate), ["-c", "import prometheus_client.parser"])
                .status) == 0
    }

    public static var isAvailable: Bool { python != nil || ProcessInfo.processInfo.environment["CI"] == "true" }
    public static let unavailableMessage =
        "Python's prometheus_client is not installed (apt-get install python3-prometheus-client): skipping the metrics parse"

    /// One line per sample: `TYPE name{label=value,...} value`. Throws when the parser rejects the text.
    public static func samples(in file: URL) async throws -> [String] {
        guard let python else { throw CocoaError(.featureUnsupported) }
        let result = try await ProcessRunner.run(URL(fileURLWithPath: python), ["-c", script, file.path])
        guard result.status == 0 else { throw ParseError(message: result.stderr) }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    public struct ParseError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
