#include "models/core/core_pipeline.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/tlm/kernel_time.h"

namespace syncron {

CorePipeline::CorePipeline(unsigned contexts, const sc_core::sc_time& switch_time)
    : m_switch(switch_time), m_turn(contexts) {
    if (contexts == 0) throw std::invalid_argument("CorePipeline: a core has at least one context");
    for (unsigned i = 0; i < contexts; ++i)
        m_handed.push_back(std::make_unique<sc_core::sc_event>(
            sc_core::sc_gen_unique_name(("pipeline_handed_" + std::to_string(i)).c_str())));
}

CorePipeline::Turn CorePipeline::turn_of(unsigned ctx, const sc_core::sc_time& free) {
    m_holder = ctx;
    if (m_last == kNobody || m_last == ctx) return {free, false};
    ++m_switches;
    return {free + m_switch, true};
}

std::optional<CorePipeline::Turn> CorePipeline::take(unsigned ctx, const sc_core::sc_time& at) {
    if (ctx >= contexts()) throw std::out_of_range("CorePipeline::take: no context " + std::to_string(ctx));
    if (m_holder == ctx) throw std::logic_error("CorePipeline::take: context already holds the pipeline");
    if (m_holder != kNobody) {
        m_queue.push_back(ctx);
        return std::nullopt;
    }
    return turn_of(ctx, std::max(at, m_free_at));
}

void CorePipeline::release(unsigned ctx, const sc_core::sc_time& at) {
    if (m_holder != ctx) throw std::logic_error("CorePipeline::release by a context that does not hold it");
    m_last = ctx;
    m_holder = kNobody;
    m_free_at = std::max(at, m_free_at);
    if (m_queue.empty()) return;
    const unsigned next = m_queue.front();
    m_queue.pop_front();
    m_turn[next] = turn_of(next, m_free_at);
    const sc_core::sc_time now = kernel_time();
    m_handed[next]->notify(m_free_at > now ? m_free_at - now : sc_core::SC_ZERO_TIME);
}

CorePipeline::Turn CorePipeline::book(unsigned ctx, const sc_core::sc_time& at, const sc_core::sc_time& occupancy) {
    if (ctx >= contexts()) throw std::out_of_range("CorePipeline::book: no context " + std::to_string(ctx));
    const bool switched = m_last != kNobody && m_last != ctx;
    m_last = ctx;
    m_switches += switched;
    const sc_core::sc_time extra = switched ? m_switch : sc_core::SC_ZERO_TIME;
    m_calendar.prune(kernel_time()); // no context's time is behind the kernel's
    return {m_calendar.book(at, occupancy + extra) + extra, switched};
}

} // namespace syncron
