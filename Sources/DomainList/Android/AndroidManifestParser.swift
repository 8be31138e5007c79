import AASAModel

/// The hosts an app's `AndroidManifest.xml` (source XML, as kept in the repository) verifies:
/// each `<intent-filter android:autoVerify="true">` with an `http` or `https` scheme gives its
/// `<data android:host>`s, with the paths its `<data>` elements accept. A `*.` wildcard host
/// is verified on its base domain, as Android does. One target per host, for the app given
/// (`--android-package`, since Gradle sets the package; else the manifest's `package`).
public enum AndroidManifestParser {
    static let namespacePrefix = "android:"

    public static func parse(_ bytes: [UInt8], fileName: String, apps: [AndroidApp]) -> DomainListParser.Result {
        var problems: [InputProblem] = []
        func problem(_ code: InputProblemCode, line: Int, _ text: String, _ message: String) {
            problems.append(
                InputProblem(code, file: fileName, line: line, text: String(text.prefix(200)), message: message))
        }
        let elements: [XMLScanner.Element]
        do {
            elements = try XMLScanner.elements(bytes)
        } catch {
            problem(.manifestUnreadable, line: error.line, "", "Not well-formed XML: \(error.description).")
            return DomainListParser.Result(targets: [], problems: problems)
        }
        guard let manifest = elements.first(where: { $0.depth == 0 }), manifest.name == "manifest" else {
            problem(
                .manifestUnreadable, line: elements.first?.line ?? 1, "",
                "The root element is not <manifest>: not an AndroidManifest.xml.")
            return DomainListParser.Result(targets: [], problems: problems)
        }
        var apps = apps
        if apps.isEmpty {
            guard let package = manifest["package"], AndroidPackageName.isValid(package) else {
                problem(
                    .manifestNoPackage, line: manifest.line, "<manifest>",
                    "The manifest names no package (modern builds set it in Gradle): pass \(AndroidOption.package) PACKAGE[@FINGERPRINT]."
                )
                return DomainListParser.Result(targets: [], problems: problems)
            }
            apps = [AndroidApp(package: package)]
        }
        var scopes = HostScopes(file: fileName)
        for (index, filter) in elements.enumerated() where filter.name == "intent-filter" {
            guard filter[namespacePrefix + "autoVerify"] == "true" else { continue }
            let data = elements[(index + 1)..<(filter.closesAt ?? index + 1)].filter { $0.name == "data" }
            let schemes = Set(data.compactMap { $0[namespacePrefix + "scheme"]?.lowercased() })
            guard schemes.contains("https") || schemes.contains("http") else { continue }
            let paths = pathRules(of: data)
            for element in data {
                guard let host = element[namespacePrefix + "host"] else { continue }
                scopes.add(host, paths: paths, at: element) { problem($0, line: $1, $2, $3) }
            }
        }
        let order = scopes.order
        if order.isEmpty {
            problem(
                .manifestNoHosts, line: manifest.line, "<manifest>",
                "No <intent-filter android:autoVerify=\"true\"> with an http(s) scheme and a host: the manifest verifies no App Links host."
            )
        }
        let targets = order.compactMap { host -> DomainTarget? in
            guard let scope = scopes.byHost[host] else { return nil }
            return DomainTarget(
                domain: host, inputLine: scope.line, wants: AssociationWants(android: apps, androidManifestScope: scope)
            )
        }
        return DomainListParser.Result(targets: targets, problems: problems)
    }

    /// The paths a filter's `<data>` elements accept (a filter's are the union of its elements').
    static func pathRules(of data: [XMLScanner.Element]) -> [AndroidManifest.PathRule] {
        data.flatMap { element in
            element.attributes.compactMap { attribute, value -> AndroidManifest.PathRule? in
                switch attribute {
                case namespacePrefix + "path": .exact(value)
                case namespacePrefix + "pathPrefix": .prefix(value)
                case namespacePrefix + "pathPattern": .pattern(value)
                case namespacePrefix + "pathSuffix": .suffix(value)
                case namespacePrefix + "pathAdvancedPattern": .advancedPattern(value)
                default: nil
                }
            }
        }
    }

    /// The hosts verified, in the manifest's order, each with the paths its filters accept.
    struct HostScopes {
        let file: String
        var order: [String] = []
        var byHost: [String: AndroidManifest.HostScope] = [:]

        /// A `<data android:host>`: a `*.` wildcard is verified on its base domain.
        mutating func add(
            _ written: String, paths: [AndroidManifest.PathRule], at element: XMLScanner.Element,
            problem: (InputProblemCode, Int, String, String) -> Void
        ) {
            var host = written
            if host.hasPrefix("*.") {
                host.removeFirst(2)
                problem(
                    .manifestWildcardHost, element.line, "android:host=\"*.\(host)\"",
                    "A wildcard host is verified on its base domain: \(host)'s assetlinks.json is audited.")
            }
            switch HostName.normalize(host) {
            case .failure(let error):
                problem(
                    .manifestHostName, element.line, "android:host=\"\(host)\"",
                    "\"\(host)\" \(error.reason) (line \(element.line), column \(element.column)); the host is not audited."
                )
            case .success(let normalized):
                if var scope = byHost[normalized] {
                    // A filter without paths accepts every path of the host.
                    if scope.paths != nil { scope.paths = paths.isEmpty ? nil : scope.paths! + paths }
                    byHost[normalized] = scope
                } else {
                    order.append(normalized)
                    byHost[normalized] = AndroidManifest.HostScope(
                        host: normalized, paths: paths.isEmpty ? nil : paths, file: file, line: element.line)
                }
            }
        }
    }
}
