import Foundation

/// A list that several threads append to (`DispatchQueue.concurrentPerform`).
final class ConcurrentList<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var elements: [Element] { lock.withLock { items } }
}
