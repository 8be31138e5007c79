/// The one declaration of every finding code: what it is about, how much it matters, what it
/// means and how to fix it. Checks take a finding's severity from here (`Finding(code, location,
/// message)`); `docs/findings.md`, `aasa-audit explain`, the schema's code list and the
/// explanations under findings in the terminal and HTML are all made from it.
///
/// Adding a finding code: its case in `FindingCode`, its entry below, the check that emits it,
/// and its row in `FindingCatalogTests` (which fails for a code that nothing is shown to emit).

/// What a finding is about: which part of serving the file went wrong. Each association kind
/// adds its own (`AssociationKind.category`).
public struct FindingCategory: Sendable, Hashable {
    /// Its name (SARIF's tag).
    public let rawValue: String
    /// A heading for documentation.
    public let title: String

    /// The file could not be fetched at all (DNS, TCP, TLS, time).
    public static let transfer = FindingCategory("transfer", "Network and TLS: the file could not be fetched")
    /// How the file is served: redirects, status, headers, an empty answer.
    public static let serving = FindingCategory("serving", "HTTP: how the file is served")
    /// What the bytes of a file say, wherever they were served: size, syntax, every key.
    public static let content = FindingCategory("content", "The file's content")
    /// The domain as a whole: its two locations judged together.
    public static let domain = FindingCategory("domain", "The domain as a whole")
    /// What the input expects of the domain: app IDs, services, URLs that must open the app.
    public static let expectations = FindingCategory("expectations", "What the input expects")
    /// What devices really get: Apple's CDN copy, and Apple's bot against a browser.
    public static let deviceView = FindingCategory("deviceView", "What devices see: Apple's CDN and Apple's bot")
    /// The run itself, not the domain.
    public static let run = FindingCategory("run", "The run")

    private init(_ rawValue: String, _ title: String) {
        self.rawValue = rawValue
        self.title = title
    }

    /// A kind's category: its name and title.
    init(name: String, title: String) { self.init(name, title) }

    init(kind: AssociationKind) { self.init(kind.categoryName, kind.categoryTitle) }

    /// Every category, in the order documentation lists them: what cannot be fetched, each
    /// file's (the AASA's first, `AssociationKinds.files`), the run's.
    public static var allCases: [FindingCategory] {
        [.transfer] + AssociationKinds.files.flatMap(\.categories) + [.run]
    }
}

/// A named case in which a code is reported at another severity than its usual one.
public struct SeverityCase: Sendable, Hashable {
    public let severity: Severity
    /// When it applies, as a phrase: "for the signed application/pkcs7-mime of iOS 8".
    public let when: String

    public init(_ severity: Severity, when: String) {
        self.severity = severity
        self.when = when
    }

    /// `applinks.missing` for a file that declares other services (Password AutoFill, passkeys,
    /// App Clips) while nothing expects universal links of the domain: valid as Apple asks.
    public static let servicesOnly = SeverityCase(
        .info, when: "for a file of other services when nothing expects universal links of the domain")
    /// `rule.unreachable` for a plain rule after a catch-all of the same entry, or a rule that
    /// repeats an earlier one: it would send the URLs to the same apps, so nothing changes (an
    /// exclusion after a catch-all is the real mistake).
    public static let changesNothing = SeverityCase(
        .info,
        when:
            "for a rule that would send URLs to the same apps as an earlier one that decides first (after a catch-all of the same entry, or repeating a rule of it)"
    )
    /// `service.invalid` for a section that is an empty object (`"appclips": {}`, a stub): iOS
    /// reads no apps from it and ignores it; the rest of the file works.
    public static let emptySection = SeverityCase(
        .info, when: "for a section that is an empty object ({}): iOS ignores it, the rest of the file works")
    /// `entry.mixed-formats` when the app still supports iOS 12 or older.
    public static let mixedFormatsForOldIOS = SeverityCase(
        .info, when: "with \(OptionName.minimumIOS) 12 or older, where the mix is needed")
    /// `component.unknown-key` when the unknown key was the rule's only matcher: it now matches
    /// every URL.
    public static let matchesEverything = SeverityCase(
        .error, when: "when the rule has no /, ? or # left and so matches every URL")
    /// `applinks.legacy-apps` for a paths-format file without `"apps": []`, when the app supports
    /// iOS 12 or older.
    public static let appsMissingForOldIOS = SeverityCase(
        .error, when: "for a paths-format file without the key, with \(OptionName.minimumIOS) 12 or older")
    /// `value.type` for a component's `comment`, which iOS never reads.
    public static let commentNotString = SeverityCase(.warning, when: "for a comment that is not a string")
}

/// One finding code's entry in the catalog.
public struct FindingDefinition: Sendable {
    public let category: FindingCategory
    /// The severity at `.well-known` (or for the domain). A finding about the root copy is at
    /// most a warning when the root answers 200, and info when it does not (`DomainChecks`).
    public let severity: Severity
    /// The named cases in which it is reported at another severity.
    public let cases: [SeverityCase]
    public let meaning: String
    public let fix: String

    public init(
        _ category: FindingCategory, _ severity: Severity, cases: [SeverityCase] = [], meaning: String, fix: String
    ) {
        self.category = category
        self.severity = severity
        self.cases = cases
        self.meaning = meaning
        self.fix = fix
    }

    /// Every severity a finding of this code is emitted at: its own and its named cases'. (A
    /// finding about the root copy is capped below that, and `--severity` may change any: both
    /// say so on the finding.)
    public var severities: Set<Severity> { Set([severity] + cases.map(\.severity)) }

    /// "warning (info for application/pkcs7-mime, ...)": the severity and its cases in words.
    public var severityText: String {
        ([severity.rawValue] + cases.map { "\($0.severity.rawValue) \($0.when)" }).joined(separator: "; ")
    }
}

extension FindingCode {
    /// Where the code is explained: its anchor in `docs/findings.md`.
    public var documentationAnchor: String { "docs/findings.md#\(rawValue)" }

    /// Whether a finding with this code says the domain was not checked (the run was
    /// interrupted before it, or this machine could not make the request), rather than
    /// anything about the domain.
    public var meansNotChecked: Bool {
        self == .run(.auditInterrupted) || self == .run(.auditUnchecked) || self == .run(.auditCrashed)
    }

    /// Whether a record whose headline codes (`Finding.isHeadline`: causes that are errors or
    /// warnings) are `codes` says its domain was not checked: it has some, and each is a
    /// not-checked code. The one rule of "not checked" for a snapshot, a history entry and a
    /// flagged domain: a record of notes only (`location.root-absent`, `file.signed`) was
    /// checked, and its breaking is news.
    public static func notChecked(headlines codes: some Sequence<FindingCode>) -> Bool {
        var any = false
        for code in codes {
            guard code.meansNotChecked else { return false }
            any = true
        }
        return any
    }

}

extension Finding {
    /// A finding at its code's severity, as the catalog declares it.
    public init(_ code: FindingCode, _ location: FindingLocation, _ message: String) {
        self.init(code: code, severity: code.definition.severity, location: location, message: message)
    }

    /// A finding in one of its code's named cases of another severity.
    public init(_ code: FindingCode, _ severityCase: SeverityCase, _ location: FindingLocation, _ message: String) {
        assert(code.definition.cases.contains(severityCase), "\(code.rawValue) declares no case '\(severityCase.when)'")
        self.init(code: code, severity: severityCase.severity, location: location, message: message)
    }
}
