import AASAModel

/// A domain's findings as reports show them: each cause, worst first (in the checks' order
/// within a severity), with the findings that follow from it (`Finding.causedBy`).
public struct FindingGroups: Sendable {
    public struct Group: Sendable {
        public var cause: Finding
        public var consequences: [Finding]
    }

    public var groups: [Group]

    public init(_ findings: [Finding]) {
        var groups: [Group] = []
        var groupOf: [FindingCause: Int] = [:]
        let ordered = findings.enumerated().sorted {
            ($1.element.severity, $0.offset) < ($0.element.severity, $1.offset)
        }.map(\.element)
        // A consequence whose cause is not among the findings stands as a cause of its own.
        let present = Set(findings.map(FindingCause.init))
        for finding in ordered where finding.causedBy.map({ !present.contains($0) }) ?? true {
            if groupOf[FindingCause(finding)] == nil { groupOf[FindingCause(finding)] = groups.count }
            groups.append(Group(cause: finding, consequences: []))
        }
        for finding in findings {
            guard let cause = finding.causedBy, let index = groupOf[cause] else { continue }
            groups[index].consequences.append(finding)
        }
        self.groups = groups
    }
}
