import AASAModel
import AASAReport

/// The seam of the other association files in `serve`: each names its check parameters
/// (`?android=…`) and turns them into what the domain is audited for.
extension CheckQuery {
    /// Every association file's parameter names, besides `domain` and `app-id`: the check
    /// form's fields, so that the form and the API take the same names.
    static let associationParameters = AssociationSections.checkFormFields.map(\.name)

    /// What the check audits besides the AASA; an error names a bad value.
    func wants() throws(HTTPError) -> AssociationWants {
        var wants = AssociationWants()
        if let apps = more["android"] { wants.android = try Self.androidApps(apps) }
        return wants
    }
}
