import AASAModel
import ArgumentParser

/// `--fail-on`: which verdicts make the exit status 1.
enum FailThreshold: String, ExpressibleByArgument, CaseIterable {
    case error
    case warning

    var severity: Severity {
        switch self {
        case .error: .error
        case .warning: .warning
        }
    }
}
