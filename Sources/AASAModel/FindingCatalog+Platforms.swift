/// The fix for the platform a site runs on (`HostingPlatform`), beside the catalog's generic
/// one, for the findings where platforms differ: the content type, redirects, bot blocking,
/// a missing file or a page served in its place. Pure; each platform's documentation is listed
/// in `documentation` (and in docs/findings.md). Beside the catalog, as its fixes are.
public enum PlatformFixes {
    /// The findings, each with its platform fix when `platform` has one for it. `status`: the
    /// `.well-known` answer's HTTP status, which tells a missing file from a refusal.
    public static func apply(_ findings: [Finding], platform: HostingPlatform?, status: Int?) -> [Finding] {
        guard let platform else { return findings }
        return findings.map { finding in
            guard let fix = fix(finding.code, on: platform, status: status) else { return finding }
            var fixed = finding
            fixed.platformFix = PlatformFix(platform: platform, fix: fix)
            return fixed
        }
    }

    /// When an entry applies beyond its platform and code.
    enum Condition {
        case always
        /// The answer refused Apple's bot (401, 403, 503, or a challenge page: `ua.blocked`).
        case refused
        /// HTTP 403.
        case forbidden
    }

    /// One fix: the platforms and codes it is for, and when.
    struct Entry {
        let platforms: [HostingPlatform]
        let codes: [FindingCode]
        var when = Condition.always
        let fix: String
    }

    static let path = AASALocation.wellKnown.path

    /// The fixes, the first that applies winning.
    static let entries: [Entry] = [
        Entry(
            platforms: [.cloudflare], codes: [.httpContentType],
            fix:
                "Set Content-Type at the origin, or add a Cloudflare Response Header Transform Rule (Rules > Transform Rules > Modify Response Header): when URI Path equals \(path), set Content-Type to application/json."
        ),
        Entry(
            platforms: [.cloudflare], codes: [.uaBlocked, .httpStatus], when: .refused,
            fix:
                "Cloudflare is challenging Apple's bot: turn off Bot Fight Mode (Security > Bots; its challenges cannot be skipped by rules), and add a WAF custom rule with the Skip action for URI Path equals \(path) so that managed rules and rate limits leave it alone."
        ),
        Entry(
            platforms: [.cloudflare], codes: [.httpRedirect],
            fix:
                "A Cloudflare Redirect Rule, Page Rule or Bulk Redirect sends this path elsewhere: exclude \(path) from it (add `and not http.request.uri.path eq \"\(path)\"` to the rule's expression)."
        ),
        Entry(
            platforms: [.amazonS3, .cloudfront], codes: [.httpContentType],
            fix:
                "S3 serves the Content-Type stored with the object, and a name without extension gets binary/octet-stream: upload it with the type, `aws s3 cp apple-app-site-association s3://BUCKET/.well-known/apple-app-site-association --content-type application/json`, then `aws cloudfront create-invalidation --distribution-id ID --paths '/.well-known/*'` when CloudFront is in front."
        ),
        Entry(
            platforms: [.amazonS3, .cloudfront], codes: [.httpStatus], when: .forbidden,
            fix:
                "S3 answers 403 (AccessDenied) for a key that does not exist when the caller may not list the bucket: upload the file at the key .well-known/apple-app-site-association (no .json), readable by the distribution (its Origin Access Control) or the public."
        ),
        Entry(
            platforms: [.cloudfront], codes: [.uaBlocked],
            fix:
                "An AWS WAF rule on the distribution (Bot Control, or a user-agent rule) refuses Apple's bot: add a rule before it that allows URI path \(path)."
        ),
        Entry(
            platforms: [.cloudfront], codes: [.httpRedirect],
            fix:
                "A CloudFront Function or the viewer protocol policy redirects this path: serve \(path) over HTTPS without a redirect (exclude the path from the function), on this exact host."
        ),
        Entry(
            platforms: [.firebase], codes: [.httpContentType],
            fix:
                #"In firebase.json, under "hosting": "headers": [{"source": "/.well-known/apple-app-site-association", "headers": [{"key": "Content-Type", "value": "application/json"}]}], then firebase deploy."#
        ),
        Entry(
            platforms: [.firebase], codes: [.httpStatus, .jsonInvalid, .jsonNotObject],
            fix:
                #"Firebase Hosting's default "ignore" list has "**/.*", which leaves the .well-known folder out of every deploy, and a "**" rewrite then serves index.html in its place: remove "**/.*" from "hosting"."ignore" in firebase.json (or list the file explicitly), keep the file in the public folder, then firebase deploy."#
        ),
        Entry(
            platforms: [.vercel], codes: [.httpRedirect],
            fix:
                #"Vercel's "trailingSlash": true redirects the file's URL to one ending in /: set "trailingSlash": false (or leave it out) in vercel.json, or serve the file from a route that is not redirected; a redirect in "redirects" must not match this path either."#
        ),
        Entry(
            platforms: [.vercel], codes: [.httpContentType],
            fix:
                #"In vercel.json: "headers": [{"source": "/.well-known/apple-app-site-association", "headers": [{"key": "Content-Type", "value": "application/json"}]}]."#
        ),
        Entry(
            platforms: [.vercel], codes: [.httpStatus, .jsonInvalid],
            fix:
                "Put the file in public/.well-known/apple-app-site-association (Next.js and most frameworks serve public/ as is); a catch-all rewrite or page must not answer this path."
        ),
        Entry(
            platforms: [.netlify], codes: [.httpContentType],
            fix:
                "In the _headers file of the publish folder: a line `/.well-known/apple-app-site-association` and under it `  Content-Type: application/json` (or a [[headers]] block in netlify.toml)."
        ),
        Entry(
            platforms: [.netlify], codes: [.httpRedirect, .jsonInvalid],
            fix:
                "A _redirects or netlify.toml rule catches this path (a forced rule with !, or an SPA fallback `/* /index.html 200` when the file is not deployed): put the file in the publish folder at .well-known/apple-app-site-association and add `/.well-known/*  /.well-known/:splat  200` above the catch-all."
        ),
        Entry(
            platforms: [.netlify], codes: [.httpStatus],
            fix:
                "Put the file in the publish folder at .well-known/apple-app-site-association (check the deploy's file list)."
        ),
        Entry(
            platforms: [.githubPages], codes: [.httpStatus],
            fix:
                "GitHub Pages builds with Jekyll, which leaves out folders that start with a dot: add an empty .nojekyll file at the site's root, or `include: [\".well-known\"]` to _config.yml."
        ),
        Entry(
            platforms: [.githubPages], codes: [.httpContentType],
            fix:
                "GitHub Pages sets Content-Type from the file's extension and lets no one set headers, and this file has none: put a CDN that can set headers in front (a Cloudflare Transform Rule), or serve the domain from a host that can."
        ),
        Entry(
            platforms: [.githubPages], codes: [.httpRedirect],
            fix:
                "GitHub Pages redirects between the apex and www (and to the custom domain): audit and serve the file on the exact host the app's entitlement names."
        ),
        Entry(
            platforms: [.akamai], codes: [.uaBlocked, .httpStatus], when: .refused,
            fix:
                "Akamai Bot Manager or a WAF rule refuses Apple's bot: add a match on path \(path) to the Bot Manager exceptions (or the security configuration's allow list) so that AASA-Bot is not challenged."
        ),
        Entry(
            platforms: [.akamai], codes: [.httpContentType],
            fix:
                "In Property Manager, a rule matching path \(path) with the Modify Outgoing Response Header behavior: set Content-Type to application/json."
        ),
    ]

    /// What a platform's user types for a finding; nil where the generic fix is all there is.
    public static func fix(_ code: FindingCode, on platform: HostingPlatform, status: Int?) -> String? {
        let refused = status == 403 || status == 401 || status == 503 || code == .uaBlocked
        return entries.first { entry in
            guard entry.platforms.contains(platform), entry.codes.contains(code) else { return false }
            switch entry.when {
            case .always: return true
            case .refused: return refused
            case .forbidden: return status == 403
            }
        }?.fix
    }

    /// Each platform's documentation for these settings.
    public static func documentation(_ platform: HostingPlatform) -> [String] {
        switch platform {
        case .cloudflare:
            [
                "https://developers.cloudflare.com/rules/transform/response-header-modification/",
                "https://developers.cloudflare.com/bots/get-started/bot-fight-mode/",
                "https://developers.cloudflare.com/waf/custom-rules/skip/",
            ]
        case .amazonS3, .cloudfront:
            [
                "https://docs.aws.amazon.com/AmazonS3/latest/userguide/UsingMetadata.html",
                "https://docs.aws.amazon.com/cli/latest/reference/s3/cp.html",
                "https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/Invalidation.html",
            ]
        case .firebase:
            [
                "https://firebase.google.com/docs/hosting/full-config#ignore",
                "https://firebase.google.com/docs/hosting/full-config#headers",
            ]
        case .vercel:
            [
                "https://vercel.com/docs/project-configuration#trailingslash",
                "https://vercel.com/docs/project-configuration#headers",
            ]
        case .netlify:
            ["https://docs.netlify.com/routing/headers/", "https://docs.netlify.com/routing/redirects/"]
        case .githubPages:
            [
                "https://docs.github.com/en/pages/getting-started-with-github-pages/about-github-pages#static-site-generators"
            ]
        case .akamai:
            ["https://techdocs.akamai.com/property-mgr/docs/modify-outgoing-response-header"]
        case .fastly:
            []
        }
    }
}
