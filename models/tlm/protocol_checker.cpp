#include "models/tlm/protocol_checker.h"

#include <cstring>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "models/common/hex.h"

namespace syncron {

using sc_core::sc_time;
using tlm::tlm_generic_payload;
using tlm::tlm_phase;
using tlm::tlm_sync_enum;

namespace {

constexpr const char* kRuleNames[ProtocolChecker::kNumRules] = {
    "phase_sequence", "request_exclusion", "response_exclusion", "timing",        "blocking_nonblocking_mix",
    "memory_manager", "payload_modified",  "response_status",    "debug_payload",
};
constexpr const char* kMsgTypes[ProtocolChecker::kNumRules] = {
    "/syncron/check/phase_sequence",   "/syncron/check/request_exclusion",        "/syncron/check/response_exclusion",
    "/syncron/check/timing",           "/syncron/check/blocking_nonblocking_mix", "/syncron/check/memory_manager",
    "/syncron/check/payload_modified", "/syncron/check/response_status",          "/syncron/check/debug_payload",
};

const char* sync_name(tlm_sync_enum s) {
    switch (s) {
    case tlm::TLM_ACCEPTED: return "TLM_ACCEPTED";
    case tlm::TLM_UPDATED: return "TLM_UPDATED";
    case tlm::TLM_COMPLETED: return "TLM_COMPLETED";
    }
    return "an invalid tlm_sync_enum";
}

const char* command_name(tlm::tlm_command c) {
    switch (c) {
    case tlm::TLM_READ_COMMAND: return "TLM_READ_COMMAND";
    case tlm::TLM_WRITE_COMMAND: return "TLM_WRITE_COMMAND";
    case tlm::TLM_IGNORE_COMMAND: return "TLM_IGNORE_COMMAND";
    }
    return "an invalid command";
}

} // namespace

ProtocolChecker::ProtocolChecker(const sc_core::sc_module_name& name)
    : sc_module(name), target("target"), initiator("initiator") {
    target.register_b_transport(this, &ProtocolChecker::b_transport);
    target.register_nb_transport_fw(this, &ProtocolChecker::nb_transport_fw);
    target.register_transport_dbg(this, &ProtocolChecker::transport_dbg);
    target.register_get_direct_mem_ptr(this, &ProtocolChecker::get_direct_mem_ptr);
    initiator.register_nb_transport_bw(this, &ProtocolChecker::nb_transport_bw);
    initiator.register_invalidate_direct_mem_ptr(this, &ProtocolChecker::invalidate_direct_mem_ptr);
    m_txns.reserve(64);
    m_spare.reserve(64);
    m_blocking.reserve(8);
}

// ---------------------------------------------------------------- results

const char* ProtocolChecker::rule_name(Rule rule) { return kRuleNames[static_cast<size_t>(rule)]; }
const char* ProtocolChecker::msg_type(Rule rule) { return kMsgTypes[static_cast<size_t>(rule)]; }

void ProtocolChecker::set_actions(sc_core::sc_severity severity, sc_core::sc_actions actions) {
    for (const char* type : kMsgTypes) sc_core::sc_report_handler::set_actions(type, severity, actions);
}

uint64_t ProtocolChecker::violations() const {
    uint64_t n = 0;
    for (uint64_t c : m_counts) n += c;
    return n;
}

uint64_t ProtocolChecker::violations(std::string_view rule) const {
    for (size_t k = 0; k < kNumRules; ++k)
        if (rule == kRuleNames[k]) return m_counts[k];
    throw std::invalid_argument("ProtocolChecker: unknown rule '" + std::string(rule) + "'");
}

void ProtocolChecker::report(Rule rule, const tlm_generic_payload& trans, const tlm_phase* phase,
                             const std::string& what) {
    ++m_counts[static_cast<size_t>(rule)];
    std::ostringstream os;
    os << name() << ": " << rule_name(rule) << ": " << what << " (address " << hex(trans.get_address());
    if (phase) os << ", phase " << phase_name(*phase);
    os << ", at " << sc_core::sc_time_stamp() << ")";
    const std::string msg = os.str();
    if (m_messages.size() < kMaxMessages) m_messages.push_back(msg);
    SC_REPORT_ERROR(msg_type(rule), msg.c_str());
}

// ---------------------------------------------------------------- helpers

std::string ProtocolChecker::phase_name(const tlm_phase& phase) {
    const unsigned id = phase;
    if (id <= tlm::END_RESP) return phase.get_name();
    return std::string(phase.get_name()) + " (unknown phase " + std::to_string(id) + ")";
}

std::string ProtocolChecker::stage_name(Stage stage) {
    switch (stage) {
    case Stage::request: return "request phase, after BEGIN_REQ";
    case Stage::end_request: return "after END_REQ, before BEGIN_RESP";
    case Stage::response: return "response phase, after BEGIN_RESP";
    case Stage::idle: return "not started";
    }
    return "?";
}

uint64_t ProtocolChecker::hash(const unsigned char* data, unsigned length) {
    // FNV-1a style over 8-byte words, then the tail bytes: only change
    // detection, so speed matters more than distribution.
    uint64_t h = 14695981039346656037ull ^ length;
    unsigned k = 0;
    for (; k + 8 <= length; k += 8) {
        uint64_t w;
        std::memcpy(&w, data + k, 8);
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; k < length; ++k) h = (h ^ data[k]) * 1099511628211ull;
    return h;
}

ProtocolChecker::Snapshot ProtocolChecker::snapshot(const tlm_generic_payload& t) {
    Snapshot s;
    s.command = t.get_command();
    s.address = t.get_address();
    s.data = t.get_data_ptr();
    s.length = t.get_data_length();
    s.byte_enable = t.get_byte_enable_ptr();
    s.byte_enable_length = t.get_byte_enable_length();
    s.streaming_width = t.get_streaming_width();
    if (s.command == tlm::TLM_WRITE_COMMAND && s.data) s.write_hash = hash(s.data, s.length);
    return s;
}

bool ProtocolChecker::unchanged(const Snapshot& s, const tlm_generic_payload& t) {
    if (t.get_command() != s.command || t.get_address() != s.address || t.get_data_ptr() != s.data ||
        t.get_data_length() != s.length || t.get_byte_enable_ptr() != s.byte_enable ||
        t.get_byte_enable_length() != s.byte_enable_length || t.get_streaming_width() != s.streaming_width)
        return false;
    return s.command != tlm::TLM_WRITE_COMMAND || !s.data || hash(s.data, s.length) == s.write_hash;
}

std::string ProtocolChecker::changes(const Snapshot& s, const tlm_generic_payload& t) {
    std::ostringstream os;
    const char* sep = "";
    auto item = [&](const char* what, const std::string& from, const std::string& to) {
        os << sep << what << " " << from << " -> " << to;
        sep = ", ";
    };
    auto ptr = [](const void* p) { return hex(reinterpret_cast<uintptr_t>(p)); };
    if (t.get_command() != s.command) item("command", command_name(s.command), command_name(t.get_command()));
    if (t.get_address() != s.address) item("address", hex(s.address), hex(t.get_address()));
    if (t.get_data_ptr() != s.data) item("data pointer", ptr(s.data), ptr(t.get_data_ptr()));
    if (t.get_data_length() != s.length)
        item("data length", std::to_string(s.length), std::to_string(t.get_data_length()));
    if (t.get_byte_enable_ptr() != s.byte_enable)
        item("byte enable pointer", ptr(s.byte_enable), ptr(t.get_byte_enable_ptr()));
    if (t.get_byte_enable_length() != s.byte_enable_length)
        item("byte enable length", std::to_string(s.byte_enable_length), std::to_string(t.get_byte_enable_length()));
    if (t.get_streaming_width() != s.streaming_width)
        item("streaming width", std::to_string(s.streaming_width), std::to_string(t.get_streaming_width()));
    if (*sep == '\0' && s.command == tlm::TLM_WRITE_COMMAND && s.data) os << "write data contents changed";
    return os.str();
}

const tlm_generic_payload* ProtocolChecker::other_in(Stage stage, const tlm_generic_payload* self) const {
    for (const auto& [p, x] : m_txns)
        if (p != self && x.stage == stage) return p;
    return nullptr;
}

void ProtocolChecker::set_stage(Txn& x, Stage stage) {
    if (x.stage == Stage::request) --m_in_request;
    if (x.stage == Stage::response) --m_in_response;
    x.stage = stage;
    if (stage == Stage::request) ++m_in_request;
    if (stage == Stage::response) ++m_in_response;
}

ProtocolChecker::Txn& ProtocolChecker::start(const tlm_generic_payload* trans) {
    if (m_spare.empty()) return m_txns[trans];
    Map::node_type node = std::move(m_spare.back());
    m_spare.pop_back();
    node.key() = trans;
    node.mapped() = Txn();
    return m_txns.insert(std::move(node)).position->second;
}

void ProtocolChecker::finish(Map::iterator it) {
    set_stage(it->second, Stage::idle); // leaves both phase counts
    Map::node_type node = m_txns.extract(it);
    if (m_spare.size() < 64) m_spare.push_back(std::move(node));
}

bool ProtocolChecker::in_b_transport(const tlm_generic_payload* trans) const {
    for (const tlm_generic_payload* p : m_blocking)
        if (p == trans) return true;
    return false;
}

void ProtocolChecker::check_in_flight(Txn& x, const tlm_generic_payload& t, const sc_time& delay,
                                      const tlm_phase& phase, const char* where) {
    const sc_time eff = sc_core::sc_time_stamp() + delay;
    if (eff < x.last)
        report(Rule::timing, t, &phase,
               std::string(where) + ": effective time " + eff.to_string() + " (delay " + delay.to_string() +
                   ") is earlier than the previous phase's " + x.last.to_string());
    x.last = eff; // successive phases are compared: one decrease, one report
    if (!unchanged(x.snap, t)) {
        report(Rule::payload_modified, t, &phase,
               std::string(where) + ": payload changed while in flight: " + changes(x.snap, t));
        x.snap = snapshot(t); // report each change once
    }
    if (x.has_mm && !x.mm_reported && t.get_ref_count() <= 0) {
        x.mm_reported = true;
        report(Rule::memory_manager, t, &phase,
               std::string(where) + ": reference count dropped to " + std::to_string(t.get_ref_count()) +
                   " while the transaction is in flight");
    }
}

void ProtocolChecker::begin_response(Txn& x, const tlm_generic_payload& t, const tlm_phase& phase, const char* where) {
    if (t.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
        report(Rule::response_status, t, &phase,
               std::string(where) + ": BEGIN_RESP with response status TLM_INCOMPLETE_RESPONSE");
    if (m_in_response > 0) {
        const tlm_generic_payload* other = other_in(Stage::response, &t);
        report(Rule::response_exclusion, t, &phase,
               std::string(where) + ": BEGIN_RESP while the transaction at " +
                   (other ? hex(other->get_address()) : std::string("?")) +
                   " is still in its response phase (no END_RESP yet)");
    }
    set_stage(x, Stage::response);
}

void ProtocolChecker::check_accepted(const tlm_generic_payload& t, const tlm_phase& in_phase, const sc_time& in_delay,
                                     const tlm_phase& phase, const sc_time& delay, const char* where) {
    if (phase != in_phase)
        report(Rule::phase_sequence, t, &in_phase,
               std::string(where) + ": phase changed to " + phase_name(phase) + " with TLM_ACCEPTED");
    if (delay != in_delay)
        report(Rule::timing, t, &in_phase,
               std::string(where) + ": delay changed from " + in_delay.to_string() + " to " + delay.to_string() +
                   " with TLM_ACCEPTED");
    auto it = m_txns.find(&t);
    if (it != m_txns.end() && !unchanged(it->second.snap, t)) {
        report(Rule::payload_modified, t, &in_phase,
               std::string(where) + ": payload changed while in flight: " + changes(it->second.snap, t));
        it->second.snap = snapshot(t);
    }
}

// ---------------------------------------------------------------- forward path

tlm_sync_enum ProtocolChecker::nb_transport_fw(tlm_generic_payload& trans, tlm_phase& phase, sc_time& delay) {
    const tlm_phase in_phase = phase;
    const sc_time in_delay = delay;
    const bool followed = fw_call(trans, phase, delay);
    const tlm_sync_enum status = initiator->nb_transport_fw(trans, phase, delay);
    if (followed) fw_return(trans, in_phase, in_delay, phase, delay, status);
    return status;
}

bool ProtocolChecker::fw_call(const tlm_generic_payload& t, const tlm_phase& phase, const sc_time& delay) {
    static constexpr const char* where = "nb_transport_fw";
    if (!m_blocking.empty() && in_b_transport(&t)) {
        report(Rule::blocking_nonblocking_mix, t, &phase,
               "nb_transport_fw with a payload that is in a b_transport call");
        return false;
    }
    auto it = m_txns.find(&t);
    if (it != m_txns.end()) check_in_flight(it->second, t, delay, phase, where);
    switch (static_cast<unsigned>(phase)) {
    case tlm::BEGIN_REQ: {
        ++m_nb_begun;
        if (it != m_txns.end()) {
            report(Rule::phase_sequence, t, &phase,
                   "nb_transport_fw: BEGIN_REQ for a transaction already in flight (" + stage_name(it->second.stage) +
                       ")");
            return false;
        }
        bool mm_bad = false;
        if (!t.has_mm()) {
            mm_bad = true;
            report(Rule::memory_manager, t, &phase, "nb_transport_fw: BEGIN_REQ payload has no memory manager");
        } else if (t.get_ref_count() <= 0) {
            mm_bad = true;
            report(Rule::memory_manager, t, &phase,
                   "nb_transport_fw: BEGIN_REQ payload has reference count " + std::to_string(t.get_ref_count()));
        }
        if (m_in_request > 0) {
            const tlm_generic_payload* other = other_in(Stage::request, &t);
            report(Rule::request_exclusion, t, &phase,
                   "nb_transport_fw: BEGIN_REQ while the transaction at " +
                       (other ? hex(other->get_address()) : std::string("?")) +
                       " is still in its request phase (no END_REQ yet)");
        }
        Txn& x = start(&t);
        x.snap = snapshot(t);
        x.last = sc_core::sc_time_stamp() + delay;
        set_stage(x, Stage::request);
        x.has_mm = t.has_mm();
        x.mm_reported = mm_bad;
        return true;
    }
    case tlm::END_RESP:
        if (it == m_txns.end()) {
            report(Rule::phase_sequence, t, &phase, "nb_transport_fw: END_RESP for a transaction not in flight");
            return false;
        }
        if (it->second.stage != Stage::response) {
            report(Rule::phase_sequence, t, &phase,
                   "nb_transport_fw: END_RESP before BEGIN_RESP (" + stage_name(it->second.stage) + ")");
            return false;
        }
        finish(it);
        return true;
    case tlm::END_REQ:
    case tlm::BEGIN_RESP:
        report(Rule::phase_sequence, t, &phase, "nb_transport_fw: " + phase_name(phase) + " on the forward path");
        return false;
    default: report(Rule::phase_sequence, t, &phase, "nb_transport_fw: not a base-protocol phase"); return false;
    }
}

void ProtocolChecker::fw_return(const tlm_generic_payload& t, const tlm_phase& in_phase, const sc_time& in_delay,
                                const tlm_phase& phase, const sc_time& delay, tlm_sync_enum status) {
    static constexpr const char* where = "return from nb_transport_fw";
    const bool begin_req = static_cast<unsigned>(in_phase) == tlm::BEGIN_REQ;
    switch (status) {
    case tlm::TLM_ACCEPTED: check_accepted(t, in_phase, in_delay, phase, delay, where); return;
    case tlm::TLM_UPDATED: {
        if (!begin_req) {
            report(Rule::phase_sequence, t, &phase, std::string(where) + ": TLM_UPDATED in answer to END_RESP");
            return;
        }
        auto it = m_txns.find(&t);
        if (it == m_txns.end()) {
            report(Rule::phase_sequence, t, &phase,
                   std::string(where) + ": TLM_UPDATED for a transaction that is no longer in flight");
            return;
        }
        Txn& x = it->second;
        check_in_flight(x, t, delay, phase, where);
        if (x.stage != Stage::request) {
            report(Rule::phase_sequence, t, &phase,
                   std::string(where) + ": TLM_UPDATED with " + phase_name(phase) +
                       " for a transaction no longer in its request phase (" + stage_name(x.stage) + ")");
            return;
        }
        switch (static_cast<unsigned>(phase)) {
        case tlm::END_REQ: set_stage(x, Stage::end_request); return;
        case tlm::BEGIN_RESP: begin_response(x, t, phase, where); return;
        default:
            report(Rule::phase_sequence, t, &phase,
                   std::string(where) + ": TLM_UPDATED with " + phase_name(phase) + " in answer to BEGIN_REQ");
            return;
        }
    }
    case tlm::TLM_COMPLETED: {
        if (!begin_req) return; // END_RESP already finished the transaction
        auto it = m_txns.find(&t);
        if (it == m_txns.end()) return;
        check_in_flight(it->second, t, delay, in_phase, where);
        if (t.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
            report(Rule::response_status, t, &in_phase,
                   std::string(where) + ": TLM_COMPLETED (early completion) with response status "
                                        "TLM_INCOMPLETE_RESPONSE");
        finish(it);
        return;
    }
    }
    report(Rule::phase_sequence, t, &in_phase, std::string(where) + ": returned " + sync_name(status));
}

// ---------------------------------------------------------------- backward path

tlm_sync_enum ProtocolChecker::nb_transport_bw(tlm_generic_payload& trans, tlm_phase& phase, sc_time& delay) {
    const tlm_phase in_phase = phase;
    const sc_time in_delay = delay;
    const bool followed = bw_call(trans, phase, delay);
    const tlm_sync_enum status = target->nb_transport_bw(trans, phase, delay);
    if (followed) bw_return(trans, in_phase, in_delay, phase, delay, status);
    return status;
}

bool ProtocolChecker::bw_call(const tlm_generic_payload& t, const tlm_phase& phase, const sc_time& delay) {
    static constexpr const char* where = "nb_transport_bw";
    if (!m_blocking.empty() && in_b_transport(&t)) {
        report(Rule::blocking_nonblocking_mix, t, &phase,
               "nb_transport_bw with a payload that is in a b_transport call");
        return false;
    }
    auto it = m_txns.find(&t);
    if (it == m_txns.end()) {
        report(Rule::phase_sequence, t, &phase,
               "nb_transport_bw: " + phase_name(phase) + " for a transaction not in flight");
        return false;
    }
    Txn& x = it->second;
    check_in_flight(x, t, delay, phase, where);
    switch (static_cast<unsigned>(phase)) {
    case tlm::END_REQ:
        if (x.stage != Stage::request) {
            report(Rule::phase_sequence, t, &phase,
                   "nb_transport_bw: END_REQ outside the request phase (" + stage_name(x.stage) + ")");
            return false;
        }
        set_stage(x, Stage::end_request);
        return true;
    case tlm::BEGIN_RESP:
        if (x.stage == Stage::response) {
            report(Rule::phase_sequence, t, &phase, "nb_transport_bw: BEGIN_RESP twice");
            return false;
        }
        begin_response(x, t, phase, where);
        return true;
    case tlm::BEGIN_REQ:
    case tlm::END_RESP:
        report(Rule::phase_sequence, t, &phase, "nb_transport_bw: " + phase_name(phase) + " on the backward path");
        return false;
    default: report(Rule::phase_sequence, t, &phase, "nb_transport_bw: not a base-protocol phase"); return false;
    }
}

void ProtocolChecker::bw_return(const tlm_generic_payload& t, const tlm_phase& in_phase, const sc_time& in_delay,
                                const tlm_phase& phase, const sc_time& delay, tlm_sync_enum status) {
    static constexpr const char* where = "return from nb_transport_bw";
    switch (status) {
    case tlm::TLM_ACCEPTED: check_accepted(t, in_phase, in_delay, phase, delay, where); return;
    case tlm::TLM_UPDATED: {
        if (static_cast<unsigned>(in_phase) != tlm::BEGIN_RESP || static_cast<unsigned>(phase) != tlm::END_RESP) {
            report(Rule::phase_sequence, t, &phase,
                   std::string(where) + ": TLM_UPDATED with " + phase_name(phase) + " in answer to " +
                       phase_name(in_phase));
            return;
        }
        auto it = m_txns.find(&t);
        if (it == m_txns.end()) return;
        check_in_flight(it->second, t, delay, phase, where);
        finish(it);
        return;
    }
    case tlm::TLM_COMPLETED: {
        auto it = m_txns.find(&t);
        if (it == m_txns.end()) return;
        check_in_flight(it->second, t, delay, in_phase, where);
        finish(it);
        return;
    }
    }
    report(Rule::phase_sequence, t, &in_phase, std::string(where) + ": returned " + sync_name(status));
}

// ---------------------------------------------------------------- blocking, debug, DMI

void ProtocolChecker::b_transport(tlm_generic_payload& trans, sc_time& delay) {
    ++m_b_calls;
    const sc_time in_delay = delay;
    const sc_time call_eff = sc_core::sc_time_stamp() + delay;
    const Snapshot snap = snapshot(trans);
    bool tracked = false;
    auto it = m_txns.empty() ? m_txns.end() : m_txns.find(&trans);
    if (it != m_txns.end()) {
        report(Rule::blocking_nonblocking_mix, trans, nullptr,
               "b_transport with a payload in flight on the non-blocking path (" + stage_name(it->second.stage) + ")");
    } else {
        if (!m_blocking.empty() && in_b_transport(&trans))
            report(Rule::blocking_nonblocking_mix, trans, nullptr,
                   "b_transport with a payload that is already in another b_transport call");
        m_blocking.push_back(&trans);
        tracked = true;
    }

    initiator->b_transport(trans, delay);

    if (tracked) {
        for (size_t k = m_blocking.size(); k-- > 0;)
            if (m_blocking[k] == &trans) {
                m_blocking[k] = m_blocking.back();
                m_blocking.pop_back();
                break;
            }
    }
    const sc_time ret_eff = sc_core::sc_time_stamp() + delay;
    if (ret_eff < call_eff)
        report(Rule::timing, trans, nullptr,
               "b_transport returned at effective time " + ret_eff.to_string() + " (delay " + delay.to_string() +
                   "), earlier than its call's " + call_eff.to_string() + " (delay " + in_delay.to_string() + ")");
    if (!unchanged(snap, trans))
        report(Rule::payload_modified, trans, nullptr,
               "b_transport: payload changed during the call: " + changes(snap, trans));
    if (trans.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
        report(Rule::response_status, trans, nullptr, "b_transport returned with TLM_INCOMPLETE_RESPONSE");
}

unsigned ProtocolChecker::transport_dbg(tlm_generic_payload& trans) {
    ++m_dbg_calls;
    const unsigned length = trans.get_data_length();
    if (trans.get_byte_enable_ptr())
        report(Rule::debug_payload, trans, nullptr, "transport_dbg with a byte enable pointer");
    if (trans.get_streaming_width() != length)
        report(Rule::debug_payload, trans, nullptr,
               "transport_dbg with streaming width " + std::to_string(trans.get_streaming_width()) +
                   " different from data length " + std::to_string(length));
    const sc_time before = sc_core::sc_time_stamp();
    const unsigned n = initiator->transport_dbg(trans);
    if (n > length)
        report(Rule::debug_payload, trans, nullptr,
               "transport_dbg returned " + std::to_string(n) + " bytes, more than the data length " +
                   std::to_string(length));
    if (sc_core::sc_time_stamp() != before)
        report(Rule::debug_payload, trans, nullptr,
               "transport_dbg advanced simulation time from " + before.to_string() + " to " +
                   sc_core::sc_time_stamp().to_string());
    return n;
}

bool ProtocolChecker::get_direct_mem_ptr(tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    ++m_dmi_calls;
    if (trans.get_command() != tlm::TLM_READ_COMMAND && trans.get_command() != tlm::TLM_WRITE_COMMAND)
        report(Rule::debug_payload, trans, nullptr,
               std::string("get_direct_mem_ptr with command ") + command_name(trans.get_command()) +
                   " (must be read or write)");
    const uint64_t address = trans.get_address();
    const bool granted = initiator->get_direct_mem_ptr(trans, dmi);
    if (granted && (address < dmi.get_start_address() || address > dmi.get_end_address()))
        report(Rule::debug_payload, trans, nullptr,
               "get_direct_mem_ptr granted [" + hex(dmi.get_start_address()) + ", " + hex(dmi.get_end_address()) +
                   "], which does not contain the requested address");
    return granted;
}

void ProtocolChecker::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
    target->invalidate_direct_mem_ptr(start, end);
}

} // namespace syncron
