import AASAModel

/// The seam of the other association files in `serve`: each names its check parameters
/// (`?android=…`) and turns them into what the domain is audited for.
extension CheckQuery {
    /// Every association file's parameter names, besides `domain` and `app-id`.
    static let associationParameters = ["android"]

    /// What the check audits besides the AASA; an error names a bad value.
    func wants() throws(CheckQueryError) -> AssociationWants {
        var wants = AssociationWants()
        if let apps = more["android"] { wants.android = try Self.androidApps(apps) }
        return wants
    }
}

/// A check parameter that is not what it must be (400).
public struct CheckQueryError: Error, Equatable {
    public var message: String
}
