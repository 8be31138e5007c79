import Foundation
import Testing

@testable import AASAModel

/// The hosting platform recognised from the headers it sends (recorded from real answers), and
/// its fix beside the generic one; unknown platforms keep the generic fix.
@Suite struct HostingPlatformTests {
    /// Headers answers of each platform carried ("name: value" lines), the host they answered
    /// for, and the platform they are from ("-" for none known).
    static let recorded: [String] = [
        "cloudflare | example.com | server: cloudflare | cf-ray: 8f1e2d3c4b5a6978-AMS",
        "amazon-s3 | example.com | server: AmazonS3 | x-amz-cf-id: Qx1b== | via: 1.1 1a2b.cloudfront.net (CloudFront) | x-cache: Miss from cloudfront",
        "cloudfront | example.com | x-amz-cf-id: Qx1b== | via: 1.1 1a2b.cloudfront.net (CloudFront) | server: nginx",
        "amazon-s3 | example.com | server: AmazonS3 | x-amz-request-id: 4Z7K2TQ9XW",
        "firebase | shop.web.app | x-served-by: cache-fra-etou8220123-FRA | x-cache: HIT",
        "vercel | example.com | server: Vercel | x-vercel-id: fra1::iad1::abcd-1700000000000-1234",
        "netlify | example.com | server: Netlify | x-nf-request-id: 01HZY3Q0T6X7",
        "github-pages | example.com | server: GitHub.com | x-github-request-id: A1B2:3C4D:5E6F:7A8B | via: 1.1 varnish | x-served-by: cache-fra-1",
        "akamai | example.com | server: AkamaiGHost | akamai-grn: 0.1a2b3c4d.1700000000.5e6f",
        "fastly | example.com | x-served-by: cache-lhr7321-LHR | via: 1.1 varnish",
        // Self-hosted servers and frameworks, behind no CDN.
        "nginx | example.com | server: nginx/1.22.1",
        "apache | example.com | server: Apache/2.4.57 (Debian)",
        "caddy | example.com | server: Caddy",
        "iis | example.com | server: Microsoft-IIS/10.0 | x-powered-by: ASP.NET",
        "express | example.com | x-powered-by: Express",
        "nextjs | example.com | x-powered-by: Next.js | cache-control: private, no-cache",
        "- | example.com | server: gws",
    ]

    /// Default error pages say who made them, when the headers do not (`server_tokens off`).
    static let errorPages: [(HostingPlatform, String)] = [
        (
            .nginx,
            "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>"
        ),
        (
            .apache,
            "<!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML 2.0//EN\">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<hr>\n<address>Apache/2.4.57 (Debian) Server at example.com Port 443</address>\n</body></html>"
        ),
        (
            .express,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET /.well-known/apple-app-site-association</pre>\n</body>\n</html>"
        ),
        (
            .iis,
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\">\n<html><head><title>IIS 10.0 Detailed Error - 404.3 - Not Found</title></head></html>"
        ),
    ]

    @Test(arguments: errorPages.indices)
    func recognisedByItsDefaultErrorPage(_ index: Int) {
        let (platform, page) = Self.errorPages[index]
        #expect(HostingPlatform.detect(ResponseHeaders(), host: "example.com", body: Array(page.utf8)) == platform)
    }

    /// Each server's concrete fix for the content type, redirects, a missing file and a file
    /// served under the wrong name; each with its documentation.
    @Test func selfHostedServersGetTheirOwnFixes() {
        func fix(_ platform: HostingPlatform, _ code: FindingCode, status: Int? = 404) -> String? {
            PlatformFixes.fix(code, on: platform, answer: ServedAnswer(status: status, servedAPage: false))
        }
        #expect(
            fix(.nginx, .aasa(.httpContentType))?.contains(
                "location = /.well-known/apple-app-site-association { types { } default_type application/json; }")
                == true)
        #expect(fix(.nginx, .aasa(.httpRedirect))?.contains("exact location") == true)
        #expect(fix(.nginx, .aasa(.httpStatus))?.contains("location ^~ /.well-known/") == true)
        #expect(fix(.nginx, .aasa(.locationMisnamed))?.contains("alias") == true)
        #expect(fix(.apache, .aasa(.httpContentType))?.contains("ForceType application/json") == true)
        #expect(fix(.apache, .aasa(.httpRedirect))?.contains("RewriteCond %{REQUEST_URI}") == true)
        #expect(fix(.apache, .aasa(.locationMisnamed))?.contains("Alias") == true)
        #expect(
            fix(.caddy, .aasa(.httpContentType))?.contains(
                "header /.well-known/apple-app-site-association Content-Type application/json") == true)
        #expect(
            fix(.iis, .aasa(.httpContentType))?.contains(#"<mimeMap fileExtension="." mimeType="application/json" />"#)
                == true
        )
        #expect(fix(.iis, .aasa(.httpStatus))?.contains("404.3") == true)
        #expect(fix(.express, .aasa(.httpContentType))?.contains("setHeaders") == true)
        #expect(fix(.express, .aasa(.httpStatus))?.contains("dotfiles: 'allow'") == true)
        #expect(fix(.nextjs, .aasa(.httpStatus))?.contains("public/.well-known/apple-app-site-association") == true)
        #expect(fix(.nextjs, .aasa(.httpContentType))?.contains("next.config.js") == true)
        for platform in [HostingPlatform.nginx, .apache, .caddy, .iis, .express, .nextjs] {
            for code in [FindingCode.aasa(.httpContentType), .aasa(.httpRedirect), .aasa(.httpStatus)] {
                #expect(fix(platform, code) != nil, "\(platform) \(code)")
            }
        }
    }

    @Test(arguments: recorded)
    func recognisedByItsMarks(_ line: String) {
        let fields = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        var headers = ResponseHeaders()
        for header in fields.dropFirst(2) {
            let parts = header.split(separator: ":", maxSplits: 1)
            headers.set(name: String(parts[0]), value: parts[1].trimmingCharacters(in: .whitespaces))
        }
        #expect(HostingPlatform.detect(headers, host: fields[1]) == HostingPlatform(rawValue: fields[0]))
    }

    @Test func eachPlatformGivesItsFixWhereItMattersAndUnknownOnesKeepTheGenericFix() {
        let type = Finding(
            code: .aasa(.httpContentType), severity: .warning, location: .wellKnown, message: "binary/octet-stream")
        func fix(_ platform: HostingPlatform?, _ finding: Finding = type, status: Int? = 200, page: Bool = false)
            -> String?
        {
            PlatformFixes.apply(
                [finding], platform: platform, answers: ["aasa": ServedAnswer(status: status, servedAPage: page)])[0]
                .platformFix?.fix
        }
        #expect(fix(.amazonS3)?.contains("--content-type application/json") == true)
        #expect(fix(.cloudflare)?.contains("Transform Rule") == true)
        #expect(fix(.firebase)?.contains("firebase.json") == true)
        #expect(fix(.vercel)?.contains("vercel.json") == true)
        #expect(fix(.netlify)?.contains("_headers") == true)
        #expect(fix(.githubPages)?.contains("lets no one set headers") == true)
        #expect(fix(.akamai)?.contains("Modify Outgoing Response Header") == true)
        #expect(fix(nil) == nil && fix(.fastly) == nil)
        let redirect = Finding(code: .aasa(.httpRedirect), severity: .error, location: .wellKnown, message: "308")
        #expect(fix(.vercel, redirect)?.contains("\"trailingSlash\": false") == true)
        let status = Finding(code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: "HTTP 403")
        #expect(fix(.cloudflare, status, status: 403)?.contains("Bot Fight Mode") == true)
        #expect(fix(.cloudflare, status, status: 404) == nil)
        #expect(fix(.amazonS3, status, status: 403)?.contains("AccessDenied") == true)
        #expect(fix(.githubPages, status, status: 404)?.contains(".nojekyll") == true)
        #expect(fix(.firebase, status, status: 404)?.contains("**/.*") == true)
        // A hosting hint explains a page answering in the file's place, never a syntax error in
        // the file itself (issue 56, item 2: a trailing comma got "an SPA fallback answers").
        let syntax = Finding(
            code: .aasa(.jsonInvalid), severity: .error, location: .wellKnown, message: "trailing comma")
        #expect(fix(.nginx, syntax) == nil)
        #expect(fix(.nginx, syntax, page: true)?.contains("try_files") == true)
        let blocked = Finding(code: .aasa(.uaBlocked), severity: .error, location: .wellKnown, message: "challenge")
        #expect(fix(.akamai, blocked)?.contains("Bot Manager") == true)
        // Every platform but Fastly (which a site configures in VCL of its own) has documentation.
        for platform in HostingPlatform.allCases where platform != .fastly {
            #expect(!PlatformFixes.documentation(platform).isEmpty)
        }
    }

    /// Every file gets its platform's fix, naming its own path and name (issue 57, item 2): the
    /// fixes are written per problem of how a file is served, not per AASA code.
    @Test func everyFileGetsItsPlatformsFixAtItsOwnPath() throws {
        let page = ServedAnswer(status: 404, servedAPage: true)
        for file in AssociationKinds.files {
            for platform in [HostingPlatform.nginx, .cloudflare, .apache, .nextjs] {
                let status = try #require(
                    file.codes(of: .status).first.flatMap { PlatformFixes.fix($0, on: .nginx, answer: page) })
                #expect(status.contains(file.path), "\(file.id) on nginx: \(status)")
                let redirect = try #require(
                    file.codes(of: .redirect).first.flatMap { PlatformFixes.fix($0, on: platform, answer: page) },
                    "\(file.id) on \(platform)")
                #expect(!redirect.isEmpty)
            }
            // Each file's codes are its own: no code is two files' problem.
            for problem in ServingProblem.allCases {
                for code in file.codes(of: problem) { #expect(ServedFile.file(of: code)?.file.id == file.id) }
            }
        }
        let windows = try #require(AssociationKinds.files.first { $0.id == "windows" })
        let type = try #require(
            PlatformFixes.fix(
                .windows(.contentType), on: .cloudflare, answer: ServedAnswer(status: 200, servedAPage: false)))
        #expect(type.contains("URI Path equals \(windows.path)"), "\(type)")
        // A name with an extension is typed by it: IIS's extensionless fix is not its.
        #expect(PlatformFixes.fix(.assetLinks(.contentType), on: .iis, answer: nil) == nil)
        #expect(PlatformFixes.fix(.aasa(.httpContentType), on: .iis, answer: nil) != nil)
        let s3 = try #require(PlatformFixes.fix(.assetLinks(.contentType), on: .amazonS3, answer: nil))
        #expect(s3.contains("aws s3 cp assetlinks.json s3://BUCKET/.well-known/assetlinks.json"), "\(s3)")
        // Who is refused is the file's client.
        let refused = try #require(
            PlatformFixes.fix(.harmony(.status), on: .cloudflare, answer: ServedAnswer(status: 403, servedAPage: false))
        )
        #expect(
            refused.contains("HarmonyOS' verifier") && refused.contains("/.well-known/applinking.json"), "\(refused)")
        // A syntax finding of a kind gets the hint only when a page answered in its place.
        #expect(
            PlatformFixes.fix(.windows(.jsonInvalid), on: .nginx, answer: ServedAnswer(status: 200, servedAPage: false))
                == nil)
        #expect(PlatformFixes.fix(.windows(.jsonInvalid), on: .nginx, answer: page)?.contains("try_files") == true)
        // A code that is no problem of how a file is served has no platform fix.
        #expect(PlatformFixes.fix(.windows(.packageName), on: .nginx, answer: page) == nil)
    }
}
