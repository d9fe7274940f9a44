#pragma once
// One synchronization scheme as a plug-in of the platform (docs/schemes.md,
// "How a scheme plugs in"). The platform makes it from platform.scheme
// (make_scheme), lets it set the SEs' organization and overflow policy,
// builds the server cores it asks for and hands them over, then lets it
// build its server programs and inject a client into every client core. The
// scheme reports its own statistics. models/core knows no scheme.
#include <memory>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "models/common/scheme.h"
#include "models/common/stat_provider.h"
#include "models/core/ndp_core.h"
#include "models/se/core/se_topology.h"

namespace syncron {

class SchemePlatform;
class SyncClient;

class SyncScheme : public StatProvider {
public:
    ~SyncScheme() override = default;

    virtual Scheme kind() const = 0;
    /// Whether cores send their requests to the SEs (otherwise the SEs idle).
    virtual bool uses_ses() const = 0;
    /// Whether the synchronization variables' lines are cacheable and kept
    /// coherent by the MESI directories (docs/coherence.md): the scheme
    /// works on coherent atomics (mesi_lock).
    virtual bool coherent_syncvars() const { return false; }
    /// Sets the SEs' organization, overflow policy and software fallback on
    /// the platform's topology, before the SEs are built. Default: SynCron's
    /// (hierarchical, integrated overflow).
    virtual void configure(SeTopology&) const {}
    /// Server cores the scheme runs in `unit`: the unit's first cores after
    /// its clients (the paper's 16th core).
    virtual unsigned servers_in(unsigned /*unit*/) const { return 0; }
    /// Takes a server core the platform has built and connected for the
    /// scheme (unit by unit, as servers_in asked).
    virtual void adopt_server(std::unique_ptr<NdpCore> core);
    /// Once every core and SE exists: the server programs, and a client
    /// behind every client core's Table 2 calls.
    virtual void build(SchemePlatform& platform) = 0;
    /// The server cores, in unit order (traces, statistics).
    virtual std::vector<NdpCore*> server_cores() const { return {}; }
    /// The scheme's own statistics, added to the run's (docs/stats.md).
    void report_stats(const StatContext& /*ctx*/, nlohmann::json& /*out*/) const override {}

protected:
    /// Gives every client core of `platform` the one client `client`.
    static void inject_everywhere(SchemePlatform& platform, SyncClient& client);
};

} // namespace syncron
