#include "testbenches/workloads/data_structures/sequence_log.h"

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_map>
#include <utility>

namespace syncron {

namespace {

/// One partition's reference container.
class Reference {
public:
    Reference(SequenceLog::Discipline d, const std::vector<uint64_t>& initial) : m_d(d) {
        if (d == SequenceLog::Discipline::lifo)
            m_seq.assign(initial.rbegin(), initial.rend()); // back = top
        else if (d == SequenceLog::Discipline::fifo)
            m_seq.assign(initial.begin(), initial.end()); // front = head
        else
            m_heap.insert(initial.begin(), initial.end());
    }
    void push(uint64_t v) {
        if (m_d == SequenceLog::Discipline::min_first)
            m_heap.insert(v);
        else
            m_seq.push_back(v);
    }
    std::optional<uint64_t> next() const {
        switch (m_d) {
        case SequenceLog::Discipline::lifo: return m_seq.empty() ? std::nullopt : std::optional(m_seq.back());
        case SequenceLog::Discipline::fifo: return m_seq.empty() ? std::nullopt : std::optional(m_seq.front());
        case SequenceLog::Discipline::min_first: return m_heap.empty() ? std::nullopt : std::optional(*m_heap.begin());
        }
        return std::nullopt;
    }
    void pop() {
        switch (m_d) {
        case SequenceLog::Discipline::lifo: m_seq.pop_back(); break;
        case SequenceLog::Discipline::fifo: m_seq.pop_front(); break;
        case SequenceLog::Discipline::min_first: m_heap.erase(m_heap.begin()); break;
        }
    }
    /// Contents in container order (priority queue: ascending).
    std::vector<uint64_t> contents() const {
        if (m_d == SequenceLog::Discipline::lifo) return {m_seq.rbegin(), m_seq.rend()};
        if (m_d == SequenceLog::Discipline::fifo) return {m_seq.begin(), m_seq.end()};
        return {m_heap.begin(), m_heap.end()};
    }

private:
    SequenceLog::Discipline m_d;
    std::deque<uint64_t> m_seq;
    std::multiset<uint64_t> m_heap;
};

std::string show(const std::optional<uint64_t>& v) { return v.has_value() ? std::to_string(v.value_or(0)) : "empty"; }

} // namespace

void SequenceLog::start(Discipline d, std::vector<std::vector<uint64_t>> initial) {
    m_discipline = d;
    m_initial = std::move(initial);
    m_entries.clear();
}

void SequenceLog::check(const std::string& what, const std::vector<std::vector<uint64_t>>& in_memory,
                        CheckResult& r) const {
    std::vector<Reference> ref;
    for (const auto& part : m_initial) ref.emplace_back(m_discipline, part);
    const char* pop_name = m_discipline == Discipline::min_first ? "deleteMin" : "pop";
    // Where each push was marked done (values are unique within a run).
    std::unordered_map<uint64_t, uint64_t> done_at;
    for (uint64_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].kind == Kind::push_done) done_at.emplace(m_entries[i].value, i);
    for (uint64_t i = 0; i < m_entries.size(); ++i) {
        const Entry& e = m_entries[i];
        if (e.partition >= ref.size()) {
            r.fail(what + ": operation " + std::to_string(i + 1) + " names partition " + std::to_string(e.partition));
            return;
        }
        Reference& part = ref[e.partition];
        if (e.kind == Kind::push) {
            part.push(e.value);
            continue;
        }
        if (e.kind == Kind::push_done) continue;
        const std::optional<uint64_t> expected = part.next();
        const bool same = e.has_value == expected.has_value() && (!e.has_value || e.value == expected.value_or(0));
        // Found empty while the front's link was still in flight at its start.
        const auto done = expected ? done_at.find(*expected) : done_at.end();
        const bool missed_in_flight = !e.has_value && done != done_at.end() && done->second >= e.since;
        if (missed_in_flight) continue;
        if (!same) {
            r.fail(what + ": " + (e.kind == Kind::pop ? pop_name : "peek") + " on partition " +
                   std::to_string(e.partition) + " by core " + std::to_string(e.core) + " (operation " +
                   std::to_string(i + 1) + " of " + std::to_string(m_entries.size()) + ") returned " +
                   (e.has_value ? std::to_string(e.value) : std::string("empty")) + ", the sequential replay returns " +
                   show(expected));
            return;
        }
        if (e.kind == Kind::pop && expected) part.pop();
    }
    for (size_t p = 0; p < ref.size(); ++p) {
        std::vector<uint64_t> expected = ref[p].contents();
        std::vector<uint64_t> got = p < in_memory.size() ? in_memory[p] : std::vector<uint64_t>{};
        if (m_discipline == Discipline::min_first) std::sort(got.begin(), got.end());
        if (got == expected) continue;
        const auto diff = std::mismatch(got.begin(), got.end(), expected.begin(), expected.end());
        const size_t at = static_cast<size_t>(diff.first - got.begin());
        r.fail(what + ": partition " + std::to_string(p) + " holds " + std::to_string(got.size()) +
               " elements in simulated memory, the sequential replay " + std::to_string(expected.size()) +
               "; first difference at position " + std::to_string(at) + ": memory " +
               (diff.first != got.end() ? std::to_string(*diff.first) : std::string("(end)")) + ", replay " +
               (diff.second != expected.end() ? std::to_string(*diff.second) : std::string("(end)")));
        return;
    }
}

} // namespace syncron
