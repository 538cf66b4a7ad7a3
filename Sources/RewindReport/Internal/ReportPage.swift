import Foundation
import RewindRendering

/// The report as one HTML file: the template with the page's style, its script and the data
/// put in, and a Content-Security-Policy that lets nothing else load or run.
///
/// Recorded strings are the app's data and may be hostile. They reach the page only inside
/// the JSON data block, with every `<`, `>` and `&` escaped (`\u003c`), so no text can close
/// the block or start markup; the script inserts them with `textContent`, never as HTML. The
/// policy names the one script by its SHA-256, so that even markup that got in could run
/// nothing, and allows no network at all (the live inspector's page: its own server alone).
struct ReportPage {
    let title: String
    /// The data as canonical JSON bytes.
    let data: [UInt8]
    /// Whether the page may talk to the server it came from (`connect-src 'self'`): the live
    /// inspector's page does; a report file talks to nothing.
    var connects = false

    var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(data.count + Self.template.count + Self.style.count + Self.script.count + 4096)
        var rest = Self.template[...]
        while let open = rest.firstRange(of: Array("{{".utf8)), let close = rest[open.upperBound...].firstRange(of: Array("}}".utf8)) {
            output += rest[..<open.lowerBound]
            let name = String(decoding: rest[open.upperBound..<close.lowerBound], as: UTF8.self)
            switch name {
            case "title": output += Array(HTMLText.escaped(title).utf8)
            case "script-hash": output += Array(Self.scriptHash.utf8)
            case "connect": output += connects ? Array("; connect-src 'self'".utf8) : []
            case "style": output += Self.style
            case "script": output += Self.script
            case "data": Self.appendEscapedJSON(data, to: &output)
            default: output += rest[open.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        output += rest
        return output
    }

    static let template = PackageResources.report_html
    static let style = PackageResources.report_css
    static let script = PackageResources.report_js
    /// `sha256-…` of the script exactly as it stands between its tags, for the page's security
    /// policy (CONTRIBUTING.md, "Changing the report's script", says how to make it). Written
    /// here rather than computed, so that the page needs no hash of its own (swift-crypto sits
    /// behind the `Servers` trait); `ReportPageTests` checks it against the page's script and
    /// prints the value to write here when `report.js` changes.
    static let scriptHash = "sha256-/1IbJD5Ifd4BMzGJfiKd2VeLXJOWbm55LlrrETfXv5A="

    /// JSON for a `<script type="application/json">` block: `<`, `>` and `&` (which occur only
    /// inside strings) as `\u` escapes, so `</script>` or `<!--` in a value stays text.
    static func appendEscapedJSON(_ json: [UInt8], to output: inout [UInt8]) {
        for byte in json {
            switch byte {
            case UInt8(ascii: "<"): output += Array(#"\u003c"#.utf8)
            case UInt8(ascii: ">"): output += Array(#"\u003e"#.utf8)
            case UInt8(ascii: "&"): output += Array(#"\u0026"#.utf8)
            default: output.append(byte)
            }
        }
    }
}
