import AASAChecks
import AASAModel
import Foundation
import Testing

/// What will break soon: the host's TLS certificate expiring within the warning window.
@Suite struct CertificateExpiryTests {
    /// 2026-11-24 03:15:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_490_100)

    func record(_ location: AASALocation, expiresIn days: Double?) -> FetchRecord {
        var record = FetchRecord(location: location, url: "https://example.com\(location.path)")
        record.certificateExpires = days.map { Self.now.addingTimeInterval($0 * 86_400) }
        return record
    }

    @Test func aCertificateExpiringWithinTheWindowIsAWarningWithItsDate() throws {
        let findings = CertificateExpiry.findings(
            [record(.wellKnown, expiresIn: 10), record(.root, expiresIn: 10)], host: "example.com", now: Self.now,
            warningDays: 21)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.code == .aasa(.tlsExpiring) && finding.severity == .warning)
        #expect(finding.location == FindingLocation(.wellKnown))
        #expect(
            finding.message.hasPrefix(
                "A TLS certificate of example.com's chain expires on 2026-12-04 at 03:15 UTC, in 10 days (the warning starts 21 days ahead"
            ), "\(finding.message)")
    }

    @Test func theEarliestOfTheHostsCertificatesCountsAndApplesCDNDoesNot() throws {
        // Two servers behind one name, one renewed and one not: the older one breaks first.
        let finding = try #require(
            CertificateExpiry.findings(
                [record(.wellKnown, expiresIn: 80), record(.root, expiresIn: 3), record(.cdn, expiresIn: 1)],
                host: "example.com", now: Self.now, warningDays: 21
            ).first)
        #expect(finding.location == FindingLocation(.root))
        #expect(finding.message.contains("2026-11-27") && finding.message.contains("in 3 days"))
        // Apple's CDN is Apple's certificate.
        #expect(
            CertificateExpiry.findings(
                [record(.cdn, expiresIn: 1)], host: "example.com", now: Self.now, warningDays: 21
            ).isEmpty)
        #expect(
            CertificateExpiry.earliest(
                [record(.cdn, expiresIn: 1), record(.wellKnown, expiresIn: nil)], host: "example.com") == nil)
    }

    /// A file another host serves (an assetlinks.json include) is on that host's certificate:
    /// its expiry is not the domain's (issue 36, item 8).
    @Test func anotherHostsCertificateIsNotTheDomains() {
        var include = FetchRecord(location: .assetlinks, url: "https://other.example:8443/.well-known/assetlinks.json")
        include.certificateExpires = Self.now.addingTimeInterval(2 * 86_400)
        let fetches = [record(.wellKnown, expiresIn: 80), include]
        #expect(CertificateExpiry.findings(fetches, host: "example.com", now: Self.now, warningDays: 21).isEmpty)
        #expect(CertificateExpiry.earliest(fetches, host: "example.com")?.location == .wellKnown)
        #expect(CertificateExpiry.earliest(fetches, host: "other.example")?.location == .assetlinks)
    }

    @Test func theWindowIsTheTeamsChoice() {
        let fetches = [record(.wellKnown, expiresIn: 10)]
        #expect(CertificateExpiry.findings(fetches, host: "example.com", now: Self.now, warningDays: 10).isEmpty)
        #expect(CertificateExpiry.findings(fetches, host: "example.com", now: Self.now, warningDays: 11).count == 1)
        #expect(CertificateExpiry.findings(fetches, host: "example.com", now: Self.now, warningDays: 0).isEmpty)
        #expect(
            CertificateExpiry.findings(
                [record(.wellKnown, expiresIn: nil)], host: "example.com", now: Self.now, warningDays: 21
            ).isEmpty)
    }

    @Test func theLastHoursAndAnExpiredCertificateAreSaidAsSuch() throws {
        let hours = try #require(
            CertificateExpiry.findings(
                [record(.wellKnown, expiresIn: 0.5)], host: "example.com", now: Self.now, warningDays: 21
            ).first)
        #expect(hours.message.contains("in 12 hours"), "\(hours.message)")
        let expired = try #require(
            CertificateExpiry.findings(
                [record(.wellKnown, expiresIn: -1)], host: "example.com", now: Self.now, warningDays: 21
            ).first)
        #expect(expired.message.contains("expired on 2026-11-23 at 03:15 UTC"), "\(expired.message)")
    }

    @Test func utcDatesRoundTripOverCenturiesAndLeapDays() {
        for year in [1969, 1970, 1999, 2000, 2024, 2026, 2100, 2400] {
            for (month, day) in [(1, 1), (2, 28), (2, 29), (3, 1), (12, 31)] {
                if month == 2, day == 29, !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) { continue }
                let seconds = UTCCalendar.days(year, month, day) * 86_400 + 3_723
                #expect(UTCCalendar.civil(seconds) == (year, month, day), "\(year)-\(month)-\(day)")
            }
        }
        #expect(UTCCalendar.date(1_795_490_100) == "2026-11-24" && UTCCalendar.clock(1_795_490_100) == "03:15")
        #expect(UTCCalendar.date(-1) == "1969-12-31")
    }
}
