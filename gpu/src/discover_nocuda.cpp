// Without CUDA there is no GPU to discover on.

#include "lanemap/gpu/discover.hpp"

namespace lanemap::gpu {

std::unique_ptr<WmmaDevice> openWmmaDevice(std::string& why) {
    why = "built without CUDA";
    return nullptr;
}

} // namespace lanemap::gpu
