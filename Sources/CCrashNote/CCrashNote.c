#include "CCrashNote.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT};
#define FATAL_COUNT (sizeof fatal_signals / sizeof fatal_signals[0])

static struct sigaction previous[FATAL_COUNT];
static atomic_int installed = 0;
static atomic_int written = 0;
static atomic_int note_fd = -1;
static atomic_int marker_fd = -1;
static char header_text[CCRASHNOTE_NOTE_BYTES];
static size_t header_length = 0;
static char marker_text[CCRASHNOTE_NOTE_BYTES];
static size_t marker_length = 0;
static char notes[CCRASHNOTE_SLOTS][CCRASHNOTE_NOTE_BYTES];
static atomic_size_t note_lengths[CCRASHNOTE_SLOTS];
// Each thread's own; initial-exec, so that reading it in the handler allocates nothing.
static _Thread_local __attribute__((tls_model("initial-exec"))) char blame_text[CCRASHNOTE_BLAME_BYTES];
static _Thread_local __attribute__((tls_model("initial-exec"))) volatile size_t blame_length = 0;

static void write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t done = write(fd, bytes, length);
        if (done <= 0) return;
        bytes += done;
        length -= (size_t)done;
    }
}

/// `prefix`, `length` bytes of `text`, and a line's end.
static void write_line(int fd, const char *prefix, const char *text, size_t length) {
    write_all(fd, prefix, strlen(prefix));
    write_all(fd, text, length);
    write_all(fd, "\n", 1);
}

static void on_fatal(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    int sent = signal_number == SIGABRT || info == NULL || info->si_code <= 0;
    // A fault is its thread's, and so is a signal the process sent that thread (abort, raise:
    // tgkill from this process); one sent from outside (kill) went to any thread.
    int own = info != NULL && (info->si_code > 0 || (info->si_code == SI_TKILL && info->si_pid == getpid()));
    // Once, whichever thread faults first; a second fault goes straight to the old handler.
    if (atomic_exchange(&written, 1) == 0) {
        int fd = atomic_load(&note_fd);
        size_t blamed = own ? blame_length : 0;
        if (fd >= 0) {
            write_all(fd, header_text, header_length);
            if (blamed > 0) write_line(fd, "  the fault was in the work of ", blame_text, blamed);
            for (int slot = 0; slot < CCRASHNOTE_SLOTS; slot++) {
                size_t length = atomic_load(&note_lengths[slot]);
                if (length > 0) write_line(fd, "  ", notes[slot], length);
            }
        }
        int marker = atomic_load(&marker_fd);
        if (marker >= 0) {
            write_all(marker, marker_text, marker_length);
            if (blamed > 0) write_line(marker, "blame ", blame_text, blamed);
        }
    }
    // A fault goes to the previous handler (Swift's backtracer prints the stack, then the
    // process ends): on return its instruction runs again. A fatal signal sent (kill, raise,
    // abort) is raised again with the default action, which ends the process: the backtracer
    // lets a process it was sent to go on, which would leave a run marked crashed running.
    for (size_t index = 0; index < FATAL_COUNT; index++) {
        if (fatal_signals[index] != signal_number) continue;
        if (sent) {
            struct sigaction fallback;
            memset(&fallback, 0, sizeof fallback);
            fallback.sa_handler = SIG_DFL;
            sigaction(signal_number, &fallback, NULL);
        } else {
            sigaction(signal_number, &previous[index], NULL);
        }
    }
    if (sent) raise(signal_number);
}

static size_t copy_cut(char *destination, const char *text) {
    size_t length = text == NULL ? 0 : strnlen(text, CCRASHNOTE_NOTE_BYTES);
    if (length > 0) memcpy(destination, text, length);
    return length;
}

void crashnote_install(int fd, const char *header, int marker, const char *marker_line) {
    header_length = copy_cut(header_text, header);
    marker_length = copy_cut(marker_text, marker_line);
    atomic_store(&note_fd, fd);
    atomic_store(&marker_fd, marker);
    if (atomic_exchange(&installed, 1) != 0) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fatal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_NODEFER | SA_SIGINFO;
    for (size_t index = 0; index < FATAL_COUNT; index++) sigaction(fatal_signals[index], &action, &previous[index]);
}

void crashnote_set(int slot, const char *text, size_t length) {
    if (slot < 0 || slot >= CCRASHNOTE_SLOTS) return;
    atomic_store(&note_lengths[slot], 0);
    if (length == 0 || text == NULL) return;
    if (length > CCRASHNOTE_NOTE_BYTES) length = CCRASHNOTE_NOTE_BYTES;
    memcpy(notes[slot], text, length);
    atomic_store(&note_lengths[slot], length);
}

void crashnote_clear_marker(void) { atomic_store(&marker_fd, -1); }

void crashnote_blame(const char *text, size_t length) {
    blame_length = 0;
    if (text == NULL || length == 0) return;
    if (length > CCRASHNOTE_BLAME_BYTES) length = CCRASHNOTE_BLAME_BYTES;
    memcpy(blame_text, text, length);
    blame_length = length;
}
