import ArgumentParser

@main
struct InkHitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ink-hit",
        abstract: "Hit-test text by the shape of its ink.",
        subcommands: [Query.self, Layout.self, Render.self, Demo.self, Bench.self]
    )
}
