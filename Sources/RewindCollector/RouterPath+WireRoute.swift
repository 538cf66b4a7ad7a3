#if Servers
import Hummingbird
import RewindUpload

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension RouterPath {
    /// The path a router matches for `route`.
    init(_ route: WireRoute) {
        self.init(route.pattern)
    }
}
#endif
