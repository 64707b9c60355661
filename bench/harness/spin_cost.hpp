#pragma once
// What a planted kernel spin costs beyond its own wait: a launch and the gap before it starts. A
// planted delay on a CUDA-event row is corrected for that cost only where it matters against the
// delay; elsewhere the spin adds its length and no more, and a correction from noisy calibration
// batches would only plant a different fraction in each process.

namespace handoff::bench {

// The median time of an empty spin on an idle stream, between two events, measured once per
// process; infinite where it cannot be measured, so that the delay is then corrected as before.
double spin_fixed_seconds();

}  // namespace handoff::bench
