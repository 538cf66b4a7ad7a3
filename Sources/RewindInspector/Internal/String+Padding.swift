extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The string in at most `width` characters, its end replaced by `…` when it is longer.
    func cut(to width: Int) -> String {
        count <= width ? self : String(prefix(max(0, width - 1))) + "…"
    }
}
