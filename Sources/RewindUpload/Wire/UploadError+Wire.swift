import RewindLog

extension UploadError.Kind {
    /// The HTTP status a server answers this refusal with; a client reads the kind back from
    /// a refusal of this status and the kind's code (``WireRefusal/uploadError(status:)``).
    package var status: Int {
        switch self {
        case .malformed: 400
        case .tooLarge: 413
        case .badChecksum, .invalidValue: 422
        case .outOfOrder, .conflict: 409
        case .otherApp: 403
        }
    }
}

extension WireRefusal {
    /// The body of a store's refusal of an upload.
    package init(_ error: UploadError) {
        self.init(code: error.kind.rawValue, message: error.message, storedThrough: error.storedThrough)
    }

    /// The store's refusal this body of a `status` answer says, as a store on this machine
    /// throws it; nil when it is another refusal (a token's, a limit's of the server).
    package func uploadError(status: Int) -> UploadError? {
        guard let kind = UploadError.Kind(rawValue: code), kind.status == status else { return nil }
        return UploadError(kind, message, storedThrough: storedThrough)
    }
}
