/// The coding keys this library makes up itself: array positions and `super`.
///
/// Positions read `Index 3`, the spelling Foundation's coders use, so that paths in errors
/// look the same whichever coder produced them. The text is only made when asked for, and
/// the enum fits an existential's inline buffer, so keying an array element allocates nothing.
enum JSONCodingKey: CodingKey {
    case index(Int)
    case named(String)

    init(stringValue: String) {
        self = .named(stringValue)
    }

    init(intValue: Int) {
        self = .index(intValue)
    }

    var stringValue: String {
        switch self {
        case .index(let index): "Index \(index)"
        case .named(let name): name
        }
    }

    var intValue: Int? {
        if case .index(let index) = self { index } else { nil }
    }

    static let `super` = JSONCodingKey.named("super")
}
