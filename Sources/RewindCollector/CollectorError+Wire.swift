import RewindLog
import RewindUpload

extension CollectorError {
    /// The store's refusal of an upload, with the status its kind answers with.
    init(refusing error: UploadError) {
        self.init(status: error.kind.status, code: error.kind.rawValue, error.message, storedThrough: error.storedThrough)
    }

    /// The refusal's body, as the client reads it.
    var wireRefusal: WireRefusal {
        WireRefusal(code: code, message: message, storedThrough: storedThrough, command: command)
    }
}
