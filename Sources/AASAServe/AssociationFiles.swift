import AASAModel
import AASAReport

/// The seam of the other association files in `serve`: each kind's word is its check parameter
/// (`?android=…`), whose values its want type reads (`AssociationWant.parsing`).
extension CheckQuery {
    /// Every association file's parameter names, besides `domain` and `app-id`: the check
    /// form's fields, so that the form and the API take the same names.
    static var associationParameters: [String] { AssociationSections.checkFormFields.map(\.name) }

    /// Whether the domain is to serve an AASA (`ios=none` says not); an error names a bad value.
    func expectsAASA() throws(HTTPError) -> Bool {
        guard let ios else { return true }
        guard DomainTarget.expectsAASA(choice: ios) == false else {
            throw HTTPError(
                400, "ios takes \(DomainTarget.iosNone) (the domain serves no AASA), not \(ios.prefix(80)).")
        }
        guard appIDs.isEmpty else {
            throw HTTPError(
                400, "app-id names an app the AASA must list; with ios=\(DomainTarget.iosNone) no AASA is asked for.")
        }
        return false
    }

    /// What the check audits besides the AASA; an error names a bad value.
    func wants() throws(HTTPError) -> AssociationWants {
        var wants = AssociationWants()
        for kind in AssociationKinds.all {
            guard let values = more[kind.word] else { continue }
            do {
                wants.insert(try kind.wantType.parsing(values))
            } catch {
                throw HTTPError(400, "\(kind.word)=\(error.value): \(error.reason).")
            }
        }
        return wants
    }
}
