# The layers of the model and what each may include (docs/architecture.md).
# Layers point downward: a directory may include its own headers and those of
# the layers listed for it, nothing above. SystemC-free layers see no SystemC
# or TLM header at all. check_layers.cmake enforces this at configure time and
# on every build.
#
# Each rule: <directory> | <allowed include prefixes, comma-separated> | systemc|plain
set(SYNCRON_LAYER_RULES
  "models/protocol|models/protocol/|plain"
  "models/protocol/tlm|models/protocol/|systemc"
  "models/common|models/common/|plain"
  "models/se/core|models/se/core/,models/common/,models/protocol/opcode.h,models/protocol/message.h,models/protocol/wire_format.h,models/protocol/rmw.h,models/protocol/endpoint.h,models/protocol/var_snapshot.h|plain"
  "models/coherence/core|models/coherence/core/,models/common/,models/protocol/coherence.h|plain"
  "models/tlm|models/tlm/,models/common/,models/protocol/|systemc"
  "models/memory|models/memory/,models/tlm/,models/common/,models/protocol/|systemc"
  "models/interconnect|models/interconnect/,models/tlm/,models/common/,models/protocol/|systemc"
  "models/se|models/se/,models/tlm/,models/common/,models/protocol/|systemc"
  "models/core|models/core/,models/tlm/,models/common/,models/protocol/|systemc"
  "models/coherence|models/coherence/,models/tlm/,models/common/,models/protocol/|systemc"
  "models/schemes|models/schemes/,models/core/,models/se/,models/tlm/,models/common/,models/protocol/|systemc"
  "models/frontend/sw|syncron_mmio|plain"
  "models/frontend|models/frontend/,models/se/,models/interconnect/,models/memory/,models/tlm/,models/common/,models/protocol/|systemc"
  "traces|traces/,models/tlm/,models/common/,models/protocol/|systemc"
  "platforms|platforms/,models/,traces/|systemc"
  "testbenches/workloads|testbenches/workloads/,platforms/workload_registry.h,models/core/core_api.h,models/core/workload.h,models/common/,models/protocol/|systemc"
  "sc_main|sc_main/,platforms/,testbenches/workloads/,models/,traces/|systemc"
)
