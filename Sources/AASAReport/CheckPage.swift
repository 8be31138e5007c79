import AASAModel
import Mustache

/// `serve`'s check page: the form, and when a domain was checked its full row (what `check`
/// prints: verdict, each location, findings with why and fix, the served file) and a link to
/// its JSON. No script; every value escaped by the templates.
public struct CheckPage: Sendable {
    private let head: MustacheTemplate
    private let tail: MustacheTemplate
    /// Checks need the server's token (`--token-file`), which a browser's form cannot send: the
    /// page says how to check instead of showing a form that could only be refused.
    public let tokenRequired: Bool

    public init(tokenRequired: Bool = false) {
        self.tokenRequired = tokenRequired
        HTMLEscaping.register()
        head = try! MustacheTemplate(string: Self.headTemplate)
        tail = try! MustacheTemplate(string: Self.tailTemplate)
    }

    /// What the form shows and, after a check, what it found.
    public struct Content: Sendable {
        public var domain = ""
        public var appID = ""
        /// The domain serves no AASA (`ios=none`).
        public var iosNone = false
        /// The other association files' field values, by parameter name.
        public var more: [String: String] = [:]
        /// The checked domain's row (`HTMLReport.detailedRow`), already rendered.
        public var row: String?
        /// Where the same check answers in JSON.
        public var jsonLink: String?
        /// Why the check was not made.
        public var problem: String?

        public init() {}
    }

    public func render(_ content: Content, tool: ToolInfo) -> String {
        let fields = AssociationSections.checkFormFields.map { field -> [String: Any] in
            let value = content.more[field.name] ?? ""
            // A kind whose word takes no value (`passkeys`) is a checkbox.
            let flag = field.placeholder == AssociationKind.flagPlaceholder
            return [
                "name": field.name, "label": field.label, "placeholder": field.placeholder, "value": value,
                "flag": flag, "checked": flag && !value.isEmpty ? " checked" : "",
            ]
        }
        var view: [String: Any] = [
            "tool": "\(tool.name) \(tool.versionLine)", "domain": content.domain, "appID": content.appID,
            "exampleAppID": AppIDFormat.example, "iosNone": AASAWant.iosNone,
            "iosNoneChecked": content.iosNone ? " checked" : "",
            "fields": fields, "title": content.domain.isEmpty ? "Check a domain" : "Check of \(content.domain)",
            "tokenRequired": tokenRequired, "tokenNote": Self.tokenNote,
        ]
        if let problem = content.problem { view["problem"] = problem }
        if let link = content.jsonLink { view["jsonLink"] = link }
        return head.render(view) + (content.row ?? "") + tail.render(view)
    }

    /// What the page says instead of the form when checks need the token.
    public static let tokenNote =
        "Checks on this server need its token (\(OptionName.tokenFile)), which a browser's form cannot send. Check from a terminal: curl -H \"Authorization: Bearer $TOKEN\" \"https://THIS-SERVER/api/v1/check?domain=example.com\", or aasa-audit check example.com on your own machine."

    /// The top of other pages (the history page's): the form, its domain field alone; or, when
    /// checks need the token, a link to the check page that says how.
    public var navigation: String {
        let check =
            tokenRequired
            ? #"<a href="/check">Check a domain</a> (needs the server's token)"#
            : #"<form action="/check" method="get" style="display:inline"><label>Check a domain <input name="domain" required placeholder="example.com" size="28"></label> <button>Check</button></form>"#
        return
            #"<nav class="serve" style="padding:.6rem 1rem;border-bottom:1px solid #ccc;font:14px system-ui,sans-serif"><a href="/">History</a> · "#
            + check + "</nav>"
    }

    static let headTemplate = #"""
        {{% CONTENT_TYPE: HTMLEscaping }}
        \#(HTMLTemplates.documentStart)
        form.check { display: grid; grid-template-columns: max-content minmax(0, 28rem); gap: .5rem 1rem; align-items: center; margin: 1rem 0; }
        form.check input { font: inherit; padding: .3rem; }
        form.check button { grid-column: 2; justify-self: start; font: inherit; padding: .3rem 1.2rem; }
        </style>
        </head>
        <body>
        <header>
        <h1>{{title}}</h1>
        <p class="meta"><a href="/">History of the nightly runs</a> · {{tool}}</p>
        {{#tokenRequired}}<p class="meta">{{tokenNote}}</p>{{/tokenRequired}}
        {{^tokenRequired}}<form class="check" action="/check" method="get">
        <label for="domain">Domain</label><input id="domain" name="domain" value="{{domain}}" required placeholder="example.com, https://example.com/path or applinks:example.com">
        <label for="app-id">App ID</label><input id="app-id" name="app-id" value="{{appID}}" placeholder="optional: {{exampleAppID}}">
        <label for="ios">No iOS app</label><span><input type="checkbox" id="ios" name="ios" value="{{iosNone}}"{{{iosNoneChecked}}}> the domain serves no AASA, only its other files (ios:{{iosNone}})</span>
        {{#fields}}{{#flag}}<label for="{{name}}">{{label}}</label><span><input type="checkbox" id="{{name}}" name="{{name}}" value="on"{{{checked}}}> {{name}} in domains.txt</span>{{/flag}}{{^flag}}<label for="{{name}}">{{label}}</label><input id="{{name}}" name="{{name}}" value="{{value}}" placeholder="optional: {{placeholder}}">{{/flag}}
        {{/fields}}<button>Check</button>
        </form>{{/tokenRequired}}
        {{#problem}}<p class="incomplete" role="alert">{{problem}}</p>{{/problem}}
        {{#jsonLink}}<p class="meta">This check as JSON: <a href="{{jsonLink}}">{{jsonLink}}</a></p>{{/jsonLink}}
        </header>
        <main>

        """#

    static let tailTemplate = #"""
        {{% CONTENT_TYPE: HTMLEscaping }}
        </main>
        <footer class="muted">Checked by {{tool}} as Apple's bot and CDN see the site, from this server's network.</footer>
        </body>
        </html>

        """#
}
