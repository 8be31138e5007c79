import AASAAudit
import AASAFetch
import AASAModel
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// Windows (`windows-app-web-link`) and HarmonyOS (`applinking.json`) on a loopback world, as a
/// team declares them (`HOST ios:none windows:PFN`, `HOST ios:none harmony:ID`): both of Windows'
/// places read and compared, the blog posts' HarmonyOS shape refused, and a domain that declares
/// neither asked for neither.
@Suite(.live, .tags(.live)) struct OtherPlatformsAuditTests {
    func audit(_ host: String, windows: [String] = [], harmony: [String] = [], ios: Bool = false) async throws
        -> DomainReport
    {
        let world = try TestWorld()
        let fetcher = try Fetcher(configuration: world.fetcherConfiguration(timeout: 60))
        defer { fetcher.shutdown() }
        var target = DomainTarget(domain: host)
        if !ios { target.aasa = nil }
        if !windows.isEmpty { target.wants.insert(try WindowsWant.parsing(windows)) }
        if !harmony.isEmpty { target.wants.insert(try HarmonyWant.parsing(harmony)) }
        return await DomainAuditor(fetcher: fetcher).audit(target).report
    }

    func codes(_ report: DomainReport) -> [String] { report.findings.map(\.code.rawValue) }

    @Test func aWindowsOnlyDomainIsAuditedAtBothPlaces() async throws {
        let good = try await audit("windows.aasa.test", windows: [TestWorld.windowsApp])
        #expect(good.verdict == .pass, "\(codes(good))")
        #expect(good.associations.windows?.entries.map(\.packageFamilyName) == [TestWorld.windowsApp])
        #expect(good.associations.windows?.servedAt == AASALocation.windows.path)
        #expect(
            good.fetches.map(\.url) == [
                "https://windows.aasa.test/.well-known/windows-app-web-link",
                "https://windows.aasa.test/windows-app-web-link",
            ])
        #expect(LinkPlatform.of(ios: good.ios, audited: good.associations.kinds) == [.windows])

        let root = try await audit("windowsroot.aasa.test", windows: [TestWorld.windowsApp])
        #expect(root.verdict == .pass && root.associations.windows?.servedAt == WindowsLimits.rootPath)

        let differ = try await audit("windowsdiffer.aasa.test", windows: [TestWorld.windowsApp])
        #expect(codes(differ) == ["windows.differ"])

        let other = try await audit("windows.aasa.test", windows: ["Contoso.App_8wekyb3d8bbwe"])
        #expect(codes(other) == ["windows.app-missing"])
        #expect(other.verdict == .fail)

        let none = try await audit("missing.aasa.test", windows: [TestWorld.windowsApp])
        #expect(codes(none) == ["windows.missing"])
    }

    @Test func aHarmonyOSOnlyDomainIsAuditedAndTheBlogShapeRefused() async throws {
        let good = try await audit("harmony.aasa.test", harmony: [TestWorld.harmonyApp])
        #expect(good.verdict == .pass, "\(codes(good))")
        #expect(good.associations.harmony?.apps == [.init(appIdentifier: TestWorld.harmonyApp, index: 1)])

        let blog = try await audit("harmonyblog.aasa.test", harmony: [TestWorld.harmonyApp])
        #expect(codes(blog) == ["harmony.shape"])
        #expect(blog.findings[0].message.contains("appIdentifier"), "the fix gives the right shape")

        let none = try await audit("missing.aasa.test", harmony: [TestWorld.harmonyApp])
        #expect(codes(none) == ["harmony.status"])
    }

    /// A domain that declares neither kind makes no request for either file.
    @Test func aDomainThatDeclaresNeitherIsAskedForNeither() async throws {
        let world = try TestWorld()
        let fetcher = try Fetcher(configuration: world.fetcherConfiguration(timeout: 60))
        defer { fetcher.shutdown() }
        _ = await DomainAuditor(fetcher: fetcher).audit(DomainTarget(domain: "good.aasa.test")).report
        let paths = Set(world.server.requests.map(\.path))
        #expect(paths == [AASALocation.wellKnown.path, AASALocation.root.path], "\(paths)")
    }
}
