import AASAChecks
import Testing

@testable import AASAModel

/// One cause, one headline: what follows from another finding is linked to it.
@Suite struct FindingCausesTests {
    /// The domain's findings, linked, as `code@location<-cause` (no arrow for a cause).
    func linked(
        _ wellKnown: FetchedLocation, _ root: FetchedLocation, cdn: FetchedLocation? = nil,
        bot: FetchedLocation? = nil, extra: [Finding] = []
    ) -> [String] {
        let result = DomainChecks.assess(
            target: Fixture.target(), wellKnown: wellKnown, root: root,
            deviceView: DomainChecks.DeviceView(cdn: cdn, bot: bot, browser: bot == nil ? nil : wellKnown))
        return FindingCauses.link(result.findings + extra).map { finding in
            "\(finding.code.rawValue)@\(finding.location.rawValue)"
                + (finding.causedBy.map { "<-\($0.code.rawValue)@\($0.location.rawValue)" } ?? "")
        }
    }

    /// A page answering every path is the cause of what it makes of each file it answered for:
    /// their type, syntax and shape findings, at any kind's location, follow from it (issue 56,
    /// item 2: five errors were listed above it and nothing said so).
    @Test func aCatchAllIsTheCauseOfWhatItsPageMakesOfEachFile() {
        let page = "<!doctype html><title>Shop</title>"
        let catchAll = Finding(.aasa(.locationCatchAll), .domain, "every path answers with the page")
        let windowsType = Finding(.windows(.contentType), .windows, "text/html")
        let windowsJSON = Finding(.windows(.jsonInvalid), .windows, "Not valid JSON")
        let unrelated = Finding(.windows(.appMissing), .windows, "No entry names X")
        let findings = linked(
            Fixture.served(page, contentType: "text/html"), Fixture.served(page, at: .root, contentType: "text/html"),
            extra: [windowsType, windowsJSON, unrelated, catchAll])
        #expect(findings.contains("location.catch-all@domain"), "\(findings)")
        for consequence in ["http.content-type@well-known", "json.invalid@well-known", "windows.content-type@windows"] {
            #expect(findings.contains("\(consequence)<-location.catch-all@domain"), "\(consequence): \(findings)")
        }
        #expect(findings.contains("windows.json-invalid@windows<-location.catch-all@domain"))
        #expect(findings.contains("windows.app-missing@windows"), "not the page's doing: \(findings)")
    }

    @Test func aMissingFileIsOneCause() {
        let findings = linked(
            Fixture.served("<h1>Not found</h1>", contentType: "text/html", status: 404),
            Fixture.served("", at: .root, status: 404), cdn: Fixture.served("", at: .cdn, status: 404))
        #expect(
            Set(findings) == [
                "http.status@well-known", "location.root-absent@root",
                "location.none@domain<-http.status@well-known", "cdn.missing@cdn<-http.status@well-known",
            ], "\(findings)")
    }

    @Test func brokenBytesAtTheCDNFollowFromTheOriginsBrokenFile() {
        let broken = #"{"applinks": {"details": [],}}"#
        let findings = linked(
            Fixture.served(broken), Fixture.served("", at: .root, status: 404), cdn: Fixture.served(broken, at: .cdn))
        #expect(findings.contains("json.invalid@well-known"), "\(findings)")
        #expect(findings.contains("cdn.error@cdn<-json.invalid@well-known"), "\(findings)")
    }

    @Test func theHostsTransferFailureIsReportedOnceWhereverItStruck() {
        let other = Finding(code: .transfer(.netDNS), severity: .error, location: .assetlinks, message: "no such host")
        let findings = linked(
            Fixture.failed(.dns), Fixture.failed(.dns, at: .root), extra: [other])
        #expect(findings.filter { !$0.contains("<-") } == ["net.dns@well-known"], "\(findings)")
        #expect(findings.contains("net.dns@root<-net.dns@well-known"))
        #expect(findings.contains("net.dns@assetlinks<-net.dns@well-known"))
    }

    @Test func theFileOnlyAtTheRootIsTheCauseOfWellKnownsStatus() {
        let findings = linked(
            Fixture.served("", status: 404), Fixture.served(Fixture.validFile, at: .root))
        #expect(findings.contains("location.root-only@domain"), "\(findings)")
        #expect(findings.contains("http.status@well-known<-location.root-only@domain"), "\(findings)")
    }

    @Test func aCDNFailureBesideAGoodOriginIsItsOwnCause() {
        let findings = linked(
            Fixture.served(Fixture.validFile), Fixture.served("", at: .root, status: 404),
            cdn: Fixture.served("", at: .cdn, status: 404))
        #expect(findings.contains("cdn.missing@cdn"), "\(findings)")
        #expect(!findings.contains { $0.contains("<-") })
    }

    @Test func aReportCountsByCause() {
        var report = DomainReport(
            domain: "example.com", inputLine: 1, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
            findings: FindingCauses.link(
                DomainChecks.assess(
                    target: Fixture.target(), wellKnown: Fixture.served("", status: 404),
                    root: Fixture.served("", at: .root, status: 404),
                    deviceView: DomainChecks.DeviceView(cdn: Fixture.served("", at: .cdn, status: 404))
                ).findings))
        var summary = ReportSummary()
        summary.add(report)
        #expect(summary.causesByCode == ["http.status": 1])
        #expect(summary.findingsByCode["cdn.missing"] == 1 && summary.findingsByCode["location.root-absent"] == 1)
        #expect(FlaggedDomain(report)?.codes == [.aasa(.httpStatus)])
        #expect(HistoryDomain(report).codes == ["http.status"])
        // A domain counts once per cause code, however many findings have it.
        var twice = report
        twice.findings.append(
            Finding(code: .aasa(.httpStatus), severity: .warning, location: .root, message: "HTTP 500"))
        summary.add(twice)
        #expect(summary.causesByCode == ["http.status": 2] && summary.findingsByCode["http.status"] == 3)
        report.findings = report.findings.map {
            var plain = $0
            plain.causedBy = nil
            return plain
        }
        #expect(HistoryDomain(report).codes == ["http.status", "location.none", "cdn.missing"])
    }
}

/// Positions are bounded: a file of many findings gets lines for the first hundred, pointers
/// for all.
@Suite struct FindingPositionBoundsTests {
    @Test func aFileOfManyFindingsIsWalkedAHundredTimesAtMost() {
        let keys = (0..<300).map { "\"k\($0)\": 1" }.joined(separator: ", ")
        let bytes = Array("{\"applinks\": {\"details\": [{\(keys)}]}}".utf8)
        let findings = (0..<300).map {
            Finding(
                code: .aasa(.entryUnknownKey), severity: .warning, location: .wellKnown,
                message: "Unknown key \"k\($0)\" in applinks.details[0]")
        }
        let located = FindingPositions.locate(findings, in: bytes)
        #expect(located.allSatisfy { $0.position?.pointer?.hasPrefix("/applinks/details/0/k") == true })
        #expect(located.filter { $0.position?.line != nil }.count == FindingPositions.maximumLocated)
        #expect(located[0].position == FilePosition(pointer: "/applinks/details/0/k0", line: 1, column: 34))
    }
}

/// A flagged domain keeps its causes' messages cut where they name the domain, so that a
/// fleet's equal failures share one copy: the messages read back whole.
@Suite struct FlaggedDomainCauseTests {
    func flagged(_ domain: String, _ messages: [(FindingCode, String)]) -> FlaggedDomain? {
        var report = DomainReport(
            domain: domain, inputLine: 1, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
            findings: messages.map { Finding(code: $0.0, severity: .error, location: .wellKnown, message: $0.1) })
        report.verdict = .fail
        return FlaggedDomain(report)
    }

    @Test func messagesNamingTheirHostReadBackWhole() throws {
        let messages: [(FindingCode, String)] = [
            (.transfer(.tlsHandshake), "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to a.example:443 "),
            (.aasa(.httpStatus), "a.example answered 404 for https://a.example/x; www.a.example too. a.example"),
            (.transfer(.netTimeout), "timed out after 10000 ms"),
        ]
        var pool = FlaggedDomain.SharedParts()
        var first = try #require(flagged("a.example", messages))
        first.share(&pool)
        #expect(first.openCauses.map(\.message) == messages.map(\.1))
        // Another host's same failure: its own name back in its message.
        var second = try #require(
            flagged("b.example", messages.map { ($0.0, $0.1.replacingOccurrences(of: "a.example", with: "b.example")) })
        )
        second.share(&pool)
        #expect(
            second.openCauses.first?.message == "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to b.example:443 "
        )
        #expect(
            second.openCauses.map(\.code) == [.transfer(.tlsHandshake), .aasa(.httpStatus), .transfer(.netTimeout)])
        #expect(first != second)
    }

    /// A fleet may flag a million domains: what each costs is held to its 32 bytes (its name,
    /// its position, its shared shape), and equal shapes are one.
    @Test func aFlaggedDomainTakesThirtyTwoBytes() throws {
        #expect(MemoryLayout<FlaggedDomain>.stride == 32)
        let messages: [(FindingCode, String)] = [
            (.transfer(.tlsHandshake), "SSL_ERROR_SYSCALL in connection to a.example:443 ")
        ]
        var pool = FlaggedDomain.SharedParts()
        var first = try #require(flagged("a.example", messages))
        var second = try #require(
            flagged("b.example", [(.transfer(.tlsHandshake), "SSL_ERROR_SYSCALL in connection to b.example:443 ")]))
        first.share(&pool)
        second.share(&pool)
        #expect(first.codes == [.transfer(.tlsHandshake)] && first.verdict == .fail && first.openVerdict == .fail)
        #expect(second.openCauses.first?.message == "SSL_ERROR_SYSCALL in connection to b.example:443 ")
        // One shape for both: the same stored code list.
        #expect(
            first.codes.withUnsafeBufferPointer { $0.baseAddress }
                == second.codes.withUnsafeBufferPointer { $0.baseAddress })
    }
}
