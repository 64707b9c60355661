# The iterative pattern: Jacobi solves whose state crosses to the host every step, stays on the
# device, or runs as one CUDA graph; and the one-thread CPU figure.
handoff_add_folder_sources(handoff_patterns src/iterative)
