/// A type's name as a test writes it, from `String(reflecting:)`: without its module
/// (`TodoApp.TodoState.Filter` → `TodoState.Filter`, `Swift.Array<TodoApp.TodoItem>` →
/// `Array<TodoItem>`), and the modules it names, for the test's imports.
///
/// Module names are left out because a type may share its module's name, which then hides
/// the module (`TodoApp.TodoApp`). A private or local type has no name a test can write.
struct SwiftTypeName: Equatable {
    /// The name to write, nil for a private or local type.
    let spelled: String?
    /// The modules the name mentions.
    let modules: Set<String>

    init(_ reflected: String) {
        guard !reflected.contains("(") else {
            spelled = nil
            modules = []
            return
        }
        var spelled = ""
        var modules: Set<String> = []
        var token = ""
        func endToken() {
            if let dot = token.firstIndex(of: ".") {
                modules.insert(String(token[..<dot]))
                spelled += token[token.index(after: dot)...]
            } else {
                spelled += token
            }
            token = ""
        }
        for character in reflected {
            if "<>,: []?".contains(character) {
                endToken()
                spelled.append(character)
            } else {
                token.append(character)
            }
        }
        endToken()
        self.spelled = spelled
        self.modules = modules
    }
}
