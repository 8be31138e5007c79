import AASAReport
import Foundation
import TestSupport
import Testing

@testable import AASAModel

/// report.html on a phone (issue 56: at 390 px the "Changes since" table cut its messages and
/// pushed a column off the screen): in Chromium 390 px wide every cell of the changes, causes and
/// input-problems tables is within the screen, its text wrapped rather than cut, and nothing
/// scrolls sideways; at 1280 px they are still tables with their heads.
@Suite(.live, .tags(.live)) struct ReportPageLayoutTests {
    @Test func theReportsTablesFitAPhone() async throws {
        guard BrowserDriver.isAvailable else {
            print(BrowserDriver.unavailableMessage)
            return
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Long names, codes and messages with words no line can break (a URL, a package name).
        let name = "a-rather-long-subdomain-name.of-an-international-shop.example"
        let url = "https://\(name)/.well-known/apple-app-site-association?from=a-redirect-chain-of-some-length"
        let findings = [
            Finding(
                code: .aasa(.httpRedirect), severity: .error, location: .wellKnown,
                message: "HTTP 301 redirect to \(url)"),
            Finding(
                code: .aasa(.cdnStale), severity: .warning, location: .cdn, message: "Apple's CDN has an older copy"),
            Finding(
                code: .passkeyEndpoints(.changePasswordAbsent), severity: .info, location: .changePassword,
                message: "No \(url)"),
        ]
        let domain = DomainReport(
            domain: name, inputLine: 1, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(), findings: findings)
        let changes = RunChanges(
            previousRunStartedAt: Samples.started,
            domains: [
                DomainChange(
                    domain: name, verdict: VerdictChange(from: .pass, to: .fail), newFindings: findings,
                    resolvedFindings: [findings[1]], acknowledgement: .ended)
            ], addedDomains: [name], removedDomains: [])
        var summary = Samples.summary(of: [domain])
        summary.inputProblems = 1
        let html = HTMLReport()
        let tool = ToolInfo(version: "test")
        let page =
            html.head(
                tool: tool, run: Samples.run(), summary: summary,
                input: InputInfo(problems: [Samples.problem(text: url)]), changes: changes)
            + html.row(index: 0, report: domain, files: []) + html.tail(tool: tool)
        let file = directory.url.appendingPathComponent("report.html")
        try page.write(to: file, atomically: true, encoding: .utf8)

        let cells = "table.stack td, table.stack th"
        let phone = try await PageLayout.measure(url: file.absoluteString, width: 390, cells: cells)
        #expect(phone.width <= 390 && phone.cells >= 8, "\(phone)")
        #expect(phone.cut.isEmpty && phone.pageOverflow <= 0 && phone.heads == 0, "\(phone)")
        let desktop = try await PageLayout.measure(url: file.absoluteString, width: 1280, cells: cells)
        #expect(desktop.heads >= 10 && desktop.cut.isEmpty && desktop.pageOverflow <= 0, "\(desktop)")
    }
}
