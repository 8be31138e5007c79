import AASAAudit
import AASAModel
import AASAReport

/// The seam of the other association files in `serve`: each kind's word is its check parameter
/// (`?android=…`), whose values its want type reads (`AssociationWant.parsing`).
extension CheckQuery {
    /// Every association file's parameter names, besides `domain` and `app-id`: the check
    /// form's fields, so that the form and the API take the same names.
    static var associationParameters: [String] { AssociationSections.checkFormFields.map(\.name) }

}

extension DomainCheck.Naming {
    /// How the check form and the API name what a check takes.
    static let query = DomainCheck.Naming(
        appIDs: "app-id", ios: "ios", iosNone: "ios=\(AASAWant.iosNone)", value: { "\($0)=\($1)" })
}
