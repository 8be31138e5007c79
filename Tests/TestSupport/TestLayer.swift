import Foundation
import Testing

/// The suite's two layers. The live one starts programs (the aasa-audit binary, Chromium, Python,
/// promtool, Alertmanager) or opens sockets (the loopback servers and clients of this target);
/// the fast one is everything else: parsers, checks, matching, reports, the model, in memory.
///
/// `AASA_AUDIT_TESTS=fast swift test` runs the fast layer alone: every suite or test marked
/// `.live` is skipped, saying why. Swift 6.3's `swift test --skip` reads test names only (tags
/// came later: `--skip tag:live`), so the layer is chosen by the environment, and the mark
/// carries the tag too for the tools that read tags.
///
/// The mark is held true from both sides: in the fast layer, starting a program or opening a
/// socket through this target records an issue naming the test (`TestLayer.enteringLive`), so
/// a live test left unmarked fails there instead of slowing the layer down unnoticed.
public enum TestLayer {
    /// The environment variable that chooses the layer.
    public static let variable = "AASA_AUDIT_TESTS"

    /// Whether this process runs the fast layer only.
    public static let fastOnly = ProcessInfo.processInfo.environment[variable] == "fast"

    /// Programs that only make a fixture (a signature, a gzipped body) in milliseconds, with no
    /// socket: the fast layer may start them.
    static let fixtureTools: Set<String> = ["openssl", "gzip"]

    /// Called where this target starts a program or opens a socket: in the fast layer, a test
    /// that does so without the `.live` mark is a defect of the test, reported as an issue.
    public static func enteringLive(_ what: @autoclosure () -> String) {
        guard fastOnly else { return }
        Issue.record("\(what()) in the fast layer (\(variable)=fast): mark the suite or test .live")
    }
}

extension Tag {
    /// Starts a program or opens a socket (`TestLayer`).
    @Tag public static var live: Self
}

extension Trait where Self == ConditionTrait {
    /// Marks a suite or test of the live layer (`TestLayer`): skipped when only the fast layer
    /// runs. Use with `.tags(.live)`, which tools that filter by tag read.
    public static var live: Self {
        .disabled(
            if: TestLayer.fastOnly,
            "starts a program or opens a socket: not in the fast layer (\(TestLayer.variable)=fast)")
    }
}
