import Foundation
import RewindCore
import RewindLive
import RewindLog
import TodoApp

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// todo-tui: the todo list in a terminal, recorded into a log, and shown live in `rewind live`
// when given its URL. With the inspector's travel allowed in debug builds only, as an app
// would (docs/live.md).
let usage = """
    usage: todo-tui [--log PATH] [--live URL] [--code PAIRING-CODE]
      --log PATH      the log the session is recorded into (default: todo-tui.rewind)
      --live URL      a `rewind live` inspector to show the app in, which may send it through time
      --code CODE     the pairing code the inspector printed, when it listens beyond loopback
    """

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("todo-tui: \(message)\n".utf8))
    exit(status)
}

var logPath = "todo-tui.rewind"
var liveURL: URL?
var pairingCode: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage)
        exit(0)
    case "--log", "--live", "--code":
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value\n\(usage)", status: 2) }
        if argument == "--log" {
            logPath = value
        } else if argument == "--code" {
            pairingCode = value
        } else {
            guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                fail("--live needs an http or https URL, like http://127.0.0.1:7777, not '\(value)'", status: 2)
            }
            liveURL = url
        }
    default:
        fail("unknown argument '\(argument)'\n\(usage)", status: 2)
    }
}

#if DEBUG
let allowsTravel = true
#else
let allowsTravel = false
#endif

let terminal: Terminal
let sink: SQLiteSink
do {
    sink = try .sqlite(path: logPath)
    terminal = try Terminal()
} catch {
    fail("\(error)", status: 1)
}
let session = SessionDescriptor(name: "todo-tui", flow: TodoFlows.name, schemaVersion: TodoFlows.schemaVersion)
let reducer = TodoFeature(api: TodoAPI())
let store =
    if let liveURL {
        Store(
            initialState: TodoState(), reducer: reducer, recordingTo: sink, session: session,
            live: .inspector(liveURL, pairingCode: pairingCode, allowsTravel: allowsTravel))
    } else {
        Store(initialState: TodoState(), reducer: reducer, recordingTo: sink, session: session)
    }
let app = TodoTerminalApp(store: store, terminal: terminal, live: liveURL?.absoluteString)

/// Ends the session (the recorder writes what it holds) and gives the terminal back.
@MainActor func quit() -> Never {
    store.recorder?.close()
    terminal.restore()
    FileHandle.standardOutput.write(Data("todo-tui: recorded \(store.step) steps into \(logPath)\n".utf8))
    exit(0)
}

// SIGTERM (a closed tmux pane, `kill`) ends the session as `q` does.
signal(SIGTERM, SIG_IGN)
let terminated = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .main)
terminated.setEventHandler { MainActor.assumeIsolated { () -> Void in quit() } }
terminated.resume()

app.draw()
terminal.readKeys { key in
    if !app.handle(key) { quit() }
}
dispatchMain()
