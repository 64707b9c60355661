#include "device_floor.hpp"

namespace handoff::patterns::independent_tasks {

floor_terms device_variant_floor(const task_point& at, double launches, bool overlapped,
                                 double extra_upload) {
  floor_terms floor;
  floor.overlapped = overlapped;
  floor.add_bytes(ceiling::device_copy, dataset_bytes(at));
  floor.add_events(ceiling::launch_async, launches);
  if (at.where == data_location::host) {
    floor.add_bytes(ceiling::h2d_pinned, dataset_bytes(at) + extra_upload);
    floor.add_events(ceiling::launch_sync, 1);
  }
  return floor;
}

}  // namespace handoff::patterns::independent_tasks
