# The independent_tasks pattern: its table (variants.cpp) and one file per variant, found by folder.
handoff_add_folder_sources(handoff_patterns src/independent_tasks)
