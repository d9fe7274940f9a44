#pragma once
// GTKWave save files (.gtkw) and translate filter files for the waveforms of
// traces/vcd_recorder.h (docs/traces.md, "Waveforms"): `--gtkw FILE` writes
// one for exactly the signals of a run, and the shipped traces/*.gtkw and
// traces/*.txt filter files are checked against these functions.
//
// A save file opens zoomed to the whole run (GTKWave's "Zoom Full" factor for
// the run's end time), one group per traced variable / SE / unit's cores /
// links / AT queues / unit's vaults in that order (the cores and vaults
// closed when other groups are there), every row labelled by unit, core or
// variable, only the rows that changed during the run and apply to their
// variable's kind (the VCD keeps every signal), and the core
// state, the operation and the lock owner shown by name through translate
// filter files (a value in decimal, then its name, one per line).
#include <cstdint>
#include <string>
#include <vector>

#include "traces/vcd_recorder.h"

namespace syncron {

/// Core state names (unit<u>.core<c>.state): "0 computing" ... "3 done".
std::string gtkw_state_filter();
/// Core operation names (unit<u>.core<c>.op), from VcdRecorder::operation_names().
std::string gtkw_op_filter();
/// Lock owners (var_0x<hex>.unit<u>.lock_owner, VcdRecorder::owner_code):
/// "0 free" and "SE*1000+c+1 u<SE>.core<c>" for `ids_per_unit[se]` local
/// IDs of each unit (the last one named "server" when `servers[se]`).
std::string gtkw_owner_filter(const std::vector<unsigned>& ids_per_unit, const std::vector<bool>& servers = {});

/// Width of the wave pane the zoom is computed for. The save file asks for a
/// 1400-pixel window with a 300-pixel signal pane; GTKWave 3.3 (Debian 12)
/// also shows its signal-tree pane, which leaves about 790 pixels of waves
/// (measured on a screenshot of that window): 760 keeps the run's end inside.
inline constexpr unsigned kGtkwWavePixels = 760;
/// GTKWave's zoom factor that shows [0, end] (VCD time units) in a wave pane
/// `width_px` wide: what its Zoom Full computes (zoom base 2).
double gtkw_zoom_full(uint64_t end, unsigned width_px = kGtkwWavePixels);

/// Paths written into the save file's filter lines (as GTKWave will open them).
struct GtkwFilterPaths {
    std::string state, op, owner;
};

/// Whether a traced variable's row `field` (lock_owner, barrier_count, ...)
/// means something for a variable reported as `var_kinds` (TracedSignal):
/// lock_owner for a lock, barrier_count for a barrier, sem_resources for a
/// semaphore, the waiting lists and flags for every kind; 0 = unknown: yes.
bool gtkw_applies(const std::string& field, unsigned var_kinds);
/// Whether the save file shows `s`: it changed during the run and applies to
/// its variable's kind.
bool gtkw_shows(const TracedSignal& s);

/// The save file for `signals` (VcdRecorder::traced()) of a run that ends at
/// `end` VCD time units, without the rows gtkw_shows() leaves out (the
/// leading comment counts them). `title` goes into the leading comment (one
/// "[*]" line per line).
std::string gtkw_save_file(const std::vector<TracedSignal>& signals, uint64_t end, const GtkwFilterPaths& filters,
                           const std::string& title);

/// The name GTKWave gives a traced signal: "SystemC.<name>" plus "[w-1:0]"
/// for a vector.
std::string gtkw_signal_name(const TracedSignal& s);

} // namespace syncron
