import Foundation

/// How a page lays out a table in Chromium at a given width: whether any of its cells is cut or
/// off the screen, whether the page or a `.scroll` box scrolls sideways, and how many of its cells
/// and heads are shown. What the phone-width tests of the report and the history page measure.
public struct PageLayout: Decodable, Sendable {
    /// The window's width in CSS pixels.
    public var width: Int
    /// How far the page scrolls sideways (0 or less: not at all).
    public var pageOverflow: Int
    /// How far the widest `.scroll` box scrolls sideways.
    public var scrollOverflow: Int
    /// The first words of each cell that is off the screen or wider than its box.
    public var cut: [String]
    /// The cells and the heads shown (a head row hidden at phone width counts none).
    public var cells: Int
    public var heads: Int

    /// Measures the cells that `cells` (a CSS selector) finds, at `width`.
    public static func measure(url: String, width: Int, cells: String) async throws -> PageLayout {
        let expression = """
            (() => {
              const width = document.documentElement.clientWidth, cut = [];
              const table = \(String(decoding: try JSONEncoder().encode(cells), as: UTF8.self));
              const shown = element => element.getBoundingClientRect().width > 0;
              const cells = [...document.querySelectorAll(table)].filter(cell => cell.tagName == 'TD' && shown(cell));
              cells.forEach(cell => {
                const box = cell.getBoundingClientRect();
                if (box.right > width + 1 || box.left < -1 || cell.scrollWidth > cell.clientWidth + 1)
                  cut.push(cell.textContent.slice(0, 40));
              });
              const scrolls = [...document.querySelectorAll('.scroll')].map(box => box.scrollWidth - box.clientWidth);
              return {width: width, pageOverflow: document.documentElement.scrollWidth - width,
                scrollOverflow: Math.max(0, ...scrolls), cut: cut, cells: cells.length,
                heads: [...document.querySelectorAll(table)].filter(head => head.tagName == 'TH' && shown(head)).length};
            })()
            """
        return try JSONDecoder().decode(
            PageLayout.self, from: try await BrowserDriver.evaluate(url: url, width: width, expression: expression))
    }
}
