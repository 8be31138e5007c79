/// The catalog's entries for `/.well-known/webauthn`: what Chromium
/// (`webauth_request_security_checker.cc`) and Firefox (`WebAuthnRelatedOriginFetcher.sys.mjs`)
/// do with the file, with Chromium's `AuthenticatorStatus` where it names the result.

/// /.well-known/webauthn's codes: each its case and its entry, in one exhaustive switch.
public enum WebAuthnCode: String, FindingCodeFamily {
    case status = "webauthn.status"
    case redirect = "webauthn.redirect"
    case redirectInsecure = "webauthn.redirect-insecure"
    case contentType = "webauthn.content-type"
    case tooLarge = "webauthn.too-large"
    case jsonInvalid = "webauthn.json-invalid"
    case shape = "webauthn.shape"
    case originsEmpty = "webauthn.origins-empty"
    case entryType = "webauthn.entry-type"
    case entrySkipped = "webauthn.entry-skipped"
    case noOrigin = "webauthn.no-origin"
    case entryRead = "webauthn.entry-read"
    case labelLimit = "webauthn.label-limit"
    case originMissing = "webauthn.origin-missing"
    case unknownKey = "webauthn.unknown-key"
    case absent = "webauthn.absent"

    // One entry per code: a table, which reads better whole.
    public var definition: FindingDefinition {
        let webauthn = AssociationKind.webauthn.category
        return switch self {
        case .status:
            FindingDefinition(
                webauthn, .error,
                meaning:
                    "/.well-known/webauthn did not answer 200 (after any https redirects). Browsers then allow no other origin to use the RP ID (Chromium: BAD_RELYING_PARTY_ID_ATTEMPTED_FETCH): a passkey request from a related origin is refused.",
                fix: "Serve https://RP-ID/.well-known/webauthn with status 200 to every client, without cookies.")
        case .redirect:
            FindingDefinition(
                webauthn, .info,
                meaning:
                    "/.well-known/webauthn redirects over https; browsers follow it (each hop over https) and read the file at its end.",
                fix: "Nothing to do; serving the file directly saves a round trip on every related-origin request.")
        case .redirectInsecure:
            FindingDefinition(
                webauthn, .error,
                meaning:
                    "/.well-known/webauthn redirects to a URL that is not https (or the redirects go on past five). The file is fetched over https only; browsers allow no related origin.",
                fix: "Serve the file over https at the RP ID, or redirect only to https URLs.")
        case .contentType:
            FindingDefinition(
                webauthn, .error,
                meaning:
                    "/.well-known/webauthn is not served as application/json. Chromium compares the type exactly (BAD_RELYING_PARTY_ID_WRONG_CONTENT_TYPE) and Firefox requires it: the file is not read.",
                fix: "Serve the file with Content-Type: application/json.")
        case .tooLarge:
            FindingDefinition(
                webauthn, .error,
                meaning:
                    "/.well-known/webauthn is larger than the 256 KiB Chromium downloads (kRpIdMaxBodyBytes); the fetch fails (BAD_RELYING_PARTY_ID_ATTEMPTED_FETCH).",
                fix: "List only the origins in use: at most five registrable domains count anyway.")
        case .jsonInvalid:
            FindingDefinition(
                webauthn, .error,
                meaning:
                    "/.well-known/webauthn is not strict JSON; browsers reject the file (Chromium: BAD_RELYING_PARTY_ID_JSON_PARSE_ERROR).",
                fix: "Write strict JSON: {\"origins\": [\"https://shop.example\"]}.")
        case .shape:
            FindingDefinition(
                webauthn, .error,
                meaning:
                    "/.well-known/webauthn is not a JSON object with an \"origins\" array; browsers reject it (Chromium: BAD_RELYING_PARTY_ID_JSON_PARSE_ERROR).",
                fix: "Write {\"origins\": [\"https://shop.example\", \"https://example.co.uk\"]}.")
        case .originsEmpty:
            FindingDefinition(
                webauthn, .warning,
                meaning: "\"origins\" is empty: the file is valid and allows no other origin.",
                fix: "List the origins that should use this RP ID's passkeys, or stop serving the file.")
        case .entryType:
            FindingDefinition(
                webauthn, .error,
                meaning:
                    "An entry of \"origins\" is not a string. Chromium stops reading there with BAD_RELYING_PARTY_ID_JSON_PARSE_ERROR, so origins listed after it never match; Firefox refuses the whole file.",
                fix: "Make every entry a string, \"https://shop.example\".")
        case .entrySkipped:
            FindingDefinition(
                webauthn, .warning,
                meaning:
                    "An entry is not a web origin a browser can use: not a URL (a bare host name such as example.co.uk, as the passkeys developer site shows), another scheme, or a host without a registrable domain (an IP address, localhost, a public suffix). Every browser skips it silently.",
                fix: "Write the origin in full, with its scheme: https://example.co.uk.")
        case .noOrigin:
            FindingDefinition(
                webauthn, .error,
                meaning:
                    "The file lists entries, but none is an origin a browser can use (each is said in its own finding): it allows no other origin, so Chromium refuses every request from another origin for this RP ID. The file fails its only purpose.",
                fix:
                    "Write each origin in full, https and a host with a registrable domain: https://shop.example.co.uk."
            )
        case .entryRead:
            FindingDefinition(
                webauthn, .info,
                meaning:
                    "An entry is compared by the origin of the URL it parses to, not as written: a path, query or user info is ignored, the default port is dropped, http:// is another origin than https://, and a * is a host name, never a pattern.",
                fix: "Write the origin itself (https://HOST or https://HOST:PORT) so that it reads as it works.")
        case .labelLimit:
            FindingDefinition(
                webauthn, .warning,
                meaning:
                    "The file names more than five registrable-domain labels (the first label of each origin's eTLD+1). Browsers count at most five, in the file's order, and skip every entry of a later new label (Chromium: BAD_RELYING_PARTY_ID_NO_JSON_MATCH_HIT_LIMITS).",
                fix:
                    "Keep five labels: move the origins that must work first, or serve their passkeys under another RP ID."
            )
        case .originMissing:
            FindingDefinition(
                webauthn, .error,
                meaning:
                    "An origin domains.txt expects (origin:URL) cannot use this RP ID: the file does not list it in a form browsers read, or drops it past the label limit, or stops before it. A passkey request from that site is refused (Chromium names the reason).",
                fix:
                    "Add the origin to \"origins\" as https://HOST, before any entry that is not a string, within five labels."
            )
        case .unknownKey:
            FindingDefinition(
                webauthn, .info,
                meaning: "The file holds keys besides \"origins\"; browsers ignore them.",
                fix: "Nothing to do unless a key was meant to be \"origins\" (check its spelling).")
        case .absent:
            FindingDefinition(
                webauthn, .info,
                meaning:
                    "The domain declares passkeys and serves no /.well-known/webauthn (404). That is right for passkeys used from the RP ID's own origin; browsers then allow no related origin.",
                fix:
                    "Nothing, unless a passkey must work from another site: then serve {\"origins\": [\"https://shop.example\"]} as application/json, and name it in domains.txt (origin:https://shop.example)."
            )
        }
    }
}

extension FindingCode {
    /// A code of /.well-known/webauthn's.
    public static func webAuthn(_ code: WebAuthnCode) -> FindingCode { FindingCode(code) }
}
