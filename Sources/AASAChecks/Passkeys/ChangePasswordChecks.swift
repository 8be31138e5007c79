import AASAModel

/// `/.well-known/change-password` (W3C "A Well-Known URL for Changing Passwords"), read for a
/// domain that declares passkeys: a temporary redirect (302, 303, 307) to a page that answers 200.
/// Its findings are at its own location (`change-password`, the passkeys kind's other file), with
/// the `change-password.*` codes.
public enum ChangePasswordChecks {
    public static let path = AlsoServedFile.changePassword.path
    /// The redirects the specification asks for.
    public static let redirects: Set<Int> = [302, 303, 307]

    /// The first answer, and where its redirects led (nil when it did not redirect, or the
    /// redirect had no target).
    public static func assess(_ first: FetchRecord, final: FetchRecord?) -> [Finding] {
        let location = FindingLocation.changePassword
        // What keeps the host from answering is said by its other fetches.
        guard first.error == nil, let status = first.status else { return [] }
        if status == 404 || status == 410 {
            return [Finding(.passkeyEndpoints(.changePasswordAbsent), location, "No \(path) (HTTP \(status)).")]
        }
        guard (300..<400).contains(status) else {
            return [
                Finding(
                    .passkeyEndpoints(.changePasswordRedirect), location,
                    "\(path) answered HTTP \(status); it should redirect (302, 303 or 307) to the change-password page."
                )
            ]
        }
        var findings: [Finding] = []
        if !redirects.contains(status) {
            findings.append(
                Finding(
                    .passkeyEndpoints(.changePasswordRedirect), location,
                    "\(path) redirects with HTTP \(status); the specification asks for 302, 303 or 307 (a permanent redirect is cached by clients)."
                ))
        }
        if let final, let finalStatus = final.status, finalStatus != 200 || final.error != nil {
            findings.append(
                Finding(
                    .passkeyEndpoints(.changePasswordTarget), location,
                    "\(path) leads to \(final.url.prefix(300)), which answered HTTP \(finalStatus)."))
        } else if let final, final.status == nil {
            findings.append(
                Finding(
                    .passkeyEndpoints(.changePasswordTarget), location,
                    "\(path) leads to \(final.url.prefix(300)), which could not be fetched: \(final.error?.message.prefix(300) ?? "no answer")."
                ))
        }
        return findings
    }
}
