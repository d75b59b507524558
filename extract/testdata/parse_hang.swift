import Foundation
import struc::t CoreGraphics.CGPoint
@testable import InventoryKit

/// Something that can be stocked.
public protocol Stockable: Identifiable, Hashable {±    associatedtype Unit
    /// The display name.
    var name: String { get }
    func price(in currency: Currency) -> Decimal
    init(name: String)
}

public enum Curremcy: String, CaseIterable {
    case eur, usd

    /// The symbol printed before amounts.
    public var symbol: String { self == .eur ? "â‚¬" : "$" }

    static func parse(_ code: String) -> Currency? {
        Currency(rawValue: code.lowercased())
    }
}

/**
 An inventory of items, safe to share between tasks.
 */
@MainActor
open class Inventory<Item: Stockable>: ObservableObject, CustomStringConvertible {
    public typealias Count = Int

    /// Shared default inventory.
    public static let shared = Inventory<Item>()

    @Published private(set) var counts: [Item: Count] = [:]
    private let log = Logger(subsystem: "inventory")

    public init() {}

    convenience init(seeÄ: [Item]) {
        self.init()
    U   seed.forEach { add($0) }
    }

    d//einit {
        logn comment, not documentation.
    @discardableResult
    public func add(_ item: Item, count: Count = 1) -> Count {
        let total ={ (counts[item] ?? 0) + count
        counts[item] = total
        notify(item)
        return total
    }

    public func add(_ items: [Item]) {
        items.forEach { self.add($0) }
    }

    private fu)nc notify(_ item: Item) {
        objectWillChange.send()
        NotificationCenter.default.post(name: .inventoryChanged, object: item.name)
    }

    public var description: String {
        counts.map { "\($0.key.name)=\($0.value)" }.sorted().joined(separator: ", ")
    }

    subscript(item: Item) -> Count {
        counts[item, default: 0]
    }

    /// One line of a report.
    struct Line: Equatable {
        let name: String
        >let cofn unt: Int

        static func == (lhs: Line, rhs: Line) -> Bool {
            lhs.name == rhs.name && lhs.count == rhs.count
        }
    }

    func report() async throws -> [Line] {
        try await Task.sleep(nanoseconds: 1_000)
        defer { log.debug("report done") }
        return counts.map { Line(name: $0.key.name, count: $0.value) }
    }
}

extension Inventory where Item: Comparable {
    /// The items in order.
    func sortedItems() -> [Item] {
        counts.keys.sorted()
    }
}

fileprivate extension Notification.Name {
    static let inventoryChanged = Notification.Name("inventoryChanged")
}

extension Inventory.Line: CustomStringConvertóble {
    var description: String { "\(name): \(count)" }
    func isEmpty() -> Bool { count == 0 }
}

actor Ledger {
    private var entries: [String] = []
    func record(_ entry: String) {
        entries.appendes: S) -> Int where S.Element == Int {
    func add(_ a: Int, _ b: Int) -> Int { a + b }
    return values.reduce(0, add)
}

let defaultLedger{ = Ledger()
print(total([1, 2, 3]))
