// What a process leaves behind when it crashes: a fatal signal (SIGSEGV, SIGBUS, SIGILL,
// SIGTRAP, SIGFPE, SIGABRT: a Swift trap, a fault in a C library) writes the notes set here to
// the descriptors given, then lets the signal's previous handler (Swift's backtracer, or the
// default: a core and the death of the process) run. Only async-signal-safe calls are made in
// the handler (write), on text copied here beforehand.
#ifndef CCRASHNOTE_H
#define CCRASHNOTE_H

#include <stddef.h>

/// Slots for notes (what the process is doing: the requests `serve` is answering).
#define CCRASHNOTE_SLOTS 64
/// A note is cut to this many bytes.
#define CCRASHNOTE_NOTE_BYTES 512

/// Installs the handlers once (later calls only change the descriptors): on a fatal signal,
/// `header` (copied, cut to CCRASHNOTE_NOTE_BYTES) and then every note set are written to `fd`
/// (-1: none), and `marker` (copied likewise) to `marker_fd` (-1: none).
void crashnote_install(int fd, const char *header, int marker_fd, const char *marker);

/// Sets note `slot` to `length` bytes of `text` (copied, cut), or clears it when `length` is 0.
/// Slots are the caller's to share out; a note set while a crash is being written may be
/// written half (the handler never waits).
void crashnote_set(int slot, const char *text, size_t length);

/// Stops writing to `marker_fd` (the run it marks has ended cleanly); the notes stay.
void crashnote_clear_marker(void);

/// A name's bytes are cut to this many (a host name has at most 253).
#define CCRASHNOTE_BLAME_BYTES 256

/// Names what the calling thread works for now (`length` bytes of `text`, copied, cut; 0 or
/// NULL: nothing). A fault on this thread (not a signal sent to the process: that names no
/// thread) writes `blame <name>` after the marker line, so the run after knows which one of the
/// domains in flight crashed the process.
void crashnote_blame(const char *text, size_t length);

#endif
