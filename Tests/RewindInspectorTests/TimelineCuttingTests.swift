import RewindInspector
import RewindJSON
import Testing

/// What a timeline line keeps whole and what it cuts, on entries made by hand.
@Suite struct TimelineCuttingTests {
    static let uuid = "5f0c6a5e-8d1b-4c53-9a4e-2b7d1f3c9e01"
    static let other = "00000000-0000-0000-0000-000000000000"
    static let note = "Remember to buy milk, bread, eggs and the good coffee on the way home"

    static func entry(_ action: JSONValue, name: String, changes: [JSONChange]) -> TimelineEntry {
        TimelineEntry(step: 3, offset: 1.5, origin: "todo", name: name, cause: nil, action: action, outputs: [], changes: changes)
    }

    static func change(_ key: String, _ kind: JSONChange.Kind) -> JSONChange {
        JSONChange(path: JSONPath([.key(key)]), kind: kind)
    }

    @Test func anIdOrANumberPrintsWholeAndLongTextIsCut() {
        let entry = Self.entry(
            ["select": ["_0": .string(Self.uuid)]], name: "select",
            changes: [
                Self.change("selected", .changed(from: .string(Self.other), to: .string(Self.uuid))),
                Self.change("note", .added(.string(Self.note))),
                Self.change("total", .changed(from: .double(1234567.125), to: .double(98765432.0625))),
            ])
        #expect(
            TimelineRenderer().render([entry]) == [
                #"    3   +1.500s  todo  select("5f0c6a5e-8d1b-4c53-9a4e-2b7d1f3c9e01")  "#
                    + #"selected: "00000000-0000-0000-0000-000000000000" → "5f0c6a5e-8d1b-4c53-9a4e-2b7d1f3c9e01", "#
                    + #"note + "Remember to buy milk, bread, eggs and …, total: 1234567.125 → 98765432.0625"#
            ])
    }

    @Test func aContainerIsCountedAndAPayloadDropsWholeFields() {
        let item: JSONValue = ["id": .string(Self.uuid), "title": "Milk", "isDone": false]
        let entry = Self.entry(
            ["renameItem": ["id": .string(Self.uuid), "title": .string(Self.note)]], name: "renameItem",
            changes: [Self.change("items", .added([item])), Self.change("last", .removed(item)), Self.change("tags", .added(["a", "b"]))])
        #expect(
            TimelineRenderer().render([entry]) == [
                #"    3   +1.500s  todo  renameItem(id: "5f0c6a5e-8d1b-4c53-9a4e-2b7d1f3c9e01", …)  "#
                    + #"items + [1 item], last − {3 fields}, tags + ["a","b"]"#
            ])
    }

    @Test func theChangesStayInOneColumnPastAnActionTooLongForIt() {
        let short = Self.entry(["toggle": ["id": .string(Self.uuid)]], name: "toggle", changes: [Self.change("done", .added(true))])
        let long = Self.entry(
            ["thumbnailResponseReceived": ["id": .string(Self.uuid), "status": "failed"]], name: "thumbnailResponseReceived",
            changes: [Self.change("status", .added("failed"))])
        let lines = TimelineRenderer().render([short, long])
        #expect(
            lines == [
                #"    3   +1.500s  todo  toggle(id: "5f0c6a5e-8d1b-4c53-9a4e-2b7d1f3c9e01")                done + true"#,
                #"    3   +1.500s  todo  thumbnailResponseReceived(id: "5f0c6a5e-8d1b-4c53-9a4e-2b7d1f3c…  status + "failed""#,
            ])
        let columns = zip(lines, ["done +", "status +"]).map { line, change in
            line.distance(from: line.startIndex, to: line.firstRange(of: change)!.lowerBound)
        }
        #expect(columns == [89, 89], "the changes start in one column")
    }
}
