import AASAJSON
import AASAModel
import Foundation

/// The cross-check with the app's manifest (`webapp:ID@MANIFEST_URL`), as Chromium's manifest
/// parser reads it: its `scope_extensions` list this origin, and its id is the one associated.
public enum WebAppManifestChecks {
    /// An origin a manifest extends its scope to: its host (without `*.`), its port, and whether
    /// it covers the host's subdomains.
    struct Extension: Equatable {
        var host: String
        var port: Int?
        var wildcard: Bool

        func covers(host other: String, port otherPort: Int?) -> Bool {
            let other = other.lowercased()
            return (port ?? 443) == (otherPort ?? 443) && (other == host || (wildcard && other.hasSuffix("." + host)))
        }
    }

    /// The manifest's answer judged for `domain`'s origin and the manifest id the input names.
    public static func assess(_ fetched: FetchedLocation, domain: String, expectedID: String) -> [Finding] {
        let record = fetched.record
        let url = record.url.prefix(300)
        guard record.error == nil, record.status == 200, !record.bodyTruncated else {
            let why = record.error.map { $0.message.prefix(200) } ?? "HTTP \(record.status.map(String.init) ?? "?")"
            return [Finding(.webApp(.manifestUnreachable), .webApp, "The manifest \(url) was not read (\(why)).")]
        }
        guard let manifest = (try? JSONParser.parse(fetched.body))?.objectValue else {
            return [Finding(.webApp(.manifestInvalid), .webApp, "The manifest \(url) is not a JSON object.")]
        }
        var findings: [Finding] = []
        if !scopeExtensions(of: manifest).contains(where: { $0.covers(host: domain, port: nil) }) {
            findings.append(
                Finding(
                    .webApp(.manifestScope), .webApp,
                    "The manifest \(url) does not list https://\(domain) in scope_extensions, as Chromium reads them.")
            )
        }
        if let id = manifestID(of: manifest, manifestURL: record.url), id != expectedID {
            findings.append(
                Finding(
                    .webApp(.manifestID), .webApp,
                    "The manifest \(url) has the id \(id.prefix(300)), not \(expectedID.prefix(300)) as the input and the association file name."
                ))
        }
        return findings
    }

    /// `scope_extensions` as Chromium reads it (held to Chromium 156's own reading through
    /// DevTools by `ChromiumScopeExtensionsTests`): an array; its first 10 entries; each an object
    /// with `"type": "origin"` and an https `origin` (a path dropped), at most 2,000 characters.
    /// A string entry, an object without that type, and `*.` (no wildcard: the host `%2A.…`)
    /// extend to nothing.
    static func scopeExtensions(of manifest: JSONObject) -> [Extension] {
        guard let entries = manifest["scope_extensions"]?.arrayValue else { return [] }
        return entries.prefix(WebAppLimits.maximumScopeExtensions).compactMap { entry in
            guard let object = entry.objectValue, object["type"]?.stringValue == "origin",
                let text = object["origin"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines),
                text.count <= 2000
            else { return nil }
            return origin(text)
        }
    }

    /// An https origin; a host that starts `*.` names no host Chromium matches.
    static func origin(_ text: String) -> Extension? {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "https",
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        return Extension(host: host.replacingOccurrences(of: "*", with: "%2a"), port: components.port, wildcard: false)
    }

    /// The manifest's id: `id` resolved against `start_url`'s origin (and kept on it), else
    /// `start_url`; nil when it has neither (its document's URL, which the audit does not know).
    static func manifestID(of manifest: JSONObject, manifestURL: String) -> String? {
        guard let base = URL(string: manifestURL) else { return nil }
        let start = manifest["start_url"]?.stringValue.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
        let startURL = start ?? base
        if let id = manifest["id"]?.stringValue, !id.isEmpty,
            let origin = URL(string: "/", relativeTo: startURL)?.absoluteURL,
            let resolved = URL(string: id, relativeTo: origin)?.absoluteURL,
            resolved.host?.lowercased() == startURL.host?.lowercased(), resolved.port == startURL.port
        {
            return WebAppManifestID.canonical(resolved.absoluteString)
        }
        return start.flatMap { WebAppManifestID.canonical($0.absoluteString) }
    }
}
