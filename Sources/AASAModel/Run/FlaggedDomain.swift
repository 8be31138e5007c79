import Foundation

/// A domain that did not pass, in brief: for a run's closing summary.
/// A fleet may flag a million of them: each is its name, its position and a shared `Shape`
/// (32 bytes a domain): a fleet's failures mostly say the same few things, stored once
/// (`share`).
public struct FlaggedDomain: Sendable, Equatable {
    public var domain: String
    private var shape: ShapeBox
    private var storedPosition: Int32 = 0

    /// Its place in the run's input (0 until the run sets it).
    public var position: Int {
        get { Int(storedPosition) }
        set { storedPosition = Int32(clamping: newValue) }
    }
    public var verdict: Verdict { shape.value.verdict }
    /// The codes of its causes (findings that follow from no other) of the worst severity,
    /// without repeats.
    public var codes: [FindingCode] { shape.value.codes }
    /// The verdict of its findings no acknowledgement covers (`Finding.isOpen`): what fails the
    /// exit status and `--quiet`, and what the alert hears.
    public var openVerdict: Verdict { shape.value.openVerdict }
    /// The codes of its open causes of the worst open severity (empty when all are acknowledged).
    public var openCodes: [FindingCode] { shape.value.openCodes }
    /// Its open causes that are errors or warnings, a code once, with its worst severity: what
    /// Alertmanager gets an alert for each of.
    public var openCauses: [OpenCause] {
        shape.value.causes.map { cause in
            OpenCause(
                code: cause.code, severity: cause.severity, message: cause.message.joined(separator: domain),
                platformFix: cause.platformFix)
        }
    }
    /// The acknowledgement of its findings, when one covers any.
    public var acknowledged: AcknowledgementMark? { shape.value.acknowledged }
    /// Its domains.txt labels, for routing its alert.
    public var labels: [String: String]? { shape.value.labels }
    /// Whether the run did not check it (`FindingCode.notChecked(headlines:)`).
    public var notChecked: Bool { shape.value.notChecked }

    public struct OpenCause: Sendable, Hashable {
        public var code: FindingCode
        public var severity: Severity
        /// The first such finding's message.
        public var message: String
        public var platformFix: PlatformFix?
    }

    /// Everything but the name: equal for most of a fleet's failing domains.
    fileprivate struct Shape: Sendable, Hashable {
        var verdict: Verdict
        var codes: [FindingCode]
        var openVerdict: Verdict
        var openCodes: [FindingCode]
        /// The causes with their messages cut where they name the domain: curl's words name
        /// the host ("… in connection to example.com:443"); so cut, equal failures are equal.
        var causes: [StoredCause]
        var acknowledged: AcknowledgementMark?
        var labels: [String: String]?
        var notChecked: Bool
    }

    fileprivate struct StoredCause: Sendable, Hashable {
        var code: FindingCode
        var severity: Severity
        /// The message's parts between the places that name the domain.
        var message: [String]
        var platformFix: PlatformFix?
    }

    /// Immutable: shared by every flagged domain of the same shape.
    fileprivate final class ShapeBox: Sendable, Hashable {
        let value: Shape
        init(_ value: Shape) { self.value = value }
        static func == (a: ShapeBox, b: ShapeBox) -> Bool { a === b || a.value == b.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    /// Nil for a domain that passed.
    public init?(_ report: DomainReport) {
        let causes = report.findings.filter { $0.causedBy == nil }
        guard report.verdict != .pass, causes.map(\.severity).max() != nil else { return nil }
        domain = report.domain
        func worstCodes(_ findings: [Finding]) -> [FindingCode] {
            guard let worst = findings.map(\.severity).max() else { return [] }
            var seen = Set<FindingCode>()
            return findings.filter { $0.severity == worst && seen.insert($0.code).inserted }.map(\.code)
        }
        let open = report.findings.filter(\.isOpen)
        let openVerdict = Verdict(findings: open)
        var found: [StoredCause] = []
        for finding in open where finding.isHeadline {
            if let index = found.firstIndex(where: { $0.code == finding.code }) {
                found[index].severity = max(found[index].severity, finding.severity)
            } else {
                found.append(
                    StoredCause(
                        code: finding.code, severity: finding.severity,
                        message: finding.message.components(separatedBy: report.domain),
                        platformFix: finding.platformFix))
            }
        }
        shape = ShapeBox(
            Shape(
                verdict: report.verdict, codes: worstCodes(causes), openVerdict: openVerdict,
                openCodes: openVerdict == .pass ? [] : worstCodes(open.filter { $0.causedBy == nil }), causes: found,
                acknowledged: report.findings.lazy.compactMap(\.acknowledged).first, labels: report.labels,
                notChecked: FindingCode.notChecked(headlines: causes.lazy.filter(\.isHeadline).map(\.code))))
    }

    /// Its shape stored once for all the domains that have an equal one (`pool`).
    public mutating func share(_ pool: inout SharedParts) {
        shape = pool.share(shape)
    }

    /// Equal shapes of many flagged domains, stored once: a fleet's failures mostly repeat a
    /// few (a million hosts refusing connections say the same thing).
    public struct SharedParts: Sendable {
        private var shapes = SharedValues<ShapeBox>()

        public init() {}

        fileprivate mutating func share(_ value: ShapeBox) -> ShapeBox { shapes.share(value) }
    }

    public static func == (a: FlaggedDomain, b: FlaggedDomain) -> Bool {
        a.domain == b.domain && a.storedPosition == b.storedPosition && a.shape == b.shape
    }
}

/// Equal values stored once (Swift's arrays and strings share their storage when copied): at
/// most `limit` distinct values are pooled, so that values that never repeat (a message that
/// names its host) cost no more than without the pool.
public struct SharedValues<Value: Hashable & Sendable>: Sendable {
    public static var limit: Int { 4096 }
    private var pool: [Value: Value] = [:]

    public init() {}

    public mutating func share(_ value: Value) -> Value {
        if let shared = pool[value] { return shared }
        if pool.count < Self.limit { pool[value] = value }
        return value
    }
}
