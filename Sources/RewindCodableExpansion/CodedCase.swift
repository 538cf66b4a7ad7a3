import SwiftSyntax

/// A case of an enum, as synthesized `Codable` sees it: `{"name": {"label": value, "_1": value}}`.
struct CodedCase {
    let name: String
    /// The keys of its associated values, in order: a label, or `_` and the position.
    let keys: [String]
    /// The types of its associated values, in order, spelled to be followed by `.self`.
    let types: [String]

    /// The cases of `members`, in order.
    static func all(in members: MemberBlockSyntax) throws(DiagnosticError) -> [CodedCase] {
        var cases: [CodedCase] = []
        for member in members.members {
            guard let declaration = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in declaration.elements {
                var keys: [String] = []
                var types: [String] = []
                for (index, parameter) in (element.parameterClause?.parameters ?? []).enumerated() {
                    if parameter.secondName != nil { throw DiagnosticError(parameter, .internalParameterName) }
                    let label = parameter.firstName.map(\.identifierName)
                    keys.append(label.flatMap { $0 == "_" ? nil : $0 } ?? "_\(index)")
                    types.append(parameter.type.spelledForMetatype)
                }
                cases.append(CodedCase(name: element.name.identifierName, keys: keys, types: types))
            }
        }
        return cases
    }
}
