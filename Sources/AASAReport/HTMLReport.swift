import AASAJSON
import AASAModel
import Foundation
import Mustache

/// A served file as the HTML report shows it: its text, or a pointer to an earlier domain
/// that served the same bytes (so a report of many hosts sharing one file stays small).
public struct ServedFileDisplay: Sendable {
    public enum Content: Sendable {
        /// The file's text, pretty-printed when it parsed.
        case text(String)
        /// The same bytes as the file shown for an earlier row.
        case sameAs(domain: String, row: Int)
    }

    public var location: AASALocation
    public var sha256: String
    public var content: Content

    public init(location: AASALocation, sha256: String, content: Content) {
        self.location = location
        self.sha256 = sha256
        self.content = content
    }
}

/// The self-contained HTML report: rendered in three parts (head with the summary, one row per
/// domain, tail) so that it can be written as a stream. Every value goes through Mustache's
/// `{{ }}`, which escapes it with `HTMLEscaping`; the templates use no unescaped tags.
public struct HTMLReport: Sendable {
    private let headTemplate: MustacheTemplate
    private let rowTemplate: MustacheTemplate
    private let passRowTemplate: MustacheTemplate
    private let tailTemplate: MustacheTemplate

    public init() {
        // The templates are constants of this module; a parse failure is a programming error.
        HTMLEscaping.register()
        headTemplate = try! MustacheTemplate(string: HTMLTemplates.head)
        rowTemplate = try! MustacheTemplate(string: HTMLTemplates.row)
        passRowTemplate = try! MustacheTemplate(string: HTMLTemplates.passRow)
        tailTemplate = try! MustacheTemplate(string: HTMLTemplates.tail)
    }

    public func head(tool: ToolInfo, run: RunInfo, summary: ReportSummary, input: InputInfo, changes: RunChanges? = nil)
        -> String
    {
        headTemplate.render(HeadView(tool: tool, run: run, summary: summary, input: input, changes: changes))
    }

    public func row(index: Int, report: DomainReport, files: [ServedFileDisplay]) -> String {
        Self.isCompact(report)
            ? passRowTemplate.render(RowView(index: index, report: report, files: []))
            : rowTemplate.render(RowView(index: index, report: report, files: files))
    }

    /// A domain's full row, even when it passes (`serve`'s check page).
    public func detailedRow(report: DomainReport, files: [ServedFileDisplay]) -> String {
        rowTemplate.render(RowView(index: 0, report: report, files: files))
    }

    /// The text of the inline script of the report and history pages, for a
    /// Content-Security-Policy hash (`serve`).
    public static var inlineScript: String {
        let text = HTMLTemplates.filterScript
        let start = text.range(of: "<script>")!.upperBound
        let end = text.range(of: "</script>", options: .backwards)!.lowerBound
        return String(text[start..<end])
    }

    /// Above this many domains the page lists the domains worth a look (failing, warning, with
    /// notes) and counts the others: a million one-line rows are 1.5 GB no one reads.
    public static let fleetThreshold = 10_000

    /// Where the rows of a large fleet's page begin: how many passing domains are not listed.
    public func unlistedNotice(count: Int, threshold: Int) -> String {
        guard count > 0 else { return "" }
        return
            "<p class=\"muted unlisted\">\(count) passing domain\(count == 1 ? "" : "s") without findings \(count == 1 ? "is" : "are") not listed: above \(threshold) domains this page lists the ones worth a look. report.json and domains.jsonl have every domain.</p>\n"
    }

    /// A passing domain without findings gets one line; its details are in report.json.
    public static func isCompact(_ report: DomainReport) -> Bool {
        report.verdict == .pass && report.findings.allSatisfy { $0.severity == .info && $0.location == .root }
    }

    public func tail(tool: ToolInfo) -> String {
        tailTemplate.render(["tool": "\(tool.name) \(tool.versionLine)"])
    }
}

// MARK: View models: plain values for the templates, built from the report model.

struct HeadView {
    let title: String
    let tool: String
    let schemaVersion: Int
    let startedAt: String
    let finishedAt: String
    let duration: String
    let complete: Bool
    let inputFiles: String
    let concurrency: Int
    let timeout: String
    let domains: Int
    let pass: Int
    let warn: Int
    let fail: Int
    /// The fail filter is chosen when there are failures: triage first.
    let hasFailures: Bool
    /// Causes (headline findings) by severity, and the notes.
    let errors: Int
    let warnings: Int
    let infos: Int
    /// The causes by code, the most frequent first: the first few shown, the rest folded.
    let codes: [CodeCount]
    let moreCodes: [CodeCount]
    let moreCodesCount: Int?
    let hasCodes: Bool
    let problems: [InputProblem]
    let hasProblems: Bool
    /// This machine's own trouble, first (`AuditorProblems`): the run not checked properly, or
    /// a part of it not checked.
    let unsound: [String]
    let partly: [String]
    let hasChanges: Bool
    let noChanges: Bool
    let previousRun: String
    let changes: [ChangeView]
    /// Nil when there are none (an empty string would still open a Mustache section).
    let added: String?
    let removed: String?

    struct ChangeView {
        let domain: String
        let verdictFrom: String?
        let verdictTo: String?
        let newFindings: [FindingView]
        let resolvedFindings: [FindingView]
        let acknowledgement: String?
        let changedFiles: [String]
    }

    struct CodeCount {
        let code: String
        let count: Int
        let fix: String
    }

    /// How many causes the first screen shows before folding the rest.
    static let shownCodes = 6

    init(tool: ToolInfo, run: RunInfo, summary: ReportSummary, input: InputInfo, changes: RunChanges?) {
        title = "\(AssociationKinds.auditedTitle) audit \(Self.format(run.startedAt))"
        self.tool = "\(tool.name) \(tool.versionLine)"
        schemaVersion = ReportSchema.version
        startedAt = Self.format(run.startedAt)
        finishedAt = Self.format(run.finishedAt)
        duration = String(format: "%.1f s", run.durationSeconds)
        complete = run.complete
        inputFiles = run.options.inputFiles.joined(separator: ", ")
        concurrency = run.options.concurrency
        timeout = String(format: "%g s", run.options.timeoutSeconds)
        domains = summary.domains
        pass = summary.verdicts.pass
        warn = summary.verdicts.warn
        fail = summary.verdicts.fail
        hasFailures = summary.verdicts.fail > 0
        // Counts by cause (reports from before causes were linked count every finding).
        let causes = summary.causesByCode ?? summary.findingsByCode
        let all = causes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
            CodeCount(code: $0.key, count: $0.value, fix: FindingCode(rawValue: $0.key)?.definition.fix ?? "")
        }
        errors = summary.findingsBySeverity.error
        warnings = summary.findingsBySeverity.warning
        infos = summary.findingsBySeverity.info
        codes = Array(all.prefix(Self.shownCodes))
        moreCodes = Array(all.dropFirst(Self.shownCodes))
        moreCodesCount = moreCodes.isEmpty ? nil : moreCodes.count
        hasCodes = !codes.isEmpty
        problems = input.problems
        hasProblems = !problems.isEmpty
        unsound = summary.auditorProblems ?? []
        partly = summary.partlyChecked ?? []
        hasChanges = changes.map { !$0.isEmpty } ?? false
        noChanges = changes.map(\.isEmpty) ?? false
        previousRun = changes.map { Self.format($0.previousRunStartedAt) } ?? ""
        self.changes = (changes?.domains ?? []).map {
            ChangeView(
                domain: $0.domain, verdictFrom: $0.verdict?.from.rawValue, verdictTo: $0.verdict?.to.rawValue,
                newFindings: $0.newFindings.map { FindingView($0) },
                resolvedFindings: $0.resolvedFindings.map { FindingView($0) },
                acknowledgement: $0.acknowledgement?.sentence, changedFiles: ($0.changedFiles ?? []).map(\.sentence))
        }
        added = changes.flatMap { $0.addedDomains.isEmpty ? nil : $0.addedDomains.joined(separator: ", ") }
        removed = changes.flatMap { $0.removedDomains.isEmpty ? nil : $0.removedDomains.joined(separator: ", ") }
    }

    static func format(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(dateTimeSeparator: .space, timeZone: .gmt).year().month().day().time(
                includingFractionalSeconds: false))
    }
}

struct RowView {
    let domain: String
    let verdict: String
    let inputLine: String
    let expected: String
    let hasExpected: Bool
    let locations: [LocationView]
    let findings: [FindingView]
    let hasFindings: Bool
    /// What the filter and the sort read: every code of its errors and warnings, how bad it
    /// is (0 pass to 2 fail), how many causes, its input line.
    let codes: String
    let rank: Int
    let causes: Int
    let line: Int
    /// The hosting platform recognised, by name.
    let platform: String?
    let services: [ServiceView]
    let hasServices: Bool
    let files: [FileView]
    /// The other association files' paragraphs (`AssociationSections`).
    let associations: [String]

    init(index: Int, report: DomainReport, files: [ServedFileDisplay]) {
        domain = report.domain
        verdict = report.verdict.rawValue
        inputLine = report.inputLine.map { "line \($0)" } ?? ""
        expected = report.expectedAppIDs.joined(separator: ", ")
        hasExpected = !report.expectedAppIDs.isEmpty
        locations = report.fetches.map(LocationView.init)
        findings = FindingGroups(report.findings).groups.map { FindingView($0.cause, consequences: $0.consequences) }
        hasFindings = !findings.isEmpty
        var seen = Set<String>()
        codes = report.findings.filter { $0.severity != .info && seen.insert($0.code.rawValue).inserted }
            .map(\.code.rawValue).joined(separator: " ")
        rank = Verdict.allCases.firstIndex(of: report.verdict) ?? 0
        causes = report.findings.filter(\.isHeadline).count
        platform = report.platform?.name
        line = report.inputLine ?? 0
        let ids = report.appIDs
        services = ids.byService.compactMap { service, list in
            list.map {
                ServiceView(service: service.rawValue, appIDs: $0.isEmpty ? "(none)" : $0.joined(separator: ", "))
            }
        }
        hasServices = !services.isEmpty
        self.files = files.map { file in
            let location = FindingLocation(file.location)
            return FileView(file, row: index, findings: report.findings.filter { $0.location == location })
        }
        associations = AssociationSections.htmlParagraphs(report.associations)
    }
}

struct LocationView {
    let name: String
    let summary: String
    let tone: String
    /// The fetch's details as aligned "label  value" lines, one `{{ }}` tag for all of them:
    /// Mustache's cost is per tag, and one per label and value was most of a row's rendering.
    let details: String

    init(_ fetch: FetchRecord) {
        name = fetch.label
        if let error = fetch.error {
            summary = error.kind == .skipped ? "not fetched" : error.kind.rawValue
            tone = error.kind == .skipped ? "muted" : "bad"
        } else if let status = fetch.status {
            summary = fetch.bodyTruncated ? "\(status), too large" : "\(status)"
            tone = status == 200 && !fetch.bodyTruncated ? "good" : "bad"
        } else {
            summary = "no response"
            tone = "bad"
        }
        var details: [(label: String, value: String)] = [("URL", fetch.url)]
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { details.append((label, value)) }
        }
        add("Status", fetch.status.map(String.init))
        add("Redirect to", fetch.redirectTarget)
        add("HTTP version", fetch.httpVersion)
        add("Remote IP", fetch.remoteIP)
        add("Connection", fetch.newConnection.map { $0 ? "new" : "reused" })
        add("Content-Type", fetch.headers.contentType)
        add("Content-Length", fetch.headers.contentLength)
        add("Content-Encoding", fetch.headers.contentEncoding)
        add("Cache-Control", fetch.headers.cacheControl)
        add("Age", fetch.headers.age)
        add("ETag", fetch.headers.etag)
        add("Last-Modified", fetch.headers.lastModified)
        add("Server", fetch.headers.server)
        if fetch.status != nil {
            add("Body", "\(fetch.bodyBytes) bytes\(fetch.bodyTruncated ? " (reading stopped at the cap)" : "")")
        }
        add("SHA-256", fetch.bodySHA256)
        if let signature = fetch.signature {
            let state = signature.verified ? "verified" : signature.problem ?? "not verified"
            add(
                "Signed",
                "\(signature.format.rawValue.uppercased())\(signature.signerSubject.map { " by \($0)" } ?? "")\(signature.contentBytes.map { ", \($0) bytes of content" } ?? ""): \(state)"
            )
        }
        let timings = fetch.timings
        if timings.totalMs > 0 {
            func ms(_ value: Double) -> String { "\((value * 10).rounded() / 10)" }
            add(
                "Timings (ms)",
                "DNS \(ms(timings.dnsMs)) · connect \(ms(timings.connectMs)) · TLS \(ms(timings.tlsMs))"
                    + " · first byte \(ms(timings.firstByteMs)) · total \(ms(timings.totalMs))")
        }
        if let error = fetch.error {
            add("Error", error.curlCode > 0 ? "\(error.message) (curl \(error.curlCode))" : error.message)
        }
        let width = details.map(\.label.count).max() ?? 0
        self.details = details.map { $0.label + String(repeating: " ", count: width + 2 - $0.label.count) + $0.value }
            .joined(separator: "\n")
    }
}

struct FindingView {
    let code: String
    let severity: String
    let location: String
    let message: String
    /// The catalog's severity when `--severity` changed it.
    let overriddenFrom: String?
    /// The catalog's meaning and fix, as `explain` prints them; the fix shown for errors and
    /// warnings, not for notes.
    let why: String
    let fix: String
    let showsFix: Bool
    /// The fix on the platform the site runs on, and its name.
    let platformFix: String?
    let platformName: String?
    /// The findings that follow from this one.
    let consequences: [FindingView]
    let hasConsequences: Bool
    /// "until 2026-12-31 by ana: waiting on the CDN vendor", when the team acknowledged it.
    let acknowledged: String?

    init(_ finding: Finding, consequences: [Finding] = []) {
        code = finding.code.rawValue
        severity = finding.severity.rawValue
        location = finding.location.rawValue
        message = finding.message
        overriddenFrom = finding.overriddenFrom?.rawValue
        why = finding.code.definition.meaning
        fix = finding.code.definition.fix
        showsFix = finding.severity != .info
        platformFix = finding.platformFix?.fix
        platformName = finding.platformFix?.platform.name
        self.consequences = consequences.map { FindingView($0) }
        hasConsequences = !consequences.isEmpty
        acknowledged = finding.acknowledged.map(\.summary)
    }
}

struct ServiceView {
    let service: String
    let appIDs: String
}

struct FileView {
    let label: String
    let sha256: String
    let text: String?
    /// The file with a mark at each finding's place (a JSON error's, a key's): the text in
    /// pieces, each marked or not.
    let marked: [Piece]?
    let sameAsDomain: String?
    let sameAsOwn: Bool

    struct Piece {
        let text: String
        /// The findings the piece is marked for; nil for text between marks.
        let markTitle: String?
    }

    /// - Parameter findings: the findings about this file; those with a place in it are marked.
    init(_ file: ServedFileDisplay, row: Int, findings: [Finding] = []) {
        label =
            switch file.location {
            case .wellKnown: "Served at .well-known"
            case .root: "Served at the root"
            case .cdn: "Served by Apple's CDN"
            default: file.location.fileName ?? file.location.rawValue
            }
        sha256 = file.sha256
        switch file.content {
        case .text(let text):
            marked = Self.mark(text, at: Self.places(of: findings, in: text))
            self.text = marked == nil ? text : nil
            sameAsDomain = nil
            sameAsOwn = false
        case .sameAs(let domain, let earlierRow):
            text = nil
            marked = nil
            sameAsOwn = earlierRow == row
            sameAsDomain = sameAsOwn ? nil : domain
        }
    }
}

extension FileView {
    /// At most this many marks in one file.
    static let maximumMarks = 50

    /// Where each finding stands in the text shown: a JSON error at its line and column (the
    /// text shown is then the bytes served), a value at its pointer in the text shown (which
    /// may be pretty-printed).
    static func places(of findings: [Finding], in text: String) -> [(line: Int, column: Int, title: String)] {
        var places: [(line: Int, column: Int, title: String)] = []
        let bytes = Array(text.utf8)
        for finding in findings.prefix(maximumMarks * 2) {
            guard let position = finding.positioned.position else { continue }
            let title = "\(finding.code.rawValue): \(finding.message)"
            if let pointer = position.pointer {
                guard let at = JSONLocator.locate(JSONLocator.steps(pointer), in: bytes) else { continue }
                places.append((at.line, at.column, title))
            } else if let line = position.line {
                places.append((line, position.column ?? 1, title))
            }
            if places.count == maximumMarks { break }
        }
        return places
    }

    /// The text in pieces, each place marked from its column to the end of its line (places on
    /// one line share a mark, from the first); nil when no place is in the text.
    static func mark(_ text: String, at places: [(line: Int, column: Int, title: String)]) -> [Piece]? {
        guard !places.isEmpty else { return nil }
        let byLine = Dictionary(grouping: places, by: \.line)
        var pieces: [Piece] = []
        var plain = ""
        var marked = false
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if offset > 0 { plain += "\n" }
            guard let here = byLine[offset + 1] else {
                plain += line
                continue
            }
            let column = max(1, min(here.map(\.column).min() ?? 1, line.count + 1))
            plain += line.prefix(column - 1)
            pieces.append(Piece(text: plain, markTitle: nil))
            plain = ""
            let rest = line.dropFirst(column - 1)
            pieces.append(
                Piece(
                    text: rest.isEmpty ? " " : String(rest),
                    markTitle: here.map { "line \($0.line), column \($0.column): \($0.title)" }.joined(separator: "\n"))
            )
            marked = true
        }
        pieces.append(Piece(text: plain, markTitle: nil))
        return marked ? pieces : nil
    }
}
