import AASAMatching
import AASAModel

/// The `domains.txt` format: one domain per line, optionally followed by the app IDs its file
/// must name, separated by white space; under a domain, lines `+ URL` (must open the app) and
/// `- URL` (must stay in the browser). `#` at the start of a line or after white space starts
/// a comment; blank lines are ignored. A bad line becomes an `InputProblem` naming the line and
/// the reason, and every other line is still read.
public enum DomainListParser {
    public struct Result: Sendable, Equatable {
        /// In input order, each domain once.
        public var targets: [DomainTarget]
        public var problems: [InputProblem]

        public init(targets: [DomainTarget], problems: [InputProblem]) {
            self.targets = targets
            self.problems = problems
        }
    }

    /// Longer lines are rejected rather than held.
    public static let maximumLineBytes = 4096

    public static func parse(_ bytes: [UInt8], fileName: String) -> Result {
        var targets: [DomainTarget] = []
        var problems: [InputProblem] = []
        var positionOfDomain: [String: Int] = [:]
        /// The target that `+`/`-` lines belong to: the last domain line read.
        var currentTarget: Int?

        func problem(_ line: Int, _ text: String, _ severity: Severity, _ message: String) {
            problems.append(InputProblem(file: fileName, line: line, text: String(text.prefix(200)), severity: severity, message: message))
        }

        var content = bytes[...]
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        if content.starts(with: Array("<?xml".utf8)) || content.starts(with: Array("bplist".utf8)) || content.starts(with: Array("<plist".utf8)) {
            problem(1, "", .error, "This is a property list, not a domains file; pass an entitlements file with --entitlements.")
            return Result(targets: [], problems: problems)
        }
        let lines = content.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (offset, rawLine) in lines.enumerated() {
            let lineNumber = offset + 1
            var lineBytes = rawLine
            if lineBytes.last == UInt8(ascii: "\r") { lineBytes = lineBytes.dropLast() }
            guard lineBytes.count <= maximumLineBytes else {
                problem(lineNumber, "", .error, "The line is longer than \(maximumLineBytes) bytes.")
                continue
            }
            guard let line = String(validating: lineBytes, as: UTF8.self) else {
                problem(lineNumber, String(decoding: lineBytes, as: UTF8.self), .error, "The line is not valid UTF-8.")
                continue
            }
            let tokens = stripComment(line).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = tokens.first else { continue }

            if first == "+" || first == "-" {
                guard let current = currentTarget else {
                    problem(lineNumber, line, .error, "A '\(first)' line must follow the domain it is about; the line is ignored.")
                    continue
                }
                guard tokens.count == 2 else {
                    problem(lineNumber, line, .error, "Write one URL after '\(first)'; the line is ignored.")
                    continue
                }
                let domain = targets[current].domain
                switch MatchURL.parse(tokens[1]) {
                case .failure(let error):
                    problem(lineNumber, line, .error, "\"\(tokens[1])\" \(error.reason); the line is ignored.")
                case .success(let url) where HostName.normalize(url.host) != .success(domain):
                    problem(lineNumber, line, .error, "The URL's host \(url.host) is not \(domain), the domain above; the line is ignored.")
                case .success:
                    targets[current].expectations.append(URLExpectation(url: tokens[1], opensApp: first == "+", inputLine: lineNumber))
                }
                continue
            }
            let domain: String
            switch HostName.normalize(first) {
            case .success(let host): domain = host
            case .failure(let error):
                currentTarget = nil
                problem(lineNumber, line, .error, "\"\(first)\" \(error.reason). The line is not audited.")
                continue
            }
            var appIDs: [String] = []
            for token in tokens.dropFirst() {
                if let reason = AppIDFormat.problem(with: token) {
                    problem(lineNumber, line, .error, "App ID \(reason); the domain is audited without it.")
                } else if !appIDs.contains(token) {
                    appIDs.append(token)
                }
            }
            if let existing = positionOfDomain[domain] {
                let firstLine = targets[existing].inputLine ?? 0
                problem(lineNumber, line, .warning, "\(domain) is already listed on line \(firstLine); it is audited once, with the app IDs of both lines.")
                for id in appIDs where !targets[existing].expectedAppIDs.contains(id) {
                    targets[existing].expectedAppIDs.append(id)
                }
                currentTarget = existing
                continue
            }
            currentTarget = targets.count
            positionOfDomain[domain] = targets.count
            targets.append(DomainTarget(domain: domain, expectedAppIDs: appIDs, inputLine: lineNumber))
        }
        return Result(targets: targets, problems: problems)
    }

    /// The line without its comment: `#` at the start or after white space starts one, so a
    /// URL's fragment (`/path#part`) is not mistaken for a comment.
    static func stripComment(_ line: String) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if character == "#", previous == " " || previous == "\t" { return line[..<index] }
            previous = character
        }
        return line[...]
    }
}
