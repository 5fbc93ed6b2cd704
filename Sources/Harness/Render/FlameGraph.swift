import Foundation
import TriggerKit

/// Folded stacks and a flame graph SVG from `perf script` output, for `scripts/profile`.
/// (Debian ships no flame graph renderer and the PyPI candidates do not install here; this follows
/// Brendan Gregg's folded format and layout: one box per frame, width ∝ samples, root at the bottom.)
package enum FlameGraph {
    /// One folded stack: frames root-first joined by `;`, and its sample count.
    package struct Stack: Sendable, Equatable {
        package var frames: String
        package var count: Int
    }

    /// Folds `perf script` text (a header line per sample, then one indented frame per line, leaf
    /// first, blank line between samples) into stacks sorted by name. The thread name is the root.
    package static func fold(perfScript text: String) -> [Stack] {
        var counts: [String: Int] = [:]
        var frames: [String] = []
        var root = ""
        func flush() {
            if !root.isEmpty || !frames.isEmpty {
                let stack = ([root] + frames.reversed()).joined(separator: ";")
                counts[stack, default: 0] += 1
            }
            frames.removeAll(keepingCapacity: true)
            root = ""
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                flush()
            } else if line.first == "\t" || line.first == " " {
                frames.append(symbol(ofFrameLine: line))
            } else {
                flush()
                root = String(line.prefix { $0 != " " && $0 != "\t" })
            }
        }
        flush()
        return counts.map { Stack(frames: $0.key, count: $0.value) }.sorted { $0.frames < $1.frames }
    }

    /// `\t  7f12 symbol+0x1a (/path/dso)` → `symbol`; unknown symbols become `[dso]`.
    static func symbol(ofFrameLine line: Substring) -> String {
        var rest = line.drop { $0 == "\t" || $0 == " " }
        rest = rest.drop { $0 != " " }.dropFirst()  // the address
        var dso = ""
        if let open = rest.lastIndex(of: "(") {
            dso = String(rest[rest.index(after: open)...].dropLast())
            rest = rest[..<open]
        }
        var name = rest.trimmingCharacters(in: .whitespaces)
        if let plus = name.range(of: "+0x", options: .backwards) { name = String(name[..<plus.lowerBound]) }
        if name.isEmpty || name == "[unknown]" { name = "[\((dso as NSString).lastPathComponent)]" }
        return name.replacingOccurrences(of: ";", with: ":")
    }

    /// Folded stacks as text: `frame;frame;frame count` per line.
    package static func foldedText(_ stacks: [Stack]) -> String {
        stacks.map { "\($0.frames) \($0.count)" }.joined(separator: "\n") + "\n"
    }

    /// Parses folded text back (for rendering a file made by another tool). A line without a count, or
    /// with a negative count, or counts whose sum overflows, is an `InputError` naming the line.
    package static func parseFolded(_ text: String, file: String = "-") throws -> [Stack] {
        var stacks: [Stack] = []
        var total = 0
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            func fail(_ reason: String) -> InputError { InputError(file: file, path: "line \(k + 1)", reason: reason) }
            guard let space = line.lastIndex(of: " ") else {
                throw fail("expected `frame;frame;frame COUNT`; this line has no count")
            }
            let field = line[line.index(after: space)...]
            guard let n = Int(field) else {
                throw fail(field.allSatisfy(\.isNumber) && !field.isEmpty
                    ? "sample count \(field) is too large (at most \(Int.max))"
                    : "sample count \"\(field.prefix(40))\" is not a whole number")
            }
            guard n >= 0 else { throw fail("sample count \(n) is negative") }
            let (sum, overflow) = total.addingReportingOverflow(n)
            guard !overflow else { throw fail("the sample counts add up to more than \(Int.max)") }
            total = sum
            stacks.append(Stack(frames: String(line[..<space]), count: n))
        }
        return stacks
    }

    /// Refuses data that is not text (a perf.data file given where `perf script` output belongs).
    package static func checkText(_ data: Data, file: String) throws -> String {
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else {
            throw InputError(file: file, path: "", reason: "is not text; give the output of `perf script` (or folded stacks), not perf.data")
        }
        return text
    }

    /// The call tree, stored flat (children refer to nodes by index) so that neither building, laying out
    /// nor freeing it recurses: stacks 20,000 frames deep must not overflow the thread's stack.
    struct Tree {
        struct Node {
            var name: Substring
            var count = 0
            var children: [Substring: Int] = [:]
            var depth = 0
        }
        var nodes = [Node(name: "all")]

        init(_ stacks: [Stack]) {
            for s in stacks {
                nodes[0].count = Self.add(nodes[0].count, s.count)
                var at = 0
                for frame in s.frames.split(separator: ";") {
                    let child: Int
                    if let existing = nodes[at].children[frame] {
                        child = existing
                    } else {
                        child = nodes.count
                        nodes.append(Node(name: frame, depth: nodes[at].depth + 1))
                        nodes[at].children[frame] = child
                    }
                    nodes[child].count = Self.add(nodes[child].count, s.count)
                    at = child
                }
            }
        }

        /// Counts saturate instead of trapping (parsed input is already checked; this guards callers).
        static func add(_ a: Int, _ b: Int) -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : sum
        }

        var levels: Int { (nodes.map(\.depth).max() ?? 0) + 1 }
    }

    /// An SVG flame graph: root at the bottom, children left to right by name, hover for samples.
    package static func svg(_ stacks: [Stack], title: String, width: Double = 1200) -> String {
        let tree = Tree(stacks)
        let rowHeight = 16.0, top = 40.0, margin = 10.0
        let height = top + Double(tree.levels) * rowHeight + 30
        let total = max(tree.nodes[0].count, 1)
        let scale = (width - 2 * margin) / Double(total)
        var boxes: [String] = []
        // Depth-first with an explicit stack of (node, x); children pushed in reverse name order so they
        // are drawn left to right by name.
        var pending = [(node: 0, x: margin)]
        while let (index, x) = pending.popLast() {
            let n = tree.nodes[index]
            let w = Double(n.count) * scale
            guard w >= 0.3 else { continue }
            let y = height - 30 - Double(n.depth + 1) * rowHeight
            let percent = 100 * Double(n.count) / Double(total)
            let name = String(n.name)
            let label = fit(name, width: w)
            boxes.append("""
                <g><title>\(escape(name)) (\(n.count) samples, \(String(format: "%.2f", percent))%)</title>\
                <rect x="\(f(x))" y="\(f(y))" width="\(f(w))" height="\(f(rowHeight - 1))" fill="\(color(name))" rx="2"/>\
                \(label.isEmpty ? "" : "<text x=\"\(f(x + 3))\" y=\"\(f(y + 11.5))\">\(escape(label))</text>")</g>
                """)
            var cx = x
            var children: [(node: Int, x: Double)] = []
            for child in n.children.sorted(by: { $0.key < $1.key }).map(\.value) {
                children.append((child, cx))
                cx += Double(tree.nodes[child].count) * scale
            }
            pending.append(contentsOf: children.reversed())
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" viewBox="0 0 \(f(width)) \(f(height))" font-family="Menlo, DejaVu Sans Mono, monospace" font-size="11">
            <rect width="100%" height="100%" fill="#fdfdf6"/>
            <text x="\(f(width / 2))" y="22" text-anchor="middle" font-size="15" font-family="sans-serif">\(escape(title))</text>
            <text x="\(f(margin))" y="\(f(height - 10))" font-family="sans-serif" fill="#555">\(total) samples (perf record -e cpu-clock); width = share of samples; hover a frame for its count</text>
            \(boxes.joined(separator: "\n"))
            </svg>

            """
    }

    static func fit(_ name: String, width: Double) -> String {
        let chars = Int((width - 6) / 6.7)
        if chars < 3 { return "" }
        return name.count <= chars ? name : String(name.prefix(chars - 2)) + ".."
    }

    /// A warm colour from the name, stable across runs (FNV-1a hash).
    static func color(_ name: String) -> String {
        var h: UInt32 = 2_166_136_261
        for b in name.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        let r = 205 + Int(h % 50), g = 80 + Int((h >> 8) % 130), b = 40 + Int((h >> 16) % 50)
        return "rgb(\(r),\(g),\(b))"
    }

    static func escape(_ s: String) -> String { PrintableText.xml(s) }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }
}
