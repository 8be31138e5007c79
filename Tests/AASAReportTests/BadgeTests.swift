import AASAModel
import AASAReport
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A verdict's badge: well-formed SVG that says it in words (for screen readers too), and
/// shields.io's endpoint JSON.
@Suite struct BadgeTests {
    final class Texts: NSObject, XMLParserDelegate {
        var texts: [String] = []
        var elements: [String] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) { elements.append(name) }
        func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }
    }

    @Test(arguments: [Verdict.pass, .warn, .fail, nil])
    func eachVerdictIsAWellFormedBadgeThatSaysIt(verdict: Verdict?) throws {
        let badge = Badge(verdict: verdict)
        let svg = badge.svg
        let parser = XMLParser(data: Data(svg.utf8))
        let texts = Texts()
        parser.delegate = texts
        #expect(parser.parse(), "\(svg)")
        let message = Badge.look(verdict).message
        #expect(texts.elements.first == "svg" && texts.elements.filter { $0 == "text" }.count == 2)
        #expect(texts.texts.joined().contains(message))
        #expect(svg.contains(#"aria-label="universal links: \#(message)""#))
        let endpoint = try #require(try JSONSerialization.jsonObject(with: Data(badge.shields)) as? [String: Any])
        #expect(endpoint["schemaVersion"] as? Int == 1 && endpoint["message"] as? String == message)
        #expect(
            endpoint["label"] as? String == "universal links"
                && endpoint["color"] as? String == Badge.look(verdict).color)
    }

    /// A badge names the platforms its verdict speaks for (issue 47, item 2: an Android-only
    /// domain's said "universal links"), and the history spells them back the same.
    @Test func theLabelNamesThePlatforms() throws {
        let cases: [([LinkPlatform], String)] = [
            ([.ios], "universal links"), ([.android], "app links"), ([.ios, .android], "iOS+Android"),
            ([.passkeys], "passkeys"), ([.ios, .passkeys], "iOS+passkeys"),
        ]
        for (platforms, label) in cases {
            let badge = Badge(verdict: .pass, platforms: platforms)
            #expect(badge.label == label && badge.svg.contains(#"aria-label="\#(label): pass""#))
            let key = LinkPlatform.historyKey(platforms)
            #expect(LinkPlatform.platforms(historyKey: key) == platforms)
        }
        #expect(LinkPlatform.historyKey([.ios]) == nil, "the default is not written")
        #expect(LinkPlatform.platforms(historyKey: "symbian") == nil)
        #expect(LinkPlatform.of(ios: AASAWant.iosNone, audited: [.androidAppLinks]) == [.android])
    }

    /// A domain that declares passkeys is named so, as is one whose AASA is held for
    /// webcredentials alone (it said "universal links"); a domain of every kind has a badge a
    /// README can hold (its label was 587 px wide) (issue 56).
    @Test func passkeysAreNamedAndEveryKindFitsABadge() throws {
        let webCredentials = [AssociatedService(service: .webcredentials, file: "App.entitlements")]
        #expect(LinkPlatform.of(ios: nil, audited: [], services: webCredentials) == [.passkeys])
        #expect(
            LinkPlatform.of(ios: nil, audited: [.passkeyEndpoints, .webauthn], services: webCredentials) == [.passkeys])
        let both = webCredentials + [AssociatedService(service: .applinks, file: "App.entitlements")]
        #expect(LinkPlatform.of(ios: nil, audited: [.passkeyEndpoints], services: both) == [.ios, .passkeys])
        #expect(LinkPlatform.of(ios: nil, audited: [.webauthn]) == [.ios, .passkeys])

        let every = LinkPlatform.of(ios: nil, audited: AssociationKinds.all)
        #expect(
            Set(every.map(\.rawValue)) == ["ios", "android", "windows", "harmony", "passkeys", "applepay", "webapp"])
        let badge = Badge(verdict: .warn, platforms: every)
        #expect(badge.label == "iOS+Android+passkeys+Windows+3 more", "\(badge.label)")
        #expect(Badge(verdict: .warn, platforms: every.dropLast(2)).label == "iOS+Android+passkeys+Windows+HarmonyOS")
        let width = try #require(badge.svg.firstMatch(of: /width="(\d+)"/).flatMap { Int($0.1) })
        #expect(width <= 320, "\(width) px")
        #expect(LinkPlatform.platforms(historyKey: LinkPlatform.historyKey(every)) == every)
    }
}
