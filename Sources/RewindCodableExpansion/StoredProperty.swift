import SwiftSyntax

/// A stored property of a struct, as synthesized `Codable` sees it.
struct StoredProperty {
    /// Its name, which is its key.
    let name: String
    /// Whether `init(from:)` reads it: not a `let` with an initial value, which it keeps.
    let isDecoded: Bool
    /// Its type as written, if it is: the member is then read as that type; otherwise its type
    /// is inferred from what it is assigned to.
    let type: String?
    /// Whether it is `private` or `fileprivate`, which makes the memberwise initializer so.
    var isPrivate = false

    /// The stored instance properties of `members`, in order; throws at a shape synthesized
    /// `Codable` treats in a way the macro does not follow.
    static func all(in members: MemberBlockSyntax) throws(DiagnosticError) -> [StoredProperty] {
        var properties: [StoredProperty] = []
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let modifiers = Set(variable.modifiers.map(\.name.text))
            if modifiers.contains("static") || modifiers.contains("class") { continue }
            if modifiers.contains("lazy") { throw DiagnosticError(variable, .lazyProperty) }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings where isStored(binding) {
                if !variable.attributes.isEmpty { throw DiagnosticError(variable, .propertyWrapper) }
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                    throw DiagnosticError(binding, .destructuringPattern)
                }
                properties.append(
                    StoredProperty(
                        name: identifier.identifier.identifierName, isDecoded: !(isLet && binding.initializer != nil),
                        type: binding.typeAnnotation.map { $0.type.spelledForMetatype },
                        isPrivate: modifiers.contains("private") || modifiers.contains("fileprivate")))
            }
        }
        return properties
    }

    /// Whether `binding` stores a value: it has no accessors, or only observers.
    private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let accessors = binding.accessorBlock?.accessors else { return true }
        switch accessors {
        case .getter:
            return false
        case .accessors(let list):
            return list.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
        }
    }
}

extension TokenSyntax {
    /// The name a key is made of: the identifier without its backticks.
    var identifierName: String {
        var text = self.text
        if text.hasPrefix("`") && text.hasSuffix("`") && text.count >= 2 {
            text = String(text.dropFirst().dropLast())
        }
        return text
    }
}

extension TypeSyntax {
    /// The type as it can be written before `.self`: in parentheses, and an implicitly
    /// unwrapped optional as the optional it is.
    var spelledForMetatype: String {
        if let unwrapped = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return "(\(unwrapped.wrappedType.trimmedDescription)?)"
        }
        return "(\(trimmedDescription))"
    }
}
