#pragma once
// What a synchronization scheme needs from the core it runs on: the services
// its client (models/core/sync_client.h) and its server programs call
// (docs/schemes.md, "How a scheme plugs in"). NdpCore implements it; a scheme
// sees nothing else of the core, and workloads see CoreApi only.
#include <cstdint>
#include <optional>

#include <systemc>

#include "models/common/address_map.h"
#include "models/protocol/endpoint.h"
#include "models/protocol/message.h"
#include "models/protocol/opcode.h"
#include "models/protocol/rmw.h"
#include "models/protocol/tlm/atomic_extension.h"

namespace syncron {

class CoreServices {
public:
    /// A message taken from a server mailbox, with who sent it.
    struct Received {
        Message msg;
        Endpoint src;
    };

    virtual ~CoreServices() = default;

    /// The core's SystemC name, for reports.
    virtual const char* name() const = 0;
    virtual unsigned unit() const = 0;
    virtual unsigned local_id() const = 0;
    virtual unsigned global_id() const = 0;
    virtual const AddressMap& address_map() const = 0;

    /// Compute and memory, as the workload's CoreApi calls of the same names.
    virtual void compute(uint64_t instructions) = 0;
    virtual uint64_t load(uint64_t addr, unsigned size) = 0;
    virtual void store(uint64_t addr, uint64_t value, unsigned size) = 0;
    /// One uncached timed transaction of `len` bytes within one line (server
    /// programs reading a syncronVar); reports error responses.
    virtual void access(bool write, uint64_t addr, uint8_t* data, unsigned len) = 0;
    /// A read-modify-write at the word's home vault (remote atomics): an
    /// uncached 4- or 8-byte transaction; returns the old value.
    virtual uint64_t atomic(AtomicOp op, uint64_t addr, uint64_t operand, uint64_t compare, unsigned size) = 0;
    /// A read-modify-write of the 8-byte word at `addr` in zero time and with
    /// no traffic (the ideal scheme): a debug read and write of memory.
    virtual uint64_t instant_rmw(RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) = 0;

    /// A message from this core: Message::core = local ID, Message::se = unit.
    virtual Message message(Opcode op, uint64_t var, uint64_t info = 0) const = 0;
    /// req_async: sends `m` to the MMIO address `dest` (an SE's port or a core
    /// mailbox) and goes on. False (after reporting) when it was rejected.
    virtual bool post(uint64_t dest, const Message& m) = 0;
    /// req_sync: sends `m` to `dest` and waits for a reply for m.addr whose
    /// opcode is `reply` or `alt`; returns it, or nothing when the request was
    /// rejected (reported). The reply's arrival is the core's new time.
    virtual std::optional<Message> exchange(uint64_t dest, const Message& m, Opcode reply, Opcode alt) = 0;

    /// For schemes that deliver replies without the network (ideal): arm the
    /// expectation, let the reply be delivered, then await_reply().
    virtual void expect(uint64_t var, Opcode reply, Opcode alt) = 0;
    virtual std::optional<Message> await_reply(const sc_core::sc_time& issued) = 0;
    /// The armed reply if it has already been delivered: the core's local
    /// time moves to its arrival without synchronizing (temporal decoupling
    /// goes on); nothing if it has not come yet.
    virtual std::optional<Message> reply_if_arrived(const sc_core::sc_time& issued) = 0;
    /// Delivers a reply at absolute time `at` (>= sc_time_stamp()), as if it
    /// had arrived at the mailbox.
    virtual void deliver(const Message& m, const sc_core::sc_time& at, const Endpoint& src) = 0;
    /// The core's own time: sc_time_stamp() plus its decoupling offset.
    virtual sc_core::sc_time local_time() const = 0;

    /// Server cores (set_server_mailbox): waits for the next message in
    /// arrival order; the core's time becomes at least its arrival.
    virtual Received receive() = 0;
};

} // namespace syncron
