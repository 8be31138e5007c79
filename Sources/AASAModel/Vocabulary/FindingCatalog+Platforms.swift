/// The fix for the platform a site runs on (`HostingPlatform`), beside the catalog's generic
/// one, for the findings where platforms differ: the content type, redirects, bot blocking,
/// a missing file or a page served in its place. Pure; each platform's documentation is listed
/// in `documentation` (and in docs/findings.md). Beside the catalog, as its fixes are.
public enum PlatformFixes {
    /// The findings, each with its platform fix when `platform` has one for it. `status`: the
    /// `.well-known` answer's HTTP status, which tells a missing file from a refusal.
    /// - Parameter servedAPage: the file's place answered with a web page (an SPA's index, a
    ///   CMS page): only then does a syntax finding get the platform's hint about what answers
    ///   in the file's place; a syntax error in the file itself gets none (issue 56, item 2).
    public static func apply(_ findings: [Finding], platform: HostingPlatform?, status: Int?, servedAPage: Bool)
        -> [Finding]
    {
        guard let platform else { return findings }
        return findings.map { finding in
            guard let fix = fix(finding.code, on: platform, status: status, servedAPage: servedAPage) else {
                return finding
            }
            var fixed = finding
            fixed.platformFix = PlatformFix(platform: platform, fix: fix)
            return fixed
        }
    }

    /// The codes of a body that is not the file's JSON: a platform's hint explains them only
    /// when a page answered in the file's place.
    public static let syntaxCodes: Set<FindingCode> = [.aasa(.jsonInvalid), .aasa(.jsonNotObject)]

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
            platforms: [.cloudflare], codes: [.aasa(.httpContentType)],
            fix:
                "Set Content-Type at the origin, or add a Cloudflare Response Header Transform Rule (Rules > Transform Rules > Modify Response Header): when URI Path equals \(path), set Content-Type to application/json."
        ),
        Entry(
            platforms: [.cloudflare], codes: [.aasa(.uaBlocked), .aasa(.httpStatus)], when: .refused,
            fix:
                "Cloudflare is challenging Apple's bot: turn off Bot Fight Mode (Security > Bots; its challenges cannot be skipped by rules), and add a WAF custom rule with the Skip action for URI Path equals \(path) so that managed rules and rate limits leave it alone."
        ),
        Entry(
            platforms: [.cloudflare], codes: [.aasa(.httpRedirect)],
            fix:
                "A Cloudflare Redirect Rule, Page Rule or Bulk Redirect sends this path elsewhere: exclude \(path) from it (add `and not http.request.uri.path eq \"\(path)\"` to the rule's expression)."
        ),
        Entry(
            platforms: [.amazonS3, .cloudfront], codes: [.aasa(.httpContentType)],
            fix:
                "S3 serves the Content-Type stored with the object, and a name without extension gets binary/octet-stream: upload it with the type, `aws s3 cp apple-app-site-association s3://BUCKET/.well-known/apple-app-site-association --content-type application/json`, then `aws cloudfront create-invalidation --distribution-id ID --paths '/.well-known/*'` when CloudFront is in front."
        ),
        Entry(
            platforms: [.amazonS3, .cloudfront], codes: [.aasa(.httpStatus)], when: .forbidden,
            fix:
                "S3 answers 403 (AccessDenied) for a key that does not exist when the caller may not list the bucket: upload the file at the key .well-known/apple-app-site-association (no .json), readable by the distribution (its Origin Access Control) or the public."
        ),
        Entry(
            platforms: [.cloudfront], codes: [.aasa(.uaBlocked)],
            fix:
                "An AWS WAF rule on the distribution (Bot Control, or a user-agent rule) refuses Apple's bot: add a rule before it that allows URI path \(path)."
        ),
        Entry(
            platforms: [.cloudfront], codes: [.aasa(.httpRedirect)],
            fix:
                "A CloudFront Function or the viewer protocol policy redirects this path: serve \(path) over HTTPS without a redirect (exclude the path from the function), on this exact host."
        ),
        Entry(
            platforms: [.firebase], codes: [.aasa(.httpContentType)],
            fix:
                #"In firebase.json, under "hosting": "headers": [{"source": "/.well-known/apple-app-site-association", "headers": [{"key": "Content-Type", "value": "application/json"}]}], then firebase deploy."#
        ),
        Entry(
            platforms: [.firebase], codes: [.aasa(.httpStatus), .aasa(.jsonInvalid), .aasa(.jsonNotObject)],
            fix:
                #"Firebase Hosting's default "ignore" list has "**/.*", which leaves the .well-known folder out of every deploy, and a "**" rewrite then serves index.html in its place: remove "**/.*" from "hosting"."ignore" in firebase.json (or list the file explicitly), keep the file in the public folder, then firebase deploy."#
        ),
        Entry(
            platforms: [.vercel], codes: [.aasa(.httpRedirect)],
            fix:
                #"Vercel's "trailingSlash": true redirects the file's URL to one ending in /: set "trailingSlash": false (or leave it out) in vercel.json, or serve the file from a route that is not redirected; a redirect in "redirects" must not match this path either."#
        ),
        Entry(
            platforms: [.vercel], codes: [.aasa(.httpContentType)],
            fix:
                #"In vercel.json: "headers": [{"source": "/.well-known/apple-app-site-association", "headers": [{"key": "Content-Type", "value": "application/json"}]}]."#
        ),
        Entry(
            platforms: [.vercel], codes: [.aasa(.httpStatus), .aasa(.jsonInvalid)],
            fix:
                "Put the file in public/.well-known/apple-app-site-association (Next.js and most frameworks serve public/ as is); a catch-all rewrite or page must not answer this path."
        ),
        Entry(
            platforms: [.netlify], codes: [.aasa(.httpContentType)],
            fix:
                "In the _headers file of the publish folder: a line `/.well-known/apple-app-site-association` and under it `  Content-Type: application/json` (or a [[headers]] block in netlify.toml)."
        ),
        Entry(
            platforms: [.netlify], codes: [.aasa(.httpRedirect), .aasa(.jsonInvalid)],
            fix:
                "A _redirects or netlify.toml rule catches this path (a forced rule with !, or an SPA fallback `/* /index.html 200` when the file is not deployed): put the file in the publish folder at .well-known/apple-app-site-association and add `/.well-known/*  /.well-known/:splat  200` above the catch-all."
        ),
        Entry(
            platforms: [.netlify], codes: [.aasa(.httpStatus)],
            fix:
                "Put the file in the publish folder at .well-known/apple-app-site-association (check the deploy's file list)."
        ),
        Entry(
            platforms: [.githubPages], codes: [.aasa(.httpStatus)],
            fix:
                "GitHub Pages builds with Jekyll, which leaves out folders that start with a dot: add an empty .nojekyll file at the site's root, or `include: [\".well-known\"]` to _config.yml."
        ),
        Entry(
            platforms: [.githubPages], codes: [.aasa(.httpContentType)],
            fix:
                "GitHub Pages sets Content-Type from the file's extension and lets no one set headers, and this file has none: put a CDN that can set headers in front (a Cloudflare Transform Rule), or serve the domain from a host that can."
        ),
        Entry(
            platforms: [.githubPages], codes: [.aasa(.httpRedirect)],
            fix:
                "GitHub Pages redirects between the apex and www (and to the custom domain): audit and serve the file on the exact host the app's entitlement names."
        ),
        Entry(
            platforms: [.akamai], codes: [.aasa(.uaBlocked), .aasa(.httpStatus)], when: .refused,
            fix:
                "Akamai Bot Manager or a WAF rule refuses Apple's bot: add a match on path \(path) to the Bot Manager exceptions (or the security configuration's allow list) so that AASA-Bot is not challenged."
        ),
        Entry(
            platforms: [.akamai], codes: [.aasa(.httpContentType)],
            fix:
                "In Property Manager, a rule matching path \(path) with the Modify Outgoing Response Header behavior: set Content-Type to application/json."
        ),
        // Self-hosted web servers and frameworks.
        Entry(
            platforms: [.nginx], codes: [.aasa(.httpContentType)],
            fix:
                "In the server block for this host: `location = \(path) { default_type application/json; }` (nginx types files by extension, and this one has none), then `nginx -s reload`."
        ),
        Entry(
            platforms: [.nginx], codes: [.aasa(.httpRedirect)],
            fix:
                "A `return 301` or `rewrite` in the server block sends this path elsewhere: answer it first, with `location = \(path) { default_type application/json; }` in the server block of this exact host (an exact location wins over prefix and regex ones)."
        ),
        Entry(
            platforms: [.nginx], codes: [.aasa(.httpStatus), .aasa(.jsonInvalid)],
            fix:
                "Put the file at ROOT\(path) of this server block; a rule that hides dot folders (`location ~ /\\. { deny all; }`) or an SPA fallback (`try_files $uri /index.html`) answers in its place: add `location ^~ /.well-known/ { try_files $uri =404; }` before it."
        ),
        Entry(
            platforms: [.nginx], codes: [.aasa(.locationMisnamed)],
            fix:
                "Serve the uploaded file under the name iOS asks for: `location = \(path) { alias /PATH/TO/apple-app-site-association.json; default_type application/json; }`, or rename the file."
        ),
        Entry(
            platforms: [.apache], codes: [.aasa(.httpContentType)],
            fix:
                #"In the virtual host or .well-known/.htaccess: `<Files "apple-app-site-association"> ForceType application/json </Files>` (Apache types files by extension, and this one has none)."#
        ),
        Entry(
            platforms: [.apache], codes: [.aasa(.httpRedirect)],
            fix:
                "A `Redirect` or `RewriteRule` sends this path elsewhere: put `RewriteCond %{REQUEST_URI} !^/\\.well-known/` before the rule (or `RewriteRule ^\\.well-known/ - [L]` first) in the virtual host of this exact host."
        ),
        Entry(
            platforms: [.apache], codes: [.aasa(.httpStatus), .aasa(.jsonInvalid)],
            fix:
                #"Put the file in DocumentRoot/.well-known/; a rule that hides dot files (`RedirectMatch 404 /\.` or `<FilesMatch "^\.">`) or a front controller's `FallbackResource` answers in its place: exempt /.well-known/ from it."#
        ),
        Entry(
            platforms: [.apache], codes: [.aasa(.locationMisnamed)],
            fix:
                "Serve the uploaded file under the name iOS asks for: `Alias \(path) /PATH/TO/apple-app-site-association.json` with the ForceType above, or rename the file."
        ),
        Entry(
            platforms: [.caddy], codes: [.aasa(.httpContentType)],
            fix: "In the Caddyfile's site block: `header \(path) Content-Type application/json`, then `caddy reload`."
        ),
        Entry(
            platforms: [.caddy], codes: [.aasa(.httpRedirect)],
            fix:
                "A `redir` in the site block sends this path elsewhere: answer it first with `handle \(path) { file_server }` above the redirect (or give `redir` a matcher that leaves /.well-known/ out)."
        ),
        Entry(
            platforms: [.caddy], codes: [.aasa(.httpStatus), .aasa(.jsonInvalid)],
            fix:
                "Put the file under the site's root at .well-known/apple-app-site-association and serve it with `file_server` (an SPA's `try_files {path} /index.html` must not answer this path)."
        ),
        Entry(
            platforms: [.caddy], codes: [.aasa(.locationMisnamed)],
            fix:
                "Serve the uploaded file under the name iOS asks for: `rewrite \(path) \(path).json` in the site block, or rename the file."
        ),
        Entry(
            platforms: [.iis], codes: [.aasa(.httpContentType), .aasa(.httpStatus)],
            fix:
                #"IIS serves no file without an extension unless its type is known (404.3): in .well-known/web.config, `<configuration><system.webServer><staticContent><mimeMap fileExtension="." mimeType="application/json" /></staticContent></system.webServer></configuration>`."#
        ),
        Entry(
            platforms: [.iis], codes: [.aasa(.httpRedirect)],
            fix:
                "A URL Rewrite rule or HTTP Redirect sends this path elsewhere: add a condition `{REQUEST_URI}` not matching `^/\\.well-known/` to the rule, or a rule before it that stops processing for this path."
        ),
        Entry(
            platforms: [.iis], codes: [.aasa(.locationMisnamed)],
            fix:
                "Rename the uploaded file to apple-app-site-association (with the mimeMap for extensionless files above), or add a URL Rewrite rule from \(path) to \(path).json."
        ),
        Entry(
            platforms: [.express], codes: [.aasa(.httpContentType)],
            fix:
                "express.static types files by extension: `app.use('/.well-known', express.static('public/.well-known', { dotfiles: 'allow', setHeaders: (res, file) => { if (file.endsWith('apple-app-site-association')) res.type('application/json') } }))`."
        ),
        Entry(
            platforms: [.express], codes: [.aasa(.httpStatus), .aasa(.jsonInvalid)],
            fix:
                "express.static ignores paths with a dot folder by default (`dotfiles: 'ignore'`, 404): serve it with `express.static('public/.well-known', { dotfiles: 'allow' })` mounted at /.well-known, before any catch-all route."
        ),
        Entry(
            platforms: [.express], codes: [.aasa(.httpRedirect)],
            fix:
                "Middleware (a trailing-slash, www or HTTPS redirect) answers this path: mount the /.well-known static handler before it."
        ),
        Entry(
            platforms: [.nextjs], codes: [.aasa(.httpContentType)],
            fix:
                "In next.config.js: `async headers() { return [{ source: '\(path)', headers: [{ key: 'Content-Type', value: 'application/json' }] }] }`."
        ),
        Entry(
            platforms: [.nextjs], codes: [.aasa(.httpStatus), .aasa(.jsonInvalid)],
            fix:
                "Put the file in public/.well-known/apple-app-site-association (Next.js serves public/ as is); a catch-all page or middleware must not answer this path (exclude it in the middleware's `matcher`)."
        ),
        Entry(
            platforms: [.nextjs], codes: [.aasa(.httpRedirect)],
            fix:
                "`trailingSlash: true` in next.config.js, a `redirects()` entry or middleware sends this path elsewhere: leave \(path) out of them."
        ),
    ]

    /// What a platform's user types for a finding; nil where the generic fix is all there is.
    public static func fix(_ code: FindingCode, on platform: HostingPlatform, status: Int?, servedAPage: Bool)
        -> String?
    {
        if syntaxCodes.contains(code), !servedAPage { return nil }
        let refused = status == 403 || status == 401 || status == 503 || code == .aasa(.uaBlocked)
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
        case .nginx:
            [
                "https://nginx.org/en/docs/http/ngx_http_core_module.html#location",
                "https://nginx.org/en/docs/http/ngx_http_core_module.html#default_type",
            ]
        case .apache:
            [
                "https://httpd.apache.org/docs/2.4/mod/core.html#forcetype",
                "https://httpd.apache.org/docs/2.4/mod/mod_rewrite.html#rewritecond",
            ]
        case .caddy:
            [
                "https://caddyserver.com/docs/caddyfile/directives/header",
                "https://caddyserver.com/docs/caddyfile/directives/handle",
            ]
        case .iis:
            ["https://learn.microsoft.com/en-us/iis/configuration/system.webserver/staticcontent/mimemap"]
        case .express:
            ["https://expressjs.com/en/4x/api.html#express.static"]
        case .nextjs:
            [
                "https://nextjs.org/docs/app/building-your-application/optimizing/static-assets",
                "https://nextjs.org/docs/app/api-reference/next-config-js/headers",
            ]
        }
    }
}
