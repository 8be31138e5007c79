/// The hosting platform or CDN a domain's answer came from, recognised by the marks it leaves
/// in the response (`detect`), so that a finding's fix can name that platform's setting
/// (`AASAModel/FindingCatalog+Platforms.swift`). Unknown platforms keep the generic fix.
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
        }
    }

    /// The platform an answer came from, the most specific first (a site on Vercel or Netlify
    /// before the CDN they run on; S3 behind CloudFront as S3, whose metadata sets the type);
    /// nil when no mark is known. `host` is the domain (Firebase's default hosts name it).
    public static func detect(_ headers: ResponseHeaders, host: String) -> HostingPlatform? {
        let server = headers.server?.lowercased() ?? ""
        let via = headers.via?.lowercased() ?? ""
        let cache = headers.xCache?.lowercased() ?? ""
        if headers.vercelID != nil || server == "vercel" { return .vercel }
        if headers.netlifyRequestID != nil || server.hasPrefix("netlify") { return .netlify }
        if headers.githubRequestID != nil || server == "github.com" { return .githubPages }
        if host.hasSuffix(".web.app") || host.hasSuffix(".firebaseapp.com") || server.hasPrefix("firebase") {
            return .firebase
        }
        if server == "amazons3" { return .amazonS3 }
        if headers.amzCFID != nil || via.contains("cloudfront") || cache.contains("cloudfront") { return .cloudfront }
        if headers.amzRequestID != nil { return .amazonS3 }
        if headers.cfRay != nil || server == "cloudflare" { return .cloudflare }
        if headers.akamaiGRN != nil || server.hasPrefix("akamai") { return .akamai }
        if headers.servedBy?.lowercased().hasPrefix("cache-") == true || via.contains("varnish") { return .fastly }
        return nil
    }
}
