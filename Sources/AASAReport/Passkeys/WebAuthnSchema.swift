/// The JSON Schema of `/.well-known/webauthn` (`schemas/`, printed by `aasa-audit schema
/// webauthn`): an object with a non-empty `origins` array of strings, each an origin URL. Its
/// text is the repository's file, embedded by Scripts/generate-docs.sh.
public enum WebAuthnSchema {
    public static let entry = AssociationSchema(kind: .webauthn, file: "webauthn.schema.json", text: text)
}
