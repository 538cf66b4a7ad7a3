import Testing

@testable import RewindCore

/// What an effect asks for, read without running it: sends, outputs and named or unnamed work,
/// in order, through `merge` and `map`.
@Suite struct EffectSummaryTests {
    enum Parent: Equatable, Sendable {
        case child(Counter.Action)
    }

    @Test func anEffectListsWhatItAsksForInOrder() {
        let effect = Effect<Counter.Action>.merge(
            .send(.increment),
            .run(name: "facts.load") { _ in },
            .output(.didFinish(count: 2)),
            .run { _ in },
            .send(.didTapFact)
        )
        let summary = effect.summary
        #expect(summary.sends == [.increment, .didTapFact])
        #expect(summary.outputs == [.output(.didFinish(count: 2))])
        #expect(summary.runs == ["facts.load", nil])
        #expect(!summary.isEmpty)
        #expect(Effect<Counter.Action>.none.summary.isEmpty)
    }

    @Test func aMappedEffectKeepsItsNamesAndLiftsItsActions() {
        let effect = Effect<Counter.Action>.merge(.run(name: "facts.load") { _ in }, .send(.increment)).map(Parent.child)
        #expect(effect.summary.runs == ["facts.load"])
        #expect(effect.summary.sends == [.child(.increment)])
    }
}
