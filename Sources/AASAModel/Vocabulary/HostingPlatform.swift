/// The hosting platform, CDN or web server a domain's answer came from, recognised by the marks it
/// leaves in the response (`detect`, over the one table `marks`, which docs/findings.md is also
/// generated from), so that a finding's fix can name that platform's setting
/// (`AASAModel/Vocabulary/FindingCatalog+Platforms.swift`). Unknown ones keep the generic fix.
public enum HostingPlatform: String, Codable, Sendable, CaseIterable {
    case vercel
    case netlify
    case githubPages = "github-pages"
    case firebase
    case amazonS3 = "amazon-s3"
    case cloudfront
    case cloudflare
    case akamai
    case fastly
    // Self-hosted web servers and frameworks: recognised last, behind any CDN in front of them.
    case nextjs
    case express
    case nginx
    case apache
    case caddy
    case iis

    /// How people call it.
    public var name: String {
        switch self {
        case .vercel: "Vercel"
        case .netlify: "Netlify"
        case .githubPages: "GitHub Pages"
        case .firebase: "Firebase Hosting"
        case .amazonS3: "Amazon S3"
        case .cloudfront: "Amazon CloudFront"
        case .cloudflare: "Cloudflare"
        case .akamai: "Akamai"
        case .fastly: "Fastly"
        case .nextjs: "Next.js"
        case .express: "Node.js (Express)"
        case .nginx: "nginx"
        case .apache: "Apache httpd"
        case .caddy: "Caddy"
        case .iis: "Microsoft IIS"
        }
    }

    /// One mark a platform leaves in an answer.
    public struct Mark: Sendable {
        enum Place: Sendable {
            case header(String, KeyPath<ResponseHeaders, String?> & Sendable)
            /// The host name the domain is served under.
            case host
            /// The start of the answer's body (a default error page).
            case body
        }

        enum Test: Sendable {
            case present
            case equals(String)
            case prefix(String)
            case contains(String)
            case suffix(String)
        }

        let place: Place
        let test: Test

        /// How the documentation shows it: "`server: nginx…`".
        public var description: String {
            let value =
                switch test {
                case .present: ""
                case .equals(let text): text
                case .prefix(let text): text + "…"
                case .contains(let text): "…" + text + "…"
                case .suffix(let text): "*" + text
                }
            switch place {
            case .header(let name, _): return value.isEmpty ? "`\(name)`" : "`\(name): \(value)`"
            case .host: return "a `\(value)` host"
            case .body: return "a body with `\(value)`"
            }
        }

        func matches(_ headers: ResponseHeaders, host: String, body: String) -> Bool {
            let text: String? =
                switch place {
                case .header(_, let path): headers[keyPath: path]?.lowercased()
                case .host: host
                case .body: body
                }
            guard let text else { return false }
            switch test {
            case .present: return true
            case .equals(let value): return text == value.lowercased()
            case .prefix(let value): return text.hasPrefix(value.lowercased())
            case .contains(let value): return text.contains(value.lowercased())
            case .suffix(let value): return text.hasSuffix(value.lowercased())
            }
        }
    }

    private static func header(_ name: String, _ path: KeyPath<ResponseHeaders, String?> & Sendable, _ test: Mark.Test)
        -> Mark
    { Mark(place: .header(name, path), test: test) }

    /// Every mark, the most specific first: a site on Vercel or Netlify before the CDN they run
    /// on; S3 behind CloudFront as S3 (whose metadata sets the type), CloudFront before an S3
    /// request id; any CDN before the web server behind it; a framework before its server.
    public static let marks: [(platform: HostingPlatform, mark: Mark)] = [
        (.vercel, header("x-vercel-id", \.vercelID, .present)),
        (.vercel, header("server", \.server, .equals("Vercel"))),
        (.netlify, header("x-nf-request-id", \.netlifyRequestID, .present)),
        (.netlify, header("server", \.server, .prefix("Netlify"))),
        (.githubPages, header("x-github-request-id", \.githubRequestID, .present)),
        (.githubPages, header("server", \.server, .equals("GitHub.com"))),
        (.firebase, Mark(place: .host, test: .suffix(".web.app"))),
        (.firebase, Mark(place: .host, test: .suffix(".firebaseapp.com"))),
        (.firebase, header("server", \.server, .prefix("Firebase"))),
        (.amazonS3, header("server", \.server, .equals("AmazonS3"))),
        (.cloudfront, header("x-amz-cf-id", \.amzCFID, .present)),
        (.cloudfront, header("via", \.via, .contains("cloudfront"))),
        (.cloudfront, header("x-cache", \.xCache, .contains("cloudfront"))),
        (.amazonS3, header("x-amz-request-id", \.amzRequestID, .present)),
        (.cloudflare, header("cf-ray", \.cfRay, .present)),
        (.cloudflare, header("server", \.server, .equals("cloudflare"))),
        (.akamai, header("akamai-grn", \.akamaiGRN, .present)),
        (.akamai, header("server", \.server, .prefix("Akamai"))),
        (.fastly, header("x-served-by", \.servedBy, .prefix("cache-"))),
        (.fastly, header("via", \.via, .contains("varnish"))),
        (.nextjs, header("x-powered-by", \.xPoweredBy, .prefix("Next.js"))),
        (.express, header("x-powered-by", \.xPoweredBy, .prefix("Express"))),
        (.express, Mark(place: .body, test: .contains("<pre>Cannot GET /"))),
        (.nginx, header("server", \.server, .prefix("nginx"))),
        (.nginx, Mark(place: .body, test: .contains("<center>nginx"))),
        (.apache, header("server", \.server, .prefix("Apache"))),
        (.apache, Mark(place: .body, test: .contains("<address>Apache"))),
        (.caddy, header("server", \.server, .prefix("Caddy"))),
        (.iis, header("server", \.server, .prefix("Microsoft-IIS"))),
        (.iis, Mark(place: .body, test: .contains("<title>IIS "))),
    ]

    /// How many bytes of a body the marks look at: default error pages say who made them early.
    public static let bodyBytes = 2048

    /// The platform an answer came from (the first mark of `marks` it bears), or nil. `host` is
    /// the domain (Firebase's default hosts name it); `body` the answer's body, of which the
    /// first `bodyBytes` are read.
    public static func detect(_ headers: ResponseHeaders, host: String, body: [UInt8] = []) -> HostingPlatform? {
        let text = String(decoding: body.prefix(bodyBytes), as: UTF8.self).lowercased()
        return marks.first { $0.mark.matches(headers, host: host.lowercased(), body: text) }?.platform
    }
}
