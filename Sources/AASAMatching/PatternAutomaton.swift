/// A pattern as a nondeterministic finite automaton, run over a text in one pass (a Thompson
/// simulation): the set of live states advances one scalar at a time, so matching costs at most
/// states × text length, with no backtracking through wildcards or variable values.
///
/// Each `$(name)` reference is expanded into a fork to its alternatives (a variable's values
/// may hold `*` and `?` but no variables), each ending in a jump past the reference.
struct PatternAutomaton {
    enum State: Equatable {
        /// Consumes this scalar.
        case scalar(Unicode.Scalar)
        /// Consumes any one scalar (`?`).
        case any
        /// Consumes any run of scalars, none included (`*`): loops on itself, or goes on.
        case anyRun
        /// Goes on to each of these states without consuming.
        case fork([Int])
        case jump(Int)
        /// Matches nothing (an undefined variable, a pattern over the length bound).
        case fail
        case accept
    }

    let states: [State]

    /// Nil when the expansion would have more than `limit` states.
    init?(_ tokens: [Pattern.Token], limit: Int) {
        guard Self.size(of: tokens) <= limit else { return nil }
        var states: [State] = []
        states.reserveCapacity(Self.size(of: tokens))
        for token in tokens {
            if case .variable(let variable) = token {
                let fork = states.count
                states.append(.fork([]))
                var starts: [Int] = []
                var jumps: [Int] = []
                for values in variable.literals.values {
                    for value in values {
                        starts.append(states.count)
                        states.append(contentsOf: value.map { .scalar($0) })
                        jumps.append(states.count)
                        states.append(.jump(0))
                    }
                }
                for alternative in variable.patterns {
                    starts.append(states.count)
                    alternative.tokens.forEach { Self.appendPlain($0, to: &states) }
                    jumps.append(states.count)
                    states.append(.jump(0))
                }
                states[fork] = .fork(starts)
                for jump in jumps { states[jump] = .jump(states.count) }
            } else {
                Self.appendPlain(token, to: &states)
            }
        }
        states.append(.accept)
        self.states = states
    }

    private static func appendPlain(_ token: Pattern.Token, to states: inout [State]) {
        switch token {
        case .literal(let scalar): states.append(.scalar(scalar))
        case .one: states.append(.any)
        case .run: states.append(.anyRun)
        // A variable inside a variable's value is never compiled (values are compiled without
        // variables); treat it as matching nothing.
        case .never, .tooLong, .variable: states.append(.fail)
        }
    }

    /// The number of states `init` builds for these tokens.
    static func size(of tokens: [Pattern.Token]) -> Int {
        var size = 1
        for token in tokens {
            if case .variable(let variable) = token {
                size += 1
                for (length, values) in variable.literals { size += values.count * (length + 1) }
                for alternative in variable.patterns { size += alternative.tokens.count + 1 }
            } else {
                size += 1
            }
        }
        return size
    }

    /// Whether the automaton accepts the whole text; false once the budget runs out (which
    /// the budget then records).
    func accepts(_ text: ArraySlice<Unicode.Scalar>, budget: inout MatchBudget) -> Bool {
        let (accepted, _) = run(text, budget: &budget)
        return accepted
    }

    /// Whether it accepts the text, and the live states it visited doing so: at most
    /// `states.count` × (text length + 1), the bound the tests hold it to.
    func run(_ text: ArraySlice<Unicode.Scalar>, budget: inout MatchBudget) -> (accepted: Bool, work: Int) {
        var simulation = Simulation(count: states.count)
        var current: [Int] = []
        var reachedAccept = simulation.close(0, states, into: &current)
        var work = current.count
        for scalar in text {
            guard !current.isEmpty else { return (false, work) }
            guard budget.spend(current.count + states.count / 64 + 1) else { return (false, work) }
            simulation.nextStep()
            var next: [Int] = []
            reachedAccept = false
            for index in current {
                switch states[index] {
                case .scalar(let expected) where expected == scalar:
                    reachedAccept = simulation.close(index + 1, states, into: &next) || reachedAccept
                case .any:
                    reachedAccept = simulation.close(index + 1, states, into: &next) || reachedAccept
                case .anyRun:
                    reachedAccept = simulation.close(index, states, into: &next) || reachedAccept
                default:
                    break
                }
            }
            current = next
            work += current.count
        }
        return (reachedAccept, work)
    }

    /// The states already added in the current step (a stamp per state), and a work stack.
    private struct Simulation {
        var stamps: [Int]
        var step = 0
        var stack: [Int] = []

        init(count: Int) {
            stamps = Array(repeating: -1, count: count)
        }

        mutating func nextStep() { step += 1 }

        /// Adds `start` and every state reachable from it without consuming to `list` (only the
        /// consuming ones); true when the accepting state is among them.
        mutating func close(_ start: Int, _ states: [State], into list: inout [Int]) -> Bool {
            var accepted = false
            stack.append(start)
            while let index = stack.popLast() {
                guard stamps[index] != step else { continue }
                stamps[index] = step
                switch states[index] {
                case .scalar, .any:
                    list.append(index)
                case .anyRun:
                    list.append(index)
                    stack.append(index + 1)
                case .fork(let targets):
                    stack.append(contentsOf: targets)
                case .jump(let target):
                    stack.append(target)
                case .accept:
                    accepted = true
                case .fail:
                    break
                }
            }
            return accepted
        }
    }
}

/// How much matching work a caller allows, shared by every pattern matched with it: visits of
/// automaton states, each a few nanoseconds, and a question asked now and then (a signal, a
/// deadline: `Task.isCancelled` by default) that stops it early. Once spent, every match is
/// false and `exhausted` says the answer is not to be trusted.
public struct MatchBudget {
    public private(set) var remaining: Int
    public private(set) var exhausted = false
    private let shouldStop: () -> Bool
    private var untilAsking: Int

    /// 50 million state visits: a fraction of a second, far beyond any real file's needs (a
    /// few thousand per URL), and what a hostile one may cost at most.
    public static let standardVisits = 50_000_000

    public init(visits: Int = MatchBudget.standardVisits, shouldStop: @escaping () -> Bool = { Task.isCancelled }) {
        remaining = visits
        self.shouldStop = shouldStop
        untilAsking = Self.askEvery
    }

    /// No limit, never stopped: for tests and tools that match one known pattern.
    public static var unlimited: MatchBudget { MatchBudget(visits: .max, shouldStop: { false }) }

    static let askEvery = 1 << 16

    /// Takes `visits` from the budget; false (from then on) when it is spent or told to stop.
    /// Work besides an automaton's (compiling a pattern, walking a string) is charged here too,
    /// at a visit a character.
    @discardableResult
    public mutating func spend(_ visits: Int) -> Bool {
        guard !exhausted else { return false }
        remaining -= visits
        untilAsking -= visits
        if untilAsking <= 0 {
            untilAsking = Self.askEvery
            if shouldStop() { exhausted = true }
        }
        if remaining < 0 { exhausted = true }
        return !exhausted
    }
}
