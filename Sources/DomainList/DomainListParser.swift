import AASAMatching
import AASAModel

/// The `domains.txt` format: one domain per line, optionally followed by the app IDs its file
/// must name and what each association kind's token asks of its file (`WORD:VALUE`, the kind's
/// word; README.md, "domains.txt"), separated by white space; under a domain, lines `+ URL` (must open the app) and
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
    /// Problems of one kind listed at most; the rest are counted in one closing record, so that
    /// a million repeated lines cost neither memory nor report size.
    public static let maximumProblemsPerKind = 100
    /// `+`/`-` URLs kept per domain (repeats are dropped first).
    public static let maximumURLsPerDomain = 1_000
    /// App IDs kept per domain.
    public static let maximumAppIDsPerDomain = 100

    /// What a problem is about (its code): the unit of `maximumProblemsPerKind`.
    typealias ProblemKind = InputProblemCode

    /// What the tokens after a line's domain say: app IDs, what each association kind's token
    /// asks for (`WORD:VALUE`), labels; a bad token is reported (`problem`)
    /// and left out, the rest kept.
    struct LineTokens {
        var appIDs: [String] = []
        /// The association kinds' tokens, in the line's order.
        var wants: [any AssociationWant] = []
        /// In the line's order; a key given twice keeps its first value.
        var labels: [(key: String, value: String)] = []
        /// `ios:none`: no AASA is expected.
        var noAASA = false
        /// The kinds whose token was refused (a malformed identifier), each with why.
        var refused: [(kind: AssociationKind, reason: String)] = []

        /// A kind's word the token was surely meant as: its singular or plural (`passkey`), or
        /// the word with a colon and no value.
        static func nearWord(_ lowered: String) -> String? {
            AssociationKinds.all.map(\.word).first { word in
                lowered + "s" == word || lowered == word + "s" || lowered == word + ":"
            }
        }

        /// Whether the line asked only for what was refused: a platform token refused and nothing
        /// else to check (no app ID, no other kind's token). Audited without the token it would
        /// become another platform's check (the AASA, or with `ios:none` another kind's file for
        /// any app): it is refused whole.
        var askedOnlyForRefused: Bool { !refused.isEmpty && wants.isEmpty && appIDs.isEmpty }

        init(_ tokens: some Sequence<String>, problem: (ProblemKind, String) -> Void) {
            for token in tokens {
                let lowered = token.lowercased()
                if let kind = AssociationKinds.all.first(where: {
                    lowered.hasPrefix($0.word + ":") || lowered == $0.word
                }) {
                    do {
                        let values = lowered == kind.word ? [] : [String(token.dropFirst(kind.word.count + 1))]
                        wants.append(try kind.wantType.parsing(values))
                    } catch {
                        refused.append((kind, error.reason))
                    }
                } else if lowered.hasPrefix("ios:") {
                    if AASAWant.isNone(String(lowered.dropFirst("ios:".count))) {
                        noAASA = true
                    } else {
                        problem(
                            .iosToken,
                            "\(token.prefix(80)) is not ios:\(AASAWant.iosNone), the one ios: token; it is ignored."
                        )
                    }
                } else if lowered.hasPrefix(DomainLabels.prefix) {
                    switch DomainLabels.parse(token.dropFirst(DomainLabels.prefix.count)) {
                    case .success(let label): labels.append(label)
                    case .failure(let error):
                        problem(.label, "\(token.prefix(80)) \(error.reason); the domain is audited without it.")
                    }
                } else if let word = Self.nearWord(lowered) {
                    problem(
                        .associationValue,
                        "\(token.prefix(80)) is no token: did you mean \(word)? The domain is audited without it.")
                } else if let reason = ExpectedApp.problem(with: token) {
                    problem(.appID, "App ID \(reason); the domain is audited without it.")
                } else {
                    appIDs.append(ExpectedApp(spelled: token).spelled)
                }
            }
            let whole = askedOnlyForRefused
            for (kind, reason) in refused {
                problem(
                    .associationValue,
                    "\(kind.formLabel) \(reason); "
                        + (whole
                            ? "the line asks for nothing else, so it is not audited (without the token it would be another platform's check)."
                            : "the domain is audited without it."))
            }
        }
    }

    public static func parse(_ bytes: [UInt8], fileName: String) -> Result {
        var content = bytes[...]
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        var reader = ListReader(fileName: fileName)
        if content.starts(with: Array("<?xml".utf8)) || content.starts(with: Array("bplist".utf8))
            || content.starts(with: Array("<plist".utf8))
        {
            reader.problem(
                .notADomainsFile, 1, "",
                "This is a property list, not a domains file; pass an entitlements file with \(OptionName.entitlements)."
            )
            return Result(targets: [], problems: reader.log.problems)
        }
        // Room for every domain line at once: growing a dictionary of a million names rehashes
        // them all, again and again.
        reader.reserve(estimatedDomainLines(content))
        // Line by line, without an array of every line (the input may be 64 MiB), through a
        // buffer pointer: slicing the array for each of a million lines costs more than the lines.
        content.withUnsafeBufferPointer { all in
            var (next, number) = (0, 0)
            while number == 0 || next < all.count {
                number += 1
                let end = all[next...].firstIndex(of: UInt8(ascii: "\n")) ?? all.count
                var line = UnsafeBufferPointer(rebasing: all[next..<end])
                next = end == all.count ? end : end + 1
                if line.last == UInt8(ascii: "\r") { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
                reader.read(line, number: number)
            }
        }
        return Result(targets: reader.targets, problems: reader.log.problems)
    }

    /// Lines that may name a domain: those that start with neither white space, `#`, `+`, `-`
    /// nor a line end. One pass over the bytes.
    static func estimatedDomainLines(_ bytes: ArraySlice<UInt8>) -> Int {
        var (count, atLineStart) = (0, true)
        for byte in bytes {
            if atLineStart {
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "#"), UInt8(ascii: "+"), UInt8(ascii: "-"),
                    UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                    break
                default: count += 1
                }
            }
            atLineStart = byte == UInt8(ascii: "\n")
        }
        return count
    }

    /// The line without its comment: `#` at the start or after white space starts one, so a
    /// URL's fragment (`/path#part`) is not mistaken for a comment.
    static func stripComment(_ line: String) -> Substring {
        // Bytes, not characters: '#', space and tab are ASCII, which no other character's
        // UTF-8 contains.
        var previous = UInt8(ascii: " ")
        for index in line.utf8.indices {
            let byte = line.utf8[index]
            if byte == UInt8(ascii: "#"), previous == UInt8(ascii: " ") || previous == UInt8(ascii: "\t") {
                return line[..<index]
            }
            previous = byte
        }
        return line[...]
    }
}

/// Input problems as they are found, at most `maximumProblemsPerKind` of each kind listed;
/// the rest counted and summed up in one record per kind, at the line of the first one left out.
struct ProblemLog {
    let fileName: String
    private var listed: [InputProblem] = []
    private var countByKind: [DomainListParser.ProblemKind: Int] = [:]
    private var firstUnlisted: [DomainListParser.ProblemKind: InputProblem] = [:]

    init(fileName: String) {
        self.fileName = fileName
    }

    mutating func add(_ kind: DomainListParser.ProblemKind, line: Int, text: String, message: String) {
        let count = countByKind[kind, default: 0] + 1
        countByKind[kind] = count
        let problem = InputProblem(kind, file: fileName, line: line, text: String(text.prefix(200)), message: message)
        if count <= DomainListParser.maximumProblemsPerKind {
            listed.append(problem)
        } else if firstUnlisted[kind] == nil {
            firstUnlisted[kind] = problem
        }
    }

    var problems: [InputProblem] {
        listed
            + DomainListParser.ProblemKind.allCases.compactMap { kind in
                guard var first = firstUnlisted[kind], let count = countByKind[kind] else { return nil }
                let more = count - DomainListParser.maximumProblemsPerKind
                first.message =
                    "\(more) more line\(more == 1 ? "" : "s") from here on \(more == 1 ? "has" : "have") a problem like the one above (not listed; the first \(DomainListParser.maximumProblemsPerKind) are). The first: \(first.message)"
                return first
            }
    }
}
