#include "models/common/input_file.h"

#include "models/common/file_identity.h"

namespace syncron {

std::string input_file_problem(const std::string& path) {
    const FileIdentity id(path);
    if (!id.exists()) return "";
    if (id.is_directory()) return "is a folder, not a file";
    if (id.is_regular()) return "";
    // A pipe or socket held open by the process: its writer is there (or gone, which reads as an end of file).
    if (id.through_proc() && !id.is_character_device() && !id.is_block_device()) return "";
    if (id.is_character_device() || id.is_block_device())
        return "is a device, not a file (a device such as /dev/zero never ends)";
    return "is not a regular file (a named FIFO may never be written; pipe it to /dev/stdin instead)";
}

std::string excerpt(const std::string& text, size_t max) {
    if (text.size() <= max) return text;
    return text.substr(0, max) + "… (" + std::to_string(text.size()) + " characters)";
}

} // namespace syncron
