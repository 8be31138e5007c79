import AASAJSON
import AASAMatching
import AASAModel

/// What the matcher will do with the rules: entries and rules that never decide, variables
/// never defined or never used.
extension FileValidator {

    /// Rules after a catch-all never decide; patterns that use undefined variables never
    /// match. A later entry is never consulted when an earlier catch-all excludes every URL, or
    /// when its apps already took every URL from an earlier entry; an entry for other apps
    /// still matters on devices where the earlier apps are not installed.
    mutating func validateRules(_ rules: RuleSet, applinks: JSONObject) {
        var blockers = Blockers()
        for entry in rules.entries {
            // Exclusions alone open nothing: the entry's apps get no link from it.
            if !entry.rules.isEmpty, entry.rules.allSatisfy(\.exclude) {
                report(
                    .aasa(.entryNoRules),
                    "\(entry.path) has only exclusions (\(entry.rules.count)): they keep URLs in the browser and open none, so its app gets no links from it."
                )
            }
            if !entry.rules.isEmpty, let why = blockers.whyNeverConsulted(entry, minimumIOS: options.minimumIOS) {
                report(.aasa(.entryUnreachable), why)
                continue
            }
            if let catchAll = validateRuleOrder(entry) { blockers.add(catchAll, of: entry) }
        }
        reportUnusedVariables(applinks)
    }

    /// The catch-alls of the entries read so far: one that excludes every URL, and for each
    /// app the one that already sends it every URL.
    struct Blockers {
        var excludingEverything: RuleSet.Rule?
        var takenEverything: [String: RuleSet.Rule] = [:]

        mutating func add(_ catchAll: RuleSet.Rule, of entry: RuleSet.Entry) {
            if catchAll.exclude {
                excludingEverything = catchAll
            } else {
                for app in entry.appIDs where takenEverything[app] == nil { takenEverything[app] = catchAll }
            }
        }

        /// Why the entry is never consulted, or nil. iOS 12 and older read legacy (paths)
        /// entries only: a components entry before one blocks nothing on the versions that read it.
        func whyNeverConsulted(_ entry: RuleSet.Entry, minimumIOS: IOSVersion?) -> String? {
            let readByOldIOS = minimumIOS.map { $0 < IOSVersion.components } == true
            let blocks = { (blocker: RuleSet.Rule) in
                !(readByOldIOS && blocker.kind == .components && entry.rules.allSatisfy { $0.kind == .paths })
            }
            if let blocker = excludingEverything, blocks(blocker) {
                return "\(entry.path) is never consulted: \(blocker.path) excludes every URL first."
            }
            if !entry.appIDs.isEmpty, let blocker = entry.appIDs.compactMap({ takenEverything[$0] }).first,
                entry.appIDs.allSatisfy({ takenEverything[$0] != nil }), blocks(blocker)
            {
                return "\(entry.path) is never consulted for its apps: \(blocker.path) already sends them every URL."
            }
            return nil
        }
    }

    /// An entry's rules in order: too large, undefined variables, after a catch-all, repeated.
    /// Returns the entry's first catch-all.
    mutating func validateRuleOrder(_ entry: RuleSet.Entry) -> RuleSet.Rule? {
        var catchAll: RuleSet.Rule?
        // `/?*`: every URL but the root's goes to it first.
        var allButTheRoot: RuleSet.Rule?
        // Rules as written, compact: equal rules print alike (a set, as files hold thousands).
        var seen = Set<String>()
        for rule in entry.rules {
            let size = rule.largestAutomatonSize
            if size > Pattern.maximumAutomatonSize {
                report(
                    .aasa(.patternTooLong),
                    "\(rule.path) expands, with its variables' values, to \(size) matcher states; patterns over \(Pattern.maximumAutomatonSize) are treated as matching nothing."
                )
            }
            for name in rule.undefinedVariables {
                report(
                    .aasa(.variableUndefined),
                    "\(rule.path) uses $(\(name)), which is neither defined in substitutionVariables nor built in: the pattern never matches."
                )
            }
            let written = rule.source.prettyPrinted(indent: "")
            if let earlier = catchAll {
                reportAfterCatchAll(rule, earlier: earlier)
            } else if let earlier = allButTheRoot, !rule.canMatchTheRoot {
                reportAfterCatchAll(rule, earlier: earlier, butTheRoot: true)
            } else if seen.contains(written) {
                report(
                    .aasa(.ruleUnreachable), .changesNothing,
                    "\(rule.path) repeats an earlier rule of the same entry, which always decides first: it changes nothing."
                )
            } else if rule.matchesEverything {
                catchAll = rule
            } else if rule.matchesEverythingButTheRoot, allButTheRoot == nil {
                allButTheRoot = rule
            }
            seen.insert(written)
        }
        return catchAll
    }

    /// - Parameter butTheRoot: `earlier` matches every URL but the root's (`/?*`), and `rule`
    ///   cannot match the root (iOS takes the first rule that matches).
    mutating func reportAfterCatchAll(_ rule: RuleSet.Rule, earlier: RuleSet.Rule, butTheRoot: Bool = false) {
        let every = butTheRoot ? "every URL this one could (every path but /)" : "every URL"
        if rule.exclude || earlier.exclude {
            let what = rule.exclude ? "this exclusion never applies" : "this rule never decides"
            report(.aasa(.ruleUnreachable), "\(rule.path): \(what), because \(earlier.path) matches \(every) first.")
        } else {
            // Its URLs go to the same apps anyway: nothing changes.
            report(
                .aasa(.ruleUnreachable), .changesNothing,
                "\(rule.path) never decides, because \(earlier.path) matches \(every) first; it would send them to the same apps, so nothing changes."
            )
        }
    }

    /// Which variables the patterns refer to (in components and both defaults levels): the
    /// others are never used.
    mutating func reportUnusedVariables(_ applinks: JSONObject) {
        var texts: [String] = []
        collectPatternTexts(.object(applinks), into: &texts)
        var used = Set<String>()
        for text in texts { used.formUnion(Self.variableNames(in: text)) }
        for name in (applinks["substitutionVariables"]?.objectValue?.keys ?? []) where !used.contains(name) {
            report(
                .aasa(.variableUnused),
                "applinks.substitutionVariables[\(JSONValue.string(name).prettyPrinted())] is never used.")
        }
    }

    func collectPatternTexts(_ value: JSONValue, into texts: inout [String]) {
        switch value {
        case .string(let text): texts.append(text)
        case .array(let list): for item in list { collectPatternTexts(item, into: &texts) }
        case .object(let object):
            for member in object.members where member.key != "substitutionVariables" && member.key != "comment" {
                collectPatternTexts(member.value, into: &texts)
            }
        default: break
        }
    }

    static func variableNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let start = rest.firstRange(of: "$(") {
            rest = rest[start.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            names.append(String(rest[..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
