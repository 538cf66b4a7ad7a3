extension Array where Element: Identifiable {
    /// The element whose `id` is `id`, as TCA's `IdentifiedArray` has it: nil when none is.
    /// Setting an element replaces the one of that id (or appends it when there is none);
    /// setting nil removes it. What a test written by `rewind write-test` uses to name an
    /// element by identity, as Rewind's diff names it (`items[id=3].title`):
    ///
    /// ```swift
    /// $0.items[id: 3]?.title = "Buy oat milk"
    /// ```
    public subscript(id id: Element.ID) -> Element? {
        get { first { $0.id == id } }
        set {
            let index = firstIndex { $0.id == id }
            switch (index, newValue) {
            case let (index?, element?): self[index] = element
            case let (index?, nil): remove(at: index)
            case let (nil, element?): append(element)
            case (nil, nil): break
            }
        }
    }
}
