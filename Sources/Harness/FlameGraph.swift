import Foundation

/// Folded stacks and a flame graph SVG from `perf script` output, for `scripts/profile`.
/// (Debian ships no flame graph renderer and the PyPI candidates do not install here; this follows
/// Brendan Gregg's folded format and layout: one box per frame, width ∝ samples, root at the bottom.)
public enum FlameGraph {
    /// One folded stack: frames root-first joined by `;`, and its sample count.
    public struct Stack: Sendable, Equatable {
        public var frames: String
        public var count: Int
    }

    /// Folds `perf script` text (a header line per sample, then one indented frame per line, leaf
    /// first, blank line between samples) into stacks sorted by name. The thread name is the root.
    public static func fold(perfScript text: String) -> [Stack] {
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
    public static func foldedText(_ stacks: [Stack]) -> String {
        stacks.map { "\($0.frames) \($0.count)" }.joined(separator: "\n") + "\n"
    }

    /// Parses folded text back (for rendering a file made by another tool).
    public static func parseFolded(_ text: String) -> [Stack] {
        text.split(separator: "\n").compactMap { line in
            guard let space = line.lastIndex(of: " "), let n = Int(line[line.index(after: space)...]) else { return nil }
            return Stack(frames: String(line[..<space]), count: n)
        }
    }

    final class Node {
        var name: String
        var count = 0
        var children: [String: Node] = [:]
        init(_ name: String) { self.name = name }
    }

    /// An SVG flame graph: root at the bottom, children left to right by name, hover for samples.
    public static func svg(_ stacks: [Stack], title: String, width: Double = 1200) -> String {
        let root = Node("all")
        for s in stacks {
            root.count += s.count
            var node = root
            for frame in s.frames.split(separator: ";") {
                let name = String(frame)
                let child = node.children[name] ?? { let n = Node(name); node.children[name] = n; return n }()
                child.count += s.count
                node = child
            }
        }
        func depth(_ n: Node) -> Int { 1 + (n.children.values.map(depth).max() ?? 0) }
        let rowHeight = 16.0, top = 40.0, margin = 10.0
        let levels = depth(root)
        let height = top + Double(levels) * rowHeight + 30
        let total = max(root.count, 1)
        let scale = (width - 2 * margin) / Double(total)
        var boxes: [String] = []
        func place(_ n: Node, x: Double, level: Int) {
            let w = Double(n.count) * scale
            guard w >= 0.3 else { return }
            let y = height - 30 - Double(level + 1) * rowHeight
            let percent = 100 * Double(n.count) / Double(total)
            let label = fit(n.name, width: w)
            let escaped = escape(n.name)
            boxes.append("""
                <g><title>\(escaped) (\(n.count) samples, \(String(format: "%.2f", percent))%)</title>\
                <rect x="\(f(x))" y="\(f(y))" width="\(f(w))" height="\(f(rowHeight - 1))" fill="\(color(n.name))" rx="2"/>\
                \(label.isEmpty ? "" : "<text x=\"\(f(x + 3))\" y=\"\(f(y + 11.5))\">\(escape(label))</text>")</g>
                """)
            var cx = x
            for child in n.children.values.sorted(by: { $0.name < $1.name }) {
                place(child, x: cx, level: level + 1)
                cx += Double(child.count) * scale
            }
        }
        place(root, x: margin, level: 0)
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

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }
}
