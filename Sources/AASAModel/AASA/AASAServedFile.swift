extension ServedFile {
    /// The AASA, at `/.well-known/`, as Apple's bot fetches it: its codes of how it is served.
    public static let aasa = ServedFile(
        id: AssociationKinds.aasaName, name: AssociationKinds.aasaFileName, path: AASALocation.wellKnown.path,
        fetchedBy: "Apple's bot (AASA-Bot)",
        codes: ServingCodes(
            status: .aasa(.httpStatus), redirect: .aasa(.httpRedirect), contentType: .aasa(.httpContentType),
            syntax: [.aasa(.jsonInvalid), .aasa(.jsonNotObject)], blocked: .aasa(.uaBlocked),
            misnamed: .aasa(.locationMisnamed)))
}
