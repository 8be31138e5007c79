import AASAAudit
import AASAFetch
import AASAModel
import Foundation
import TestSupport

/// A loopback world: one HTTPS server answering for many hosts under `aasa.test`, each
/// behaving as its first label says, and a CA file to trust it.
public final class TestWorld: Sendable {
    public static let appID = "ABCDE12346.com.example.app"
    public static let validFile =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"/buy/*"}]}]},"webcredentials":{"apps":["ABCDE12346.com.example.app"]}}"#

    /// An `assetlinks.json` that declares com.example.app (`android*` hosts serve it, and no AASA).
    public static let androidPackage = "com.example.app"
    public static let validAssetLinks =
        #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["14:75:DE:2A:57:E9:3B:8C:61:D4:0F:A2:93:C7:5E:18:B6:04:29:FD:7A:83:E0:5C:36:9B:C1:4E:D8:72:0A:65"]}}]"#

    public let server: LoopbackServer
    public let directory: TemporaryDirectory
    public let caFile: String
    /// The CA the world's servers are issued by (and `caFile` trusts).
    public let pki: TestPKI

    /// `certificateExpires`: when the server's certificate stops being valid (90 days on).
    public init(certificateExpires: Date = Date().addingTimeInterval(86400 * 90)) throws {
        let ca = try TrustedTestCA()
        (pki, directory, caFile) = (ca.pki, ca.directory, ca.caFile)
        server = try LoopbackServer(
            identity: try pki.issueServerIdentity(for: ["*.aasa.test"], validUntil: certificateExpires),
            agentScript: Self.answer)
    }

    deinit {
        server.shutdown()
        directory.remove()
    }

    /// A fake of Apple's CDN at cdn.aasa.test/a/v1/HOST: the origin's file for most hosts, an
    /// older file for stale*, no copy (with Apple's headers) for nocdn*.
    public static let cdnBase = "https://cdn.aasa.test/a/v1/"
    public static let olderFile =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.old"],"components":[{"/":"*"}]}]}}"#

    public static func answerAsCDN(host: String) -> ScriptedResponse {
        let kind = String(host.prefix { $0 != "." }.prefix { !$0.isNumber })
        switch kind {
        case "stale": return .json(olderFile)
        // A CDN answer whose caching headers overflow naive arithmetic (issue 36, item 2).
        case "hostilecdn":
            return .respond(
                status: 404,
                headers: [
                    ("Cache-Control", "max-age=99999999999999999999"), ("Age", "-9223372036854775808"),
                    ("Date", "Tue, 24 Nov 99999999999999 02:40:00 GMT"),
                ], body: [])
        case "nocdn":
            return .respond(
                status: 404, headers: [("Apple-Failure-Reason", "SWCERR00301 Timeout"), ("Apple-Try-Direct", "true")],
                body: [])
        default: return answer(host: host, path: AASALocation.wellKnown.path)
        }
    }

    /// The behaviour of a host, by its first label (before any digits).
    public static func answer(host: String, path: String, userAgent: String?) -> ScriptedResponse {
        if host == "cdn.aasa.test", path.hasPrefix("/a/v1/") { return answerAsCDN(host: String(path.dropFirst(6))) }
        if host.hasPrefix("botblock"), userAgent?.contains("AASA-Bot") == true {
            return .status(403, body: "<h1>Access denied</h1>")
        }
        // The reverse: Apple's bot gets the file, a browser is refused.
        if host.hasPrefix("browserblock"), userAgent?.contains("Safari") == true {
            return .status(403, body: "<h1>Access denied</h1>")
        }
        // Bot protection that answers Apple's bot with a 200 challenge page.
        if host.hasPrefix("challenge"), userAgent?.contains("AASA-Bot") == true {
            return .respond(
                status: 200, headers: [("Content-Type", "text/html")],
                body: Array("<html><body>Checking your browser…</body></html>".utf8))
        }
        return answer(host: host, path: path)
    }

    /// A passkeys site's `/.well-known/passkey-endpoints`: two pages that answer (one after a
    /// redirect) and one that does not.
    public static let passkeyEndpointsFile =
        #"{"enroll": "https://passkeys.aasa.test/passkeys/new", "manage": "https://passkeys.aasa.test/account", "prfUsageDetails": "https://passkeys.aasa.test/gone"}"#

    /// A passkeys site's `/.well-known/webauthn`: it allows `shop.example`.
    public static let webauthnFile = #"{"origins": ["https://shop.example", "https://example.co.uk"]}"#

    /// The AASA of a site whose app opens links but shares no credentials (no webcredentials).
    public static let applinksOnlyFile =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"/buy/*"}]}]}}"#
    /// An `assetlinks.json` that also shares the site's passkeys and passwords with the app.
    public static let loginSharingAssetLinks = validAssetLinks.replacingOccurrences(
        of: #"["delegate_permission/common.handle_all_urls"]"#,
        with: #"["delegate_permission/common.handle_all_urls","delegate_permission/common.get_login_creds"]"#)
    public static let changePasswordPath = "/.well-known/change-password"

    /// A team's passkeys site as it declares it (`APPID android:PACKAGE passkeys`): passkeysapp
    /// serves every file right (no webauthn: one origin), passkeysweb forgets both apps' parts.
    public static func passkeysSite(_ kind: String, host: String, path: String) -> ScriptedResponse {
        let right = kind == "passkeysapp"
        switch path {
        case AASALocation.wellKnown.path: return .json(right ? validFile : applinksOnlyFile)
        case AASALocation.assetlinks.path: return .json(right ? loginSharingAssetLinks : validAssetLinks)
        case AASALocation.passkeyEndpoints.path: return .json("{}")
        case changePasswordPath: return .redirect(right ? 302 : 301, to: "https://\(host)/account/password")
        case "/account/password":
            return right
                ? .respond(
                    status: 200, headers: [("Content-Type", "text/html")], body: Array("<h1>Change password</h1>".utf8))
                : .status(500, body: "<h1>Error</h1>")
        default: return .status(404, body: "<h1>Not Found</h1>")
        }
    }

    /// A Windows app (Microsoft's example's package family name) and its `windows-app-web-link`.
    public static let windowsApp = "MyApp_9jmtgj1pbbz6e"
    public static let windowsFile =
        #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"], "excludePaths": ["/news/*", "/blog/*"]}]"#
    /// A HarmonyOS app and its `applinking.json`.
    public static let harmonyApp = "5765880207854972765"
    public static let harmonyFile = #"{"applinking": {"apps": [{"appIdentifier": "5765880207854972765", "index": 1}]}}"#

    /// Windows-only and HarmonyOS-only sites (no AASA): windows serves its file at /.well-known/,
    /// windowsroot only at the root, windowsdiffer two different files; harmony its file,
    /// harmonyblog the shape blog posts copy.
    public static func otherPlatformSite(_ kind: String, path: String) -> ScriptedResponse {
        let windowsAtWellKnown = ["windows", "windowsdiffer"].contains(kind) && path == AASALocation.windows.path
        let windowsAtRoot = ["windowsroot", "windowsdiffer"].contains(kind) && path == WindowsLimits.rootPath
        if windowsAtWellKnown || windowsAtRoot {
            return .json(
                kind == "windowsdiffer" && windowsAtRoot
                    ? windowsFile.replacingOccurrences(of: "\"*\"", with: "\"/shop/*\"") : windowsFile)
        }
        if path == AASALocation.harmony.path {
            if kind == "harmony" { return .json(harmonyFile) }
            if kind == "harmonyblog" { return .json(#"{"app_id": "5765880207854972765"}"#) }
        }
        return .status(404, body: "<h1>Not Found</h1>")
    }

    public static func answer(host: String, path: String) -> ScriptedResponse {
        let kind = String(host.prefix { $0 != "." }.prefix { !$0.isNumber })
        let wellKnown = path == AASALocation.wellKnown.path
        if kind.hasPrefix("windows") || kind.hasPrefix("harmony") { return otherPlatformSite(kind, path: path) }
        if kind == "passkeysapp" || kind == "passkeysweb" { return passkeysSite(kind, host: host, path: path) }
        // A single-page app that answers every path with its page, /.well-known/ included.
        if kind == "spa" {
            return .respond(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
                body: Array("<!doctype html><div id=\"root\"></div><script src=\"/app.js\"></script>".utf8))
        }
        // Passkeys sites: their webauthn file (or a redirect to it), the good AASA besides.
        if kind.hasPrefix("passkeys") {
            switch path {
            case AASALocation.passkeyEndpoints.path:
                return kind == "passkeysmoved"
                    ? .redirect(301, to: "https://passkeys.aasa.test\(path)") : .json(passkeyEndpointsFile)
            case "/account": return .redirect(302, to: "https://\(host)/account/passkeys")
            case "/gone": return .status(404, body: "<h1>Not Found</h1>")
            case changePasswordPath: return .redirect(302, to: "https://\(host)/account/password")
            default: break
            }
        }
        if path == AASALocation.webauthn.path {
            switch kind {
            case "passkeys": return .json(webauthnFile)
            case "passkeysmoved": return .redirect(302, to: "https://passkeys.aasa.test\(path)")
            case "passkeysplain": return .redirect(302, to: "http://passkeys.aasa.test\(path)")
            default: break
            }
        }
        switch kind {
        case "passkeys", "passkeysmoved", "passkeysplain": return .json(validFile)
        case "good", "stale", "nocdn", "hostilecdn", "botblock", "browserblock", "challenge": return .json(validFile)
        case "chunked":
            return .respond(
                status: 200, headers: [("Content-Type", "application/json")], body: Array(validFile.utf8), chunked: true
            )
        case "redirect":
            return wellKnown
                ? .redirect(301, to: "https://www.\(host)\(path)") : .redirect(301, to: "https://www.\(host)\(path)")
        case "missing": return .status(404, body: "<h1>Not Found</h1>")
        // An Android-only site: its assetlinks.json, and no AASA.
        case "android":
            return path == "/.well-known/assetlinks.json"
                ? .json(validAssetLinks) : .status(404, body: "<h1>Not Found</h1>")
        case "hang": return .hang
        case "dotjson":
            // Uploaded as apple-app-site-association.json.
            return path == AASALocation.wellKnown.path + ".json" ? .json(validFile) : .status(404)
        case "rootonly": return wellKnown ? .status(404) : .json(validFile)
        case "textplain": return .json(validFile, contentType: "text/plain")
        // A self-hosted nginx that types the extensionless file as text/plain, and an Express app
        // whose static handler ignores dot folders (its default error page, no Server header).
        case "nginxplain":
            return .respond(
                status: 200, headers: [("Content-Type", "text/plain"), ("Server", "nginx/1.22.1")],
                body: Array(validFile.utf8))
        case "expressapp":
            return .respond(
                status: 404, headers: [("Content-Type", "text/html; charset=utf-8"), ("X-Powered-By", "Express")],
                body: Array(
                    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET \(path)</pre>\n</body>\n</html>\n"
                        .utf8))
        case "sthree":
            // As Amazon S3 answers for an object uploaded without a type.
            return .respond(
                status: 200,
                headers: [
                    ("Content-Type", "binary/octet-stream"), ("Server", "AmazonS3"), ("x-amz-request-id", "4Z7K2TQ9XW"),
                ], body: Array(validFile.utf8))
        case "big":
            return .json(#"{"applinks":{"details":[]},"pad":""# + "\"" + String(repeating: "x", count: 200_000) + "\"}")
        case "empty": return .respond(status: 200, headers: [("Content-Type", "application/json")], body: [])
        case "badjson": return .json("{\n  \"applinks\": {\"details\": [],}\n}")
        case "otherapp": return .json(validFile.replacingOccurrences(of: "com.example.app", with: "com.example.other"))
        case "hostile":
            return wellKnown
                ? .respond(
                    status: 200,
                    headers: [
                        ("Content-Type", "text/html<script>alert(1)</script>"),
                        ("Server", "<img src=x onerror=alert(2)>"),
                    ],
                    body: Array("<script>alert(3)</script>".utf8))
                : .redirect(302, to: "https://\(host)/<script>alert(7)</script>")
        default: return .status(500)
        }
    }

    public var connectTo: String { server.connectTo }

    /// An audit of domains.txt into `out` (the world's `reports` folder by default).
    public func auditSettings(out: URL? = nil, timeout: Double = 60) -> AuditSettings {
        AuditSettings(
            inputFiles: ["domains.txt"], outputDirectory: out ?? directory.url.appendingPathComponent("reports"),
            concurrency: 4, fetcher: fetcherConfiguration(timeout: timeout), failOn: .error)
    }

    public func fetcherConfiguration(timeout: Double = 10, concurrency: Int = 8) -> FetcherConfiguration {
        FetcherConfiguration(
            timeoutSeconds: timeout, userAgent: "aasa-audit-tests", connectTo: [connectTo], caCertFile: caFile,
            addressPolicy: .testServers, expectedConcurrency: concurrency)
    }
}

extension AddressPolicy {
    /// The loopback networks the test servers listen on, allowed explicitly.
    public static let testServers = AddressPolicy(allowing: LoopbackNetworks.all.compactMap(IPNetwork.init))
}
