extension ServedFile {
    /// The AASA, at `/.well-known/`, as Apple's bot fetches it: the registry's first file
    /// (`AssociationKinds.files`).
    public static let aasa = ServedFile(
        id: "aasa", name: "apple-app-site-association", path: AASALocation.wellKnown.path,
        fetchedBy: "Apple's bot (AASA-Bot)", codes: AASACode.self,
        categories: [.serving, .content, .domain, .expectations, .deviceView], platform: .ios,
        serving: ServingCodes(
            status: .aasa(.httpStatus), redirect: .aasa(.httpRedirect), contentType: .aasa(.httpContentType),
            syntax: [.aasa(.jsonInvalid), .aasa(.jsonNotObject)], blocked: .aasa(.uaBlocked),
            misnamed: .aasa(.locationMisnamed)))
}
