import AASAJSON
import AASAMatching
import AASAModel

/// Checks of what devices really get, beyond the origin's own answer: Apple's CDN copy, the
/// answer Apple's bot gets compared with a browser's, and the two origin copies compared.
public enum DeviceViewChecks {
    /// Apple's CDN copy against the origin's `.well-known` file, compared by meaning.
    /// `copy` is the CDN's body parsed (`usableFile(cdn)`), done once by the caller.
    public static func cdn(_ cdn: FetchedLocation, copy: JSONObject?, originFile: JSONObject?) -> [Finding] {
        let record = cdn.record
        let apple = appleReason(record.headers)
        if let error = record.error {
            return [
                Finding(
                    .aasa(.cdnUnchecked), .cdn,
                    "Apple's CDN could not be reached from here (\(error.message)): its copy was not checked.")
            ]
        }
        guard let status = record.status else { return [] }
        // Why Apple says it failed, and when it will ask again.
        let explained =
            (record.headers.appleFailureReason.map { " " + AppleFailureReasons.explain($0) } ?? "")
            + (status == 200 && apple == nil ? "" : CDNRetry.sentence(record.headers).map { " " + $0 } ?? "")
        if status == 404 {
            return [
                Finding(
                    .aasa(.cdnMissing), .cdn,
                    "Apple's CDN has no copy of the file (HTTP 404\(apple.map { "; Apple says: \($0)" } ?? "")).\(explained)"
                )
            ]
        }
        if status != 200 || apple != nil {
            return [
                Finding(
                    .aasa(.cdnError), .cdn,
                    "Apple's CDN reports a failure: HTTP \(status)\(apple.map { "; Apple says: \($0)" } ?? "").\(explained)"
                )
            ]
        }
        guard let copy else {
            return [Finding(.aasa(.cdnError), .cdn, "Apple's CDN serves a copy that is not a JSON object.")]
        }
        guard let originFile else {
            return [
                Finding(
                    .aasa(.cdnStale), .cdn,
                    "Apple's CDN still serves a copy, but the origin has no usable file at .well-known: devices keep the copy until the CDN refreshes (about a day)."
                )
            ]
        }
        if !JSONValue.object(copy).isEquivalent(to: .object(originFile)) {
            let differences = describeDifferences(copy, originFile, names: ("the CDN", ".well-known"))
            return [
                Finding(
                    .aasa(.cdnStale), .cdn,
                    "Apple's CDN copy differs from the origin's .well-known file (\(differences)); normal for up to a day after a change."
                )
            ]
        }
        return []
    }

    /// Apple's bot against a browser, at `.well-known`.
    public static func agents(bot: FetchedLocation, browser: FetchedLocation, botAgent: String) -> [Finding] {
        let botFile = usableFile(bot)
        let browserFile = usableFile(browser)
        if botFile == nil, browserFile != nil {
            let what =
                bot.record.error.map { "its request fails (\($0.message))" }
                ?? bot.record.status.map {
                    $0 == 200 ? "it gets HTTP 200 without a usable file (a challenge page?)" : "it gets HTTP \($0)"
                }
                ?? "it gets no answer"
            return [
                Finding(
                    .aasa(.uaBlocked), .wellKnown,
                    "Apple's bot (\(botAgent)) is refused: \(what), while a browser gets the file. Apple's CDN cannot fetch it."
                )
            ]
        }
        if let botFile, let browserFile, !JSONValue.object(botFile).isEquivalent(to: .object(browserFile)) {
            return [
                Finding(
                    .aasa(.uaDiffer), .wellKnown,
                    "Apple's bot and a browser get different files (\(describeDifferences(botFile, browserFile, names: ("the bot", "the browser"))))."
                )
            ]
        }
        if botFile != nil, browserFile == nil, let status = browser.record.status {
            return [
                Finding(
                    .aasa(.uaDiffer), .wellKnown,
                    "A browser gets HTTP \(status) without the file while Apple's bot gets it.")
            ]
        }
        return []
    }

    /// The root copy against the `.well-known` one, when both parse.
    public static func locations(wellKnown: JSONObject, root: JSONObject) -> [Finding] {
        guard !JSONValue.object(wellKnown).isEquivalent(to: .object(root)) else { return [] }
        return [
            Finding(
                .aasa(.locationDiffer), .domain,
                "The two copies differ: \(describeDifferences(wellKnown, root, names: (".well-known", "root"))).")
        ]
    }

    public static func usableFile(_ fetched: FetchedLocation) -> JSONObject? {
        guard fetched.record.error == nil, fetched.record.status == 200, !fetched.record.bodyTruncated else {
            return nil
        }
        return (try? JSONParser.parse(fetched.body))?.objectValue
    }

    static func appleReason(_ headers: ResponseHeaders) -> String? {
        guard let reason = headers.appleFailureReason else { return nil }
        return [reason, headers.appleFailureDetails].compactMap { $0 }.joined(separator: " — ")
    }

    /// What differs between two files, in a few words: app IDs, rules, other sections.
    static func describeDifferences(_ first: JSONObject, _ second: JSONObject, names: (String, String)) -> String {
        var parts: [String] = []
        let firstIDs = ContentChecks.applinksAppIDs(first["applinks"]?.objectValue ?? JSONObject())
        let secondIDs = ContentChecks.applinksAppIDs(second["applinks"]?.objectValue ?? JSONObject())
        if firstIDs != secondIDs {
            func list(_ ids: [String]) -> String { ids.isEmpty ? "none" : ids.joined(separator: ", ") }
            parts.append("applinks app IDs: \(names.0) names \(list(firstIDs)), \(names.1) names \(list(secondIDs))")
        }
        let firstRules = RuleSet(file: first).entries.map { $0.rules.map(\.source) }
        let secondRules = RuleSet(file: second).entries.map { $0.rules.map(\.source) }
        let rulesDiffer =
            firstRules.count != secondRules.count
            || zip(firstRules, secondRules).contains { a, b in
                a.count != b.count || zip(a, b).contains { !$0.isEquivalent(to: $1) }
            }
        if rulesDiffer { parts.append("applinks rules") }
        let sections = Set(first.keys).union(second.keys).subtracting(["applinks"]).sorted().filter { key in
            switch (first[key], second[key]) {
            case (let a?, let b?): !a.isEquivalent(to: b)
            default: true
            }
        }
        if !sections.isEmpty { parts.append(sections.joined(separator: ", ")) }
        if parts.isEmpty { parts.append("applinks settings") }
        return parts.joined(separator: "; ")
    }
}
