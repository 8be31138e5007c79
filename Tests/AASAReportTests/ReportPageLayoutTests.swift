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
    static let measure = """
        (() => {
          const width = document.documentElement.clientWidth, cut = [];
          document.querySelectorAll('table.stack td').forEach(cell => {
            const box = cell.getBoundingClientRect();
            if (box.width > 0 && (box.right > width + 1 || box.left < -1 || cell.scrollWidth > cell.clientWidth + 1))
              cut.push(cell.textContent.slice(0, 40));
          });
          const shown = [...document.querySelectorAll('table.stack td')].filter(cell => cell.getBoundingClientRect().width > 0);
          return {width: width, pageOverflow: document.documentElement.scrollWidth - width, cut: cut,
            cells: shown.length, heads: [...document.querySelectorAll('table.stack th')]
              .filter(head => head.getBoundingClientRect().width > 0).length};
        })()
        """

    struct Measured: Decodable {
        var width: Int
        var pageOverflow: Int
        var cut: [String]
        var cells: Int
        var heads: Int
    }

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
                code: .httpRedirect, severity: .error, location: .wellKnown, message: "HTTP 301 redirect to \(url)"),
            Finding(code: .cdnStale, severity: .warning, location: .cdn, message: "Apple's CDN has an older copy"),
            Finding(code: .changePasswordAbsent, severity: .info, location: .changePassword, message: "No \(url)"),
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

        let phone = try JSONDecoder().decode(
            Measured.self,
            from: try await BrowserDriver.evaluate(url: file.absoluteString, width: 390, expression: Self.measure))
        #expect(phone.width <= 390 && phone.cells >= 8, "\(phone)")
        #expect(phone.cut.isEmpty && phone.pageOverflow <= 0 && phone.heads == 0, "\(phone)")
        let desktop = try JSONDecoder().decode(
            Measured.self,
            from: try await BrowserDriver.evaluate(url: file.absoluteString, width: 1280, expression: Self.measure))
        #expect(desktop.heads >= 10 && desktop.cut.isEmpty && desktop.pageOverflow <= 0, "\(desktop)")
    }
}
