/// The fix for the platform a site runs on (`HostingPlatform`), beside the catalog's generic
/// one, for the findings where platforms differ: the content type, redirects, bot blocking,
/// a missing file or a page served in its place. Written once per problem of how a file is
/// served (`ServingProblem`), each naming the file's own path, so every file (the AASA's and each
/// kind's, `ServedFile`) gets them. Pure; each platform's documentation is listed in
/// `documentation` (and in docs/findings.md). Beside the catalog, as its fixes are.
public enum PlatformFixes {
    /// The findings, each with its platform fix when `platform` has one for it.
    /// - Parameter answers: each file's own answer (`ServedFile.id`), which tells a missing file
    ///   from a refusal, and whether a web page answered in its place: only then does a syntax
    ///   finding get the platform's hint about what answers there; a syntax error in the file
    ///   itself gets none (issue 56, item 2).
    public static func apply(_ findings: [Finding], platform: HostingPlatform?, answers: [String: ServedAnswer])
        -> [Finding]
    {
        guard let platform else { return findings }
        let files = AssociationKinds.files
        return findings.map { finding in
            guard let (file, problem) = ServedFile.file(of: finding.code, in: files),
                let fix = fix(problem, of: file, on: platform, answer: answers[file.id])
            else { return finding }
            var fixed = finding
            fixed.platformFix = PlatformFix(platform: platform, fix: fix)
            return fixed
        }
    }

    /// When an entry applies beyond its platform and problem.
    enum Condition {
        case always
        /// The answer refused the file's client (401, 403, 503, or a challenge page: `ua.blocked`).
        case refused
        /// HTTP 403.
        case forbidden
        /// A file whose name has no extension (which servers cannot type by it).
        case extensionless
    }

    /// One fix: the platforms and problems it is for, when, and its text for a file.
    struct Entry: Sendable {
        let platforms: [HostingPlatform]
        let problems: [ServingProblem]
        var when = Condition.always
        let fix: @Sendable (ServedFile) -> String
    }

    /// The fixes, the first that applies winning.
    static let entries: [Entry] = [
        Entry(platforms: [.cloudflare], problems: [.contentType]) {
            "Set Content-Type at the origin, or add a Cloudflare Response Header Transform Rule (Rules > Transform Rules > Modify Response Header): when URI Path equals \($0.path), set Content-Type to application/json."
        },
        Entry(platforms: [.cloudflare], problems: [.blocked, .status], when: .refused) {
            "Cloudflare is challenging \($0.fetchedBy): turn off Bot Fight Mode (Security > Bots; its challenges cannot be skipped by rules), and add a WAF custom rule with the Skip action for URI Path equals \($0.path) so that managed rules and rate limits leave it alone."
        },
        Entry(platforms: [.cloudflare], problems: [.redirect]) {
            "A Cloudflare Redirect Rule, Page Rule or Bulk Redirect sends this path elsewhere: exclude \($0.path) from it (add `and not http.request.uri.path eq \"\($0.path)\"` to the rule's expression)."
        },
        Entry(platforms: [.amazonS3, .cloudfront], problems: [.contentType]) {
            "S3 serves the Content-Type stored with the object\($0.hasExtension ? "" : ", and a name without extension gets binary/octet-stream"): upload it with the type, `aws s3 cp \($0.name) s3://BUCKET\($0.path) --content-type application/json`, then `aws cloudfront create-invalidation --distribution-id ID --paths '/.well-known/*'` when CloudFront is in front."
        },
        Entry(platforms: [.amazonS3, .cloudfront], problems: [.status], when: .forbidden) {
            "S3 answers 403 (AccessDenied) for a key that does not exist when the caller may not list the bucket: upload the file at the key \($0.path.dropFirst())\($0.hasExtension ? "" : " (no .json)"), readable by the distribution (its Origin Access Control) or the public."
        },
        Entry(platforms: [.cloudfront], problems: [.blocked]) {
            "An AWS WAF rule on the distribution (Bot Control, or a user-agent rule) refuses \($0.fetchedBy): add a rule before it that allows URI path \($0.path)."
        },
        Entry(platforms: [.cloudfront], problems: [.redirect]) {
            "A CloudFront Function or the viewer protocol policy redirects this path: serve \($0.path) over HTTPS without a redirect (exclude the path from the function), on this exact host."
        },
        Entry(platforms: [.firebase], problems: [.contentType]) {
            #"In firebase.json, under "hosting": "headers": [{"source": "\#($0.path)", "headers": [{"key": "Content-Type", "value": "application/json"}]}], then firebase deploy."#
        },
        Entry(platforms: [.firebase], problems: [.status, .syntax]) { _ in
            #"Firebase Hosting's default "ignore" list has "**/.*", which leaves the .well-known folder out of every deploy, and a "**" rewrite then serves index.html in its place: remove "**/.*" from "hosting"."ignore" in firebase.json (or list the file explicitly), keep the file in the public folder, then firebase deploy."#
        },
        Entry(platforms: [.vercel], problems: [.redirect]) { _ in
            #"Vercel's "trailingSlash": true redirects the file's URL to one ending in /: set "trailingSlash": false (or leave it out) in vercel.json, or serve the file from a route that is not redirected; a redirect in "redirects" must not match this path either."#
        },
        Entry(platforms: [.vercel], problems: [.contentType]) {
            #"In vercel.json: "headers": [{"source": "\#($0.path)", "headers": [{"key": "Content-Type", "value": "application/json"}]}]."#
        },
        Entry(platforms: [.vercel], problems: [.status, .syntax]) {
            "Put the file in public\($0.path) (Next.js and most frameworks serve public/ as is); a catch-all rewrite or page must not answer this path."
        },
        Entry(platforms: [.netlify], problems: [.contentType]) {
            "In the _headers file of the publish folder: a line `\($0.path)` and under it `  Content-Type: application/json` (or a [[headers]] block in netlify.toml)."
        },
        Entry(platforms: [.netlify], problems: [.redirect, .syntax]) {
            "A _redirects or netlify.toml rule catches this path (a forced rule with !, or an SPA fallback `/* /index.html 200` when the file is not deployed): put the file in the publish folder at \($0.path.dropFirst()) and add `/.well-known/*  /.well-known/:splat  200` above the catch-all."
        },
        Entry(platforms: [.netlify], problems: [.status]) {
            "Put the file in the publish folder at \($0.path.dropFirst()) (check the deploy's file list)."
        },
        Entry(platforms: [.githubPages], problems: [.status]) { _ in
            "GitHub Pages builds with Jekyll, which leaves out folders that start with a dot: add an empty .nojekyll file at the site's root, or `include: [\".well-known\"]` to _config.yml."
        },
        Entry(platforms: [.githubPages], problems: [.contentType]) {
            "GitHub Pages sets Content-Type from the file's extension and lets no one set headers\($0.hasExtension ? "" : ", and this file has none"): put a CDN that can set headers in front (a Cloudflare Transform Rule), or serve the domain from a host that can."
        },
        Entry(platforms: [.githubPages], problems: [.redirect]) { _ in
            "GitHub Pages redirects between the apex and www (and to the custom domain): audit and serve the file on the exact host the app names."
        },
        Entry(platforms: [.akamai], problems: [.blocked, .status], when: .refused) {
            "Akamai Bot Manager or a WAF rule refuses \($0.fetchedBy): add a match on path \($0.path) to the Bot Manager exceptions (or the security configuration's allow list) so that it is not challenged."
        },
        Entry(platforms: [.akamai], problems: [.contentType]) {
            "In Property Manager, a rule matching path \($0.path) with the Modify Outgoing Response Header behavior: set Content-Type to application/json."
        },
        // Self-hosted web servers and frameworks.
        Entry(platforms: [.nginx], problems: [.contentType]) {
            "In the server block for this host: `location = \($0.path) { types { } default_type application/json; }` (nginx types files by their extension\($0.hasExtension ? "" : ", and this one has none")), then `nginx -s reload`."
        },
        Entry(platforms: [.nginx], problems: [.redirect]) {
            "A `return 301` or `rewrite` in the server block sends this path elsewhere: answer it first, with `location = \($0.path) { types { } default_type application/json; }` in the server block of this exact host (an exact location wins over prefix and regex ones)."
        },
        Entry(platforms: [.nginx], problems: [.status, .syntax]) {
            "Put the file at ROOT\($0.path) of this server block; a rule that hides dot folders (`location ~ /\\. { deny all; }`) or an SPA fallback (`try_files $uri /index.html`) answers in its place: add `location ^~ /.well-known/ { try_files $uri =404; }` before it."
        },
        Entry(platforms: [.nginx], problems: [.misnamed]) {
            "Serve the uploaded file under the name the client asks for: `location = \($0.path) { alias /PATH/TO/\($0.name).json; default_type application/json; }`, or rename the file."
        },
        Entry(platforms: [.apache], problems: [.contentType]) {
            #"In the virtual host or .well-known/.htaccess: `<Files "\#($0.name)"> ForceType application/json </Files>` (Apache types files by their extension\#($0.hasExtension ? "" : ", and this one has none"))."#
        },
        Entry(platforms: [.apache], problems: [.redirect]) { _ in
            "A `Redirect` or `RewriteRule` sends this path elsewhere: put `RewriteCond %{REQUEST_URI} !^/\\.well-known/` before the rule (or `RewriteRule ^\\.well-known/ - [L]` first) in the virtual host of this exact host."
        },
        Entry(platforms: [.apache], problems: [.status, .syntax]) { _ in
            #"Put the file in DocumentRoot/.well-known/; a rule that hides dot files (`RedirectMatch 404 /\.` or `<FilesMatch "^\.">`) or a front controller's `FallbackResource` answers in its place: exempt /.well-known/ from it."#
        },
        Entry(platforms: [.apache], problems: [.misnamed]) {
            "Serve the uploaded file under the name the client asks for: `Alias \($0.path) /PATH/TO/\($0.name).json` with the ForceType above, or rename the file."
        },
        Entry(platforms: [.caddy], problems: [.contentType]) {
            "In the Caddyfile's site block: `header \($0.path) Content-Type application/json`, then `caddy reload`."
        },
        Entry(platforms: [.caddy], problems: [.redirect]) {
            "A `redir` in the site block sends this path elsewhere: answer it first with `handle \($0.path) { file_server }` above the redirect (or give `redir` a matcher that leaves /.well-known/ out)."
        },
        Entry(platforms: [.caddy], problems: [.status, .syntax]) {
            "Put the file under the site's root at \($0.path.dropFirst()) and serve it with `file_server` (an SPA's `try_files {path} /index.html` must not answer this path)."
        },
        Entry(platforms: [.caddy], problems: [.misnamed]) {
            "Serve the uploaded file under the name the client asks for: `rewrite \($0.path) \($0.path).json` in the site block, or rename the file."
        },
        Entry(platforms: [.iis], problems: [.contentType, .status], when: .extensionless) { _ in
            #"IIS serves no file without an extension unless its type is known (404.3): in .well-known/web.config, `<configuration><system.webServer><staticContent><mimeMap fileExtension="." mimeType="application/json" /></staticContent></system.webServer></configuration>`."#
        },
        Entry(platforms: [.iis], problems: [.redirect]) { _ in
            "A URL Rewrite rule or HTTP Redirect sends this path elsewhere: add a condition `{REQUEST_URI}` not matching `^/\\.well-known/` to the rule, or a rule before it that stops processing for this path."
        },
        Entry(platforms: [.iis], problems: [.misnamed]) {
            "Rename the uploaded file to \($0.name) (with the mimeMap for extensionless files above), or add a URL Rewrite rule from \($0.path) to \($0.path).json."
        },
        Entry(platforms: [.express], problems: [.contentType]) {
            "express.static types files by their extension: `app.use('/.well-known', express.static('public/.well-known', { dotfiles: 'allow', setHeaders: (res, file) => { if (file.endsWith('\($0.name)')) res.type('application/json') } }))`."
        },
        Entry(platforms: [.express], problems: [.status, .syntax]) { _ in
            "express.static ignores paths with a dot folder by default (`dotfiles: 'ignore'`, 404): serve it with `express.static('public/.well-known', { dotfiles: 'allow' })` mounted at /.well-known, before any catch-all route."
        },
        Entry(platforms: [.express], problems: [.redirect]) { _ in
            "Middleware (a trailing-slash, www or HTTPS redirect) answers this path: mount the /.well-known static handler before it."
        },
        Entry(platforms: [.nextjs], problems: [.contentType]) {
            "In next.config.js: `async headers() { return [{ source: '\($0.path)', headers: [{ key: 'Content-Type', value: 'application/json' }] }] }`."
        },
        Entry(platforms: [.nextjs], problems: [.status, .syntax]) {
            "Put the file in public\($0.path) (Next.js serves public/ as is); a catch-all page or middleware must not answer this path (exclude it in the middleware's `matcher`)."
        },
        Entry(platforms: [.nextjs], problems: [.redirect]) {
            "`trailingSlash: true` in next.config.js, a `redirects()` entry or middleware sends this path elsewhere: leave \($0.path) out of them."
        },
    ]

    /// What a platform's user types for a finding; nil where the generic fix is all there is.
    /// - Parameter answer: the file's own answer (its status, and whether a page answered).
    public static func fix(_ code: FindingCode, on platform: HostingPlatform, answer: ServedAnswer?) -> String? {
        guard let (file, problem) = ServedFile.file(of: code) else { return nil }
        return fix(problem, of: file, on: platform, answer: answer)
    }

    /// What a platform's user types for a problem of how `file` is served.
    public static func fix(
        _ problem: ServingProblem, of file: ServedFile, on platform: HostingPlatform, answer: ServedAnswer?
    )
        -> String?
    {
        if problem == .syntax, answer?.servedAPage != true { return nil }
        let status = answer?.status
        let refused = status == 403 || status == 401 || status == 503 || problem == .blocked
        return entries.first { entry in
            guard entry.platforms.contains(platform), entry.problems.contains(problem) else { return false }
            switch entry.when {
            case .always: return true
            case .refused: return refused
            case .forbidden: return status == 403
            case .extensionless: return !file.hasExtension
            }
        }?.fix(file)
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
