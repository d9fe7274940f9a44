#error "This layer is SystemC-free (docs/architecture.md, Layers): <systemc.h> is not reachable from it."
