/// The photos the fake backend serves, made from a seed.
enum PhotoCatalog {
    private static let adjectives = [
        "Misty", "Golden", "Quiet", "Winding", "Frozen", "Crimson", "Hidden", "Distant",
        "Sunlit", "Ancient", "Silver", "Wild",
    ]
    private static let subjects = [
        "harbour", "forest", "lighthouse", "meadow", "glacier", "market", "bridge", "canyon",
        "orchard", "station", "lagoon", "ridge",
    ]

    static func photos(count: Int, seed: UInt64) -> [Photo] {
        var random = SeededGenerator(seed: seed)
        return (1...max(1, count)).map { id in
            let title = "\(adjectives.randomElement(using: &random)!) \(subjects.randomElement(using: &random)!)"
            return Photo(id: id, title: title, thumbnailURL: thumbnailURL(id), imageURL: imageURL(id))
        }
    }

    static func thumbnailURL(_ id: Int) -> String { "https://photos.example/thumbs/\(id).jpg" }
    static func imageURL(_ id: Int) -> String { "https://photos.example/full/\(id).jpg" }

    static func size(of id: Int, seed: UInt64) -> (width: Int, height: Int) {
        var random = SeededGenerator(seed: seed &+ UInt64(id))
        return Bool.random(using: &random) ? (4032, 3024) : (3024, 4032)
    }
}
