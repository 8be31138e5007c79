/// The catalog's entries for `/.well-known/passkey-endpoints` (W3C "Passkey Endpoints"): what
/// credential managers (Apple's passwords app on OS 26, Google Password Manager) read.

/// /.well-known/passkey-endpoints' codes, and /.well-known/change-password's, which the kind checks
/// beside it: each its case and its entry, in one exhaustive switch.
public enum PasskeyEndpointsCode: String, FindingCodeFamily {
    case absent = "passkey-endpoints.absent"
    case status = "passkey-endpoints.status"
    case redirect = "passkey-endpoints.redirect"
    case contentType = "passkey-endpoints.content-type"
    case tooLarge = "passkey-endpoints.too-large"
    case jsonInvalid = "passkey-endpoints.json-invalid"
    case notObject = "passkey-endpoints.not-object"
    case url = "passkey-endpoints.url"
    case unreachable = "passkey-endpoints.unreachable"
    case unknownKey = "passkey-endpoints.unknown-key"
    case changePasswordAbsent = "change-password.absent"
    case changePasswordRedirect = "change-password.redirect"
    case changePasswordTarget = "change-password.target"

    // One entry per code: a table, which reads better whole.
    public var definition: FindingDefinition {
        let category = AssociationKind.passkeyEndpoints.category
        return switch self {
        case .absent:
            FindingDefinition(
                category, .info,
                meaning:
                    "The site serves no /.well-known/passkey-endpoints (404). It is optional: credential managers then cannot send a user straight to the pages that create or manage a passkey.",
                fix:
                    "Serve {\"enroll\": \"https://HOST/passkeys/new\", \"manage\": \"https://HOST/account/passkeys\"} as application/json, or {} when there are no such pages."
            )
        case .status:
            FindingDefinition(
                category, .error,
                meaning:
                    "/.well-known/passkey-endpoints answered neither 200 nor 404: credential managers read no endpoints, and the answer (an error, a block) is not the site's intent.",
                fix: "Serve the file with status 200 to every client, or 404 when the site advertises none.")
        case .redirect:
            FindingDefinition(
                category, .error,
                meaning:
                    "/.well-known/passkey-endpoints answered with a redirect; the specification says a redirect must not be returned, and credential managers do not follow it.",
                fix: "Serve the file directly, with 200, at the RP ID's host.")
        case .contentType:
            FindingDefinition(
                category, .error,
                meaning: "/.well-known/passkey-endpoints is not served as application/json.",
                fix: "Serve the file with Content-Type: application/json.")
        case .tooLarge:
            FindingDefinition(
                category, .error,
                meaning:
                    "/.well-known/passkey-endpoints is larger than 128 KB; the file holds three URLs and a few hundred bytes.",
                fix: "Serve only the endpoints: enroll, manage, prfUsageDetails.")
        case .jsonInvalid:
            FindingDefinition(
                category, .error,
                meaning: "/.well-known/passkey-endpoints is not strict JSON; credential managers cannot read it.",
                fix: "Write strict JSON: {\"enroll\": \"https://HOST/passkeys/new\"}.")
        case .notObject:
            FindingDefinition(
                category, .error,
                meaning:
                    "/.well-known/passkey-endpoints is not a JSON object ({} says \"passkeys supported, no endpoints advertised\").",
                fix: "Write an object: {\"enroll\": \"…\", \"manage\": \"…\"}, or {}.")
        case .url:
            FindingDefinition(
                category, .error,
                meaning:
                    "An endpoint (enroll, manage, prfUsageDetails) is not an absolute https URL; credential managers cannot open it.",
                fix: "Give each endpoint as an absolute https URL: https://HOST/account/passkeys.")
        case .unreachable:
            FindingDefinition(
                category, .warning,
                meaning:
                    "An endpoint's page does not answer 2xx (after its redirects): a user sent there by a credential manager lands on an error.",
                fix: "Point the endpoint at a page that answers 200 (a sign-in redirect on the way is fine).")
        case .unknownKey:
            FindingDefinition(
                category, .info,
                meaning:
                    "The file holds members besides enroll, manage and prfUsageDetails; they are kept for later versions of the specification and ignored today.",
                fix: "Nothing to do unless a member was meant to be one of the three (check its spelling).")
        case .changePasswordAbsent:
            FindingDefinition(
                category, .info,
                meaning:
                    "The site does not serve /.well-known/change-password (W3C \"A Well-Known URL for Changing Passwords\"): password managers cannot send a user straight to the page that changes a password.",
                fix:
                    "Redirect /.well-known/change-password (302, 303 or 307) to the page where a signed-in user changes the password."
            )
        case .changePasswordRedirect:
            FindingDefinition(
                category, .warning,
                meaning:
                    "/.well-known/change-password answers, but not with the temporary redirect (302, 303 or 307) the specification asks for: a page served at that URL itself, or a permanent redirect that clients cache.",
                fix: "Answer /.well-known/change-password with a 302, 303 or 307 redirect to the change-password page."
            )
        case .changePasswordTarget:
            FindingDefinition(
                category, .warning,
                meaning:
                    "/.well-known/change-password redirects to a page that does not answer 200 (after its redirects): a user sent there by a password manager lands on an error.",
                fix:
                    "Point the redirect at the change-password page, which answers 200 (a sign-in redirect on the way is fine)."
            )
        }
    }
}

extension FindingCode {
    /// A code of /.well-known/passkey-endpoints' (or change-password's).
    public static func passkeyEndpoints(_ code: PasskeyEndpointsCode) -> FindingCode { FindingCode(code) }
}
