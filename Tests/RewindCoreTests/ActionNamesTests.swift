import Atomics
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindCore

@Suite struct ActionNamesTests {
    /// An action that counts how often it is asked for its name.
    indirect enum Tapped: Codable, DescribedAction {
        case didType(String)
        case didTapLogin
        case nested(Tapped)

        static let asked = ManagedAtomic<Int>(0)

        var origin: String { "test" }

        var name: String {
            Self.asked.wrappingIncrement(ordering: .relaxed)
            if case let .nested(inner) = self { return inner.name }
            return Mirror(reflecting: self).children.first?.label ?? "\(self)"
        }
    }

    @Test func aNameIsAskedOncePerShapeAndPayloadsDoNotMatter() throws {
        var names = ActionNames()
        let encoder = JSONValueEncoder()
        let actions: [Tapped] = [.didType("a"), .didType("bcd"), .didTapLogin, .nested(.didTapLogin), .nested(.didType("x")), .didTapLogin]
        let before = Tapped.asked.load(ordering: .relaxed)
        let read = try actions.map { try names.name(of: $0, encoded: encoder.encode($0)) }
        #expect(read == ["didType", "didType", "didTapLogin", "didTapLogin", "didType", "didTapLogin"])
        // didType, didTapLogin, nested(didTapLogin) (asking it asks the inner one too), nested(didType) likewise.
        #expect(Tapped.asked.load(ordering: .relaxed) - before == 6)
    }
}
