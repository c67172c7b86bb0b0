#pragma once
// Ctrl+C in the terminal (SIGINT) or SIGTERM ends the window as its close
// button does: the frame loop stops after the frame it is in, and the app
// tears down in order (a clip being recorded is finished, the class server
// stops, a scripted run prints its summary). The handler is reset after the
// first signal, so a second one ends an app stuck inside a frame at once.
// It replaces an inherited SIG_IGN too (a shell's `&` job ignores SIGINT):
// asking the app to close is always heard.
namespace cv {

void install_stop_signals();

// The signal that asked the app to stop (SIGINT, SIGTERM), 0 when none
// (exit_words.h's signal_name puts it in words).
int stop_signal();

}  // namespace cv
