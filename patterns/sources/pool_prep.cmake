# The pool_prep pattern: its table (variants.cpp) and one file per variant, found by folder.
handoff_add_folder_sources(handoff_patterns src/pool_prep)
