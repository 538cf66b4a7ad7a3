/// Lets negative numbers through argument-parser, which reads any word that starts with `-`
/// as an option (apple/swift-argument-parser#31): `show LOG -1` would say
/// `Missing expected argument '<step>'`.
///
/// A word that is a minus and digits is not an option of ours, so it is rewritten with the
/// minus sign U+2212, which the parser takes for a value; ``StepArgument`` and the other
/// readers of numbers accept either sign.
enum ArgumentNormalizer {
    static let minusSign: Character = "\u{2212}"

    static func normalize(_ arguments: [String]) -> [String] {
        var afterTerminator = false
        return arguments.map { argument in
            if argument == "--" { afterTerminator = true }
            guard !afterTerminator, argument.count > 1, argument.first == "-",
                argument.dropFirst().allSatisfy(\.isASCIIDigit)
            else { return argument }
            return String(minusSign) + argument.dropFirst()
        }
    }

    /// The integer in `text`, whose minus may be either sign.
    static func integer(_ text: String) -> Int? {
        Int(text.first == minusSign ? "-" + text.dropFirst() : text)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
