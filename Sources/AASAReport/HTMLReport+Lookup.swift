import Mustache

// Direct lookups for the view models rendered once per domain, so that Mustache does not
// reflect over them (reflection was most of the CPU an audit spent per domain).

extension RowView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "domain": domain
        case "verdict": verdict
        case "inputLine": inputLine
        case "expected": expected
        case "hasExpected": hasExpected
        case "locations": locations
        case "findings": findings
        case "hasFindings": hasFindings
        case "services": services
        case "hasServices": hasServices
        case "files": files
        case "associations": associations
        case "codes": codes
        case "rank": rank
        case "causes": causes
        case "line": line
        case "platform": platform
        default: nil
        }
    }
}

extension LocationView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "summary": summary
        case "tone": tone
        case "details": details
        default: nil
        }
    }
}

extension FindingView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "code": code
        case "severity": severity
        case "location": location
        case "message": message
        case "why": why
        case "fix": fix
        case "overriddenFrom": overriddenFrom
        case "showsFix": showsFix
        case "platformFix": platformFix
        case "platformName": platformName
        case "consequences": consequences
        case "hasConsequences": hasConsequences
        case "acknowledged": acknowledged
        default: nil
        }
    }
}

extension ServiceView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "service": service
        case "appIDs": appIDs
        default: nil
        }
    }
}

extension FileView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "sha256": sha256
        case "text": text
        case "marked": marked.map { $0 as Any }
        case "hasMarks": marked != nil
        case "sameAsDomain": sameAsDomain
        case "sameAsOwn": sameAsOwn
        default: nil
        }
    }
}

extension FileView.Piece: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "markTitle": markTitle
        default: nil
        }
    }
}

extension IndexRowView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "domain": domain
        case "verdict": verdict
        case "report": report
        case "codes": codes
        case "since": since
        case "changes": changes
        case "flapping": flapping
        case "staleFor": staleFor
        case "lastPassed": lastPassed
        case "allCodes": allCodes
        case "rank": rank
        case "sinceRuns": sinceRuns
        case "changeCount": changeCount
        case "acknowledged": acknowledged
        default: nil
        }
    }
}
