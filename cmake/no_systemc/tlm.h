#error "This layer is SystemC-free (docs/architecture.md, Layers): <tlm.h> is not reachable from it."
