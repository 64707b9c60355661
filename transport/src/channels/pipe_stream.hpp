#pragma once
// Moving bytes through a non-blocking pipe with a deadline, calling a stall check while waiting.
// fd_io's write_all/read_exact do not fit here: the queue must run its peer check while it waits,
// and must know how far a transfer got when it stops, to tell "nothing sent" (the stream is intact)
// from "half a message sent" (the stream is torn).

#include <sys/uio.h>

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "handoff/transport/fd_io.hpp"

namespace handoff::transport::pipe_stream {

// Whether fd became readable before the deadline. on_stall runs at least every peer_watch_interval.
bool wait_readable(int fd, deadline_clock::time_point deadline,
                   const std::function<void()>& on_stall);

// How write_pieces puts bytes into the pipe. copy: write(2) copies them into pages of the pipe's
// own. splice: vmsplice(2) hands the pipe references to the pieces' pages, and the reader copies
// out of them, so the pieces must stay unchanged until they have been read.
enum class pipe_write { copy, splice };

// Writes every piece, in order, until done or the deadline. written counts the bytes sent so far,
// also when on_stall throws, so the caller can tell an untouched stream from a torn one.
void write_pieces(int fd, std::vector<iovec> pieces, deadline_clock::time_point deadline,
                  const std::function<void()>& on_stall, std::size_t& written,
                  pipe_write how = pipe_write::copy);

// Reads until into is full or the deadline; returns the bytes read. End of file is channel_closed.
std::size_t read_into(int fd, std::span<std::byte> into, deadline_clock::time_point deadline,
                      const std::function<void()>& on_stall);

// Bytes in the pipe not yet read, and its capacity.
std::size_t unread_bytes(int fd);
std::size_t capacity(int fd);

}  // namespace handoff::transport::pipe_stream
