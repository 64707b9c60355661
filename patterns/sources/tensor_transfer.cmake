# The tensor_transfer pattern (seed 003): its table (variants.cpp) and one file per variant, with
# the sender and receiver sides, found by folder.
handoff_add_folder_sources(handoff_patterns src/tensor_transfer)
